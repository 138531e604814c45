// `llmplan serve`: finds llmplan-web.so beside the program (build tree) or in the library directory it
// is installed to (LLMPLAN_WEB_MODULE_RELDIR, relative to the program's directory), and runs it.
#include "web_module.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#ifndef LLMPLAN_WEB_MODULE_RELDIR
#define LLMPLAN_WEB_MODULE_RELDIR "."
#endif

namespace llmplan::web {

bool run_server_module(const server_options& o, const std::function<void(int port)>& on_listen) {
    std::error_code ec;
    const auto exe                                  = std::filesystem::read_symlink("/proc/self/exe", ec);
    const auto dir                                  = ec ? std::filesystem::path(".") : exe.parent_path();
    const std::vector<std::filesystem::path> places = {dir / module_file_name,
                                                       dir / LLMPLAN_WEB_MODULE_RELDIR / module_file_name};
    std::string tried, why;
    for (const auto& p : places) {
        void* lib = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            if (const char* e = dlerror(); e && std::filesystem::exists(p, ec)) why = e;
            tried += (tried.empty() ? "" : ", ") + p.lexically_normal().string();
            continue;
        }
        auto* entry = reinterpret_cast<module_entry*>(dlsym(lib, module_entry_name));
        if (entry == nullptr) {
            why = p.string() + " is not llmplan's web module";
            break;
        }
        return entry(
            o, [](int port, void* ctx) { (*static_cast<const std::function<void(int)>*>(ctx))(port); },
            const_cast<std::function<void(int)>*>(&on_listen));
    }
    std::fprintf(stderr,
                 "llmplan: serve: cannot load the web server's module %s (looked for %s)%s%s; reinstall llmplan, "
                 "or, in a build from source, build the module: cmake --build build --target llmplan_web\n",
                 module_file_name, tried.c_str(), why.empty() ? "" : ": ", why.c_str());
    std::exit(3);
}

} // namespace llmplan::web

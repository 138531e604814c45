// dlopen of libcurl at first use (curl_api.h).
#include "curl_api.h"

#include <dlfcn.h>
#include <mutex>

namespace llmplan::detail {
namespace {

// The sonames libcurl has had since 7.16 (ABI 4): Debian's libcurl4 (OpenSSL) first, then its
// GnuTLS build (libcurl3-gnutls, same ABI), then the development symlink.
constexpr const char* sonames[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"};

struct loaded {
    curl_functions f;
    std::string why; ///< empty when loaded
    bool ok = false;
};

template <class Fn> bool bind(void* lib, Fn& fn, const char* name) {
    fn = reinterpret_cast<Fn>(dlsym(lib, name));
    return fn != nullptr;
}

loaded load() {
    loaded r;
    void* lib = nullptr;
    std::string tried;
    for (const char* name : sonames) {
        // RTLD_LOCAL: its symbols stay out of the global scope; never closed (its TLS and atexit
        // handlers live as long as the process).
        if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
        if (!tried.empty()) tried += ", ";
        tried += name;
    }
    if (lib == nullptr) {
        r.why = "Hub names need libcurl, which this machine does not have (" + tried +
                "); install it (Debian, Ubuntu: apt-get install libcurl4), or give a catalog id or a local file";
        return r;
    }
    auto& f = r.f;
    const bool ok =
        bind(lib, f.global_init, "curl_global_init") && bind(lib, f.easy_init, "curl_easy_init") &&
        bind(lib, f.easy_reset, "curl_easy_reset") && bind(lib, f.easy_cleanup, "curl_easy_cleanup") &&
        bind(lib, f.easy_setopt, "curl_easy_setopt") && bind(lib, f.easy_getinfo, "curl_easy_getinfo") &&
        bind(lib, f.easy_perform, "curl_easy_perform") && bind(lib, f.easy_strerror, "curl_easy_strerror") &&
        bind(lib, f.slist_append, "curl_slist_append") && bind(lib, f.slist_free_all, "curl_slist_free_all");
    if (!ok) {
        r.why = "the libcurl on this machine lacks a function llmplan needs; install libcurl 7.85 or later";
        return r;
    }
    f.global_init(CURL_GLOBAL_DEFAULT);
    r.ok = true;
    return r;
}

} // namespace

const curl_functions* load_curl(std::string* why) {
    static const loaded l = load(); // thread-safe once (C++11 static initialisation)
    if (!l.ok && why) *why = l.why;
    return l.ok ? &l.f : nullptr;
}

} // namespace llmplan::detail

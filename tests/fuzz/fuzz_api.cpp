// libFuzzer target: the library's one entry for option strings, answer(command, options), which the
// web API (query strings), the Python module (keyword arguments as strings) and the MCP server
// reach. Input: the command on the first line, then one `option=value` line each. The answer is a
// 200 with the contract's JSON or a 400 naming the option; never a crash, a hang, unbounded memory
// or a 500. Offline and without paths, so no input reaches the network or the machine's files.
#include "llmplan/api.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    if (lines.empty() || lines.size() > 64) return 0;
    std::vector<std::pair<std::string, std::string>> options;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto eq = lines[i].find('=');
        if (eq == std::string_view::npos)
            options.emplace_back(std::string(lines[i]), "1");
        else
            options.emplace_back(std::string(lines[i].substr(0, eq)), std::string(lines[i].substr(eq + 1)));
    }
    options.emplace_back("offline", "1");
    // A plan over the whole catalog (and a serving plan's deployment search over it) or `fit` (the
    // largest models for a machine: a search over the catalog) takes seconds of CPU, past libFuzzer's
    // 10 s a run under the sanitizers. What is fuzzed here is the option strings and one row's
    // arithmetic: `fit` is left out (its options are the same table's), and a plan is asked on one GPU
    // row whatever rows the input names.
    if (lines[0] == "fit") return 0;
    if (lines[0] == "plan") {
        std::erase_if(options, [](const auto& o) { return o.first == "hardware" || o.first == "kind"; });
        options.emplace_back("hardware", "H100 SXM 80GB");
    }
    llmplan::load_options sources;
    sources.offline     = true;
    sources.allow_paths = false; // a fuzzed name must not read the machine's files
    const auto r        = llmplan::answer(lines[0], options, sources);
    // 500 is the API's "a bug": a message the library did not expect to give.
    if (r.status != 200 && r.status != 400) std::abort();
    return 0;
}

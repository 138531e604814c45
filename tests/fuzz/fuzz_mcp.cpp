// libFuzzer target: any line as an MCP JSON-RPC message -> the session answers with one JSON line
// or nothing, never crashes, hangs or allocates without bound. Offline: a tools/call names catalog
// models and local files only, so no input reaches the network.
#include "llmplan/mcp.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    llmplan::load_options sources;
    sources.offline     = true;
    sources.allow_paths = false; // a fuzzed path must not read the machine's files
    llmplan::mcp_session session(sources);
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto out = session.handle(text);
    if (out) (void)out->size();
    return 0;
}

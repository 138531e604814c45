// llmplan mcp: an MCP server for agents over stdio (MCP 2025-06-18, basic/transports: one JSON-RPC
// message a line on stdin, one a line on stdout, nothing else on stdout; diagnostics on stderr). It
// runs as the user who started it, so MODEL may be a local file as on the command line.
#include "mcp_command.h"

#include "llmplan/mcp.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace llmplan::cli {

namespace {

/// The longest message read: a check call carries a log's text (the CLI's own cap, 64 MiB, plus
/// JSON escaping); a longer line is answered with a parse error and skipped, never held whole.
constexpr std::size_t max_message_bytes = 160u << 20;

int serve_stdio() {
    mcp_session session;
    std::string line;
    while (true) {
        line.clear();
        bool too_long = false;
        int ch        = 0;
        while ((ch = std::getchar()) != EOF && ch != '\n') {
            if (line.size() < max_message_bytes)
                line.push_back(static_cast<char>(ch));
            else
                too_long = true;
        }
        if (ch == EOF && line.empty()) return 0; // the client closed stdin: the session is over
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        auto out = too_long ? session.handle("{") : session.handle(line); // "{": a parse error, id null
        if (out) {
            std::fwrite(out->data(), 1, out->size(), stdout);
            std::fputc('\n', stdout);
            std::fflush(stdout);
        }
        if (ch == EOF) return 0;
    }
}

} // namespace

void add_mcp_command(CLI::App& app) {
    auto* cmd = app.add_subcommand("mcp", "A Model Context Protocol server for AI agents, on stdin/stdout");
    cmd->callback([] { std::exit(serve_stdio()); });
}

} // namespace llmplan::cli

// `llmplan mcp`: the Model Context Protocol server on stdio (llmplan/mcp.h holds the protocol).
#pragma once

#include <CLI/CLI.hpp>

namespace llmplan::cli {

void add_mcp_command(CLI::App& app);

} // namespace llmplan::cli

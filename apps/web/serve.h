// `llmplan serve`: registers the subcommand with the CLI (apps/cli/main.cpp).
#pragma once

#include <CLI/CLI.hpp>

namespace llmplan::web {

void add_serve_command(CLI::App& app);

} // namespace llmplan::web

// The CLI's subcommands: each file adds one to the app and runs it (parse -> library -> print).
#pragma once

#include <CLI/CLI.hpp>

namespace llmplan::cli {

/// Exit status for errors the user can fix (bad input, unreadable model): ../shared/cli-contract.md.
constexpr int exit_user_error = 2;

} // namespace llmplan::cli

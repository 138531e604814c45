// The CLI's subcommands: each file adds one to the app and runs it (parse -> library -> print).
#pragma once

#include "llmplan/error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace llmplan::cli {

/// Exit status for errors the user can fix (bad input, unreadable model): ../shared/cli-contract.md.
constexpr int exit_user_error = 2;

/// Thrown by a command to stop with a one-line message on stderr and exit status 2.
struct user_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
[[noreturn]] inline void fail(const llmplan::error& e) {
    throw user_error(e.what());
}
[[noreturn]] inline void fail(const std::string& message) {
    throw user_error(message);
}

/// Print a JSON document on stdout (only after everything it holds was computed).
void print_json(const nlohmann::json& j);

void add_inspect_command(CLI::App& app);
void add_models_command(CLI::App& app);
void add_estimate_command(CLI::App& app);
/// `llmplan hardware [list|show]` (cmd_hardware.cpp).
void add_hardware_command(CLI::App& app);
void add_plan_command(CLI::App& app);
void add_fit_command(CLI::App& app);
/// `llmplan check LOGFILE` (cmd_check.cpp).
void add_check_command(CLI::App& app);

} // namespace llmplan::cli

// llmplan: what it takes to run or train a language model. Thin front end: parse, call, print.
#include "commands.h"

#include <cstdio>
#include <exception>

namespace llmplan::cli {
void print_json(const nlohmann::json& j) {
    const std::string s = j.dump(1);
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fputc('\n', stdout);
}
load_options& hub_options() {
    static load_options options;
    return options;
}
} // namespace llmplan::cli

int main(int argc, char** argv) {
    CLI::App app{"llmplan: disk, memory, hardware, speed and cost to run or train a language model"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "llmplan 0.1.0");
    // Options of every subcommand that names a model on the Hub (given before or after the subcommand).
    auto& hub = llmplan::cli::hub_options();
    app.add_flag("--offline", hub.offline,
                 "no network: the catalog, local files and caches only (or HF_HUB_OFFLINE=1)");
    app.add_flag("--refresh", hub.refresh, "read the Hub again instead of llmplan's cache and the local Hub caches");
    app.add_option_function<double>(
           "--timeout", [&hub](double s) { hub.timeout = std::chrono::milliseconds(static_cast<long long>(s * 1000)); },
           "seconds a Hub request may wait for an answer [10]")
        ->check(CLI::Range(0.1, 3600.0));
    app.fallthrough();
    llmplan::cli::add_inspect_command(app);
    llmplan::cli::add_models_command(app);
    llmplan::cli::add_estimate_command(app);
    llmplan::cli::add_hardware_command(app);
    llmplan::cli::add_plan_command(app);
    llmplan::cli::add_fit_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // One line on stderr naming what was wrong; nothing on stdout (cli-contract.md).
        std::fprintf(stderr, "llmplan: %s\n", e.what());
        return llmplan::cli::exit_user_error;
    } catch (const llmplan::cli::user_error& e) {
        std::fprintf(stderr, "llmplan: %s\n", e.what());
        return llmplan::cli::exit_user_error;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "llmplan: internal error: %s\n", e.what());
        return 3;
    }
    return 0;
}

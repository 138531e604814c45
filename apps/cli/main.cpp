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
} // namespace llmplan::cli

int main(int argc, char** argv) {
    CLI::App app{"llmplan: disk, memory, hardware, speed and cost to run or train a language model"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "llmplan 0.1.0");
    llmplan::cli::add_inspect_command(app);
    llmplan::cli::add_models_command(app);
    llmplan::cli::add_estimate_command(app);
    llmplan::cli::add_hardware_command(app);
    llmplan::cli::add_plan_command(app);
    llmplan::cli::add_fit_command(app);
    llmplan::cli::add_check_command(app);
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

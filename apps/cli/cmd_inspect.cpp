// llmplan inspect MODEL [--json]: what the model is, as read.
#include "commands.h"
#include "llmplan/load.h"
#include "llmplan/report.h"
#include "llmplan/text_report.h"

#include <cstdio>
#include <memory>

namespace llmplan::cli {

void add_inspect_command(CLI::App& app) {
    struct options {
        std::string model;
        bool json = false;
    };
    auto opt  = std::make_shared<options>();
    auto* cmd = app.add_subcommand("inspect", "Show a model's architecture, parameters and weight bytes");
    cmd->add_option("MODEL", opt->model, "catalog id, config.json, model folder, or .gguf file")->required();
    cmd->add_flag("--json", opt->json, "print JSON (../shared/cli-contract.md)");
    cmd->callback([opt] {
        auto m = load_model(opt->model, hub_options());
        if (!m) fail(m.error());
        if (opt->json)
            print_json({
                {"model", model_to_json(*m)}
            });
        else
            std::fputs(model_to_text(*m).c_str(), stdout);
    });
}

} // namespace llmplan::cli

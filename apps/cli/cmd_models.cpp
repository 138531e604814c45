// llmplan models [FILTER] [--json]: the built-in catalog.
#include "commands.h"
#include "llmplan/load.h"
#include "llmplan/report.h"

#include <fmt/format.h>
#include <memory>

namespace llmplan::cli {
void add_models_command(CLI::App& app) {
    struct options {
        std::string filter;
        bool json = false;
    };
    auto opt  = std::make_shared<options>();
    auto* cmd = app.add_subcommand("models", "List the built-in model catalog");
    cmd->add_option("FILTER", opt->filter, "only ids containing this text (case-insensitive)");
    cmd->add_flag("--json", opt->json, "print JSON");
    cmd->callback([opt] {
        nlohmann::json rows = nlohmann::json::array();
        std::string text;
        for (const auto* entry : search_catalog(opt->filter)) {
            const auto& e = *entry;
            auto m        = load_catalog_model(e);
            if (!m) fail(m.error());
            const auto p = count_params(*m);
            auto j       = model_to_json(*m);
            j["alias"]   = e.alias;
            rows.push_back(j);
            text += fmt::format("{:<45} {:<24} {:>9.2f}B {:>8.2f}B active  ctx {:>7}  {}\n", e.id, e.alias,
                                static_cast<double>(p.total) / 1e9, static_cast<double>(p.active) / 1e9, m->n_ctx_train,
                                m->arch);
        }
        if (opt->json)
            print_json({
                {"models", rows}
            });
        else
            std::fputs(text.c_str(), stdout);
    });
}

} // namespace llmplan::cli

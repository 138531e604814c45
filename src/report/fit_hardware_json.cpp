// `llmplan fit --json` document; its field names are defined here (cli-contract.md has no fit section yet).
#include "llmplan/report.h"
#include "report/json_members.h"

namespace llmplan {

nlohmann::json fit_hardware_to_json(const fit_hardware_result& r) {
    nlohmann::json j;
    LLMPLAN_JSON_MEMBERS(j, r, hardware, kind, engine, device, gpus, memory_bytes, budget_bytes, ctx, batch,
                         precisions);
    auto& models = j["models"] = nlohmann::json::array();
    for (const auto& row : r.rows) {
        nlohmann::json m;
        LLMPLAN_JSON_MEMBERS(m, row, model, params, weights, fits, need_bytes, headroom_bytes);
        if (!row.error.empty()) m["error"] = row.error;
        models.push_back(std::move(m));
    }
    auto& largest = j["largest"] = nlohmann::json::object();
    for (const auto& s : r.largest)
        largest[s.weights] = s.largest;
    if (r.chosen_model.empty()) {
        j["chosen"] = nullptr;
    } else {
        nlohmann::json c;
        c["model"] = r.chosen_model;
        auto& per = c["precisions"] = nlohmann::json::array();
        for (const auto& a : r.chosen) {
            nlohmann::json x = {
                {"weights",       a.weights             },
                {"fits_as_asked", a.answer.fits_as_asked},
                {"max_ctx",       a.answer.max_ctx      },
                {"max_batch",     a.answer.max_batch    }
            };
            if (!a.error.empty()) x["error"] = a.error;
            per.push_back(std::move(x));
        }
        j["chosen"] = std::move(c);
    }
    j["notes"] = r.notes;
    return j;
}

} // namespace llmplan

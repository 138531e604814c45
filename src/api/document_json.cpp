// Documents -> the contract's JSON (../shared/cli-contract.md), one rendering for every front end.
#include "llmplan/document.h"
#include "llmplan/facts.h"
#include "llmplan/report.h"
#include "plan/turn.h"
#include "report/serving_report.h"

namespace llmplan {
namespace {

using nlohmann::json;

json resolved_json(const model_resolution& r) {
    return {
        {"asked", r.asked                                 },
        {"id",    r.id                                    },
        {"quant", r.quant.empty() ? json() : json(r.quant)},
        {"how",   r.how                                   },
        {"text",  resolution_text(r)                      }
    };
}

json estimate_json(const estimate_document& d) {
    if (d.training) {
        auto j = training_to_json(d.model, d.train, *d.training);
        if (d.train_fit) j["fit"] = training_fit_to_json(*d.train_fit);
        if (d.resolved) j["resolved"] = resolved_json(*d.resolved);
        return j;
    }
    auto j = inference_to_json(d.model, d.infer, *d.inference);
    if (d.fit) j["fit"] = fit_to_json(*d.fit);
    if (d.resolved) j["resolved"] = resolved_json(*d.resolved);
    return j;
}

json plan_json(const plan_document& d) {
    if (d.estimate.training) return train_plan_to_json(estimate_json(d.estimate), d.plan, d.train_tokens);
    auto j = plan_to_json(estimate_json(d.estimate), d.plan);
    // The turn the speeds are priced for (src/plan/turn.h).
    const auto t             = turn_of(d.estimate.infer);
    j["assumptions"]["turn"] = {
        {"chat",                t.chat          },
        {"cached_tokens",       t.cached        },
        {"prompt_tokens",       t.prompt        },
        {"answer_tokens",       t.answer        },
        {"decode_depth_tokens", t.decode_depth()},
        {"text",                turn_text(t)    }
    };
    detail::add_serving_json(j, d);
    if (d.from) {
        j["from"]       = plan_to_json(estimate_json(d.from->estimate), d.from->plan);
        j["comparison"] = comparison_to_json(d.from->comparison);
    }
    return j;
}

json hardware_json(const hardware_document& d) {
    if (d.what == hardware_request::mode::local) {
        auto j                           = local_machine_to_json(d.machine, d.local);
        j["ram"]["measured_read_cached"] = d.machine.bandwidth_from_cache;
        j["ram"]["bandwidth_cache_file"] = d.cache_file;
        return j;
    }
    if (d.what == hardware_request::mode::check) {
        json rows = json::array();
        for (const auto& r : d.rows)
            rows.push_back({
                {"id",       r.id                     },
                {"name",     r.name                   },
                {"purchase", to_string(purchase_of(r))},
                {"missing",  missing_figures(r)       }
            });
        return {
            {"ranked",  d.ranked},
            {"missing", rows    }
        };
    }
    if (d.what == hardware_request::mode::show)
        return {
            {"hardware", device_spec_to_json(d.rows.at(0))}
        };
    json rows = json::array();
    for (const auto& r : d.rows)
        rows.push_back(device_spec_to_json(r));
    return {
        {"hardware", rows}
    };
}

json models_json(const models_document& d) {
    json rows = json::array();
    for (const auto& r : d.rows) {
        auto j             = model_to_json(r.model);
        j["alias"]         = r.entry.alias;
        const auto& source = catalog_source_of(r.entry);
        j["source"]        = {
                   {"kind",     source.kind    },
                   {"origin",   source.origin  },
                   {"evidence", source.evidence}
        };
        rows.push_back(std::move(j));
    }
    return {
        {"models", rows}
    };
}

json document_json(const document& doc) {
    return std::visit(
        [](const auto& d) -> json {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, inspect_document>) {
                json j = {
                    {"model", model_to_json(d.model)}
                };
                if (d.resolved) j["resolved"] = resolved_json(*d.resolved);
                return j;
            } else if constexpr (std::is_same_v<D, models_document>)
                return models_json(d);
            else if constexpr (std::is_same_v<D, estimate_document>)
                return estimate_json(d);
            else if constexpr (std::is_same_v<D, plan_document>)
                return plan_json(d);
            else if constexpr (std::is_same_v<D, fit_document>)
                return fit_hardware_to_json(d.result);
            else if constexpr (std::is_same_v<D, check_document>)
                return check_to_json(d.model, d.report);
            else
                return hardware_json(d);
        },
        doc);
}

} // namespace

std::string to_json(const document& d) {
    json j = document_json(d);
    // Every answer says the date its facts are as of (llmplan/facts.h): a field added after the
    // contract's own, never replacing one.
    if (j.is_object()) j["facts_as_of"] = std::string(facts_as_of);
    // Names echoed from input need not be UTF-8: invalid bytes become U+FFFD, never an exception.
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace llmplan

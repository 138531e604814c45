// The plan document: ../shared/cli-contract.md, "llmplan plan".
#include "llmplan/report.h"
#include "report/json_members.h"

namespace llmplan {
namespace {

/// Hours in a month: 8760 hours a year / 12.
constexpr double hours_a_month = 8760.0 / 12.0;

/// A speed the plan could not compute (bandwidth or compute rate unknown) is null, never 0.
nlohmann::json speed_or_null(double v) {
    return v > 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

/// What the row is as a purchase and what its cost covers (issue 14, item 2): new fields only.
void add_purchase_fields(nlohmann::json& j, const plan_candidate& c) {
    j["id"]           = c.id;
    j["purchase"]     = c.purchase;
    j["needs"]        = c.needs;
    j["idle_power_w"] = c.idle_power_w;
    j["price_date"]   = c.price_date;
    if (!c.provider.empty()) j["provider"] = c.provider;
    if (c.instances > 0) j["instances"] = c.instances;
    if (!c.unsupported.empty()) j["unsupported"] = c.unsupported;
    if (!c.requires_versions.empty()) j["requires"] = c.requires_versions;
}

nlohmann::json reason_json(const plan_reason& r) {
    nlohmann::json j{
        {"code", name(r.code)  },
        {"text", reason_text(r)}
    };
    if (r.bytes != 0) j["bytes"] = r.bytes;
    if (r.count != 0) j["count"] = r.count;
    if (r.tokens_per_s > 0) j["tokens_per_s"] = r.tokens_per_s;
    if (r.wanted > 0) j["wanted"] = r.wanted;
    if (r.seconds > 0) j["seconds"] = r.seconds;
    if (r.usd) j["usd"] = *r.usd;
    return j;
}

nlohmann::json reasons_json(const std::vector<plan_reason>& rs) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& r : rs)
        a.push_back(reason_json(r));
    return a;
}

nlohmann::json fit_options_json(const std::vector<fit_option>& fs) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& f : fs) {
        nlohmann::json j;
        LLMPLAN_JSON_MEMBERS(j, f, value, setting, fits, headroom_bytes, host_bytes);
        j["way"]                 = name(f.way);
        j["decode_tokens_per_s"] = speed_or_null(f.decode_tokens_per_s);
        if (!f.cost.empty()) j["cost"] = f.cost;
        if (!f.launch.empty()) {
            nlohmann::json launch = nlohmann::json::object();
            for (const auto& [engine, line] : f.launch)
                launch[engine] = line;
            j["launch"] = std::move(launch);
        }
        a.push_back(std::move(j));
    }
    return a;
}

nlohmann::json kinds_json(std::uint8_t bits) {
    nlohmann::json a = nlohmann::json::array();
    for (auto k : all_answer_kinds)
        if (bits & (1u << static_cast<unsigned>(k))) a.push_back(name(k));
    return a;
}

} // namespace

nlohmann::json plan_to_json(nlohmann::json estimate, const plan_result& p) {
    nlohmann::json j;
    j["estimate"] = std::move(estimate);
    auto& cands = j["candidates"] = nlohmann::json::array();
    for (const auto& c : p.candidates) {
        nlohmann::json launch = nlohmann::json::object();
        for (const auto& [engine, line] : c.launch)
            launch[engine] = line;
        nlohmann::json row;
        LLMPLAN_JSON_MEMBERS(row, c, hardware, count, fits, headroom_bytes, reasons, cost_per_hour_usd,
                             cost_per_million_tokens_usd, nodes, meets_speed, power_w);
        row["kind"]                 = name(c.kind);
        row["decode_tokens_per_s"]  = speed_or_null(c.decode_tokens_per_s);
        row["prefill_tokens_per_s"] = speed_or_null(c.prefill_tokens_per_s);
        row["launch"]               = launch;
        row["runs_on"]              = runs_on_name(c.runs_on);
        row["gpus"]                 = c.runs_on == device_kind::cpu ? 0u : c.count; // accelerators in all
        // Costs as people pay them: a month is 8760 / 12 = 730 hours (a rented instance kept all month;
        // an owned one its purchase share and power at the plan's utilization, as cost_per_hour_usd).
        if (!c.training)
            row["cost_per_month_usd"] =
                c.cost_per_hour_usd ? nlohmann::json(*c.cost_per_hour_usd * hours_a_month) : nlohmann::json();
        // extra fields (not in the contract)
        row["ttft_s"]       = c.prefill_tokens_per_s > 0 ? nlohmann::json(c.ttft_s) : nlohmann::json();
        row["findings"]     = reasons_json(c.findings);
        row["answer_kinds"] = kinds_json(c.answer_kinds);
        row["fit_options"]  = fit_options_json(c.fit_options);
        if (!c.better_options.empty()) row["better_options"] = fit_options_json(c.better_options);
        cands.push_back(std::move(row));
        add_purchase_fields(cands.back(), c);
    }
    auto& answers = j["answers"] = nlohmann::json::array();
    for (const auto& a : p.answers)
        answers.push_back({
            {"kind",        name(a.kind)                                       },
            {"hardware",    p.candidates[a.index].hardware                     },
            {"count",       p.candidates[a.index].count                        },
            {"index",       a.index                                            },
            {"fits",        p.candidates[a.index].fits                         },
            {"why",         reasons_json(a.why)                                },
            {"fit_options", fit_options_json(p.candidates[a.index].fit_options)}
        });
    if (p.recommendation) {
        j["recommendation"] = {
            {"hardware", p.recommendation->hardware},
            {"count",    p.recommendation->count   },
            {"why",      p.recommendation->why     }
        };
        // One counting (issue 25, finding 4): the row itself (its index in candidates), its instances
        // (cloud) and GPUs apart, and its launch lines, so a reader never has to match rows by count.
        const auto& rec       = p.candidates.at(p.recommendation->index);
        nlohmann::json launch = nlohmann::json::object();
        for (const auto& [engine, line] : rec.launch)
            launch[engine] = line;
        j["recommendation"]["index"]     = p.recommendation->index;
        j["recommendation"]["gpus"]      = rec.runs_on == device_kind::cpu ? 0u : rec.count;
        j["recommendation"]["instances"] = rec.instances;
        j["recommendation"]["launch"]    = std::move(launch);
    } else
        j["recommendation"] = nullptr;
    if (p.cpu_or_gpu)
        j["cpu_or_gpu"] = {
            {"choice", p.cpu_or_gpu->choice},
            {"why",    p.cpu_or_gpu->why   }
        };
    else
        j["cpu_or_gpu"] = nullptr;
    const auto& o     = p.options;
    auto& assumptions = j["assumptions"];
    LLMPLAN_JSON_MEMBERS(assumptions, o, electricity_usd_per_kwh, pue, utilization, life_years, min_tokens_per_s,
                         max_ttft_s, max_nodes);
    assumptions["kinds"] = kinds_json(o.kinds);
    return j;
}

nlohmann::json comparison_to_json(const plan_comparison& c) {
    auto side = [](const plan_comparison::side& s) {
        nlohmann::json j;
        LLMPLAN_JSON_MEMBERS(j, s, model, largest_device_bytes, weights_bytes, kv_cache_bytes);
        return j;
    };
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : c.rows) {
        nlohmann::json row;
        LLMPLAN_JSON_MEMBERS(row, r, hardware, fits_from, fits_to);
        row["decode_tokens_per_s_from"] = r.decode_from;
        row["decode_tokens_per_s_to"]   = r.decode_to;
        row["ttft_s_from"]              = r.ttft_from;
        row["ttft_s_to"]                = r.ttft_to;
        rows.push_back(std::move(row));
    }
    return {
        {"from", side(c.from)},
        {"to",   side(c.to)  },
        {"rows", rows        }
    };
}

} // namespace llmplan

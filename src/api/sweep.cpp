// sweep: the estimate (and the plan on one machine) at each value of one option, for the page's charts.
#include "llmplan/sweep.h"

#include "llmplan/hardware.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using nlohmann::json;

// Smallest context a chart starts from: one llama.cpp ubatch's worth below the 512-token default
// n_ubatch is not a context anyone runs.
constexpr std::uint64_t min_ctx_points = 256;
// Largest context swept: 1M tokens, the longest trained context in data/models (Qwen2.5-1M, Llama 4).
constexpr std::uint64_t max_ctx_points = std::uint64_t{1} << 20;
// vLLM's default --max-num-seqs (vllm/config: max_num_seqs = 256 for GPU): the most sequences one
// step holds by default.
constexpr std::uint64_t max_batch_points = 256;
// Training micro-batches past 64 sequences per GPU are not a fine-tuning setting anyone uses.
constexpr std::uint64_t max_micro_batch_points = 64;

api_response bad(std::string_view message) {
    return {400, json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace)};
}

api_options with(api_options o, std::string_view key, const std::string& value) {
    std::erase_if(o, [&](const auto& kv) { return kv.first == key; });
    o.emplace_back(std::string(key), value);
    return o;
}

// --hardware is a comma-separated list: a name holding a comma ("Mac Studio M4 Max (14-core), 36GB")
// is passed with its commas as spaces, which the catalog's lookup (hardware.h) ignores like spaces.
std::string list_safe(std::string name) {
    std::replace(name.begin(), name.end(), ',', ' ');
    return name;
}

json number_or_null(const json& j, std::string_view key) {
    const auto it = j.find(key);
    return it == j.end() ? json(nullptr) : *it;
}

} // namespace

std::vector<std::uint64_t> sweep_points(std::string_view over, std::uint64_t n_ctx_train) {
    std::vector<std::uint64_t> v;
    if (over == "ctx" || over == "seq") {
        const std::uint64_t top = std::clamp(n_ctx_train, min_ctx_points, max_ctx_points);
        for (std::uint64_t x = min_ctx_points; x <= top; x *= 2)
            v.push_back(x);
    } else if (over == "batch" || over == "micro-batch") {
        const std::uint64_t top = over == "batch" ? max_batch_points : max_micro_batch_points;
        for (std::uint64_t x = 1; x <= top; x *= 2)
            v.push_back(x);
    }
    return v;
}

api_response sweep(const api_options& options, const load_options& sources) {
    std::string over = "ctx", hardware;
    api_options base;
    for (const auto& [k, v] : options) {
        if (k == "over")
            over = v;
        else if (k == "hardware")
            hardware = v;
        else
            base.emplace_back(k, v);
    }
    // The model's trained context bounds the ctx points: one estimate at the options as given.
    const auto first = answer("estimate", base, sources);
    if (first.status != 200) return first;
    const json e0   = json::parse(first.body);
    const auto vals = sweep_points(over, e0["model"].value("n_ctx_train", std::uint64_t{0}));
    if (vals.empty()) return bad(fmt::format("over: \"{}\"; expected ctx, batch, seq or micro-batch", over));

    std::optional<std::uint64_t> capacity;
    if (!hardware.empty()) {
        auto row = builtin_hardware().lookup(hardware);
        if (!row) return bad(fmt::format("hardware: {}", row.error().what()));
        const device_spec& d = **row;
        capacity             = d.has_accelerator() ? d.memory_bytes : d.host_memory_bytes;
        hardware             = d.name;
    }

    // Each point's devices, by name in order of first appearance (offloading adds "cpu" past a size).
    std::vector<std::string> names;
    std::vector<std::vector<std::pair<std::string, json>>> totals;
    json count = json::array(), fits = json::array(), decode = json::array(), prefill = json::array(),
         ttft = json::array(), train = json::array();
    for (const std::uint64_t x : vals) {
        const api_options o = with(base, over, std::to_string(x));
        const auto est      = answer("estimate", o, sources);
        if (est.status != 200) return est;
        auto& row       = totals.emplace_back();
        const json estj = json::parse(est.body);
        for (const auto& d : estj["devices"]) {
            const auto name = d["device"].get<std::string>();
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
            row.emplace_back(name, d["total_bytes"]);
        }
        json c = json::object(); // no machine asked: every speed null
        if (!hardware.empty()) {
            const auto plan = answer("plan", with(o, "hardware", list_safe(hardware)), sources);
            if (plan.status != 200) return plan;
            const json pj = json::parse(plan.body);
            for (const auto& cand : pj["candidates"])
                if (cand["hardware"] == hardware) {
                    c = cand;
                    break;
                }
        }
        count.push_back(number_or_null(c, "count"));
        fits.push_back(number_or_null(c, "fits"));
        decode.push_back(number_or_null(c, "decode_tokens_per_s"));
        prefill.push_back(number_or_null(c, "prefill_tokens_per_s"));
        ttft.push_back(number_or_null(c, "ttft_s"));
        train.push_back(number_or_null(c, "train_tokens_per_s"));
    }
    json devices = json::array();
    for (const auto& name : names) {
        json col = json::array();
        for (const auto& row : totals) {
            const auto it = std::find_if(row.begin(), row.end(), [&](const auto& r) { return r.first == name; });
            col.push_back(it == row.end() ? json(nullptr) : it->second);
        }
        devices.push_back({
            {"device",      name},
            {"total_bytes", col }
        });
    }
    const json out{
        {"over",                 over                                             },
        {"values",               vals                                             },
        {"devices",              devices                                          },
        {"hardware",             hardware.empty() ? json(nullptr) : json(hardware)},
        {"capacity_bytes",       capacity ? json(*capacity) : json(nullptr)       },
        {"count",                count                                            },
        {"fits",                 fits                                             },
        {"decode_tokens_per_s",  decode                                           },
        {"prefill_tokens_per_s", prefill                                          },
        {"ttft_s",               ttft                                             },
        {"train_tokens_per_s",   train                                            },
    };
    return {200, out.dump(-1, ' ', false, json::error_handler_t::replace)};
}

} // namespace llmplan

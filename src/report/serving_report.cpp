// Serving at load rendered (src/report/serving_report.h).
#include "report/serving_report.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace llmplan::detail {
namespace {

using nlohmann::json;

json number_or_null(const std::optional<double>& v) {
    return v && std::isfinite(*v) && *v > 0 ? json(*v) : json(nullptr);
}

/// mean, p50 and p99 (the contract's), and the value at the targets' percentile (--slo-percentile),
/// which the targets are judged at.
json latency_json(const std::optional<latency_stats>& l) {
    if (!l) return nullptr;
    return {
        {"mean",   l->mean  },
        {"p50",    l->p50   },
        {"p99",    l->p99   },
        {"at_slo", l->at_slo}
    };
}

/// The order a person reads: deployments that meet the targets first, then by cost a month (rows
/// without a price after), then by GPUs. With --concurrency and no targets every deployment is one
/// instance holding the same users, and a slow one carries them only by queueing them (a first
/// token after half a minute): there the cost of a million output tokens ranks them, which is the
/// month's cost over what the deployment delivers.
std::vector<std::size_t> reading_order(const plan_document& d) {
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < d.serving.size(); ++i)
        if (d.serving[i]) idx.push_back(i);
    const auto& q         = d.serving_question;
    const bool per_output = q.concurrency && !q.ttft_ms && !q.tpot_ms;
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = *d.serving[a];
        const auto& y = *d.serving[b];
        if (x.meets_targets != y.meets_targets) return x.meets_targets;
        const auto& cx = per_output ? x.cost_per_million_output_tokens_usd : x.cost_per_month_usd;
        const auto& cy = per_output ? y.cost_per_million_output_tokens_usd : y.cost_per_month_usd;
        if (cx.has_value() != cy.has_value()) return cx.has_value();
        if (cx && cy && *cx != *cy) return *cx < *cy;
        return x.gpus < y.gpus;
    });
    return idx;
}

/// The median, or the tail at the targets' percentile (p99 unless --slo-percentile says otherwise).
std::string ms_text(const std::optional<latency_stats>& l, bool tail) {
    if (!l) return "-";
    const double v = tail ? l->at_slo : l->p50;
    return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v);
}

std::string usd(const std::optional<double>& v, bool cents) {
    if (!v) return "-";
    return cents ? fmt::format("{:.3f}", *v) : fmt::format("{:.0f}", *v);
}

} // namespace

json serving_to_json(const std::optional<serving_figures>& f) {
    if (!f) return nullptr;
    json j;
    j["instances"]              = f->instances;
    j["tensor_parallel"]        = f->tensor_parallel;
    j["gpus"]                   = f->gpus;
    j["max_num_seqs"]           = f->max_num_seqs;
    j["max_num_batched_tokens"] = f->max_num_batched_tokens;
    j["kv_capacity_tokens"]     = f->kv_capacity_tokens;
    j["concurrency"]            = f->concurrency > 0 ? json(f->concurrency) : json(nullptr);
    j["request_rate"] = f->request_rate > 0 && std::isfinite(f->request_rate) ? json(f->request_rate) : json(nullptr);
    j["output_tokens_per_s"]                = number_or_null(f->output_tokens_per_s);
    j["total_tokens_per_s"]                 = number_or_null(f->total_tokens_per_s);
    j["ttft_ms"]                            = latency_json(f->ttft_ms);
    j["tpot_ms"]                            = latency_json(f->tpot_ms);
    j["meets_targets"]                      = f->meets_targets;
    j["binding"]                            = f->binding;
    j["cost_per_million_output_tokens_usd"] = number_or_null(f->cost_per_million_output_tokens_usd);
    // beyond the contract
    j["pipeline_parallel"]           = f->pipeline_parallel;
    j["engine"]                      = f->engine;
    j["users_carried"]               = f->users_carried > 0 ? json(f->users_carried) : json(nullptr);
    j["cost_per_hour_usd"]           = number_or_null(f->cost_per_hour_usd);
    j["cost_per_month_usd"]          = number_or_null(f->cost_per_month_usd);
    j["cost_per_million_tokens_usd"] = number_or_null(f->cost_per_million_input_tokens_usd);
    j["configurations_searched"]     = f->candidates_searched;
    j["reasons"]                     = f->reasons;
    // a closed loop's TTFT when request lengths vary around the means (ttft_ms: every request the same)
    j["ttft_ms_varied_lengths"] = latency_json(f->ttft_ms_varied);
    j["varied_length_spread"]   = f->ttft_ms_varied ? json(f->varied_length_spread) : json(nullptr);
    json launch                 = json::object();
    for (const auto& [k, v] : f->launch)
        launch[k] = v;
    j["launch"] = launch;
    return j;
}

void add_serving_json(json& plan, const plan_document& d) {
    if (d.serving.empty()) return;
    auto& cands = plan["candidates"];
    for (std::size_t i = 0; i < d.serving.size() && i < cands.size(); ++i) {
        cands[i]["serving"] = serving_to_json(d.serving[i]);
        if (!d.serving[i] && i < d.serving_why.size() && !d.serving_why[i].empty())
            cands[i]["serving_unavailable"] = d.serving_why[i];
        if (d.serving[i])
            for (const auto& [k, v] : d.serving[i]->launch)
                cands[i]["launch"]["serving " + k] = v;
    }
    const auto order = reading_order(d);
    // The rows in the order the text table reads them (the page shows them so, without sorting again).
    plan["serving_order"] = order;
    if (!order.empty() && d.serving[order.front()]->meets_targets)
        plan["serving_choice"] = {
            {"hardware", d.plan.candidates[order.front()].hardware},
            {"index",    order.front()                            },
            {"why",      d.serving[order.front()]->reasons        }
        };
    else
        plan["serving_choice"] = nullptr;
}

std::string serving_text(const plan_document& d) {
    if (d.serving.empty()) return "";
    const auto& q = d.serving_question;
    std::string out;
    std::string load = q.concurrency ? fmt::format("{:g} requests in flight", *q.concurrency)
                       : q.request_rate && std::isinf(*q.request_rate)
                           ? std::string("every request at once (the most it serves)")
                           : fmt::format("{:g} requests a second", q.request_rate.value_or(0));
    out += fmt::format("\nServing {} ({} prompt tokens, {} output tokens a request)", load, q.input_len, q.output_len);
    if (q.ttft_ms || q.tpot_ms) {
        out += fmt::format(", targets at p{:g}:", q.slo_percentile);
        if (q.ttft_ms) out += fmt::format(" first token within {:g} ms", *q.ttft_ms);
        if (q.tpot_ms) out += fmt::format("{} {:g} ms a token after it", q.ttft_ms ? "," : "", *q.tpot_ms);
    }
    out += "\n";
    const auto order = reading_order(d);
    if (order.empty()) {
        out += "No row can serve it:\n";
        std::size_t said = 0;
        for (std::size_t i = 0; i < d.plan.candidates.size() && i < d.serving_why.size(); ++i) {
            if (d.serving_why[i].empty()) continue;
            if (++said > std::max<std::size_t>(d.top, 1)) break;
            out += fmt::format("  {}: {}\n", d.plan.candidates[i].hardware, d.serving_why[i]);
        }
        if (said == 0) out += "  the model does not fit, or a row's memory or bandwidth is unknown\n";
        return out;
    }
    const std::string tail = fmt::format("p{:g}", q.slo_percentile);
    out += fmt::format("{:<32} {:>5} {:>4} {:>4} {:>8} {:>9} {:>9} {:>9} {:>8} {:>8} {:>10} {:>9} {:>9}  {}\n",
                       "hardware", "inst", "TP", "GPUs", "users", "out tok/s", "TTFT p50", "TTFT " + tail, "TPOT p50",
                       "TPOT " + tail, "$/month", "$/Mtok out", "$/Mtok all", "meets / limit");
    std::size_t shown = 0;
    for (const auto i : order) {
        if (++shown > std::max<std::size_t>(d.top, 1)) break;
        const auto& f    = *d.serving[i];
        std::string name = d.plan.candidates[i].hardware;
        if (name.size() > 32) name = name.substr(0, 31) + "~";
        out += fmt::format(
            "{:<32} {:>5} {:>4} {:>4} {:>8} {:>9} {:>9} {:>9} {:>8} {:>8} {:>10} {:>9} {:>9}  {}\n", name, f.instances,
            f.tensor_parallel, f.gpus, f.users_carried > 0 ? fmt::format("{:.0f}", f.users_carried) : std::string("-"),
            f.output_tokens_per_s ? fmt::format("{:.0f}", *f.output_tokens_per_s) : std::string("-"),
            ms_text(f.ttft_ms, false), ms_text(f.ttft_ms, true), ms_text(f.tpot_ms, false), ms_text(f.tpot_ms, true),
            usd(f.cost_per_month_usd, false), usd(f.cost_per_million_output_tokens_usd, true),
            usd(f.cost_per_million_input_tokens_usd, true),
            fmt::format("{} / {}", f.meets_targets ? "yes" : "no", f.binding));
    }
    out += "Latencies in milliseconds; users = requests in flight the deployment holds; out tok/s = the output "
           "tokens a second it delivers, all users together; $/Mtok all = the cost over "
           "prompt and output tokens together. Not modelled: speculative decoding, prefix-cache hits, LoRA adapters, "
           "disaggregated prefill.\n";
    const auto& best = *d.serving[order.front()];
    if (best.ttft_ms_varied && best.ttft_ms)
        out += fmt::format(
            "TTFT above: every request has the same lengths, so the requests stay in step and a first token waits for "
            "its whole wave's prompts (as a fixed-length benchmark runs). With lengths that vary by {:.0f}% either way "
            "they drift apart: on {}, TTFT p50 {:.0f} ms, p{:g} {:.0f} ms. Runs measured with varied lengths "
            "fall between the two.\n",
            best.varied_length_spread * 100, d.plan.candidates[order.front()].hardware, best.ttft_ms_varied->p50,
            q.slo_percentile, best.ttft_ms_varied->at_slo);
    out += fmt::format("\nLaunch ({}):\n", d.plan.candidates[order.front()].hardware);
    for (const auto& [k, v] : best.launch)
        out += fmt::format("  {}: {}\n", k, v);
    return out;
}

} // namespace llmplan::detail

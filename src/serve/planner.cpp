// The deployment for a load (include/llmplan/serving.h, plan_serving): for one hardware row, search
// tensor parallel x max-num-seqs x instances for the fewest GPUs (then the lowest cost) that carry the
// load within the targets, each configuration priced by the step model and the scheduler simulation.
#include "estimate/engines.h"
#include "hardware/personal_memory.h"
#include "llmplan/serving.h"
#include "plan/detail.h"
#include "serve/instance_options.h"
#include "serve/reprice.h"
#include "serve/step_table.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace llmplan {
namespace {

using detail::engine_of;
using detail::serving_ctx;
using detail::tp_option;

/// Hours in a month: 365 x 24 / 12.
constexpr double hours_per_month = 730.0;
/// Most instances the search tries for one row (beyond it the load is not carried on this row).
constexpr std::uint32_t max_instances = 4096;

struct evaluation {
    sim_result sim;
    bool meets   = false;
    bool carried = false; ///< not saturated
    std::string why;      ///< the first target or limit that fails ("" when it meets)
};

/// How far request lengths vary in the varied-lengths TTFT: uniformly over 0.8-1.0 of the set length,
/// as InferenceMAX's runs draw prompts and outputs (`--random-range-ratio 0.8` with vLLM's random dataset:
/// randint(len x ratio, len + 1); SemiAnalysisAI/InferenceMAX README, 2025), i.e. +-0.1/0.9 = +-11% around
/// their mean.
constexpr double varied_length_spread = 0.1 / 0.9;

sim_config config_for(const serving_context& c, const tp_option& o, std::uint64_t seqs, std::uint32_t instances) {
    sim_config s;
    s.max_num_seqs           = seqs;
    s.max_num_batched_tokens = std::max(o.batched_tokens, seqs);
    s.kv_capacity_tokens     = o.kv_capacity;
    // llama-server allocates -c = slots x one request's context, no more (the plan's launch line).
    if (engine_of(c) == serving_engine::llamacpp)
        s.kv_capacity_tokens = std::min(o.kv_capacity, seqs * (c.request.input_len + c.request.output_len));
    s.input_len      = c.request.input_len;
    s.output_len     = c.request.output_len;
    s.slo_percentile = c.request.slo_percentile;
    s.prefill_first  = engine_of(c) == serving_engine::sglang;
    if (c.request.concurrency)
        s.concurrency = std::ceil(*c.request.concurrency / instances); // the busiest instance
    else
        s.request_rate = *c.request.request_rate / instances;
    return s;
}

evaluation evaluate(const serving_context& c, const tp_option& o, std::uint64_t seqs, std::uint32_t instances) {
    evaluation v;
    v.sim     = simulate(o.shape, config_for(c, o, seqs, instances));
    v.carried = v.sim.completed > 0 && !v.sim.saturated;
    if (!v.carried) {
        v.why = v.sim.kv_limited_share > v.sim.seqs_limited_share ? "kv" : "max_num_seqs";
        if (v.sim.kv_limited_share < 0.05 && v.sim.seqs_limited_share < 0.05)
            v.why = v.sim.compute_share > 0.5 ? "compute" : "bandwidth";
        return v;
    }
    const auto& r = c.request;
    if (r.ttft_ms && v.sim.ttft_s.at_slo * 1e3 > *r.ttft_ms)
        v.why = "ttft";
    else if (r.tpot_ms && v.sim.tpot_s.at_slo * 1e3 > *r.tpot_ms)
        v.why = "tpot";
    v.meets = v.why.empty();
    return v;
}

/// What limits a configuration that carries its load: the scheduler's limits when they held requests
/// back, else whichever of FLOPs and bytes set the pace of the steps.
std::string limit_of(const sim_result& s) {
    if (s.kv_limited_share >= 0.05 && s.kv_limited_share >= s.seqs_limited_share) return "kv";
    if (s.seqs_limited_share >= 0.05) return "max_num_seqs";
    return s.compute_share > 0.5 ? "compute" : "bandwidth";
}

/// A whole machine (a laptop, a desktop, a Mac, this machine) or a unified-memory chip (Apple, Strix
/// Halo, GB10) is its own node: its GPUs are all an instance can shard over, and more GPUs are more
/// machines (bought once each). A card goes into a server of `gpus_per_node`; a cloud instance is a
/// node of its GPUs.
bool whole_machine(const device_spec& d) {
    return detail::is_personal_machine(d) || detail::is_apple_silicon(d) || d.unified_memory;
}

unsigned node_gpus(const device_spec& d) {
    if (whole_machine(d)) return std::max(1u, d.gpu_count);
    return d.gpu_count > 1 ? d.gpu_count : gpus_per_node;
}

std::optional<double> hourly(const serving_context& c, const device_spec& d, std::uint32_t gpus) {
    // A server runs round the clock: owned hardware is priced at full utilization.
    plan_options o          = c.plan;
    o.utilization           = 1.0;
    const unsigned per_node = node_gpus(d);
    const unsigned nodes    = (gpus + per_node - 1) / per_node;
    if (d.price_usd_per_hour) { // a cloud instance of gpu_count GPUs
        const unsigned machines = d.gpu_count > 0 ? (gpus + d.gpu_count - 1) / d.gpu_count : 1;
        return *d.price_usd_per_hour * machines;
    }
    if (auto f = hourly_cost(d, gpus, nodes, o)) return f->usd_per_hour;
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> launch_for(const serving_context& c, const device_spec& d,
                                                            const serving_figures& f) {
    std::vector<std::pair<std::string, std::string>> out;
    const model_desc& m         = *c.model;
    inference_params p          = c.infer;
    p.batch                     = f.max_num_seqs;
    p.ctx                       = serving_ctx(c);
    const unsigned per_instance = f.tensor_parallel * f.pipeline_parallel;
    const unsigned per_node     = node_gpus(d);
    if (engine_of(c) == serving_engine::llamacpp) {
        p.engine = engine_kind::llama_cpp;
        p.device = detail::is_apple_silicon(d) ? device_kind::metal : device_kind::cuda;
        // llama-server: --parallel slots share one context of -c tokens (ctx x slots).
        auto lines = detail::launch_lines(m, p, per_instance, 1, detail::has_bf16(d));
        for (auto& [k, v] : lines)
            if (k == "llama.cpp") out.emplace_back("llama.cpp", v + " --cont-batching");
        if (f.instances > 1)
            out.emplace_back(
                "llama.cpp instances",
                whole_machine(d)
                    ? fmt::format("{} machines, each running the line above, behind a load balancer", f.instances)
                    : fmt::format("{} copies, one a GPU group (CUDA_VISIBLE_DEVICES), each on its own "
                                  "--port, behind a load balancer",
                                  f.instances));
        return out;
    }
    p.engine = engine_kind::vllm;
    auto lines =
        detail::launch_lines(m, p, per_instance, (per_instance + per_node - 1) / per_node, detail::has_bf16(d));
    const std::uint32_t local_dp = std::max(1u, per_node / std::max(1u, per_instance));
    for (auto& [k, v] : lines) {
        if (k != "vllm") {
            out.emplace_back(k, v);
            continue;
        }
        std::string s = v + fmt::format(" --max-num-batched-tokens {}", f.max_num_batched_tokens);
        if (f.instances > 1) {
            // vLLM data parallel (docs "Data Parallel Deployment", vLLM 0.9+): one API server over N engine
            // replicas; across nodes, the head node runs --data-parallel-size-local of them and each other
            // node starts its share with --headless --data-parallel-start-rank.
            s += fmt::format(" --data-parallel-size {}", f.instances);
            if (f.instances > local_dp && per_instance <= per_node) {
                s += fmt::format(" --data-parallel-size-local {} --data-parallel-address node0 "
                                 "--data-parallel-rpc-port 13345",
                                 local_dp);
                out.emplace_back("vllm", s);
                out.emplace_back(
                    "vllm (each other node k = 1, 2 ...)",
                    v + fmt::format(" --max-num-batched-tokens {} --data-parallel-size {} "
                                    "--data-parallel-size-local {} --data-parallel-start-rank k*{} "
                                    "--data-parallel-address node0 --data-parallel-rpc-port 13345 --headless",
                                    f.max_num_batched_tokens, f.instances, local_dp, local_dp));
                continue;
            }
        }
        out.emplace_back("vllm", s);
    }
    // SGLang: the same deployment (sglang/srt/server_args.py: --tp-size, --dp-size, --max-running-requests,
    // --chunked-prefill-size, --mem-fraction-static).
    // The memory fraction: the question's, else the one SGLang computes for this GPU and tensor parallel
    // (written out so the line says what the pool is; engine_sglang.cpp sglang_static_fraction).
    const double fraction =
        c.infer.gpu_memory_utilization || !d.memory_bytes
            ? gpu_memory_utilization(c.infer)
            : sglang_static_fraction(m, *d.memory_bytes, f.tensor_parallel,
                                     c.infer.engine == engine_kind::sglang ? c.infer.version : engine_version{});
    std::string sg =
        fmt::format("python -m sglang.launch_server --model-path {} --tp-size {} --max-running-requests {} "
                    "--chunked-prefill-size {} --mem-fraction-static {:.3g} --context-length {}",
                    m.origin.repo.empty() ? m.id : m.origin.repo, f.tensor_parallel, f.max_num_seqs,
                    f.max_num_batched_tokens, fraction, p.ctx);
    if (f.pipeline_parallel > 1) sg += fmt::format(" --pp-size {}", f.pipeline_parallel);
    if (f.instances > 1) sg += fmt::format(" --dp-size {}", f.instances);
    out.emplace_back("sglang", sg);
    return out;
}

} // namespace

namespace detail {

std::string serving_chip_key(const device_spec& d) {
    return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", d.memory_bytes.value_or(0),
                       d.memory_bandwidth_bytes_per_s.value_or(0), d.fp16_flops.value_or(0), d.fp8_flops.value_or(0),
                       d.fp32_flops.value_or(0), d.accelerator_tdp_w.value_or(0), d.compute_capability.value_or(0),
                       d.architecture, d.memory_type, allreduce_link_bytes_per_s(d, 2),
                       allreduce_link_bytes_per_s(d, 8));
}

void reprice_serving(serving_figures& f, const serving_context& c, const device_spec& d) {
    f.cost_per_hour_usd = hourly(c, d, f.gpus);
    f.cost_per_month_usd.reset();
    f.cost_per_million_output_tokens_usd.reset();
    f.cost_per_million_input_tokens_usd.reset();
    if (f.cost_per_hour_usd) {
        f.cost_per_month_usd = *f.cost_per_hour_usd * hours_per_month;
        if (f.output_tokens_per_s && *f.output_tokens_per_s > 0)
            f.cost_per_million_output_tokens_usd = *f.cost_per_hour_usd / (*f.output_tokens_per_s * 3600.0) * 1e6;
        if (f.total_tokens_per_s && *f.total_tokens_per_s > 0)
            f.cost_per_million_input_tokens_usd = *f.cost_per_hour_usd / (*f.total_tokens_per_s * 3600.0) * 1e6;
    }
    f.launch = launch_for(c, d, f);
}

} // namespace detail

status validate(const serving_request& r, const inference_params& p, bool ctx_given) {
    auto bad = [](std::string_view opt, std::string msg) {
        return status(make_error(error_code::invalid_params, std::move(msg), std::string(opt)));
    };
    if (r.concurrency && r.request_rate)
        return bad("--request-rate", "given with --concurrency; a load is one of the two");
    if (!r.on) {
        if (r.ttft_ms || r.tpot_ms)
            return bad(r.ttft_ms ? "--ttft-ms" : "--tpot-ms", "needs a load: --concurrency N or --request-rate R");
        return ok();
    }
    if (r.input_len == 0) return bad("--input-len", "0; expected at least 1 token");
    if (r.output_len == 0) return bad("--output-len", "0; expected at least 1 token");
    if (ctx_given && p.ctx < r.input_len + r.output_len)
        return bad("--ctx", fmt::format("{} is shorter than --input-len + --output-len = {}", p.ctx,
                                        r.input_len + r.output_len));
    if (r.tensor_parallel > 0 && p.gpus % (r.tensor_parallel * std::max(1u, p.pipeline_parallel)) != 0 && p.gpus > 1)
        return bad("--gpus", fmt::format("{} is not a multiple of --tensor-parallel x --pipeline-parallel = {}", p.gpus,
                                         r.tensor_parallel * std::max(1u, p.pipeline_parallel)));
    return ok();
}

std::optional<serving_figures> plan_serving(const serving_context& c, const device_spec& d, std::string* why_none) {
    std::string why_local;
    std::string& why = why_none ? *why_none : why_local;
    why.clear();
    if (!c.model) return std::nullopt;
    if (!d.has_accelerator()) {
        why = "a machine without a GPU: the serving plan covers GPUs";
        return std::nullopt;
    }
    if (!d.memory_bandwidth_bytes_per_s) {
        why = detail::serving_rates_unknown;
        return std::nullopt;
    }
    const auto& r          = c.request;
    const std::uint32_t pp = std::max(1u, c.infer.pipeline_parallel);
    const bool targets     = r.ttft_ms.has_value() || r.tpot_ms.has_value();
    const bool fixed       = c.gpus_given;
    const bool burst       = r.request_rate && std::isinf(*r.request_rate);

    // vLLM and SGLang run on CUDA, ROCm and TPU, not on Apple's GPU (vLLM's docs: Apple silicon runs its
    // CPU backend only; SGLang has no Metal backend): a Mac serves with llama.cpp.
    if (engine_of(c) != serving_engine::llamacpp && detail::is_apple_silicon(d)) {
        why = "vLLM and SGLang do not run on Apple's GPU: a Mac serves with llama.cpp (--engine llama.cpp)";
        return std::nullopt;
    }
    // Tensor-parallel sizes to try: up to a node's GPUs (a machine's own, or 8 cards in a server).
    std::vector<std::uint32_t> tps;
    if (r.tensor_parallel > 0)
        tps = {r.tensor_parallel};
    else
        for (std::uint32_t tp : {1u, 2u, 4u, 8u})
            if ((!fixed || c.infer.gpus % (tp * pp) == 0) && tp * pp <= node_gpus(d)) tps.push_back(tp);
    std::vector<tp_option> opts;
    for (auto tp : tps)
        if (auto o = detail::prepare_instance(c, d, tp, why))
            opts.push_back(std::move(*o)); // why: the largest size's refusal
    if (tps.empty())
        why = fmt::format("{} GPUs do not divide into instances of 1, 2, 4 or 8 GPUs (tensor parallel) on one node",
                          c.infer.gpus);
    if (opts.empty()) return std::nullopt;
    why.clear();

    struct choice {
        const tp_option* o      = nullptr;
        std::uint64_t seqs      = 0;
        std::uint32_t instances = 1;
        evaluation v;
        std::uint32_t gpus = 0;
        std::optional<double> usd;
    };
    std::optional<choice> best;
    std::string first_fail;
    std::uint32_t searched = 0;
    auto better            = [](const choice& a, const choice& b) {
        if (a.v.meets != b.v.meets) return a.v.meets;
        if (a.v.carried != b.v.carried) return a.v.carried;
        if (a.gpus != b.gpus) return a.gpus < b.gpus;
        if (a.usd && b.usd && *a.usd != *b.usd) return *a.usd < *b.usd;
        return a.v.sim.output_tokens_per_s > b.v.sim.output_tokens_per_s;
    };
    for (const auto& o : opts) {
        std::vector<std::uint64_t> seq_opts;
        if (c.max_num_seqs_given || !targets)
            seq_opts = {c.max_num_seqs_given ? c.infer.max_num_seqs : o.default_seqs};
        else if (engine_of(c) == serving_engine::llamacpp) // --parallel: the slots the memory holds, halved
            for (std::uint64_t s =
                     std::min(detail::llama_server_max_slots, o.kv_capacity / (r.input_len + r.output_len));
                 s >= 1; s /= 2)
                seq_opts.push_back(s);
        else
            for (std::uint64_t s : {o.default_seqs, std::uint64_t{256}, std::uint64_t{128}, std::uint64_t{64},
                                    std::uint64_t{32}, std::uint64_t{16}})
                if (s <= o.default_seqs && std::find(seq_opts.begin(), seq_opts.end(), s) == seq_opts.end())
                    seq_opts.push_back(s);
        const std::uint32_t per = o.tp * pp;
        // The fewest instances a max-num-seqs of this size met with: another max-num-seqs is searched only
        // where it meets with fewer (one try at one instance less), since more instances never carry less.
        std::uint32_t met_with = 0;
        for (const auto seqs : seq_opts) {
            if (met_with == 1) break;
            if (met_with > 1 && !fixed && !(r.concurrency && !targets) && !burst) {
                ++searched;
                if (!evaluate(c, o, seqs, met_with - 1).meets) continue;
            }
            auto consider = [&](std::uint32_t n, const evaluation& v) {
                choice ch{&o, seqs, n, v, n * per, hourly(c, d, n * per)};
                if (!best || better(ch, *best)) best = ch;
            };
            if (fixed || (r.concurrency && !targets) || burst) {
                const std::uint32_t n = fixed ? std::max(1u, c.infer.gpus / per) : 1;
                ++searched;
                consider(n, evaluate(c, o, seqs, n));
                continue;
            }
            // A closed loop of many more requests than an instance runs at once queues the rest: by Little's
            // law each request spends in_flight / running of its service times in the system, so it waits
            // (in_flight / seqs - 1) of them before its first token. When half that wait, priced at the pace
            // of a full batch (its output tokens at a full batch's TPOT, simulated once), already exceeds the
            // TTFT target, no instance count that leaves more than 4 waves queued can meet it, and it is not
            // stepped through: one instance holding a million requests took 1-2 s a try, 35 s a plan.
            std::optional<double> pace_s;
            auto queued_past_ttft = [&](std::uint32_t n) {
                if (!r.concurrency || !r.ttft_ms || n >= max_instances) return false;
                const double waves = std::ceil(*r.concurrency / n) / static_cast<double>(seqs);
                if (waves <= 4) return false;
                if (!pace_s) {
                    auto full        = config_for(c, o, seqs, 1);
                    full.concurrency = static_cast<double>(seqs);
                    pace_s           = simulate(o.shape, full).tpot_s.mean * static_cast<double>(r.output_len);
                }
                return (waves - 1) * *pace_s / 2 * 1e3 > *r.ttft_ms;
            };
            // A row that does not meet the targets even with the most instances (a prompt's own prefill or a
            // single stream's token time past the target: load spread thinner does not help) is settled by
            // that one try, not by stepping up to it (most of a whole-catalog serving plan's time).
            if (!queued_past_ttft(max_instances)) {
                auto at_max = evaluate(c, o, seqs, max_instances);
                if (!at_max.meets) {
                    ++searched;
                    if (first_fail.empty()) first_fail = at_max.why;
                    consider(max_instances, at_max);
                    continue;
                }
            }
            // Fewest instances that meet: double, then bisect (more instances never carry less).
            std::uint32_t lo = 0, hi = 1;
            std::optional<evaluation> at_hi;
            while (hi <= max_instances) {
                if (queued_past_ttft(hi)) {
                    if (first_fail.empty() || hi == 1) first_fail = "ttft";
                    lo = hi;
                    hi *= 2;
                    continue;
                }
                ++searched;
                auto v = evaluate(c, o, seqs, hi);
                if (v.meets) {
                    at_hi = std::move(v);
                    break;
                }
                if (first_fail.empty() || hi == 1) first_fail = v.why;
                lo = hi;
                hi *= 2;
            }
            if (!at_hi) {
                ++searched;
                consider(max_instances, evaluate(c, o, seqs, max_instances));
                continue;
            }
            while (hi - lo > 1) {
                const std::uint32_t mid = lo + (hi - lo) / 2;
                if (queued_past_ttft(mid)) {
                    lo = mid;
                    continue;
                }
                ++searched;
                auto v = evaluate(c, o, seqs, mid);
                if (v.meets) {
                    hi    = mid;
                    at_hi = std::move(v);
                } else {
                    lo = mid;
                }
            }
            consider(hi, *at_hi);
            met_with = met_with ? std::min(met_with, hi) : hi;
        }
    }
    if (!best) {
        why = "no configuration the search tried carries the load";
        return std::nullopt;
    }

    const auto& b = *best;
    const auto& s = b.v.sim;
    serving_figures f;
    f.engine                 = std::string(name(engine_of(c)));
    f.instances              = b.instances;
    f.tensor_parallel        = b.o->tp;
    f.pipeline_parallel      = pp;
    f.gpus                   = b.gpus;
    f.max_num_seqs           = b.seqs;
    f.max_num_batched_tokens = std::max(b.o->batched_tokens, b.seqs);
    f.kv_capacity_tokens     = b.o->kv_capacity;
    f.candidates_searched    = searched;
    f.meets_targets          = b.v.meets || (!targets && b.v.carried);
    const double n           = b.instances;
    const double O = static_cast<double>(r.output_len), I = static_cast<double>(r.input_len);
    if (r.concurrency) {
        f.concurrency  = *r.concurrency;
        f.request_rate = s.requests_per_s * n;
    } else {
        f.request_rate = burst ? s.requests_per_s * n : *r.request_rate;
        f.concurrency  = s.mean_running * n;
    }
    if (s.completed > 0) {
        const bool carries    = b.v.carried && r.request_rate && !burst;
        f.output_tokens_per_s = carries ? *r.request_rate * O : s.output_tokens_per_s * n;
        f.total_tokens_per_s  = carries ? *r.request_rate * (I + O) : s.total_tokens_per_s * n;
        if (b.v.carried && !burst && !(r.concurrency && r.concurrency < 1))
            f.ttft_ms =
                latency_stats{s.ttft_s.mean * 1e3, s.ttft_s.p50 * 1e3, s.ttft_s.p99 * 1e3, s.ttft_s.at_slo * 1e3};
        if (r.output_len > 1)
            f.tpot_ms =
                latency_stats{s.tpot_s.mean * 1e3, s.tpot_s.p50 * 1e3, s.tpot_s.p99 * 1e3, s.tpot_s.at_slo * 1e3};
        // A closed loop of fixed lengths keeps its requests in step: they finish together and the next ones
        // are prefilled together, so a first token waits for every prompt of its wave. Real traffic's
        // lengths vary and its requests drift apart; the same deployment with lengths drawn around the
        // means says how much of the TTFT is that lockstep.
        if (f.ttft_ms && r.concurrency && *r.concurrency >= 2) {
            auto varied          = config_for(c, *b.o, b.seqs, b.instances);
            varied.length_spread = varied_length_spread;
            const auto v         = simulate(b.o->shape, varied);
            if (v.completed > 0) {
                f.ttft_ms_varied =
                    latency_stats{v.ttft_s.mean * 1e3, v.ttft_s.p50 * 1e3, v.ttft_s.p99 * 1e3, v.ttft_s.at_slo * 1e3};
                f.varied_length_spread = varied_length_spread;
            }
        }
    }
    f.binding = b.v.meets || (!targets && b.v.carried) ? limit_of(s) : b.v.why;
    if (b.v.meets && b.instances > 1 && !first_fail.empty()) f.binding = first_fail; // what one instance missed
    f.cost_per_hour_usd = b.usd;
    if (b.usd) {
        f.cost_per_month_usd = *b.usd * hours_per_month;
        if (f.output_tokens_per_s && *f.output_tokens_per_s > 0)
            f.cost_per_million_output_tokens_usd = *b.usd / (*f.output_tokens_per_s * 3600.0) * 1e6;
        if (f.total_tokens_per_s && *f.total_tokens_per_s > 0)
            f.cost_per_million_input_tokens_usd = *b.usd / (*f.total_tokens_per_s * 3600.0) * 1e6;
    }
    // Users carried: requests in flight (Little's law for an open loop: rate x time a request stays).
    if (r.concurrency)
        f.users_carried = b.v.carried ? *r.concurrency : s.mean_running * n;
    else if (f.ttft_ms && f.tpot_ms)
        f.users_carried = f.request_rate * (f.ttft_ms->mean + f.tpot_ms->mean * (O - 1)) / 1e3;
    else // past capacity (or every request at once): the sequences its steps hold, the rest wait
        f.users_carried = s.mean_running * n;

    const std::uint32_t per = f.tensor_parallel * f.pipeline_parallel;
    f.reasons.push_back(fmt::format("{} instance{} of {} GPU{} (tensor parallel {}{}), {} sequences a step at most, "
                                    "a KV pool of {} tokens an instance",
                                    f.instances, f.instances > 1 ? "s" : "", per, per > 1 ? "s" : "", f.tensor_parallel,
                                    pp > 1 ? fmt::format(" x pipeline {}", pp) : std::string(), f.max_num_seqs,
                                    f.kv_capacity_tokens));
    static constexpr std::pair<std::string_view, std::string_view> limits[] = {
        {"kv",           "the KV pool holds no more sequences"         },
        {"max_num_seqs", "max-num-seqs caps the sequences a step runs" },
        {"ttft",         "the time to first token reaches its target"  },
        {"tpot",         "the time per output token reaches its target"},
        {"compute",      "the steps are bound by the matmul rate"      },
        {"bandwidth",    "the steps are bound by memory bandwidth"     },
    };
    for (const auto& [k, text] : limits)
        if (k == f.binding) f.reasons.push_back(fmt::format("what limits it: {}", text));
    if (c.infer.engine == engine_kind::transformers)
        f.reasons.push_back("transformers does not batch requests: priced as vLLM, which does");
    f.launch = launch_for(c, d, f);
    return f;
}

} // namespace llmplan

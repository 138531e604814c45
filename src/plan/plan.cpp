// make_plan: fit the estimate on each candidate, add roofline speed and cost, sort, recommend.
#include "llmplan/plan.h"

#include "detail/checked_number.h"
#include "estimate/engine_traits.h"
#include "hardware/personal_memory.h"
#include "llmplan/fit.h"
#include "llmplan/units.h"
#include "plan/detail.h"
#include "plan/layer_split_prefill.h"
#include "plan/speed.h"
#include "plan/turn.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace llmplan {
namespace {

/// How one candidate is run: the estimate's device, memory per device, GPUs to try.
struct placement {
    candidate_kind kind = candidate_kind::gpu;
    device_kind device  = device_kind::cuda;
    std::optional<std::uint64_t> memory_bytes; ///< per device; empty: not in the table
    std::optional<std::uint64_t> bandwidth;
    std::vector<unsigned> counts; ///< GPU counts to try, fewest first
};

placement place(const device_spec& d) {
    placement pl;
    auto as_cpu = [&](candidate_kind kind) {
        pl.kind         = kind;
        pl.device       = device_kind::cpu;
        pl.memory_bytes = d.host_memory_bytes;
        // A laptop's or desktop's RAM is shared with the OS, the desktop and a browser.
        if (d.host_memory_bytes && detail::is_personal_machine(d))
            pl.memory_bytes = detail::personal_model_ram_bytes(d, *d.host_memory_bytes);
        pl.bandwidth =
            d.host_memory_bandwidth_bytes_per_s ? d.host_memory_bandwidth_bytes_per_s : d.memory_bandwidth_bytes_per_s;
        pl.counts = {1};
    };
    auto as_gpu = [&](candidate_kind kind, std::vector<unsigned> counts) {
        pl.kind = kind;
        // Metal on Apple silicon only: DGX Spark's unified memory runs CUDA, Strix Halo's ROCm or Vulkan
        // (llama.cpp's GPU backends take the same command line; "cuda" is any GPU here).
        pl.device       = detail::is_apple_silicon(d) ? device_kind::metal : device_kind::cuda;
        pl.memory_bytes = d.memory_bytes;
        pl.bandwidth    = d.memory_bandwidth_bytes_per_s;
        pl.counts       = std::move(counts);
    };
    switch (d.kind) {
    case hardware_kind::gpu:
        as_gpu(candidate_kind::gpu, {1, 2, 4, 8});
        break;
    case hardware_kind::apple:
        as_gpu(candidate_kind::apple, {1});
        break;
    case hardware_kind::cpu:
        as_cpu(candidate_kind::cpu);
        break;
    case hardware_kind::laptop:
        if (d.has_accelerator())
            as_gpu(detail::is_apple_silicon(d) ? candidate_kind::apple : candidate_kind::gpu, {d.gpu_count});
        else
            as_cpu(candidate_kind::cpu);
        break;
    case hardware_kind::cloud:
        if (d.has_accelerator())
            as_gpu(candidate_kind::cloud, {d.gpu_count});
        else
            as_cpu(candidate_kind::cloud);
        break;
    case hardware_kind::local:
        if (d.has_accelerator())
            as_gpu(candidate_kind::local, {d.gpu_count});
        else
            as_cpu(candidate_kind::local);
        break;
    }
    return pl;
}

/// GPU counts to try, fewest first, with the nodes each spans.
std::vector<std::pair<unsigned, unsigned>> attempts(const device_spec& d, const placement& pl, unsigned max_nodes) {
    std::vector<std::pair<unsigned, unsigned>> out;
    for (unsigned n : pl.counts)
        out.emplace_back(n, 1);
    if (pl.device == device_kind::cpu || pl.kind == candidate_kind::apple) return out;
    // Nodes of 8 are servers; consumer and workstation cards stop at one box of up to 8.
    if (detail::is_server_gpu(d))
        for (unsigned nodes = 2; nodes <= max_nodes; nodes *= 2)
            out.emplace_back(gpus_per_node * nodes, nodes);
    else if (d.kind == hardware_kind::cloud && d.gpu_count > 0)
        for (unsigned nodes = 2; nodes <= max_nodes; nodes *= 2)
            out.emplace_back(d.gpu_count * nodes, nodes);
    return out;
}

/// Where a model that fits nowhere else runs: one layer split over nodes (llama.cpp RPC) or
/// tensor parallel inside a node and pipeline stages across (vLLM; transformers cannot span nodes).
/// vLLM's tensor parallel must divide the attention and KV heads (tensor_parallel_divides_heads):
/// a count it does not divide runs the largest tensor-parallel size that does, in pipeline stages.
inference_params for_nodes(const model_desc& m, inference_params p, unsigned count, unsigned nodes) {
    p.gpus              = count;
    p.pipeline_parallel = 1;
    if (nodes > 1) {
        // An engine that cannot span nodes hands over to vLLM, which does (pipeline stages).
        if (!detail::traits_of(p.engine).spans_nodes) p.engine = engine_kind::vllm;
        if (detail::traits_of(p.engine).pipeline_stages) p.pipeline_parallel = nodes;
    }
    if (detail::traits_of(p.engine).tensor_parallel && p.device == device_kind::cuda) {
        const std::uint32_t per_stage = count / p.pipeline_parallel;
        const std::uint32_t tp        = largest_tensor_parallel(m, per_stage);
        p.pipeline_parallel *= per_stage / tp;
    }
    return p;
}

std::int64_t host_need(const inference_estimate& e) {
    std::int64_t host = 0;
    for (const auto& dev : e.devices)
        if (dev.kind == device_kind::cpu) host += dev.total_bytes();
    return host;
}

struct offload_fit {
    inference_params params;
    inference_estimate estimate;
};

/// The fewest layers whose routed experts stay in RAM (--n-cpu-moe N) for the GPU side to fit `have`
/// bytes: the GPU's need falls as N grows, so a binary search over 1..n_layer finds it. A token reads
/// only its n_expert_used experts, so this costs less speed than moving whole layers (-ngl).
std::optional<offload_fit> fit_cpu_moe(const model_desc& m, inference_params p, std::int64_t have,
                                       detail::estimate_memo& memo) {
    std::optional<offload_fit> best;
    std::uint32_t lo = 1, hi = m.n_layer;
    while (lo <= hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        p.cpu_moe_layers        = mid;
        const auto& e           = memo.get(m, p);
        if (e && memory_need(*e, p.device) <= have) {
            best = offload_fit{p, *e};
            hi   = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    return best;
}

/// The most layers (-ngl) whose GPU side fits `have` bytes: memory grows with the layers on the GPU,
/// so a binary search over 0..n_layer-1 finds it. Empty when not even the GPU's fixed part fits.
std::optional<offload_fit> fit_offload(const model_desc& m, inference_params p, std::int64_t have,
                                       detail::estimate_memo& memo) {
    std::optional<offload_fit> best;
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(m.n_layer) - 1;
    while (lo <= hi) {
        const std::int64_t mid = (lo + hi) / 2;
        p.gpu_layers           = mid;
        const auto& e          = memo.get(m, p);
        if (e && memory_need(*e, p.device) <= have) {
            best = offload_fit{p, *e};
            lo   = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

} // namespace

plan_candidate detail::evaluate(const model_desc& m, const inference_params& base, const device_spec& d,
                                const plan_options& o, detail::estimate_memo& memo) {
    const placement pl = place(d);
    plan_candidate c;
    c.hardware            = d.name;
    c.kind                = pl.kind;
    c.runs_on             = pl.device;
    inference_params p    = base;
    p.device              = pl.device;
    p.device_memory_bytes = 0; // the estimate reports what the plan needs, not a vLLM pool
    p.engine              = detail::engine_on(p.engine, p.device);
    // llama.cpp refuses a quantized V cache without flash attention (llama-context.cpp): the plan turns it on.
    if (detail::traits_of(p.engine).quantized_v_needs_flash_attn && p.kv_type && info(*p.kv_type).is_quantized)
        p.flash_attn = true;

    std::optional<inference_estimate> est;
    std::int64_t need = 0, have = 0;
    // --gpus N asks for at least N GPUs: a row that places GPUs starts its counts there (a Mac or a CPU
    // has one device whatever is asked).
    auto counts = attempts(d, pl, o.max_nodes);
    if (base.gpus > 1 && pl.device != device_kind::cpu && pl.kind != candidate_kind::apple)
        std::erase_if(counts, [&](const auto& a) { return a.first < base.gpus; });
    if (counts.empty()) {
        c.reasons.push_back(fmt::format("cannot hold {} GPUs (--gpus)", base.gpus));
        return c;
    }
    for (auto [n, nodes] : counts) {
        inference_params q = for_nodes(m, p, p.device == device_kind::cpu ? 1 : std::max(1u, n), nodes);
        if (q.pipeline_parallel > m.n_layer) break;
        const auto& e = memo.get(m, q);
        if (!e) {
            if (est) break; // a larger split the engine cannot make: keep the last one
            c.reasons.push_back(fmt::format("cannot estimate: {}", e.error().what()));
            return c;
        }
        need = memory_need(*e, q.device);
        // vLLM pre-allocates gpu_memory_utilization of each GPU; the rest must hold the estimate.
        // SGLang's share is in its estimate (engine_sglang.cpp): the whole GPU is the budget.
        const double usable =
            detail::traits_of(q.engine).kv_pool && q.engine != engine_kind::sglang ? gpu_memory_utilization(q) : 1.0;
        have    = pl.memory_bytes ? detail::saturate<std::int64_t>(usable * static_cast<double>(*pl.memory_bytes),
                                                                detail::rounding::toward_zero)
                                  : 0;
        c.count = n;
        c.nodes = nodes;
        est     = *e;
        p       = q;
        if (pl.memory_bytes && need <= have) break;
    }
    // llama.cpp on one GPU that is too small: keep as many layers on it as fit, the rest in the
    // machine's RAM (-ngl N). Only where the machine is known (a laptop, an instance, this machine);
    // unified memory has nothing to offload to.
    std::optional<offload_fit> off;
    if (est && pl.memory_bytes && need > have && detail::traits_of(p.engine).offloads_to_host &&
        p.device == device_kind::cuda && c.nodes == 1 && d.kind != hardware_kind::gpu && !d.unified_memory) {
        if (m.is_moe()) off = fit_cpu_moe(m, p, have, memo);
        const bool experts = off.has_value();
        if (!off) off = fit_offload(m, p, have, memo);
        if (off) {
            p                       = off->params;
            est                     = off->estimate;
            need                    = memory_need(*est, p.device);
            const std::int64_t host = host_need(*est);
            if (experts) {
                c.reasons.push_back(fmt::format("offload: the experts of {} of {} layers in RAM (--n-cpu-moe {}, {} "
                                                "there); a token reads only its {} of {} experts",
                                                p.cpu_moe_layers, m.n_layer, p.cpu_moe_layers,
                                                gib_text(static_cast<double>(host)), m.moe.n_expert_used,
                                                m.moe.n_expert));
                c.findings.push_back(make_reason(reason_code::offload_experts, host, p.cpu_moe_layers));
            } else {
                c.reasons.push_back(fmt::format("offload: {} of {} layers on the GPU (-ngl {}), the rest in RAM ({} "
                                                "there)",
                                                p.gpu_layers, m.n_layer, p.gpu_layers,
                                                gib_text(static_cast<double>(host))));
                c.findings.push_back(make_reason(reason_code::offload_layers, host,
                                                 static_cast<unsigned>(std::max<std::int64_t>(0, p.gpu_layers))));
            }
            // The RAM a model can count on: a personal machine's OS and browser keep their share.
            const std::optional<std::uint64_t> ram =
                d.host_memory_bytes && detail::is_personal_machine(d)
                    ? std::optional<std::uint64_t>(detail::personal_model_ram_bytes(d, *d.host_memory_bytes))
                    : d.host_memory_bytes;
            if (ram && host > static_cast<std::int64_t>(*ram)) {
                c.reasons.push_back(fmt::format("the RAM ({} free for a model) cannot hold the rest",
                                                gib_text(static_cast<double>(*ram))));
                need = have + (host - static_cast<std::int64_t>(*ram)); // short by that much
                c.findings.push_back(make_reason(reason_code::ram_short, host - static_cast<std::int64_t>(*ram)));
            }
        }
    }
    const auto& engine = detail::traits_of(p.engine); // the engine the candidate runs (after offload)
    if (pl.memory_bytes) {
        c.fits           = need <= have;
        c.headroom_bytes = have - need;
        c.findings.push_back(make_reason(c.fits ? reason_code::fits : reason_code::does_not_fit,
                                         c.fits ? c.headroom_bytes : -c.headroom_bytes));
        if (pl.device == device_kind::cpu && d.host_memory_bytes && detail::is_personal_machine(d))
            c.reasons.push_back(detail::personal_ram_note(d, *d.host_memory_bytes));
        if (pl.device == device_kind::cpu && d.host_memory_is_platform_max)
            c.reasons.push_back(fmt::format("{}needs {} of RAM; the platform takes up to {}",
                                            c.fits ? "" : "does not fit: ", gib_text(static_cast<double>(need)),
                                            gib_text(static_cast<double>(have))));
        else if (c.fits)
            c.reasons.push_back(fmt::format("fits with {} headroom", gib_text(static_cast<double>(c.headroom_bytes))));
        else
            c.reasons.push_back(fmt::format("does not fit: needs {}, has {}{}", gib_text(static_cast<double>(need)),
                                            gib_text(static_cast<double>(have)),
                                            c.nodes > 1 ? fmt::format(" even on {} nodes", c.nodes) : ""));
        if (c.count > 1 && d.kind == hardware_kind::gpu && c.nodes == 1)
            c.reasons.push_back(fmt::format("needs {} GPUs", c.count));
        if (c.nodes == 1 && engine.tensor_parallel && p.pipeline_parallel > 1)
            c.reasons.push_back(fmt::format("{} tensor parallel {} x pipeline parallel {}: tensor parallel must "
                                            "divide the {} attention heads",
                                            engine.display, c.count / p.pipeline_parallel, p.pipeline_parallel,
                                            m.typical_layer().n_head));
        if (c.nodes > 1)
            c.reasons.push_back(
                fmt::format("needs {} nodes ({} GPUs): {}", c.nodes, c.count,
                            engine.tensor_parallel
                                ? fmt::format("{} tensor parallel {} x pipeline parallel {}{}", engine.display,
                                              c.count / p.pipeline_parallel, p.pipeline_parallel,
                                              detail::traits_of(base.engine).spans_nodes
                                                  ? ""
                                                  : fmt::format(" ({} cannot span nodes)", engine_name(base.engine)))
                                : fmt::format("{} layer split over RPC", engine.display)));
    } else {
        c.fits = true; // the table has no RAM figure: assume the machine is built with enough
        c.findings.push_back(make_reason(reason_code::fits, 0));
        c.reasons.push_back(
            fmt::format("memory not in the table: needs {} of RAM", gib_text(static_cast<double>(need))));
    }

    // Tensor parallel (vLLM) reads 1/N of the bytes on each GPU at once; layer splits and pipeline
    // stages run in turn for one token.
    const unsigned parallel = engine.tensor_parallel ? c.count / std::max(1u, p.pipeline_parallel) : 1;
    const chip_rates chip   = chip_of(d, p.engine, p.device);
    // Speeds are priced for one turn (src/plan/turn.h): a chat turn unless --prompt is given.
    const turn_shape turn = turn_of(p);
    // Parts in RAM (-ngl below n_layer, or experts via --n-cpu-moe, planned here or asked for).
    const bool host_part = engine.offloads_to_host && p.device == device_kind::cuda &&
                           (off || p.cpu_moe_layers > 0 || (p.gpu_layers >= 0 && p.gpu_layers < m.n_layer));
    if (host_part && pl.bandwidth) {
        // Layers run in turn: the GPU's share at its bandwidth, then the RAM's share at the host's.
        const auto host_bw = d.host_memory_bandwidth_bytes_per_s;
        if (host_bw)
            c.decode_tokens_per_s =
                offload_decode_tokens_per_s(m, *est, p, chip, static_cast<double>(*host_bw), turn.decode_depth());
        else {
            c.reasons.push_back("host memory bandwidth not in the table: no decode speed with offload");
            c.findings.push_back(make_reason(reason_code::speed_unknown));
        }
    } else if (chip.bandwidth_bytes_per_s > 0) { // engine-aware step time (src/plan/speed.h)
        const auto step = decode_step(m, *est, p, chip, parallel, turn.decode_depth());
        // llama.cpp's layer split over the GPUs of one node: a hand-over at each GPU boundary.
        const bool split = engine.ggml_kernels && !engine.tensor_parallel && p.device == device_kind::cuda &&
                           c.count > 1 && c.nodes == 1;
        const double hops = split ? static_cast<double>(c.count - 1) * llamacpp_layer_split_hop_s : 0.0;
        if (step.seconds > 0) c.decode_tokens_per_s = static_cast<double>(p.batch) / (step.seconds + hops);
    } else {
        c.reasons.push_back("memory bandwidth not in the table: decode speed unknown");
        c.findings.push_back(make_reason(reason_code::speed_unknown));
    }
    const std::uint64_t prompt_tokens = turn.prompt;
    c.prefill_tokens_per_s            = prefill_tokens_per_s(m, p, chip, parallel, prompt_tokens, turn.cached);
    if (host_part && est)
        c.prefill_tokens_per_s = offload_prefill_tokens_per_s(c.prefill_tokens_per_s, *est, p, prompt_tokens);
    // llama.cpp's layer split on the GPUs of one node overlaps prompt micro-batches (pipeline
    // parallelism: every layer offloaded; the RPC backend across nodes is left at one GPU's rate).
    // Each micro-batch hands its activations over at every GPU boundary (src/plan/layer_split_prefill.h).
    else if (engine.ggml_kernels && !engine.tensor_parallel && p.device == device_kind::cuda && c.count > 1 &&
             c.nodes == 1) {
        const std::uint64_t ubatch = std::min(p.n_ubatch, p.n_batch);
        c.prefill_tokens_per_s =
            llamacpp_split_prefill_tokens_per_s(c.prefill_tokens_per_s, m, prompt_tokens, ubatch, c.count) *
            llamacpp_pipeline_speedup(prompt_tokens, ubatch, c.count);
    }
    const double prompt      = static_cast<double>(prompt_tokens) * static_cast<double>(p.batch);
    c.ttft_s                 = c.prefill_tokens_per_s > 0 ? prompt / c.prefill_tokens_per_s : 0;
    const double per_request = c.decode_tokens_per_s / static_cast<double>(p.batch);
    // Unknown speed is not "fast enough", and an unknown prefill rate is not a short first-token wait.
    c.meets_speed = c.decode_tokens_per_s > 0 && c.prefill_tokens_per_s > 0 && per_request >= o.min_tokens_per_s &&
                    c.ttft_s <= o.max_ttft_s;
    if (c.prefill_tokens_per_s <= 0) {
        c.reasons.push_back("compute rate not in the table: prefill speed and first-token wait unknown");
        c.findings.push_back(make_reason(reason_code::speed_unknown));
    }
    if (c.decode_tokens_per_s > 0 && per_request < o.min_tokens_per_s) {
        c.reasons.push_back(fmt::format("slow: {} tokens/s per request, {:.1f} wanted", tokens_per_s_text(per_request),
                                        o.min_tokens_per_s));
        auto r         = make_reason(reason_code::slow);
        r.tokens_per_s = per_request;
        r.wanted       = o.min_tokens_per_s;
        c.findings.push_back(r);
    }
    if (c.ttft_s > o.max_ttft_s) {
        c.reasons.push_back(fmt::format("first token after {:.0f} s ({:.0f} prompt tokens), {:.0f} s wanted", c.ttft_s,
                                        prompt, o.max_ttft_s));
        auto r    = make_reason(reason_code::slow_first_token);
        r.wanted  = o.max_ttft_s;
        r.seconds = c.ttft_s;
        c.findings.push_back(r);
    }
    if (c.meets_speed) {
        auto r         = make_reason(reason_code::fast_enough);
        r.tokens_per_s = per_request;
        r.seconds      = c.ttft_s;
        c.findings.push_back(r);
    }

    detail::describe_purchase(c, d);
    // Will it run at all: the chip's features against the engine and dtype (plan/features.cpp).
    auto features       = detail::check_features(m, p, d);
    c.unsupported       = std::move(features.unsupported);
    c.requires_versions = std::move(features.versions);
    for (const auto& u : c.unsupported)
        c.reasons.push_back("will not run as planned: " + u);
    if (!features.engine_runs) c.meets_speed = false;
    if (!features.weights_run && c.fits) { // memory is not enough: it must run
        c.fits        = false;
        c.meets_speed = false;
        c.reasons.push_back("does not fit as planned: this GPU cannot run these weights");
    }
    if (auto cost = hourly_cost(d, c.count, c.nodes, o)) {
        c.cost_per_hour_usd           = cost->usd_per_hour;
        c.power_w                     = cost->power_w;
        c.idle_power_w                = cost->idle_power_w;
        c.cost_per_million_tokens_usd = cost_per_million_tokens(*cost, c.decode_tokens_per_s, o);
        if (!cost->reason.empty()) c.reasons.push_back(std::move(cost->reason));
    }
    if (!c.cost_per_hour_usd) c.findings.push_back(make_reason(reason_code::no_price));
    c.answer_kinds = answer_kinds_of(d);
    // SGLang's --mem-fraction-static in the line follows the GPU's memory (engine_sglang.cpp).
    inference_params lp = p;
    if (p.engine == engine_kind::sglang && pl.memory_bytes) lp.device_memory_bytes = *pl.memory_bytes;
    c.launch = detail::launch_lines(m, lp, c.count, c.nodes, detail::has_bf16(d));
    return c;
}

plan_result make_plan(const model_desc& m, const inference_params& p, const std::vector<const device_spec*>& candidates,
                      const plan_options& o) {
    plan_result r;
    r.options = o;
    detail::estimate_memo memo;
    std::vector<std::pair<plan_candidate, const device_spec*>> rows;
    for (const device_spec* d : candidates)
        if (d && (o.kinds == 0 || d->kind == hardware_kind::local || (answer_kinds_of(*d) & o.kinds) != 0))
            rows.emplace_back(detail::evaluate(m, p, *d, o, memo), d);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return cheapest_first(a.first, b.first); });
    // Among the rows that fit, those that run as planned come first (issue 25, finding 10: an fp8 plan
    // recommended A100s that "will not run as planned"); each group keeps its order.
    std::stable_partition(rows.begin(), rows.end(),
                          [](const auto& x) { return !x.first.fits || x.first.unsupported.empty(); });
    std::stable_partition(rows.begin(), rows.end(), [](const auto& x) { return x.first.fits; });
    for (auto& row : rows)
        r.candidates.push_back(std::move(row.first));
    r.answers = detail::kind_answers(r.candidates, o);
    // Ways to fit: for every row that does not fit (the memo shares their estimates).
    for (std::size_t i = 0; i < r.candidates.size(); ++i) {
        auto& c = r.candidates[i];
        if (!c.fits && p.gpus <= 1) c.fit_options = detail::ways_to_fit(m, p, *rows[i].second, c, o, memo);
    }
    r.cpu_or_gpu = detail::cpu_or_gpu(r.candidates, o);
    // This machine when it already does the job; else, when a CPU is enough, the CPU that costs
    // least per hour to have (at low traffic the hours, not the tokens, are what is paid for) unless
    // a GPU that does the job costs less an hour; else
    // the cheapest per token that fits and is fast enough; else the cheapest that fits.
    const plan_candidate* pick = nullptr;
    std::string because;
    for (const auto& c : r.candidates)
        if (c.kind == candidate_kind::local && c.fits && c.meets_speed) {
            pick    = &c;
            because = fmt::format("this machine already runs it at {:.0f} tokens/s: nothing to buy or rent",
                                  c.decode_tokens_per_s);
        }
    if (!pick && r.cpu_or_gpu && r.cpu_or_gpu->choice == "cpu") {
        for (const auto& c : r.candidates)
            if (c.fits && c.meets_speed && c.runs_on == device_kind::cpu && c.cost_per_hour_usd &&
                (!pick || *c.cost_per_hour_usd < *pick->cost_per_hour_usd))
                pick = &c;
        // Only while no accelerator that does the job costs less an hour to keep: a CPU instance at
        // $4/h is not the cheap choice beside a $0.03/h card or a $1.5/h GPU instance.
        for (const auto& c : r.candidates)
            if (pick && c.fits && c.meets_speed && c.runs_on != device_kind::cpu && c.cost_per_hour_usd &&
                *c.cost_per_hour_usd < *pick->cost_per_hour_usd)
                pick = nullptr;
        if (pick)
            because = fmt::format("a CPU is enough; the cheapest to keep: ${:.3f}/h, {:.0f} tokens/s",
                                  *pick->cost_per_hour_usd, pick->decode_tokens_per_s);
    }
    if (!pick)
        for (const auto& c : r.candidates)
            if (c.fits && c.meets_speed) {
                pick = &c;
                because =
                    c.cost_per_million_tokens_usd
                        ? fmt::format("cheapest that fits and is fast enough: ${:.3f} per million tokens at {:.0f} "
                                      "tokens/s",
                                      *c.cost_per_million_tokens_usd, c.decode_tokens_per_s)
                        : fmt::format("fits and is fast enough; no price known; {:.0f} tokens/s",
                                      c.decode_tokens_per_s);
                break;
            }
    if (!pick && !r.candidates.empty() && r.candidates.front().fits) {
        pick    = &r.candidates.front();
        because = fmt::format("nothing is as fast as wanted; the cheapest that fits: {:.0f} tokens/s",
                              pick->decode_tokens_per_s);
    }
    if (pick) {
        // A cloud pick is counted in instances ("1 x gpu_8x_a100"), not in the GPUs they hold.
        plan_recommendation rec{pick->hardware, pick->instances > 0 ? pick->instances : pick->count, pick->reasons,
                                static_cast<std::size_t>(pick - r.candidates.data())};
        rec.why.push_back(std::move(because));
        r.recommendation = std::move(rec);
    }
    // Ways to do better where it fits, on the rows a person reads first: this machine, the best of
    // each kind and the recommended one.
    std::vector<std::size_t> read_first;
    for (std::size_t i = 0; i < r.candidates.size(); ++i)
        if (r.candidates[i].kind == candidate_kind::local) read_first.push_back(i);
    for (const auto& a : r.answers)
        read_first.push_back(a.index);
    if (r.recommendation) read_first.push_back(r.recommendation->index);
    for (std::size_t i : read_first) {
        auto& c = r.candidates[i];
        if (c.fits && c.better_options.empty())
            c.better_options = detail::ways_to_do_better(m, p, *rows[i].second, c, o, memo);
    }
    // The launch lines of each way to fit stay on those rows only (the rest of the table has its
    // settings; --json stays small).
    std::vector<bool> keep(r.candidates.size(), false);
    for (std::size_t i : read_first)
        keep[i] = true;
    for (std::size_t i = 0; i < r.candidates.size(); ++i)
        if (!keep[i])
            for (auto& f : r.candidates[i].fit_options)
                f.launch.clear();
    return r;
}

} // namespace llmplan

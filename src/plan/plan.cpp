// make_plan: fit the estimate on each candidate, add roofline speed and cost, sort, recommend.
#include "llmplan/plan.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace llmplan {
namespace {

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

/// How one candidate is run: the estimate's device, memory per device, GPUs to try.
struct placement {
    std::string kind;
    device_kind device = device_kind::cuda;
    std::optional<std::uint64_t> memory_bytes; ///< per device; empty: not in the table
    std::optional<std::uint64_t> bandwidth;
    double flops = 0;
    std::vector<unsigned> counts; ///< GPU counts to try, fewest first
    double efficiency = decode_efficiency_gpu;
};

placement place(const device_spec& d) {
    placement pl;
    const auto flops = d.fp16_flops ? *d.fp16_flops : d.fp32_flops ? *d.fp32_flops : 0.0;
    auto as_cpu      = [&](std::string kind) {
        pl.kind         = std::move(kind);
        pl.device       = device_kind::cpu;
        pl.memory_bytes = d.host_memory_bytes;
        pl.bandwidth =
            d.host_memory_bandwidth_bytes_per_s ? d.host_memory_bandwidth_bytes_per_s : d.memory_bandwidth_bytes_per_s;
        pl.flops      = d.fp32_flops.value_or(0);
        pl.counts     = {1};
        pl.efficiency = decode_efficiency_cpu;
    };
    auto as_gpu = [&](std::string kind, std::vector<unsigned> counts) {
        pl.kind         = std::move(kind);
        pl.device       = d.unified_memory ? device_kind::metal : device_kind::cuda;
        pl.memory_bytes = d.memory_bytes;
        pl.bandwidth    = d.memory_bandwidth_bytes_per_s;
        pl.flops        = flops;
        pl.counts       = std::move(counts);
    };
    switch (d.kind) {
    case hardware_kind::gpu:
        as_gpu("gpu", {1, 2, 4, 8});
        break;
    case hardware_kind::apple:
        as_gpu("apple", {1});
        break;
    case hardware_kind::cpu:
        as_cpu("cpu");
        break;
    case hardware_kind::laptop:
        if (d.has_accelerator())
            as_gpu(d.unified_memory ? "apple" : "gpu", {d.gpu_count});
        else
            as_cpu("cpu");
        break;
    case hardware_kind::cloud:
        if (d.has_accelerator())
            as_gpu("cloud", {d.gpu_count});
        else
            as_cpu("cloud");
        break;
    case hardware_kind::local:
        if (d.has_accelerator())
            as_gpu("local", {d.gpu_count});
        else
            as_cpu("local");
        break;
    }
    return pl;
}

std::string gib_str(double bytes) {
    return fmt::format("{:.1f} GiB", bytes / gib);
}

std::string gguf_name(const model_desc& m, const inference_params& p) {
    if (m.from_gguf) return m.id;
    std::string base        = m.id.substr(m.id.find_last_of('/') + 1);
    const std::string ftype = p.weights.format == weight_format::gguf ? p.weights.gguf_ftype : "f16";
    return base + "-" + ftype + ".gguf";
}

/// Ollama (runs GGUF files on llama.cpp) sets the context per model in a Modelfile line
/// `PARAMETER num_ctx N` (docs/modelfile.md; the API takes the same as {"options": {"num_ctx": N}}).
/// num_ctx is per request; parallel requests come from the server's OLLAMA_NUM_PARALLEL (docs/faq.md),
/// and Ollama allocates num_ctx x that many slots, as llama-server's -c above.
std::string ollama_line(const std::string& gguf, const inference_params& p) {
    std::string tag = gguf.substr(0, gguf.rfind(".gguf"));
    tag             = tag.substr(tag.find_last_of('/') + 1);
    std::transform(tag.begin(), tag.end(), tag.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    std::string s = fmt::format("printf 'FROM {}\\nPARAMETER num_ctx {}\\n' > Modelfile && ollama create {} -f "
                                "Modelfile && ollama run {}",
                                gguf.find('/') == std::string::npos ? "./" + gguf : gguf, p.ctx, tag, tag);
    if (p.batch > 1) s = fmt::format("OLLAMA_NUM_PARALLEL={} ollama serve & ", p.batch) + s;
    return s;
}

std::vector<std::pair<std::string, std::string>> launch_lines(const model_desc& m, const inference_params& p,
                                                              unsigned count) {
    std::vector<std::pair<std::string, std::string>> out;
    if (p.engine == engine_kind::llama_cpp) {
        // llama-server's -c is the context of all slots together: ctx x parallel sequences.
        std::string s = fmt::format("llama-server -m {} -c {} -ngl {} -np {}", gguf_name(m, p), p.ctx * p.batch,
                                    p.device == device_kind::cpu ? 0 : 99, p.batch);
        if (p.flash_attn) s += " -fa on";
        if (p.kv_type) s += fmt::format(" -ctk {0} -ctv {0}", name(*p.kv_type));
        out.emplace_back("llama.cpp", std::move(s));
        out.emplace_back("ollama", ollama_line(gguf_name(m, p), p));
    } else if (p.engine == engine_kind::vllm && p.device == device_kind::cuda) {
        out.emplace_back("vllm", fmt::format("vllm serve {} --tensor-parallel-size {} --max-model-len {} "
                                             "--gpu-memory-utilization {} --max-num-seqs {}",
                                             m.id, count, p.ctx, p.gpu_memory_utilization, p.batch));
    }
    return out;
}

plan_candidate evaluate(const model_desc& m, const inference_params& base, const device_spec& d,
                        std::uint64_t active_params) {
    const placement pl = place(d);
    plan_candidate c;
    c.hardware            = d.name;
    c.kind                = pl.kind;
    inference_params p    = base;
    p.device              = pl.device;
    p.device_memory_bytes = 0; // the estimate reports what the plan needs, not a vLLM pool
    if (p.device != device_kind::cuda && p.engine == engine_kind::vllm) p.engine = engine_kind::llama_cpp;
    // vLLM pre-allocates gpu_memory_utilization of each GPU; the rest must hold the estimate.
    const double usable = p.engine == engine_kind::vllm ? p.gpu_memory_utilization : 1.0;

    std::optional<inference_estimate> est;
    std::int64_t need = 0;
    for (unsigned n : pl.counts) {
        p.gpus = p.device == device_kind::cpu ? 1 : std::max(1u, n);
        auto e = estimate_inference(m, p);
        if (!e) {
            c.reasons.push_back(fmt::format("cannot estimate: {}", e.error().what()));
            return c;
        }
        need = 0;
        for (const auto& dev : e->devices)
            need = std::max(need, dev.total_bytes());
        c.count = n;
        est     = std::move(*e);
        if (pl.memory_bytes && need <= static_cast<std::int64_t>(usable * static_cast<double>(*pl.memory_bytes))) break;
    }
    if (pl.memory_bytes) {
        const auto have  = static_cast<std::int64_t>(usable * static_cast<double>(*pl.memory_bytes));
        c.fits           = need <= have;
        c.headroom_bytes = have - need;
        if (c.fits)
            c.reasons.push_back(fmt::format("fits with {} headroom", gib_str(static_cast<double>(c.headroom_bytes))));
        else
            c.reasons.push_back(fmt::format("does not fit: needs {}, has {}", gib_str(static_cast<double>(need)),
                                            gib_str(static_cast<double>(have))));
        if (c.count > 1 && d.kind == hardware_kind::gpu) c.reasons.push_back(fmt::format("needs {} GPUs", c.count));
    } else {
        c.fits = true; // the table has no RAM figure: assume the machine is built with enough
        c.reasons.push_back(
            fmt::format("memory not in the table: needs {} of RAM", gib_str(static_cast<double>(need))));
    }

    // Tensor parallel (vLLM) reads 1/N of the bytes on each GPU at once; layer splits run in turn.
    const unsigned parallel = p.engine == engine_kind::vllm ? c.count : 1;
    if (pl.bandwidth) // engine-aware step time (include/llmplan/speed.h)
        c.decode_tokens_per_s =
            decode_tokens_per_s(m, *est, p, static_cast<double>(*pl.bandwidth), pl.efficiency, parallel);
    else
        c.reasons.push_back("memory bandwidth not in the table: no decode speed");
    c.prefill_tokens_per_s = prefill_tokens_per_s(active_params, pl.flops, parallel);

    if (d.price_usd_per_hour) {
        c.cost_per_hour_usd = *d.price_usd_per_hour;
    } else if (d.price_usd) {
        const unsigned units = d.kind == hardware_kind::gpu ? c.count : 1;
        c.cost_per_hour_usd  = *d.price_usd * units / amortization_hours;
        c.reasons.push_back(
            fmt::format("cost: ${:.0f} purchase over 3 years of use, power not counted", *d.price_usd * units));
    }
    if (c.cost_per_hour_usd && c.decode_tokens_per_s > 0)
        c.cost_per_million_tokens_usd = *c.cost_per_hour_usd / (c.decode_tokens_per_s * 3600.0) * 1e6;
    c.launch = launch_lines(m, p, c.count);
    return c;
}

} // namespace

plan_result make_plan(const model_desc& m, const inference_params& p,
                      const std::vector<const device_spec*>& candidates) {
    plan_result r;
    const auto active = count_params(m).active;
    for (const device_spec* d : candidates)
        if (d) r.candidates.push_back(evaluate(m, p, *d, active));
    std::stable_sort(r.candidates.begin(), r.candidates.end(), [](const plan_candidate& a, const plan_candidate& b) {
        if (a.fits != b.fits) return a.fits;
        if (!a.fits) return a.headroom_bytes > b.headroom_bytes; // closest to fitting first
        const bool ac = a.cost_per_million_tokens_usd.has_value(), bc = b.cost_per_million_tokens_usd.has_value();
        if (ac != bc) return ac;
        if (ac && *a.cost_per_million_tokens_usd != *b.cost_per_million_tokens_usd)
            return *a.cost_per_million_tokens_usd < *b.cost_per_million_tokens_usd;
        return a.decode_tokens_per_s > b.decode_tokens_per_s;
    });
    if (!r.candidates.empty() && r.candidates.front().fits) {
        const auto& c = r.candidates.front();
        plan_recommendation rec{c.hardware, c.count, c.reasons};
        if (c.cost_per_million_tokens_usd)
            rec.why.push_back(fmt::format("cheapest that fits: ${:.3f} per million tokens at {:.0f} tokens/s",
                                          *c.cost_per_million_tokens_usd, c.decode_tokens_per_s));
        else
            rec.why.push_back(fmt::format("fits; no price known; {:.0f} tokens/s", c.decode_tokens_per_s));
        r.recommendation = std::move(rec);
    }
    return r;
}

} // namespace llmplan

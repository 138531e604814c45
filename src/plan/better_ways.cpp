// Ways to do better where the model already fits (issue 25, finding 2): a 16 GB laptop that runs an
// 8B in bf16 with transformers at 2.9 tokens/s runs its Q4_K_M with llama.cpp at about three times
// that. Each way is the request changed in one respect and evaluated again by the plan's own
// estimators, with what it costs beside memory.
#include "estimate/engine_traits.h"
#include "plan/detail.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace llmplan::detail {
namespace {

/// A faster way must be worth the change: at least this much faster than what the row runs now.
constexpr double worth_it = 1.2;

/// GGUF quants offered, with the quality they cost: llama-quantize's own table of perplexity added
/// on wikitext-2 at Llama-3-8B (tools/quantize/quantize.cpp QUANT_OPTIONS in ggml-org/llama.cpp,
/// 2024-2026 releases: Q8_0 +0.0026, Q6_K +0.0217, Q5_K_M +0.0569, Q4_K_M +0.1754; the model's
/// own perplexity there is about 6.23). Q4_K_M is the type llama.cpp's -hf and Ollama pull by default.
struct quant_cost {
    std::string_view name;
    double ppl_added;
};
constexpr std::array<quant_cost, 3> quants = {
    {{"q8_0", 0.0026}, {"q5_k_m", 0.0569}, {"q4_k_m", 0.1754}}
};

/// Bits a weight of what the row runs now, for "a smaller quant than this" (16 for 16-bit weights).
double bits_now(const weight_choice& w) {
    if (w.format != weight_format::gguf) return is_quantized(w.format) ? 4.0 : 16.0;
    if (w.gguf_ftype == "q8_0") return 8.5;
    if (w.gguf_ftype == "q6_k") return 6.6;
    if (w.gguf_ftype == "q5_k_m") return 5.7;
    if (w.gguf_ftype == "f16" || w.gguf_ftype == "bf16" || w.gguf_ftype == "f32") return 16.0;
    return 4.9; // q4_k_m and smaller: nothing smaller is offered
}

double bits_of(std::string_view q) {
    return q == "q8_0" ? 8.5 : q == "q5_k_m" ? 5.7 : 4.9; // llama-quantize's sizes for a 7B (fit_ways.cpp)
}

} // namespace

std::vector<fit_option> ways_to_do_better(const model_desc& m, const inference_params& base, const device_spec& d,
                                          const plan_candidate& c, const plan_options& o, estimate_memo& memo) {
    std::vector<fit_option> out;
    if (!c.fits || m.from_gguf || m.quant.method != quant_method::none || base.gpus > 1 || c.nodes > 1) return out;
    const device_kind where = c.runs_on.value_or(device_kind::cuda);
    const auto& engine      = traits_of(engine_on(base.engine, where));
    // vLLM and SGLang on a GPU serve their own quantized checkpoints (AWQ, FP8): not a GGUF question.
    if (!engine.runs_gguf && where == device_kind::cuda) return out;
    const bool to_llama = !engine.runs_gguf;
    const double now    = bits_now(base.weights);
    for (const auto& q : quants) {
        if (bits_of(q.name) >= now) continue;
        inference_params p     = base;
        p.engine               = engine_kind::llama_cpp;
        p.weights              = weight_choice{weight_format::gguf, std::string(q.name)};
        const plan_candidate e = evaluate(m, p, d, o, memo);
        if (!e.fits || e.decode_tokens_per_s < worth_it * c.decode_tokens_per_s) continue;
        fit_option f;
        f.way                 = fit_way::smaller_quant;
        f.setting             = fmt::format("{}--weights {}", to_llama ? "--engine llama.cpp " : "", q.name);
        f.fits                = true;
        f.headroom_bytes      = e.headroom_bytes;
        f.decode_tokens_per_s = e.decode_tokens_per_s;
        f.cost =
            fmt::format("{:.1f}x the speed; quality: +{:.4g} perplexity on Llama-3-8B (llama-quantize's table)",
                        c.decode_tokens_per_s > 0 ? e.decode_tokens_per_s / c.decode_tokens_per_s : 0.0, q.ppl_added);
        if (to_llama) f.cost += "; a GGUF file of the model";
        f.launch = e.launch;
        out.push_back(std::move(f));
    }
    std::stable_sort(out.begin(), out.end(), [](const fit_option& a, const fit_option& b) {
        return a.decode_tokens_per_s > b.decode_tokens_per_s;
    });
    return out;
}

} // namespace llmplan::detail

#include "llmplan/fit.h"

#include "estimate/bisect.h"
#include "estimate/engine_traits.h"

#include <algorithm>

namespace llmplan {
namespace {

bool fits(const model_desc& m, const inference_params& p, std::uint64_t budget) {
    auto e = estimate_inference(m, p);
    return e && memory_need(*e, p.device) <= static_cast<std::int64_t>(budget);
}

} // namespace

std::int64_t memory_need(const inference_estimate& e, device_kind placed) {
    std::int64_t need   = 0;
    bool on_accelerator = false;
    for (const auto& d : e.devices)
        if (placed == device_kind::cpu || d.kind != device_kind::cpu) {
            need           = std::max(need, d.total_bytes());
            on_accelerator = true;
        }
    if (!on_accelerator)
        for (const auto& d : e.devices)
            need = std::max(need, d.total_bytes());
    return std::max<std::int64_t>(need, 0);
}

fit_answer fit_in_memory(const model_desc& m, const inference_params& p, std::uint64_t budget) {
    fit_answer a;
    a.budget_bytes  = budget;
    a.fits_as_asked = fits(m, p, budget);
    // Up to the model's trained context (or 1M tokens when unknown), in steps of 256 tokens.
    const std::uint64_t ctx_cap = std::max<std::uint64_t>(256, m.n_ctx_train ? m.n_ctx_train : 1u << 20);
    a.max_ctx                   = 256 * detail::largest_true(ctx_cap / 256, [&](std::uint64_t k) {
                    auto q   = p;
                    q.ctx    = k * 256;
                    q.prompt = std::min(q.prompt, q.ctx);
                    return fits(m, q, budget);
                });
    a.max_batch                 = detail::largest_true(4096, [&](std::uint64_t b) {
        auto q  = p;
        q.batch = b;
        return fits(m, q, budget);
    });
    // Highest precision first: the first that fits is the best quality the budget allows.
    const char* gguf[]  = {"f16", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k", "iq2_xxs"};
    const char* torch[] = {"bf16", "fp8", "int8", "awq", "nf4"};
    auto try_all        = [&](auto& names) {
        for (const char* w : names) {
            auto q    = p;
            q.weights = *parse_weight_choice(w);
            if (fits(m, q, budget)) return std::string(w);
        }
        return std::string{};
    };
    if (detail::traits_of(p.engine).runs_gguf)
        a.best_weights = try_all(gguf);
    else
        a.best_weights = try_all(torch);
    return a;
}

} // namespace llmplan

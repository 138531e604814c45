#include "llmplan/training_fit.h"

#include "estimate/bisect.h"

#include <algorithm>
#include <vector>

namespace llmplan {
namespace {

bool fits(const model_desc& m, const training_params& p, std::uint64_t budget) {
    auto e = estimate_training(m, p);
    return e && training_memory_need(*e) <= static_cast<std::int64_t>(budget);
}

std::string describe(const training_params& p) {
    static constexpr const char* methods[]    = {"full", "lora", "qlora"};
    static constexpr const char* optimizers[] = {"adamw", "adamw-8bit", "sgd", "adafactor"};
    static constexpr const char* precisions[] = {"fp32", "bf16-mixed", "fp16-mixed", "bf16"};
    std::string s                             = std::string(methods[static_cast<int>(p.method)]) + ", " +
                    precisions[static_cast<int>(p.precision)] + ", " + optimizers[static_cast<int>(p.optimizer)];
    if (p.zero_stage > 0) s += ", ZeRO " + std::to_string(p.zero_stage);
    if (p.offload_optimizer) s += ", optimizer offloaded to CPU";
    return s;
}

} // namespace

std::int64_t training_memory_need(const training_estimate& e) {
    std::int64_t need = 0;
    for (const auto& d : e.devices)
        if (d.kind == device_kind::cuda) need = std::max(need, d.total_bytes());
    return need;
}

training_fit_answer fit_training(const model_desc& m, const training_params& p, std::uint64_t budget) {
    training_fit_answer a;
    a.budget_bytes  = budget;
    a.fits_as_asked = fits(m, p, budget);
    // Up to the model's trained context (1M tokens when unknown), in steps of 256 tokens, within the
    // estimator's bound of 2^30 tokens a micro-batch.
    const std::uint64_t cap = std::min<std::uint64_t>(
        m.n_ctx_train ? m.n_ctx_train : 1u << 20, (std::uint64_t{1} << 30) / std::max<std::uint64_t>(1, p.micro_batch));
    a.max_seq         = 256 * detail::largest_true(cap / 256, [&](std::uint64_t k) {
                    auto q = p;
                    q.seq  = k * 256;
                    return fits(m, q, budget);
                });
    a.max_micro_batch = detail::largest_true(
        std::min<std::uint64_t>(4096, (std::uint64_t{1} << 30) / std::max<std::uint64_t>(1, p.seq)),
        [&](std::uint64_t b) {
            auto q        = p;
            q.micro_batch = b;
            return fits(m, q, budget);
        });
    // Most capable first: full fine-tuning (mixed precision, then pure bf16, then 8-bit states),
    // sharded further on several GPUs, the optimizer offloaded, then LoRA and QLoRA.
    struct setup {
        train_method method;
        train_precision precision;
        optimizer_kind optimizer;
    };
    const setup setups[] = {
        {train_method::full,  train_precision::bf16_mixed, optimizer_kind::adamw     },
        {train_method::full,  train_precision::bf16,       optimizer_kind::adamw     },
        {train_method::full,  train_precision::bf16,       optimizer_kind::adamw_8bit},
        {train_method::lora,  train_precision::bf16_mixed, optimizer_kind::adamw     },
        {train_method::qlora, train_precision::bf16_mixed, optimizer_kind::adamw     },
    };
    std::vector<std::uint32_t> stages{0};
    if (p.gpus > 1) stages = {0, 1, 2, 3};
    for (const auto& s : setups) {
        for (bool offload : {false, true}) {
            if (offload && s.method != train_method::full) continue;
            for (std::uint32_t z : stages) {
                auto q              = p;
                q.method            = s.method;
                q.precision         = s.precision;
                q.optimizer         = s.optimizer;
                q.zero_stage        = offload ? std::max<std::uint32_t>(z, 2) : z; // ZeRO-Offload needs stage >= 1
                q.offload_optimizer = offload;
                // The asked --weights hold for the asked method only (a GPTQ base cannot be fully trained).
                q.weights = s.method == p.method ? p.weights : weight_choice{};
                if (fits(m, q, budget)) {
                    a.best_setup  = describe(q);
                    a.best_params = q;
                    return a;
                }
            }
        }
    }
    return a;
}

} // namespace llmplan

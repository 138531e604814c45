#include "llmplan/training_fit.h"

#include "estimate/bisect.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace llmplan {
namespace {

bool fits(const model_desc& m, const training_params& p, std::uint64_t budget) {
    auto e = estimate_training(m, p);
    return e && training_memory_need(*e) <= static_cast<std::int64_t>(budget);
}

std::string describe(const training_params& p) {
    std::string s = std::string(to_string(p.method)) + ", " + std::string(to_string(p.precision)) + ", " +
                    std::string(to_string(p.optimizer));
    if (p.grad_checkpointing) s += ", gradient checkpointing";
    if (p.zero_stage > 0) s += ", ZeRO " + std::to_string(p.zero_stage);
    if (p.offload_optimizer) s += ", optimizer offloaded to CPU";
    return s;
}

// The command-line options that turn `from` into `to` (only those that differ).
std::string options_between(const training_params& from, const training_params& to) {
    std::string s;
    auto add = [&s](const std::string& o) { s += (s.empty() ? "" : " ") + o; };
    if (to.method != from.method) add(std::string("--method ") + std::string(to_string(to.method)));
    if (to.precision != from.precision) add(std::string("--precision ") + std::string(to_string(to.precision)));
    if (to.optimizer != from.optimizer) add(std::string("--optimizer ") + std::string(to_string(to.optimizer)));
    if (to.grad_checkpointing != from.grad_checkpointing)
        add(std::string("--grad-checkpointing ") + (to.grad_checkpointing ? "on" : "off"));
    if (to.zero_stage != from.zero_stage) add("--zero " + std::to_string(to.zero_stage));
    if (to.offload_optimizer != from.offload_optimizer)
        add(std::string("--offload-optimizer ") + (to.offload_optimizer ? "on" : "off"));
    if (to.trainer != from.trainer) add("--trainer " + to.trainer);
    if (to.lora_rank != from.lora_rank && to.method != train_method::full)
        add("--lora-rank " + std::to_string(to.lora_rank));
    return s;
}

// The changes that lower memory without changing what is trained, by what each costs (the rank):
//  1 ZeRO 1 or 2 on several GPUs: no extra compute, and reduce-scatter + all-gather move as much as
//    DDP's all-reduce (Rajbhandari et al. 2020, "ZeRO", sec. 7.2.1);
//  2 8-bit AdamW (bitsandbytes): no extra compute, 32-bit Adam's accuracy (Dettmers et al. 2022,
//    "8-bit Optimizers via Block-wise Quantization");
//  3 gradient checkpointing: one more forward per step, a third more FLOPs for full fine-tuning
//    ((6 + 2) / 6 per token, estimate_training's flops_per_token);
//  4 ZeRO 3: 1.5x DDP's communication volume (ZeRO sec. 7.2.2);
//  5 the optimizer offloaded to host RAM: the step runs on the CPU (ZeRO-Offload; DeepSpeed needs a
//    stage >= 1 for it, stage 2 is what its examples use).
// A combination costs what its most costly change costs, then more changes cost more.
struct variant {
    training_params q;
    int worst = 0, count = 0;
};

std::vector<variant> variants_of(const training_params& base) {
    std::vector<std::uint32_t> stages{base.zero_stage};
    if (base.gpus > 1)
        for (std::uint32_t z = base.zero_stage + 1; z <= 3; ++z)
            stages.push_back(z);
    std::vector<variant> out;
    for (std::uint32_t z : stages)
        for (bool eight : {false, true})
            for (bool ckpt : {false, true})
                for (bool offload : {false, true}) {
                    if (eight && base.optimizer != optimizer_kind::adamw) continue;
                    if (ckpt && base.grad_checkpointing) continue;
                    if (offload && (base.offload_optimizer || base.method != train_method::full)) continue;
                    variant v{base, 0, 0};
                    auto take = [&v](int rank) {
                        v.worst = std::max(v.worst, rank);
                        ++v.count;
                    };
                    if (z != base.zero_stage) {
                        v.q.zero_stage = z;
                        take(z == 3 ? 4 : 1);
                    }
                    if (eight) {
                        v.q.optimizer = optimizer_kind::adamw_8bit;
                        take(2);
                    }
                    if (ckpt) {
                        v.q.grad_checkpointing = true;
                        take(3);
                    }
                    if (offload) {
                        v.q.offload_optimizer = true;
                        v.q.zero_stage        = std::max<std::uint32_t>(v.q.zero_stage, 2);
                        take(5);
                    }
                    out.push_back(v);
                }
    std::stable_sort(out.begin(), out.end(), [](const variant& a, const variant& b) {
        return std::tie(a.worst, a.count) < std::tie(b.worst, b.count);
    });
    return out;
}

// The cheapest variant of `base` that fits, if any. When none does, the same is asked again of what
// changes the tool or the adapters rather than the memory-saving settings (issue 25, finding 7: QLoRA
// of a 32B on one 24 GB card fits with unsloth, not with the default trainer):
//  6 another trainer: unsloth (trainer_table()'s row: checkpoints offloaded to host RAM, its fused
//    loss, no dropout copy), the same model trained with another framework;
//  7 a lower LoRA rank (8, then 4): fewer adapter parameters, so fewer that learn (LoRA, Hu et al.
//    2021, Table 6: rank 4-8 already matches rank 64 on GPT-3's adaptation tasks).
std::optional<training_params> cheapest_fit(const model_desc& m, const training_params& base, std::uint64_t budget) {
    for (const auto& v : variants_of(base))
        if (fits(m, v.q, budget)) return v.q;
    std::vector<training_params> others;
    if (base.trainer != "unsloth" && find_trainer("unsloth") != nullptr) {
        others.push_back(with_trainer(base, "unsloth"));
    }
    if (base.method != train_method::full)
        for (std::uint32_t rank : {8u, 4u}) {
            if (rank >= base.lora_rank) continue;
            auto q      = base;
            q.lora_rank = rank;
            others.push_back(q);
            if (!others.empty() && others.front().trainer != base.trainer) {
                auto u      = others.front();
                u.lora_rank = rank;
                others.push_back(u);
            }
        }
    for (const auto& o : others)
        for (const auto& v : variants_of(o))
            if (fits(m, v.q, budget)) return v.q;
    return std::nullopt;
}

} // namespace

std::int64_t training_memory_need(const training_estimate& e) {
    std::int64_t need = 0;
    for (const auto& d : e.devices)
        if (d.kind == device_kind::cuda) need = std::max(need, d.total_bytes());
    // The allocator's reserve of earlier steps' blocks is freed before an out-of-memory error: it
    // need not fit (training_estimate::reclaimable_bytes).
    return need -
           static_cast<std::int64_t>(std::min<std::uint64_t>(e.reclaimable_bytes, static_cast<std::uint64_t>(need)));
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
    if (a.fits_as_asked)
        a.fix_args = "";
    else if (auto q = cheapest_fit(m, p, budget))
        a.fix_args = options_between(p, *q);
    // Most capable first: full fine-tuning (mixed precision, then pure bf16), then LoRA and QLoRA,
    // each with the cheapest memory-saving changes that make it fit (8-bit AdamW among them).
    struct setup {
        train_method method;
        train_precision precision;
    };
    const setup setups[] = {
        {train_method::full,  train_precision::bf16_mixed},
        {train_method::full,  train_precision::bf16      },
        {train_method::lora,  train_precision::bf16_mixed},
        {train_method::qlora, train_precision::bf16_mixed},
    };
    for (const auto& s : setups) {
        auto base              = p;
        base.method            = s.method;
        base.precision         = s.precision;
        base.optimizer         = optimizer_kind::adamw;
        base.offload_optimizer = p.offload_optimizer && s.method == train_method::full;
        // The asked --weights hold for the asked method only (a GPTQ base cannot be fully trained).
        base.weights = s.method == p.method ? p.weights : weight_choice{};
        if (auto q = cheapest_fit(m, base, budget)) {
            a.best_setup = describe(*q);
            // What the fallback changed beyond the settings (training_fit.cpp's ranks 6 and 7).
            if (q->trainer != base.trainer) a.best_setup += ", trainer " + q->trainer;
            if (q->method != train_method::full && q->lora_rank != base.lora_rank)
                a.best_setup += ", LoRA rank " + std::to_string(q->lora_rank);
            a.best_params = *q;
            a.best_args   = options_between(p, *q);
            return a;
        }
    }
    return a;
}

} // namespace llmplan

// The training reverse questions (include/llmplan/training_fit.h): the cheapest change that makes an
// asked workload fit, and the options that name the most capable setup, on the tiny llama of
// training_fixture.h (2 layers, hidden 64, 4 heads (2 KV) of 16, FFN 128, vocab 100, bf16).
// Budgets are the estimator's own need for a chosen workload, so each expectation follows from the
// order training_fit.cpp documents (ZeRO 1/2, 8-bit AdamW, checkpointing, ZeRO 3, offload).
#include "cli_run.h"
#include "llmplan/estimate.h"
#include "llmplan/training_fit.h"
#include "training_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

std::uint64_t need(const model_desc& m, const training_params& p) {
    auto e = estimate_training(m, p);
    EXPECT_TRUE(e) << e.error().what();
    return e ? static_cast<std::uint64_t>(training_memory_need(*e)) : 0;
}

TEST(TrainingFit, CheckpointingIsTheCheapestChangeWhenActivationsDominate) {
    // 16 layers: checkpointing saves memory only where the layers kept outweigh the one recomputed.
    test::llama_dims d;
    d.n_layer          = 16;
    const model_desc m = test::make_llama(d);
    training_params p;
    p.method = train_method::qlora;
    // 2^16 tokens. Without checkpointing each layer keeps about 2.5 KiB a token of 16-bit activations
    // and 1.5 KiB of LoRA dropout copies and masks (512 adapted inputs x 3 B): 64 KiB a token over 16
    // layers. With it, 16 fp32 layer inputs (256 B each: the k-bit upcast's fp32 residual) plus one
    // recomputed layer and the variable-length reserve of it: about 20 KiB a token.
    p.seq                      = 1u << 16;
    auto ckpt                  = p;
    ckpt.grad_checkpointing    = true;
    const std::uint64_t budget = need(m, ckpt);
    ASSERT_GT(need(m, p), budget);
    // 8-bit AdamW is tried first (it costs no compute) but does not fit: only the adapters' states shrink.
    auto eight      = p;
    eight.optimizer = optimizer_kind::adamw_8bit;
    EXPECT_GT(need(m, eight), budget);
    const auto a = fit_training(m, p, budget);
    EXPECT_FALSE(a.fits_as_asked);
    ASSERT_TRUE(a.fix_args.has_value());
    EXPECT_EQ(*a.fix_args, "--grad-checkpointing on");
    // The most capable setup that fits names the options that lead to it from the asked workload: full
    // fine-tuning (0.6 M params, 16 B each) with checkpointing keeps 16-bit layer inputs and no dropout
    // copies, about 10 KiB a token, so it fits where QLoRA needed checkpointing; without it, 40 KiB.
    EXPECT_EQ(a.best_setup, "full, bf16-mixed, adamw, gradient checkpointing");
    EXPECT_EQ(a.best_args, "--method full --grad-checkpointing on");
    EXPECT_LE(need(m, a.best_params), budget);
    // What fits as asked needs no change; what cannot fit at all has none.
    EXPECT_EQ(fit_training(m, ckpt, budget).fix_args, std::optional<std::string>(""));
    EXPECT_FALSE(fit_training(m, p, std::uint64_t{1} << 29).fix_args.has_value());
}

TEST(TrainingFit, ZeroStageBeforeCheckpointingOnSeveralGpus) {
    const model_desc m = test::make_llama({});
    training_params p;
    p.method  = train_method::full;
    p.gpus    = 4;
    p.trainer = "fsdp"; // no DeepSpeed: its 0.75 GiB reduce buffers would dwarf the tiny model's states
    // ZeRO 2 shards the gradients too (ZeRO 1 only the optimizer states; DDP neither, and it keeps a
    // second copy in its buckets): its need is below ZeRO 1's, and it costs no compute, so it comes
    // before 8-bit AdamW and checkpointing.
    auto z2                    = p;
    z2.zero_stage              = 2;
    auto z1                    = p;
    z1.zero_stage              = 1;
    const std::uint64_t budget = need(m, z2);
    ASSERT_GT(need(m, z1), budget);
    ASSERT_GT(need(m, p), budget);
    const auto a = fit_training(m, p, budget);
    ASSERT_TRUE(a.fix_args.has_value());
    EXPECT_EQ(*a.fix_args, "--zero 2");
    EXPECT_EQ(a.best_setup, "full, bf16-mixed, adamw, ZeRO 2");
    EXPECT_EQ(a.best_args, "--zero 2");
}

TEST(TrainingFit, CliSaysTheOptionsToAdd) {
    // Qwen2.5-7B QLoRA at the default 2048 tokens without checkpointing: 28 layers keep their
    // activations (about 0.67 GiB each with the LoRA dropout copies: 22.4 GiB with the 3.5 GiB of
    // logits) over 24 GiB; with checkpointing only their fp32 inputs (28 x 3584 x 4 B x 2048 =
    // 0.77 GiB) and one layer: 21 GiB in all. The most capable setup that fits is then LoRA on the
    // bf16 base with checkpointing: 26.4 GiB in all, of which 5.2 GiB is the allocator's reclaimable
    // reserve (freed before an out-of-memory error), so 21.2 GiB must fit.
    const auto r = test::run_cli("estimate qwen2.5-7b --task train --method qlora --memory 24GiB --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["fit"]["fits"].get<bool>());
    EXPECT_EQ(j["fit"]["fit_with_args"], "--grad-checkpointing on");
    EXPECT_EQ(j["fit"]["best_setup"], "lora, bf16-mixed, adamw, gradient checkpointing");
    EXPECT_EQ(j["fit"]["best_setup_args"], "--method lora --grad-checkpointing on");
    const auto t = test::run_cli("estimate qwen2.5-7b --task train --method qlora --memory 24GiB");
    ASSERT_EQ(t.status, 0);
    EXPECT_NE(t.out.find("cheapest change that fits as asked    --grad-checkpointing on"), std::string::npos);
}

} // namespace
} // namespace llmplan

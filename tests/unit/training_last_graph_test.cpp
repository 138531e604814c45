// LitGPT 0.1 to 0.5.4 keeps the last step's graph into the next forward (src/estimate/trainer_releases.cpp,
// keeps_last_graph): its loop binds `logits = model(input_ids, lm_head_chunk_size=128)` as a local of fit()
// (litgpt/finetune/lora.py @ v0.3.1 l.280-284, @ v0.5.4 l.321-325), so the logit chunks keep the step's autograd
// graph until `logits` is bound again after the next forward, and the bitsandbytes 0.42.0 those releases pin keeps
// its input on that graph's context (`ctx.tensors = (A, B)`, bitsandbytes/autograd/_functions.py l.522-525;
// backward never clears it). Today's LitGPT runs bitsandbytes 0.44+ (`(None, B)`); Lit-GPT of 2023 ran the
// longest sample first, so its peak step had no earlier graph.
// Every 4-bit linear's input of the last micro-batch is therefore still there while the next one runs its forward:
// the attention norm's output (q/k/v), the attention output (o), the MLP norm's output (gate/up), the gated product
// (down), and the final norm's output that LitGPT's 4-bit output layer takes.
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

training_params litgpt_qlora(std::uint64_t seq, std::uint64_t micro_batch) {
    training_params p;
    p.trainer_release    = "0.5.4";
    p.method             = train_method::qlora;
    p.precision          = train_precision::bf16;
    p.seq                = seq;
    p.micro_batch        = micro_batch;
    p.grad_checkpointing = false;
    p.trainer            = "litgpt";
    return p;
}

// a bitsandbytes base: its linears keep their inputs, on the autograd context
constexpr detail::saved_weight_bytes bnb_ctx{0, 0, true, true};

TEST(LastStepGraph, OnlyLitGptZeroOneToZeroFiveFourKeepsIt) {
    for (const char* t :
         {"hf", "trl", "axolotl", "llama-factory", "ms-swift", "unsloth", "torchtune", "deepspeed", "fsdp"}) {
        auto p       = litgpt_qlora(16, 1);
        p.trainer    = t;
        const auto h = detail::resolve_habits(p);
        ASSERT_TRUE(h);
        EXPECT_FALSE(h->keeps_last_graph) << t;
    }
    for (const char* release : {"0.1", "0.3.1", "0.5.4"}) {
        auto p            = litgpt_qlora(16, 1);
        p.trainer_release = release;
        const auto h      = detail::resolve_habits(p);
        ASSERT_TRUE(h);
        EXPECT_TRUE(h->keeps_last_graph) << release;
    }
    // Lit-GPT of 2023, LitGPT from 0.5.5 (bitsandbytes 0.44) and the current release.
    for (const char* release : {"0.0", "0.5.5", "0.5.10", ""}) {
        auto p            = litgpt_qlora(16, 1);
        p.trainer_release = release;
        const auto h      = detail::resolve_habits(p);
        ASSERT_TRUE(h);
        EXPECT_FALSE(h->keeps_last_graph) << release;
    }
}

TEST(LastStepGraph, TinyLlamaHeldInputsByHand) {
    // The tiny llama of training_fixture.h: 2 layers, hidden 64, 4 heads of 16 (o_proj input 64), FFN 128, an
    // untied output layer. Per layer 64 (q/k/v) + 64 (o) + 64 (gate/up) + 128 (down) = 320 elements; both layers
    // 640, and the output layer's input 64: 704 elements x 2 bytes (bf16) x 16 tokens = 22,528 bytes.
    const model_desc m = test::make_llama({});
    auto lora          = detail::plan_lora(m, 8, {"q", "v"});
    ASSERT_TRUE(lora);
    const auto p = litgpt_qlora(16, 1);
    const auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const auto held = detail::estimate_activations(m, p, *h, &*lora, false, bnb_ctx);
    EXPECT_EQ(held.last_step_held_bytes, 22'528u);
    auto freed             = *h;
    freed.keeps_last_graph = false;
    const auto plain       = detail::estimate_activations(m, p, freed, &*lora, false, bnb_ctx);
    EXPECT_EQ(plain.last_step_held_bytes, 0u);
    EXPECT_EQ(held.peak_bytes - plain.peak_bytes, 22'528u);
    // A 16-bit base (LoRA) runs torch's own linears: nothing on a context, nothing kept.
    EXPECT_EQ(detail::estimate_activations(m, p, *h, &*lora, false, {0, 0, false, false}).last_step_held_bytes, 0u);
    // A reentrant checkpoint runs the forward without a graph: nothing to keep.
    auto ckpt               = p;
    ckpt.grad_checkpointing = true;
    EXPECT_EQ(detail::estimate_activations(m, ckpt, *h, &*lora, false, bnb_ctx).last_step_held_bytes, 0u);
}

TEST(LastStepGraph, LlamaTwoSevenBAtTheConfigHubsQLoRA) {
    // Llama-2-7B (config.json: hidden 4096, 32 layers, 32 heads of 128, intermediate 11008, vocab 32000) at
    // LitGPT's config_hub/finetune/llama-2-7b/qlora.yaml (micro-batch 2, max_seq_length 512): per layer
    // 4096 x 3 + 11008 = 23,296 elements, x 32 = 745,472, + 4096 (the output layer's input) = 749,568 x 2 bytes
    // x 1024 tokens = 1,535,115,264 bytes. litgpt_config_hub_finetune.json #13 (LitGPT of 2024-04) measured
    // 13.68 GB, which the estimate without it (12.52 GB) missed by 1.16 GB.
    const model_desc m = test::make_llama(test::seven_b_dims(32000));
    auto lora          = detail::plan_lora(m, 32, {"q", "v"});
    ASSERT_TRUE(lora);
    const auto p = litgpt_qlora(512, 2);
    const auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_EQ(detail::estimate_activations(m, p, *h, &*lora, false, bnb_ctx).last_step_held_bytes, 1'535'115'264u);
}

TEST(LastStepGraph, EstimateNotesItForTheFourBitPathOnly) {
    // LitGPT 0.5.4's NF4 run says it; its bf16 LoRA twin does not.
    auto p         = litgpt_qlora(16, 1);
    p.lora_targets = {"q", "v"};
    test::expect_noted_for_4bit_only(p, "last step's outputs");
}

} // namespace
} // namespace llmplan

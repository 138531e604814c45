// A non-reentrant checkpoint keeps what bitsandbytes holds on its autograd context
// (src/estimate/training_activations.cpp, ctx_held): ms-swift 1.x patches torch.utils.checkpoint to
// use_reentrant=False (swift/llm/utils/model.py @ 4312aeb2, fix_gradient_checkpointing_warning), and bitsandbytes'
// MatMul4Bit stores its input as `ctx.tensors = (A, B)` (bitsandbytes/autograd/_functions.py @ c75b6de), which the
// checkpoint's saved-tensor hooks never see. So every layer's quantized linears keep their inputs: the attention
// norm's output (q/k/v), the attention output (o), the MLP norm's output (gate/up) and the gated product (down).
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

training_params qlora_params(const char* trainer, std::uint64_t seq) {
    training_params p;
    p.method             = train_method::qlora;
    p.seq                = seq;
    p.grad_checkpointing = true;
    p.trainer            = trainer;
    return p;
}

// a bitsandbytes base: its linears keep their inputs, on the autograd context
constexpr detail::saved_weight_bytes bnb_ctx{0, 0, true, true};

TEST(CheckpointKind, OnlyMsSwiftRunsNonReentrant) {
    for (const char* t :
         {"hf", "trl", "axolotl", "llama-factory", "unsloth", "torchtune", "litgpt", "deepspeed", "fsdp"}) {
        const auto h = detail::resolve_habits(qlora_params(t, 16));
        ASSERT_TRUE(h);
        EXPECT_FALSE(h->non_reentrant_checkpoint) << t;
    }
    const auto h = detail::resolve_habits(qlora_params("ms-swift", 16));
    ASSERT_TRUE(h);
    EXPECT_TRUE(h->non_reentrant_checkpoint);
}

TEST(CheckpointKind, TinyLlamaHoldsEveryLayersLinearInputs) {
    // The tiny llama of training_fixture.h: 2 layers, hidden 64, 4 heads of 16 (o_proj input 64), FFN 128; 16
    // tokens. Per layer 64 (q/k/v) + 64 (o) + 64 (gate/up, one tensor) + 128 (down) = 320 elements x 2 bytes x
    // 16 tokens = 10,240 bytes; both layers 20,480, on top of the peak.
    const model_desc m = test::make_llama({});
    auto lora          = detail::plan_lora(m, 8, {"q", "k", "v"});
    ASSERT_TRUE(lora);
    const auto p = qlora_params("ms-swift", 16);
    const auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const auto held = detail::estimate_activations(m, p, *h, &*lora, false, bnb_ctx);
    EXPECT_EQ(held.ctx_held_bytes, 20'480u);
    const auto plain = detail::estimate_activations(m, p, *h, &*lora, false, {0, 0, true, false});
    EXPECT_EQ(plain.ctx_held_bytes, 0u);
    EXPECT_EQ(held.peak_bytes - plain.peak_bytes, 20'480u);
    // A reentrant trainer's forward keeps no graph, and without checkpointing the inputs are counted as saved.
    const auto hf = detail::resolve_habits(qlora_params("hf", 16));
    ASSERT_TRUE(hf);
    EXPECT_EQ(detail::estimate_activations(m, p, *hf, &*lora, false, bnb_ctx).ctx_held_bytes, 0u);
    auto off               = p;
    off.grad_checkpointing = false;
    EXPECT_EQ(detail::estimate_activations(m, off, *h, &*lora, false, bnb_ctx).ctx_held_bytes, 0u);
}

TEST(CheckpointKind, QwenSevenBDimsAtTwoThousandTokens) {
    // Qwen-7B's dims (config.json: hidden 4096, 32 layers, 32 heads of 128, intermediate_size 22016 halved per
    // w1/w2: 11008): (4096 + 4096 + 4096 + 11008) = 23,296 elements x 2 bytes x 2048 tokens x 32 layers =
    // 3,053,453,312 bytes (2.84 GiB), which ms_swift_benchmark.json's NF4 row (23.85 GiB) lacked.
    const model_desc m = test::make_llama(test::seven_b_dims(151936));
    auto lora          = detail::plan_lora(m, 8, {"q", "k", "v"});
    ASSERT_TRUE(lora);
    const auto p = qlora_params("ms-swift", 2048);
    const auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_EQ(detail::estimate_activations(m, p, *h, &*lora, false, bnb_ctx).ctx_held_bytes, 3'053'453'312u);
}

TEST(CheckpointKind, EstimateAddsItForBitsandbytesOnly) {
    // NF4 under ms-swift holds the 20,480 bytes; its bf16 LoRA does not.
    auto p         = qlora_params("ms-swift", 16);
    p.lora_targets = {"q", "k", "v"};
    test::expect_noted_for_4bit_only(p, "non-reentrant");
}

} // namespace
} // namespace llmplan

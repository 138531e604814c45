// Frozen linears keep no input for backward (src/estimate/training_activations.cpp, unsaved_inputs): PyTorch's
// autograd saves a matmul operand only for the gradient that needs it (tools/autograd/gen_variable_type.py
// `guard_for`), so a LoRA base in 16-bit keeps none of its linears' inputs, where bitsandbytes' MatMul4Bit
// (a custom autograd function, `ctx.tensors = (A, B)`) keeps each one. On the tiny llama of
// training_fixture.h: 2 layers, hidden 64, 4 heads (2 KV) of 16, FFN 128, vocab 100; 16 tokens.
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

model_desc tiny_llama() {
    return test::make_llama({});
}

training_params lora_params(const char* trainer) {
    training_params p;
    p.method  = train_method::lora;
    p.seq     = 16;
    p.trainer = trainer;
    return p;
}

TEST(FrozenLinearInputs, SixteenBitBaseKeepsNoLinearInput) {
    // hf: LoRA dropout 0.05 with fp32 adapters, so lora_A keeps its own copy and no adapted input keeps x.
    // Per layer the base's linears drop: q/k/v's input (hidden 64), o_proj's (4 heads x 16 = 64), gate/up's
    // (64), and down's (the eager SiLU(gate) * up product, FFN 128): 320 elements x 2 bytes x 16 tokens =
    // 10,240 bytes a layer, 20,480 for the two.
    auto lora = detail::plan_lora(tiny_llama(), 16, {"q", "v"});
    ASSERT_TRUE(lora);
    EXPECT_EQ(lora->input_groups, detail::lora_in_qkv);
    const auto p = lora_params("hf");
    const auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const detail::saved_weight_bytes bnb{};              // a bitsandbytes base: every input kept
    const detail::saved_weight_bytes plain{0, 0, false}; // a 16-bit base
    const auto kept    = detail::estimate_activations(tiny_llama(), p, *h, &*lora, false, bnb);
    const auto dropped = detail::estimate_activations(tiny_llama(), p, *h, &*lora, false, plain);
    EXPECT_EQ(kept.per_layer_saved_bytes - dropped.per_layer_saved_bytes, 20'480u);
    EXPECT_EQ(kept.largest_layer_bytes - dropped.largest_layer_bytes, 10'240u);
    // Full fine-tuning (no LoRA plan): every weight is trained, so every input stays.
    EXPECT_EQ(detail::estimate_activations(tiny_llama(), p, *h, nullptr, false, plain).per_layer_saved_bytes,
              detail::estimate_activations(tiny_llama(), p, *h, nullptr, false, bnb).per_layer_saved_bytes);
}

TEST(FrozenLinearInputs, AnAdapterWithoutDropoutKeepsItsInput) {
    // torchtune: 16-bit adapters, dropout 0, so lora_a takes x itself and keeps it: with q,v adapted the q/k/v
    // input stays. o_proj's (64) and gate/up's (64) inputs go; the down input is not counted under its
    // compiled kernels (the product is recomputed): 128 elements x 2 bytes x 16 tokens = 4,096 bytes a layer.
    auto lora = detail::plan_lora(tiny_llama(), 16, {"q", "v"});
    ASSERT_TRUE(lora);
    const auto p = lora_params("torchtune");
    const auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const auto kept    = detail::estimate_activations(tiny_llama(), p, *h, &*lora, false, {});
    const auto dropped = detail::estimate_activations(tiny_llama(), p, *h, &*lora, false, {0, 0, false});
    EXPECT_EQ(kept.per_layer_saved_bytes - dropped.per_layer_saved_bytes, 2u * 4'096u);
    // all-linear at dropout 0: every group has an adapter holding x, so nothing goes.
    auto all = detail::plan_lora(tiny_llama(), 16, {"all-linear"});
    ASSERT_TRUE(all);
    EXPECT_EQ(all->input_groups,
              detail::lora_in_qkv | detail::lora_in_o | detail::lora_in_gate_up | detail::lora_in_down);
    EXPECT_EQ(detail::estimate_activations(tiny_llama(), p, *h, &*all, false, {0, 0, false}).per_layer_saved_bytes,
              detail::estimate_activations(tiny_llama(), p, *h, &*all, false, {}).per_layer_saved_bytes);
}

TEST(FrozenLinearInputs, EstimateKeepsInputsOnlyForBitsandbytes) {
    // End to end without checkpointing: LoRA on the bf16 base keeps less than QLoRA on NF4 by at least the
    // 20,480 bytes above beyond what the weights differ (the activations part alone is compared).
    auto p               = lora_params("hf");
    p.lora_targets       = {"q", "v"};
    p.grad_checkpointing = false;
    const auto lora      = estimate_training(tiny_llama(), p);
    ASSERT_TRUE(lora);
    p.method         = train_method::qlora;
    const auto qlora = estimate_training(tiny_llama(), p);
    ASSERT_TRUE(qlora);
    const auto& a16 = lora->devices.front().parts.activations;
    const auto& a4  = qlora->devices.front().parts.activations;
    EXPECT_EQ(a4 - a16, 20'480u);
}

TEST(FusedQkvBuffer, MhaValueViewKeepsTheWholeProjection) {
    // An all-heads (MHA) tiny llama: 4 heads of 16, hidden 64. LitGPT splits its fused `attn` output into views
    // and hands v to SDPA as one, so the q and k parts of that output (64 + 64 elements a token) stay beside
    // the roped q and k: 128 x 2 bytes x 16 tokens = 4,096 bytes a layer, 8,192 for the two (full fine-tuning,
    // no checkpointing). torchtune's separate projections keep none of it.
    test::llama_dims d;
    d.n_head_kv    = 4;
    const auto mha = test::make_llama(d);
    auto p         = lora_params("litgpt");
    p.method       = train_method::full;
    const auto lit = detail::resolve_habits(p);
    ASSERT_TRUE(lit);
    EXPECT_EQ(lit->qkv, detail::qkv_source::fused);
    auto tt = *lit;
    tt.qkv  = detail::qkv_source::separate;
    EXPECT_EQ(detail::estimate_activations(mha, p, *lit, nullptr, false).per_layer_saved_bytes -
                  detail::estimate_activations(mha, p, tt, nullptr, false).per_layer_saved_bytes,
              8'192u);
    // Under transformers the checkpoint decides: a fused c_attn (Qwen-1) keeps it, separate q/k/v do not.
    p.trainer     = "hf";
    const auto hf = detail::resolve_habits(p);
    ASSERT_TRUE(hf);
    d.fused_qkv     = true;
    const auto qwen = test::make_llama(d, "qwen");
    auto sep        = *hf;
    sep.qkv         = detail::qkv_source::separate;
    EXPECT_EQ(detail::estimate_activations(qwen, p, *hf, nullptr, false).per_layer_saved_bytes -
                  detail::estimate_activations(qwen, p, sep, nullptr, false).per_layer_saved_bytes,
              8'192u);
    EXPECT_EQ(detail::estimate_activations(mha, p, *hf, nullptr, false).per_layer_saved_bytes,
              detail::estimate_activations(mha, p, sep, nullptr, false).per_layer_saved_bytes);
    // Grouped heads (the default tiny llama, 2 KV heads): LitGPT's expand-and-reshape copies v, no buffer kept.
    const auto gqa = test::make_llama({});
    EXPECT_EQ(detail::estimate_activations(gqa, p, *lit, nullptr, false).per_layer_saved_bytes,
              detail::estimate_activations(
                  gqa, p,
                  [&] {
                      auto x = *lit;
                      x.qkv  = detail::qkv_source::separate;
                      return x;
                  }(),
                  nullptr, false)
                  .per_layer_saved_bytes);
}

TEST(LitgptNf4, OneFp32AbsmaxPerBlockWithoutDoubleQuantization) {
    // LitGPT's `bnb.nf4` (Fabric's _NF4Linear, compress_statistics=False) stores half a byte a weight and an
    // fp32 absmax per 64. The tiny llama's linears a layer: q and o 64 x 64 (2,048 + 64 x 4 = 2,304 bytes
    // each), k and v 32 x 64 (1,024 + 32 x 4 = 1,152 each), gate, up and down 128 x 64 (4,096 + 128 x 4 = 4,608
    // each): 20,736 a layer, 41,472 for two. The output layer 100 x 64 in NF4 too (3,200 + 100 x 4 = 3,600), the
    // embedding in bf16 (12,800) and the five 64-wide norms (640): 58,512 bytes of frozen weights.
    auto p       = lora_params("litgpt");
    p.method     = train_method::qlora;
    const auto e = estimate_training(tiny_llama(), p);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->devices.front().parts.weights, 58'512u);
}

TEST(FrozenLinearInputs, DeepSpeedZero3LinearKeepsEveryInput) {
    // DeepSpeed ZeRO-3's zero.Init replaces torch.nn.functional.linear with zero3_linear_wrap, whose autograd
    // function saves (input, weight, bias) whatever needs a gradient: a 16-bit LoRA base keeps every input
    // again, the 20,480 bytes of SixteenBitBaseKeepsNoLinearInput above. torch FSDP (the fsdp trainer, same
    // model code) leaves torch's linear alone.
    auto p               = lora_params("hf");
    p.lora_targets       = {"q", "v"};
    p.grad_checkpointing = false;
    p.gpus               = 2;
    p.zero_stage         = 3;
    const auto ds        = estimate_training(tiny_llama(), p);
    p.trainer            = "fsdp";
    const auto fsdp      = estimate_training(tiny_llama(), p);
    ASSERT_TRUE(ds && fsdp);
    EXPECT_EQ(ds->devices.front().parts.activations - fsdp->devices.front().parts.activations, 20'480u);
}

TEST(LitgptChunkedLoss, KeepsEveryLogitAndEveryChunksLogSoftmax) {
    // LitGPT's loop holds the list of bf16 logit chunks through backward and chunked_cross_entropy keeps each
    // chunk's bf16 log-softmax: 2 + 2 bytes x 16 tokens x vocab 100 = 6,400, and one 128-token chunk's (here
    // all 16 tokens) nll and log-softmax gradients: 2 x 2 x 100 x 16 = 6,400. torchtune's chunked loss keeps
    // the 16-bit logits and one eighth of the tokens' fp32 copy, log-softmax and gradient: 3,200 + 2,400.
    const auto p   = lora_params("litgpt");
    const auto lit = detail::resolve_habits(p);
    ASSERT_TRUE(lit);
    EXPECT_TRUE(lit->chunk_ce_16bit);
    EXPECT_EQ(detail::estimate_activations(tiny_llama(), p, *lit, nullptr, false).logits_peak_bytes, 12'800u);
    auto tt           = *lit;
    tt.chunk_ce_16bit = false;
    EXPECT_EQ(detail::estimate_activations(tiny_llama(), p, tt, nullptr, false).logits_peak_bytes, 5'600u);
}

} // namespace
} // namespace llmplan

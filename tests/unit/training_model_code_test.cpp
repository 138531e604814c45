// Memory that a model's or a trainer's own code adds to training, each checked against a size derived by
// hand from the code it comes from (src/estimate/training_activations.cpp, training.cpp):
//  - Baichuan 2 13B's remote code builds its ALiBi bias as dense n_head x seq x seq matrices;
//  - auto-gptq's training path keeps each GPTQ linear's dequantized fp16 weight for the input gradient;
//  - LitGPT runs Gemma-2's logit-capped attention eagerly and repeats grouped k and v to every head.
#include "catalog_fixtures.h"
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

using test::catalog_model;

training_params lora(const char* trainer, std::uint64_t seq, std::uint64_t micro_batch) {
    training_params p;
    p.method             = train_method::lora;
    p.precision          = train_precision::bf16_mixed;
    p.seq                = seq;
    p.micro_batch        = micro_batch;
    p.grad_checkpointing = true;
    p.lora_rank          = 8;
    p.lora_targets       = {"q", "k", "v"};
    p.trainer            = trainer;
    return p;
}

bool has_note(const training_estimate& e, const std::string& part) {
    return std::any_of(e.assumptions.begin(), e.assumptions.end(),
                       [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

TEST(TrainingModelCode, Baichuan2_13bKeepsItsAlibiBiasDense) {
    // modeling_baichuan.py (baichuan-inc/Baichuan2-13B-Chat): self.alibi_mask [40 heads, seq, seq] in the
    // embeddings' dtype, and `inverted_mask + alibi_mask.unsqueeze(0)` [micro-batch, 40, seq, seq] beside it.
    // seq 4096, micro-batch 1, bf16: 2 x 40 x 4096^2 x 2 B = 2,684,354,560 B (2.5 GiB).
    const auto m13 = catalog_model("baichuan-inc/Baichuan2-13B-Chat");
    EXPECT_EQ(m13.pos, pos_kind::alibi);
    const auto p = lora("ms-swift", 4096, 1);
    auto h       = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_EQ(detail::estimate_activations(m13, p, *h, nullptr, false).bias_bytes, 2'684'354'560u);
    // micro-batch 2: one cached matrix + two combined ones.
    const auto p2 = lora("ms-swift", 4096, 2);
    EXPECT_EQ(detail::estimate_activations(m13, p2, *h, nullptr, false).bias_bytes, 3u * 1'342'177'280u);
    auto e = estimate_training(m13, p);
    ASSERT_TRUE(e);
    EXPECT_TRUE(has_note(*e, "ALiBi position bias as a dense heads x seq x seq matrix")) << "note";
    // The 7B rotates q and k (RoPE): no such matrix.
    const auto m7 = catalog_model("baichuan-inc/Baichuan2-7B-Chat");
    EXPECT_EQ(m7.pos, pos_kind::rope);
    EXPECT_EQ(detail::estimate_activations(m7, p, *h, nullptr, false).bias_bytes, 0u);
}

/// LoRA on a quantized checkpoint as ms-swift runs it (fp16 autocast, 1024 tokens, micro-batch 1).
training_params quantized_lora(weight_format f) {
    auto p           = lora("ms-swift", 1024, 1);
    p.method         = train_method::qlora;
    p.precision      = train_precision::fp16_mixed;
    p.weights.format = f;
    return p;
}

TEST(TrainingModelCode, GptqLinearsKeepTheirDequantizedWeight) {
    // Qwen2.5-7B, one decoder layer's linears: q 3584x3584, k and v 3584x512, o 3584x3584, gate and up
    // 3584x18944, down 18944x3584 = 3584 x 8192 + 3 x 3584 x 18944 = 233,046,016 weights, 466,092,032 B in
    // fp16 (0.43 GiB); 28 layers: 13,050,576,896 B (12.15 GiB).
    const auto m = catalog_model("Qwen/Qwen2.5-7B-Instruct");
    auto p       = quantized_lora(weight_format::gptq_int4);
    auto e       = estimate_training(m, p);
    ASSERT_TRUE(e);
    EXPECT_TRUE(has_note(*e, "autograd keeps that copy for the input gradient (0.43 GiB, the recomputed layer's)"));
    p.grad_checkpointing = false;
    e                    = estimate_training(m, p);
    ASSERT_TRUE(e);
    EXPECT_TRUE(has_note(*e, "(12.15 GiB, every layer's)"));
    // The activation estimate adds the sizes it is given where a layer's activations go.
    auto h = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    const auto base  = detail::estimate_activations(m, p, *h, nullptr, false);
    const auto saved = detail::estimate_activations(m, p, *h, nullptr, false, {466'092'032u, 13'050'576'896u});
    EXPECT_EQ(saved.per_layer_saved_bytes - base.per_layer_saved_bytes, 13'050'576'896u);
    EXPECT_EQ(saved.largest_layer_bytes - base.largest_layer_bytes, 466'092'032u);
    // NF4 (bitsandbytes' MatMul4Bit dequantizes inside its autograd function): no such note.
    p.weights.format = weight_format::nf4;
    e                = estimate_training(m, p);
    ASSERT_TRUE(e);
    EXPECT_FALSE(has_note(*e, "autograd keeps that copy"));
}

TEST(TrainingModelCode, GptqUnpacksThroughInt32) {
    // auto-gptq qlinear_cuda_old.py (v0.4.2 @ ef442d9f, v0.5.1 @ f4c96810), the torch path of training:
    // unpacking with `torch.bitwise_right_shift(qweight expanded, wf).to(torch.int8)` holds an
    // int32 tensor of every weight (4 B) and its int8 copy (1 B) at once; 8-bit goes through int16 (4 + 2 B).
    // Qwen2.5-7B's largest quantized matrix is gate/up/down, 3584 x 18944 = 67,895,296 weights (lm_head stays
    // 16-bit in GPTQ checkpoints): 339,476,480 B for 4-bit, 407,371,776 B for 8-bit; NF4 keeps the 2 B of
    // its fp16 dequantized copy (135,790,592 B).
    const auto m = catalog_model("Qwen/Qwen2.5-7B-Instruct");
    auto p       = quantized_lora(weight_format::gptq_int4);
    auto e       = estimate_training(m, p);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->devices[0].parts.compute, 339'476'480u);
    p.weights.format = weight_format::gptq_int8;
    e                = estimate_training(m, p);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->devices[0].parts.compute, 407'371'776u);
    p.weights.format = weight_format::nf4;
    e                = estimate_training(m, p);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->devices[0].parts.compute, 135'790'592u);
}

TEST(TrainingModelCode, LitGptRunsGemma2CappedAttentionEagerly) {
    // litgpt/model.py @ 00af8b0d: tanh-capped scores (bf16, 2 B), fp32 softmax output (4 B) and its bf16 copy
    // (2 B) kept per score. Gemma-2-2B: 26 layers of 8 heads; micro-batch 2 x 512 tokens, each over 512 keys:
    // 26 x 1024 x 8 x 512 x 8 B = 872,415,232 B.
    const auto m         = catalog_model("google/gemma-2-2b");
    auto p               = lora("litgpt", 512, 2);
    p.precision          = train_precision::bf16;
    p.grad_checkpointing = false;
    auto h               = detail::resolve_habits(p);
    ASSERT_TRUE(h);
    EXPECT_TRUE(h->eager_softcap);
    auto flash          = *h;
    flash.eager_softcap = false;
    EXPECT_EQ(detail::estimate_activations(m, p, *h, nullptr, false).per_layer_saved_bytes -
                  detail::estimate_activations(m, p, flash, nullptr, false).per_layer_saved_bytes,
              872'415'232u);
    // Gemma 1 caps nothing; transformers' rows take the SDPA path.
    EXPECT_EQ(
        detail::estimate_activations(catalog_model("google/gemma-2b"), p, *h, nullptr, false).per_layer_saved_bytes,
        detail::estimate_activations(catalog_model("google/gemma-2b"), p, flash, nullptr, false).per_layer_saved_bytes);
    auto hf = detail::resolve_habits(lora("hf", 512, 2));
    ASSERT_TRUE(hf);
    EXPECT_FALSE(hf->eager_softcap);
}

/// What a trainer's expanded k/v add to every layer's saved activations for these options: the estimate with
/// the trainer's habits less the same with grouped k/v kept as they are (the habit must be on).
std::uint64_t expanded_kv_bytes(const model_desc& m, const training_params& p) {
    const auto h = detail::resolve_habits(p);
    EXPECT_TRUE(h && h->expands_kv);
    if (!h) return 0;
    auto grouped       = *h;
    grouped.expands_kv = false;
    return detail::estimate_activations(m, p, *h, nullptr, false).per_layer_saved_bytes -
           detail::estimate_activations(m, p, grouped, nullptr, false).per_layer_saved_bytes;
}

TEST(TrainingModelCode, LitGptRepeatsGroupedKeysAndValuesForTheKernel) {
    // litgpt/model.py (@ 43c44323 and 00af8b0d), CausalSelfAttention.forward in training: k and v expanded to
    // every query head and reshaped before SDPA, which keeps those copies. Mistral-7B: 32 query heads, 8 KV
    // heads of 128; k and v 2 x 4096 wide instead of 2 x 1024: 6144 more elements a token, 2 B each, over
    // 32 layers x (2 x 512) tokens = 402,653,184 B.
    const auto m         = catalog_model("mistralai/Mistral-7B-v0.1");
    auto p               = lora("litgpt", 512, 2);
    p.precision          = train_precision::bf16;
    p.grad_checkpointing = false;
    EXPECT_EQ(expanded_kv_bytes(m, p), 402'653'184u);
    auto hf = detail::resolve_habits(lora("hf", 512, 2));
    ASSERT_TRUE(hf);
    EXPECT_FALSE(hf->expands_kv);
}

TEST(TrainingModelCode, TorchtuneRepeatsGroupedKeysAndValuesForTheKernel) {
    // torchtune/modules/attention.py (@ 1814feb1 and bd2a0fc7, l.289-290), MultiHeadAttention.forward:
    // `k.unsqueeze(2).expand(expand_shape).flatten(1, 2)` and the same for v when num_heads != num_kv_heads.
    // Llama-3.2-3B: 24 query heads, 8 KV heads of 128; k and v 2 x 3072 wide instead of 2 x 1024: 4096 more
    // elements a token, 2 B each, over 28 layers x (2 x 4096) tokens = 1,879,048,192 B (full fine-tuning, no
    // checkpointing: its README's optimization-flags table @ 1814feb1).
    const auto m         = catalog_model("meta-llama/Llama-3.2-3B-Instruct");
    auto p               = lora("torchtune", 4096, 2);
    p.method             = train_method::full;
    p.precision          = train_precision::bf16;
    p.grad_checkpointing = false;
    EXPECT_EQ(expanded_kv_bytes(m, p), 1'879'048'192u);
}

} // namespace
} // namespace llmplan

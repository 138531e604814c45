// T5-family encoder-decoders (model_type "t5", "mt5"): the reader on real configs, parameter counts
// derived by hand, the layer list, LoRA targets by T5's module names, a training estimate whose
// parts add up and whose activations follow the encoder and decoder layers, and inference refused.
// Configs: tests/data/models/README.md and data/models/SOURCES.md (round 8).
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "unit/hybrid_fixture.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

model_desc catalog_model(const char* id) {
    const auto* entry = find_in_catalog(id);
    EXPECT_NE(entry, nullptr) << id;
    auto m = load_catalog_model(*entry);
    EXPECT_TRUE(m.has_value()) << id;
    return m ? *m : model_desc{};
}

// Module sums of modeling_t5.py for d = d_model, f = d_ff, h = num_heads x d_kv, V = vocab_size,
// L = layers per stack, B = relative_attention_num_buckets, H = num_heads:
//   embedding V d (shared by both stacks), lm_head V d unless tied;
//   encoder layer: q, k, v, o 4 h d + FFN (2 or 3) f d + 2 RMS norms 2 d;
//   decoder layer: self- and cross-attention 8 h d + FFN + 3 norms 3 d;
//   a relative bias table B H in each stack's first layer; a final norm d per stack.
// t5-base (relu, tied; d 768, f 3072, h 768, V 32128, L 12, H 12):
//   24,674,304 + 12 x (2,359,296 + 4,718,592 + 1,536) + 12 x (4,718,592 + 4,718,592 + 2,304)
//   + 2 x 384 + 2 x 768 = 222,903,552, the t5-base figure of the T5 paper's "220M" and the Hub.
// mt5-base (gated-gelu, untied; d 768, f 2048, V 250112): 2 x 192,086,016 + 12 x 7,079,424
//   + 12 x 9,439,488 + 768 + 1,536 = 582,401,280 (the Hub's 582M).
// T5 v1.1 XL = flan-t5-xl = T0_3B (gated-gelu, untied; d 2048, f 5120, h 2048, V 32128, L 24, H 32):
//   2 x 65,798,144 + 24 x (16,777,216 + 31,457,280 + 4,096) + 24 x (33,554,432 + 31,457,280 + 6,144)
//   + 2 x 1,024 + 2 x 2,048 = 2,849,757,184 (T0_3B: "2.85B", promptlayer.com/models/t03b).
// mT5-XXL = mt0-xxl (d 4096, f 10240, h 4096, V 250112, L 24, H 64):
//   2 x 1,024,458,752 + 24 x (67,108,864 + 125,829,120 + 8,192) + 24 x (134,217,728 + 125,829,120
//   + 12,288) + 2 x 2,048 + 2 x 4,096 = 12,921,057,280 ("12B", PEFT README; 13.9B listed on
//   promptlayer.com/models/mt0-xxl = this + one more 250,112 x 4,096 embedding copy).
TEST(T5Family, ParameterCountsByHand) {
    EXPECT_EQ(count_params(test::load_test_model("google-t5--t5-base")).total, 222'903'552u);
    EXPECT_EQ(count_params(test::load_test_model("google--mt5-base")).total, 582'401'280u);
    EXPECT_EQ(count_params(test::load_test_model("google--flan-t5-xl")).total, 2'849'757'184u);
    EXPECT_EQ(count_params(catalog_model("bigscience/T0_3B")).total, 2'849'757'184u);
    EXPECT_EQ(count_params(catalog_model("bigscience/mt0-xxl")).total, 12'921'057'280u);
}

TEST(T5Family, TwoStacksInTheLayerList) {
    const auto m = catalog_model("bigscience/T0_3B");
    EXPECT_EQ(m.arch, "t5");
    EXPECT_EQ(m.n_layer, 48u);
    EXPECT_EQ(m.n_layer_enc, 24u);
    EXPECT_EQ(m.ffn, ffn_kind::gated);
    EXPECT_FALSE(m.tied_embd);
    ASSERT_EQ(m.layers.size(), 48u);
    EXPECT_TRUE(m.layers[0].in_encoder);
    EXPECT_FALSE(m.layers[0].cross_attn);
    EXPECT_FALSE(m.layers[24].in_encoder);
    EXPECT_TRUE(m.layers[47].cross_attn);
    EXPECT_EQ(m.layers[0].head_dim_k, 64u); // d_kv
    EXPECT_EQ(m.layers[0].n_ff, 5120u);     // d_ff
    std::size_t rel = 0, cross_q = 0, out_norms = 0;
    for (const auto& t : m.tensors) {
        if (t.name.find("attn_rel_b") != std::string::npos) {
            ++rel;
            EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{32, 32})); // [buckets, num_heads]
        }
        cross_q += t.name.find("cross_attn_q.weight") != std::string::npos ? 1 : 0;
        out_norms += t.role == tensor_role::output_norm ? 1 : 0;
    }
    EXPECT_EQ(rel, 2u);      // enc.blk.0 and dec.blk.0
    EXPECT_EQ(cross_q, 24u); // every decoder layer
    EXPECT_EQ(out_norms, 2u);
    const auto t5 = test::load_test_model("google-t5--t5-base");
    EXPECT_EQ(t5.ffn, ffn_kind::plain); // no feed_forward_proj: T5Config's "relu"
    EXPECT_TRUE(t5.tied_embd);          // no tie_word_embeddings: T5Config's True
    EXPECT_EQ(t5.n_layer, 24u);         // num_decoder_layers defaults to num_layers
}

TEST(T5Family, BadFeedForwardProjIsAnError) {
    const std::string cfg = R"({"model_type": "t5", "d_model": 64, "d_ff": 128, "d_kv": 16, "num_heads": 4,
        "num_layers": 2, "vocab_size": 100, "feed_forward_proj": "gated-gelu-x"})";
    auto m                = parse_hf_config(cfg, "config.json");
    ASSERT_FALSE(m.has_value());
    EXPECT_EQ(m.error().code, error_code::bad_value);
    EXPECT_NE(m.error().context.find("feed_forward_proj"), std::string::npos);
}

TEST(T5Family, InferenceIsRefusedByName) {
    inference_params p;
    auto e = estimate_inference(catalog_model("bigscience/mt0-xxl"), p);
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, error_code::unsupported_arch);
    EXPECT_NE(e.error().message.find("encoder-decoder"), std::string::npos);
}

// PEFT matches a target by the module name's last part, so "q" and "v" adapt the self- and the
// cross-attention projections alike (PEFT's default targets for t5 are q and v). t5-base, r = 8:
// encoder 12 x 2 x 8 x (768 + 768) = 294,912, decoder 12 x 4 x 12,288 = 589,824: 884,736.
TEST(T5Family, LoraTargetsByT5Names) {
    const auto t5 = test::load_test_model("google-t5--t5-base");
    auto qv       = detail::plan_lora(t5, 8, {"q", "v"});
    ASSERT_TRUE(qv.has_value());
    EXPECT_EQ(qv->params, 884'736u);
    // wi (the plain FFN's input matrix) and wo: 24 x 2 x 8 x (768 + 3072) = 1,474,560.
    auto ffn = detail::plan_lora(t5, 8, {"wi", "wo"});
    ASSERT_TRUE(ffn.has_value());
    EXPECT_EQ(ffn->params, 1'474'560u);
    EXPECT_FALSE(detail::plan_lora(t5, 8, {"wi_0"}).has_value()); // no gated FFN in T5 v1.0
    const auto mt5 = test::load_test_model("google--mt5-base");
    EXPECT_FALSE(detail::plan_lora(mt5, 8, {"wi"}).has_value()); // gated: wi_0 and wi_1 only
    auto wi0 = detail::plan_lora(mt5, 8, {"wi_0"});
    ASSERT_TRUE(wi0.has_value());
    EXPECT_EQ(wi0->params, 24u * 8u * (768u + 2048u)); // 540,672
}

// t5-base, fp32, transformers Trainer (eager norms), seq 128, micro-batch 1, per token:
//   encoder layer: attention q,k,v,o inputs/outputs 7 x 768 = 5,376 elements, its norm's fp32 copy
//   3,072 B, the probabilities 12 heads x 128 keys x (4 softmax + 4 dropout output + 1 mask) =
//   13,824 B; FFN 768 + 768 + 2 x 3,072 = 7,680 elements + 3,072 B: 13,056 x 4 + 19,968 = 72,192 B;
//   decoder layer: two attention blocks (self, cross) and the FFN: 18,432 x 4 + 36,864 = 110,592 B;
//   12 x 72,192 + 12 x 110,592 = 2,193,408 B x 128 tokens = 280,756,224 B.
// Logits over the decoder's 128 tokens: 128 x 32,128 x 12 B = 49,348,608.
TEST(T5Family, TrainingActivationsOverBothStacks) {
    const auto t5 = test::load_test_model("google-t5--t5-base");
    training_params p;
    p.method      = train_method::full;
    p.precision   = train_precision::fp32;
    p.seq         = 128;
    p.micro_batch = 1;
    auto h        = detail::resolve_habits(p);
    ASSERT_TRUE(h.has_value());
    const auto a = detail::estimate_activations(t5, p, *h, nullptr, false);
    EXPECT_EQ(a.per_layer_saved_bytes, 280'756'224u);
    EXPECT_EQ(a.logits_peak_bytes, 49'348'608u);
}

// Full fp32 AdamW of T0_3B: weights and gradients 4 bytes a parameter, two fp32 moments 8; every
// part sums to the device total.
TEST(T5Family, TrainingPartsAddUp) {
    const auto m = catalog_model("bigscience/T0_3B");
    training_params p;
    p.method    = train_method::full;
    p.precision = train_precision::fp32;
    p.seq       = 256;
    auto e      = estimate_training(m, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    ASSERT_EQ(e->devices.size(), 1u);
    const auto& d         = e->devices[0].parts;
    const std::uint64_t P = 2'849'757'184u;
    EXPECT_EQ(e->trainable_params, P);
    EXPECT_EQ(d.weights, 4 * P);
    EXPECT_EQ(d.gradients, 4 * P);
    EXPECT_EQ(d.weights + d.kv_cache + d.compute + d.activations + d.gradients + d.optimizer + d.master_weights +
                  d.adapters + static_cast<std::uint64_t>(d.overhead),
              static_cast<std::uint64_t>(d.total()));
    bool noted = false;
    for (const auto& n : e->assumptions)
        noted = noted || n.find("source and target both taken as --seq 256") != std::string::npos;
    EXPECT_TRUE(noted);
}

} // namespace
} // namespace llmplan

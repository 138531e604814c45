// Hybrid models: linear-attention (Gated DeltaNet) layers read from config.json, their constant
// per-sequence state sized as each engine stores it, the KV cache summed per layer. Every number is
// the formula written beside it, from Qwen3-Next-80B-A3B's config (tests/data/models/README.md).
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using namespace llmplan;
using test::kv_bytes;

model_desc qwen3_next() {
    return test::load_test_model("Qwen--Qwen3-Next-80B-A3B-Instruct");
}

// full_attention_interval 4: layer i is full attention when (i + 1) % 4 == 0 (Qwen3NextConfig), so
// 12 of 48 keep a KV cache and 36 are Gated DeltaNet with conv_dim = 2 x 16 x 128 + 32 x 128 = 8192
// channels and a 32 x 128 x 128 = 524288-element recurrent state.
TEST(hybrid, qwen3_next_layers_from_full_attention_interval) {
    const auto m      = qwen3_next();
    std::size_t full  = 0;
    std::size_t state = 0;
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const auto& l = m.layers[i];
        EXPECT_EQ(l.has_kv(), (i + 1) % 4 == 0) << i;
        full += l.has_kv();
        if (!l.has_state()) continue;
        ++state;
        EXPECT_EQ(l.recurrent.conv_channels, 8192u);
        EXPECT_EQ(l.recurrent.conv_kernel, 4u);
        EXPECT_EQ(l.recurrent.state_elems, 524288u);
    }
    EXPECT_EQ(full, 12u);
    EXPECT_EQ(state, 36u);
}

// The module lists of modeling_qwen3_next.py, summed by hand: embeddings and lm_head 2 x 151936 x
// 2048; per layer two norms (4096); 12 gated attention layers of 27,263,488 (q_proj 2x rows for the
// gate: 8192 x 2048, k and v 512 x 2048, o 2048 x 4096, q/k norms 256 each); 36 Gated DeltaNet
// layers of 33,718,464 (in_proj_qkvz 12288 x 2048, in_proj_ba 64 x 2048, conv1d 8192 x 4, dt_bias
// and A_log 32 each, norm 128, out_proj 2048 x 4096); 48 MoE blocks of 1,614,809,088 (router 512 x
// 2048, 512 experts of 3 x 512 x 2048, a shared expert 3 x 512 x 2048 and its 2048-wide gate); the
// final norm. 79.05 B without the embeddings: the model card's "Non-Embedding: 79B".
TEST(hybrid, qwen3_next_parameter_count) {
    EXPECT_EQ(count_params(qwen3_next()).total, 79'674'391'296u);
}

// One linear layer's state per sequence (kv_cache.cpp):
//   llama.cpp f32, kernel - 1 past inputs: (8192 x 3 + 524288) x 4 = 2,195,456;
//   vLLM in bf16: (8192 x 3 + 524288) x 2 = 1,097,728, and half on each of 2 TP ranks;
//   transformers: conv (8192 x 4) in bf16 + the recurrent state in f32 = 65,536 + 2,097,152.
TEST(hybrid, state_bytes_per_engine) {
    const auto m  = qwen3_next();
    const auto& l = m.layers[0];
    EXPECT_EQ(state_layer_bytes(l, engine_kind::llama_cpp, dtype::f16), 2'195'456u);
    EXPECT_EQ(state_layer_bytes(l, engine_kind::vllm, dtype::bf16), 1'097'728u);
    EXPECT_EQ(state_layer_bytes(l, engine_kind::vllm, dtype::bf16, 2), 548'864u);
    EXPECT_EQ(state_layer_bytes(l, engine_kind::transformers, dtype::bf16), 2'162'688u);
    EXPECT_EQ(state_layer_bytes(m.layers[3], engine_kind::llama_cpp, dtype::f16), 0u); // full attention
}

// llama.cpp at 4096 tokens, 1 sequence: 12 layers x 4096 cells x (2 heads x 256) x 2 (K, V) x 2
// bytes = 100,663,296 of KV, plus 36 x 2,195,456 = 79,036,416 of recurrent state; a second
// sequence doubles both (n_ctx is the total over sequences; one state slot each).
TEST(hybrid, llama_cpp_kv_is_summed_per_layer) {
    const auto m = qwen3_next();
    auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 4096);
    auto one     = estimate_inference(m, p);
    ASSERT_TRUE(one.has_value()) << one.error().what();
    EXPECT_EQ(kv_bytes(*one), 100'663'296u + 79'036'416u);
    p.batch  = 2;
    auto two = estimate_inference(m, p);
    ASSERT_TRUE(two.has_value());
    EXPECT_EQ(kv_bytes(*two), 2 * (100'663'296u + 79'036'416u));
}

// transformers: the state does not grow with the context; KV does (12 layers x 2 x 512 x 2 bytes
// = 24,576 bytes a token).
TEST(hybrid, transformers_state_is_constant_in_context) {
    const auto m = qwen3_next();
    inference_params p;
    p.engine = engine_kind::transformers;
    p.ctx    = 1024;
    auto a   = estimate_inference(m, p);
    p.ctx    = 2048;
    auto b   = estimate_inference(m, p);
    ASSERT_TRUE(a.has_value() && b.has_value());
    EXPECT_EQ(a->kv_bytes_per_token, 24'576u);
    EXPECT_GE(kv_bytes(*b) - kv_bytes(*a), 1024u * 24'576u);
    EXPECT_LE(kv_bytes(*b) - kv_bytes(*a), 1024u * 24'576u * 3 / 2); // + the growth transient
    EXPECT_GE(kv_bytes(*a), 36u * 2'162'688u);
}

// A layer_types list wins over the interval; a wrong length or kind names the field.
TEST(hybrid, layer_types_and_bad_configs) {
    std::string cfg = R"({"model_type": "qwen3_next", "hidden_size": 64, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
        "vocab_size": 256, "linear_conv_kernel_dim": 4, "linear_key_head_dim": 8, "linear_value_head_dim": 8,
        "linear_num_key_heads": 2, "linear_num_value_heads": 4, "num_experts": 4, "num_experts_per_tok": 2,
        "moe_intermediate_size": 32, "shared_expert_intermediate_size": 0,
        "layer_types": ["full_attention", "linear_attention", "linear_attention", "full_attention"]})";
    auto m          = parse_hf_config(cfg, "t.json");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_TRUE(m->layers[0].has_kv());
    EXPECT_EQ(m->layers[1].recurrent.conv_channels, 2u * 2 * 8 + 4 * 8); // 64
    EXPECT_EQ(m->layers[1].recurrent.state_elems, 4u * 8 * 8);           // 256
    auto bad = cfg;
    bad.replace(bad.find("\"full_attention\", \"linear"), 16, "\"mamba\"");
    auto e = parse_hf_config(bad, "t.json");
    ASSERT_FALSE(e.has_value());
    EXPECT_NE(e.error().what().find("/layer_types/0"), std::string::npos) << e.error().what();
    auto short_list = cfg;
    short_list.replace(short_list.find("\"full_attention\", \"linear"), 18, "");
    EXPECT_FALSE(parse_hf_config(short_list, "t.json").has_value());
}

} // namespace

// 2026 families, second round (issue 21, item 1): model_types that were missing from the
// architecture table, read from their real config.json (data/models/SOURCES.md), their parameter
// counts by hand against the published totals, and the KV cache per token as llama.cpp and vLLM
// build it, at two context lengths.
#include "catalog_fixtures.h"
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace llmplan {
namespace {

using test::catalog_model;
using test::kv_bytes;

// MiMo-V2-Flash (XiaomiMiMo/MiMo-V2-Flash, config from ai-dynamo/aiconfigurator): 48 layers of width
// 4096, vocab 152,576 untied. hybrid_layer_pattern: 9 full-attention layers (0, 5, 11, ..., 47) of
// 64 query heads and 4 KV heads, 39 sliding layers (window 128) of 64 query heads and 8 KV heads, with
// q/k 192 wide and v 128 wide in both; a sink logit per query head in the sliding layers
// (add_swa_attention_sink_bias); moe_layer_freq: layer 0 a dense MLP of 16,384, the 47 others 256
// SwiGLU experts of 2048 (8 a token) with a router score bias, no shared expert. By hand (modules of
// vllm/model_executor/models/mimo_v2_flash.py MiMoV2Attention / MiMoV2MoE / MiMoV2MLP):
//   full attention: q 12,288 x 4096 + k 768 x 4096 + v 512 x 4096 + o 4096 x 8192 = 89,128,960;
//   sliding attention: q 12,288 x 4096 + k 1536 x 4096 + v 1024 x 4096 + o 4096 x 8192 + 64 sinks
//     = 94,371,904;
//   MoE: router 256 x 4096 + bias 256 + 256 x 3 x 2048 x 4096 = 6,443,499,776; dense 3 x 16,384 x 4096
//     = 201,326,592; two norms 8192 a layer;
//   total = 2 x 152,576 x 4096 + 4096 + 9 x 89,128,960 + 39 x 94,371,904 + 48 x 8192 + 201,326,592
//         + 47 x 6,443,499,776 = 308,778,780,864: the card's "309B total parameters" (also the SGLang
//         day-0 post, lm-sys.github.io blog/2025-12-15-mimo-v2-flash.md: "309B total parameters and
//         15B activated parameters"). Active: 248 experts a layer left out, 47 x 248 x 3 x 2048 x 4096
//         = 293,332,844,544 fewer: 15,445,936,320 ("15B activated").
//   The checkpoint is FP8 (e4m3, 128 x 128 blocks), so its safetensors bytes are not a parameter count.
// KV a token (K and V in f16 / bf16): full 4 x (192 + 128) x 2 = 2,560 bytes, sliding 8 x 320 x 2 =
// 5,120: 9 x 2,560 + 39 x 5,120 = 222,720 bytes over all layers, as vLLM lays out one slot (its
// FlashAttentionDiffKVBackend keeps K at head_size and V at head_size_v, MiMoV2Attention). llama.cpp
// (llama_kv_cache_iswa) gives the sliding layers min(n_ctx, pad(128 + 512, 256)) = 768 cells:
//   8192 tokens: 8192 x 23,040 + 768 x 199,680 = 188,743,680 + 153,354,240 = 342,097,920;
//   131,072 tokens: 131,072 x 23,040 + 153,354,240 = 3,173,253,120.
TEST(families_2026_more, mimo_v2_flash_count_and_hybrid_cache) {
    const auto m = catalog_model("XiaomiMiMo/MiMo-V2-Flash");
    ASSERT_EQ(m.n_layer, 48u);
    EXPECT_EQ(m.gguf_arch, "mimo2");
    std::uint32_t sliding = 0, full = 0;
    for (const auto& l : m.layers) {
        if (l.n_swa) {
            ++sliding;
            EXPECT_EQ(l.n_swa, 128u);
            EXPECT_EQ(l.n_head_kv, 8u);
        } else {
            ++full;
            EXPECT_EQ(l.n_head_kv, 4u);
        }
        EXPECT_EQ(l.head_dim_k, 192u);
        EXPECT_EQ(l.head_dim_v, 128u);
    }
    EXPECT_EQ(sliding, 39u);
    EXPECT_EQ(full, 9u);
    EXPECT_EQ(m.layers[0].n_swa, 0u);
    EXPECT_EQ(m.layers[1].n_swa, 128u);
    EXPECT_FALSE(m.layers[0].is_moe);
    EXPECT_EQ(m.layers[0].n_ff, 16'384u);
    EXPECT_TRUE(m.layers[1].is_moe);
    EXPECT_TRUE(m.moe.score_bias);
    EXPECT_EQ(m.moe.n_ff_shexp, 0u);
    EXPECT_EQ(m.quant.method, quant_method::fp8);
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 308'778'780'864u);
    EXPECT_EQ(c.active, 15'445'936'320u);
    for (auto [ctx, total] : {
             std::pair{8192ull,   342'097'920ull  },
             std::pair{131072ull, 3'173'253'120ull}
    }) {
        auto a = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(a.has_value()) << a.error().what();
        EXPECT_EQ(a->kv_bytes_per_token, 222'720u);
        EXPECT_EQ(kv_bytes(*a), total) << ctx;
        inference_params vp;
        vp.engine = engine_kind::vllm;
        vp.ctx    = ctx;
        auto v    = estimate_inference(m, vp);
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, 222'720u) << ctx;
    }
}

// The per-layer lists name their key and entry when they are wrong.
TEST(families_2026_more, hybrid_lists_name_the_field) {
    const std::string base = R"({"model_type": "mimo_v2_flash", "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "v_head_dim": 8,
        "intermediate_size": 128, "moe_intermediate_size": 32, "n_routed_experts": 4, "num_experts_per_tok": 2,
        "vocab_size": 100, "swa_num_key_value_heads": 4, "sliding_window_size": 8, )";
    auto short_list = parse_hf_config(base + R"("hybrid_layer_pattern": [0], "moe_layer_freq": [0, 1]})", "c.json");
    ASSERT_FALSE(short_list.has_value());
    EXPECT_NE(short_list.error().what().find("hybrid_layer_pattern"), std::string::npos) << short_list.error().what();
    auto bad_entry = parse_hf_config(base + R"("hybrid_layer_pattern": [0, 2], "moe_layer_freq": [0, 1]})", "c.json");
    ASSERT_FALSE(bad_entry.has_value());
    EXPECT_NE(bad_entry.error().what().find("hybrid_layer_pattern/1"), std::string::npos) << bad_entry.error().what();
    auto bad_heads = parse_hf_config(
        base + R"("hybrid_layer_pattern": [0, 1], "moe_layer_freq": [0, 1], "swa_num_attention_heads": 6})", "c.json");
    ASSERT_FALSE(bad_heads.has_value());
    EXPECT_NE(bad_heads.error().what().find("swa_num_key_value_heads"), std::string::npos);
    auto good = parse_hf_config(base + R"("hybrid_layer_pattern": [0, 1], "moe_layer_freq": [0, 1]})", "c.json");
    ASSERT_TRUE(good.has_value()) << good.error().what();
    EXPECT_EQ(good->layers[1].n_head_kv, 4u);
    EXPECT_EQ(good->layers[1].n_swa, 8u);
    EXPECT_EQ(good->layers[0].head_dim_v, 8u);
    EXPECT_FALSE(good->layers[0].is_moe);
    EXPECT_TRUE(good->layers[1].is_moe);
}

// DeepSeek-V4-Flash's real config used to exit 2 with "expected q_lora_rank > 0" (its indexer read
// without the standard decoder's MLA), then answered as an unknown family; it has a row now
// (tests/unit/deepseek_v4_family_test.cpp checks its count and cache), so nothing is guessed.
TEST(families_2026_more, deepseek_v4_reads_with_its_row) {
    const auto m = test::load_test_model("deepseek-ai--DeepSeek-V4-Flash");
    ASSERT_EQ(m.n_layer, 43u);
    EXPECT_FALSE(m.low_confidence());
    auto a = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", 8192));
    EXPECT_TRUE(a.has_value()) << (a ? "" : a.error().what());
}

} // namespace
} // namespace llmplan

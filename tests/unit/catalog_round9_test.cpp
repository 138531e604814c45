// Catalog round 9 (data/models/SOURCES.md): nvidia/Llama-3_1-Nemotron-Ultra-253B-v1, a model the
// benchmark's dev cases name that the catalog lacked, its DeciLM config counted by hand.
#include "catalog_fixtures.h"
#include "llmplan/estimate.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

// Nemotron-Ultra (DeciLM, the same reader as Super-49B, whose count equals its Hub total): 162
// block_configs over width 16,384, 128 query heads of 128, vocab 128,256, untied lm_head. Read off the
// config: 64 layers have attention with n_heads_in_group 16 (8 KV heads), the rest no_op; 81 layers
// have an FFN, ffn_mult m giving width ceil256(int(2 m 16,384 / 3)) (modeling_decilm.py), widths
// 34 x 53,248 + 19 x 26,624 + 10 x 21,504 + 6 x 16,128 + 4 x 37,376 + 2 x 32,000 + 5,376 + 10,752 +
// 399,360 + 425,984 + 343,040 + 301,056; no layer is replace_with_linear. Each present attention or FFN
// block brings its own RMSNorm. llama.cpp prints "model params = 253.401 B" for its GGUF (ik_llama.cpp
// PR 377 log; /work/shared/truth/llamacpp_issue_logs.json case 29), the Hub lists 253.4B.
TEST(catalog_round9, nemotron_ultra_count_by_hand) {
    const auto m = catalog_model("nvidia/Llama-3_1-Nemotron-Ultra-253B-v1");
    ASSERT_EQ(m.layers.size(), 162u);
    std::uint64_t n_attn = 0, n_ffn = 0, sum_ff = 0;
    for (const auto& l : m.layers) {
        if (l.attn != attn_kind::none) {
            ++n_attn;
            EXPECT_EQ(l.n_head_kv, 8u);
        }
        if (l.n_ff) ++n_ffn;
        sum_ff += l.n_ff;
    }
    EXPECT_EQ(n_attn, 64u);
    EXPECT_EQ(n_ffn, 81u);
    const std::uint64_t h = 16'384, kv = 8 * 128;
    EXPECT_EQ(sum_ff, 34 * 53'248ull + 19 * 26'624 + 10 * 21'504 + 6 * 16'128 + 4 * 37'376 + 2 * 32'000 + 5'376 +
                          10'752 + 399'360 + 425'984 + 343'040 + 301'056);
    const std::uint64_t by_hand = 2 * 128'256 * h + h + 64 * (2 * h * h + 2 * h * kv + h) + 3 * h * sum_ff + 81 * h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 253'401'268'224u);
    EXPECT_EQ((c.total + 500'000) / 1'000'000, 253'401u); // llama.cpp's "253.401 B"
    EXPECT_FALSE(m.tied_embd);
    EXPECT_EQ(m.n_ctx_train, 131'072u);
}

} // namespace
} // namespace llmplan

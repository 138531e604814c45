// Catalog round 7 (data/models/SOURCES.md): baichuan-inc/Baichuan2-13B-Chat, a model the benchmark's
// dev cases name that the catalog lacked, against the count its own checkpoint index publishes.
#include "catalog_fixtures.h"
#include "llmplan/estimate.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

// Baichuan2-13B-Chat (remote code modeling_baichuan.py: fused W_pack, RMSNorms, untied lm_head; its
// ALiBi biases are computed, not stored). By hand: 2 x 125,696 x 5,120 (embeddings and lm_head) +
// 5,120 (final norm) + 40 x (4 x 5,120^2 W_pack + o_proj + 3 x 5,120 x 13,696 MLP + 2 x 5,120 norms)
// = 13,896,668,160, which is the bf16 checkpoint's pytorch_model.bin.index.json total_size
// 27,793,336,320 / 2 (the Hub repo's file, mirrored by jrd77/Baichuan2-13B-Chat @ d022d72).
TEST(catalog_round7, baichuan2_13b_chat_is_its_checkpoint_total) {
    const auto m = catalog_model("baichuan-inc/Baichuan2-13B-Chat");
    const auto c = count_params(m);
    EXPECT_EQ(c.total,
              2 * 125'696ull * 5'120 + 5'120 + 40ull * (4 * 5'120ull * 5'120 + 3 * 5'120ull * 13'696 + 2 * 5'120));
    EXPECT_EQ(c.total, 13'896'668'160u);
    EXPECT_EQ(2 * c.total, 27'793'336'320u);
    EXPECT_FALSE(m.tied_embd);
    ASSERT_EQ(m.layers.size(), 40u);
    EXPECT_EQ(m.layers[0].n_head_kv, 40u); // multi-head attention: 40 KV heads of 128
}

// Its config.json names the context model_max_length only (configuration_baichuan.py's key; the 7B's
// file also has max_position_embeddings 4096): the reader takes it as n_ctx_train.
TEST(catalog_round7, baichuan2_13b_context_is_model_max_length) {
    EXPECT_EQ(catalog_model("baichuan-inc/Baichuan2-13B-Chat").n_ctx_train, 4'096u);
    EXPECT_EQ(catalog_model("baichuan-inc/Baichuan2-7B-Chat").n_ctx_train, 4'096u);
}

} // namespace
} // namespace llmplan

// Catalog round 6 (data/models/SOURCES.md): Yi-34B-Chat, bert-base-cased, opt-125m and Qwen-VL-Chat,
// the benchmark's models the catalog lacked, each against the published count named beside it.
#include "catalog_fixtures.h"
#include "llmplan/estimate.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

// Yi-34B-Chat shares Yi-1.5-34B's shapes: the Hub lists 01-ai/Yi-34B-Chat at 34,388,917,248
// (AlexsJones/llmfit llmfit-core/data/hf_models.json @ 3fb10d019f). By hand: 2 x 64,000 x 7,168
// (untied) + 7,168 + 60 x (2 x 7,168^2 q/o + 2 x 7,168 x 1,024 k/v + 3 x 7,168 x 20,480 + 2 x 7,168).
TEST(catalog_round6, yi_34b_chat_is_the_hub_total) {
    const auto c = count_params(catalog_model("01-ai/Yi-34B-Chat"));
    EXPECT_EQ(c.total, 34'388'917'248u);
    EXPECT_EQ(c.total, 2 * 64'000ull * 7'168 + 7'168 +
                           60ull * (2 * 7'168ull * 7'168 + 2 * 7'168ull * 1'024 + 3 * 7'168ull * 20'480 + 2 * 7'168));
    EXPECT_EQ(c.total, count_params(catalog_model("01-ai/Yi-1.5-34B")).total);
}

// bert-base-cased (BertModel with pooler, as bert-base-uncased in param_count_test): keras-hub's
// bert_base_en preset (the cased model) lists 108,310,272 (keras-team/keras-hub
// keras_hub/src/models/bert/bert_presets.py). The uncased model's 109,482,240 less its 1,526 extra
// vocabulary rows: (30,522 - 28,996) x 768 = 1,171,968.
TEST(catalog_round6, bert_base_cased_is_keras_hub_bert_base_en) {
    const auto m = catalog_model("google-bert/bert-base-cased");
    EXPECT_EQ(count_params(m).total, 108'310'272u);
    EXPECT_EQ(count_params(m).total, 109'482'240u - (30'522u - 28'996u) * 768u);
}

// OPT-125m (modeling_opt.py): the tied 50,272 x 768 embedding, 2,050 x 768 positions (OPT's learned
// positions are offset by 2), 12 x (4 x (768^2 + 768) + 768 x 3,072 + 3,072 + 3,072 x 768 + 768 +
// 2 x 2 x 768) and the final LayerNorm = 125,239,296, the Hub total of peft-internal-testing/opt-125m
// (llmfit @ 026ac571; a re-save of facebook/opt-125m); keras-hub's opt_125m_en lists 125,237,760, the
// same weights with 2,048 position rows (1,536 fewer).
TEST(catalog_round6, opt_125m_counts_its_offset_positions) {
    const auto m = catalog_model("facebook/opt-125m");
    EXPECT_EQ(count_params(m).total, 125'239'296u);
    EXPECT_EQ(count_params(m).total, 125'237'760u + 2u * 768u);
    EXPECT_TRUE(m.tied_embd);
}

// Qwen-VL-Chat: the language model is Qwen-7B's (Qwen/Qwen-7B-Chat's Hub total 7,721,324,544, same
// shapes); the tower from its "visual" config by hand (Qwen-VL visual.py): 48 x (4 x 1,664 norms +
// 3 x 1,664^2 + 3 x 1,664 in_proj + 1,664^2 + 1,664 out_proj + 1,664 x 8,192 + 8,192 c_fc + 8,192 x
// 1,664 + 1,664 c_proj) + 3 x 14^2 x 1,664 conv + 256 x 1,664 positions + 2 x 1,664 ln_pre + the
// Resampler (2 x 256 x 4,096 pos_embed/query + 1,664 x 4,096 kv_proj + 3 x 4,096^2 + 3 x 4,096 +
// 4,096^2 + 4,096 attention + 4 x 4,096 ln_q/ln_kv) + 2 x 4,096 ln_post + 4,096^2 proj
// = 1,935,610,624: the paper's (arXiv 2308.12966 Table 1) 1.9B ViT + 0.08B adapter; with the LLM
// 9,656,935,168, its "9.6B".
TEST(catalog_round6, qwen_vl_chat_language_model_and_visual_tower) {
    const auto m = catalog_model("Qwen/Qwen-VL-Chat");
    EXPECT_EQ(count_params(m).total, 7'721'324'544u);
    EXPECT_EQ(count_params(m).total, count_params(catalog_model("Qwen/Qwen-7B-Chat")).total);
    const std::uint64_t w = 1'664, f = 8'192, d = 4'096;
    const std::uint64_t block     = 4 * w + 3 * w * w + 3 * w + w * w + w + w * f + f + f * w + w;
    const std::uint64_t resampler = 2 * 256 * d + w * d + 3 * d * d + 3 * d + d * d + d + 4 * d;
    EXPECT_EQ(m.vision.n_params, 48 * block + 3 * 14 * 14 * w + 256 * w + 2 * w + resampler + 2 * d + d * d);
    EXPECT_EQ(m.vision.n_params, 1'935'610'624u);
    EXPECT_EQ(m.vision.n_ff, f); // int(1,664 x 4.9231)
    EXPECT_EQ(m.vision.n_layer, 48u);
}

// Training a VLM carries its frozen vision tower's weights: 1,935,610,624 params (vision.cpp, by hand
// from Qwen-VL's visual.py) x 2 B (bf16-mixed: the checkpoint's 16-bit dtype) = 3,871,221,248 bytes above
// the same estimate without the tower; no gradient or optimizer state for it.
TEST(catalog_round6, training_a_vlm_counts_its_frozen_vision_tower) {
    training_params p;
    p.method    = train_method::lora;
    auto vlm    = catalog_model("Qwen/Qwen-VL-Chat");
    auto e      = estimate_training(vlm, p);
    auto text   = vlm;
    text.vision = {};
    auto t      = estimate_training(text, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    ASSERT_TRUE(t.has_value()) << t.error().what();
    EXPECT_EQ(e->devices[0].parts.weights - t->devices[0].parts.weights, 3'871'221'248);
    EXPECT_EQ(e->devices[0].parts.gradients, t->devices[0].parts.gradients);
    EXPECT_EQ(e->devices[0].parts.optimizer, t->devices[0].parts.optimizer);
    bool said = false;
    for (const auto& a : e->assumptions)
        said = said || a.find("vision tower frozen (1.94 B params") != std::string::npos;
    EXPECT_TRUE(said);
}

} // namespace
} // namespace llmplan

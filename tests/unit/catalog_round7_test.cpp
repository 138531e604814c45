// Catalog round 7 (data/models/SOURCES.md): baichuan-inc/Baichuan2-13B-Chat and Qwen/Qwen-VL-Chat-Int4,
// models the benchmark's dev cases name that the catalog lacked, each against the total its own
// checkpoint index publishes.
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

// Qwen-VL-Chat-Int4: Qwen-VL-Chat's config.json plus a GPTQ quantization_config (4 bits, groups of 128,
// desc_act false); the language model's 32 x 5 linears are packed, the embeddings, lm_head, norms and
// the visual tower stay fp16. Per GPTQ linear (K in, N out): K x N / 2 qweight + K/128 x N/8 x 4 qzeros
// + K/128 x N x 2 scales + K x 4 g_idx bytes. The repo's model.safetensors.index.json total_size
// 9,731,786,240 (x1ngzai/Qwen-VL-Chat-Int4 @ 1cd721a) is that language model + the tower's
// 1,935,610,624 fp16 params + the fp16 biases its GPTQ packer stored for the 4 bias-less linears of
// each layer (32 x 2 x (4,096 + 11,008 + 11,008 + 4,096) = 1,933,312 bytes, zeros the reader does not count).
TEST(catalog_round7, qwen_vl_chat_int4_is_qwen_vl_chat_in_gptq_4bit) {
    const auto m = catalog_model("Qwen/Qwen-VL-Chat-Int4");
    EXPECT_EQ(m.quant.method, quant_method::gptq);
    EXPECT_EQ(m.quant.bits, 4u);
    EXPECT_EQ(m.quant.group_size, 128u);
    const auto bf16 = catalog_model("Qwen/Qwen-VL-Chat");
    EXPECT_EQ(count_params(m).total, count_params(bf16).total);
    EXPECT_EQ(m.vision.n_params, bf16.vision.n_params);
    const std::uint64_t h = 4'096, ff = 11'008, v = 151'936;
    const auto gptq = [](std::uint64_t k, std::uint64_t n) {
        return k * n / 2 + k / 128 * (n / 8) * 4 + k / 128 * n * 2 + k * 4;
    };
    const std::uint64_t layer = gptq(h, 3 * h) + 3 * h * 2 + gptq(h, h) + 2 * gptq(h, ff) + gptq(ff, h) + 2 * h * 2;
    const std::uint64_t lm    = 2 * v * h * 2 + h * 2 + 32 * layer;
    EXPECT_EQ(weights_bytes(m), lm);
    EXPECT_EQ(lm, 5'858'631'680u);
    EXPECT_EQ(lm + 2 * m.vision.n_params + 32 * 2 * (h + ff + ff + h), 9'731'786'240u);
}

} // namespace
} // namespace llmplan

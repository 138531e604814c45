// DeepSeek-V4-Flash and DeepSeek-V4-Pro (model_type deepseek_v4, issue 21 item 1), read from their real
// config.json (data/models/SOURCES.md: byte copies from ai-dynamo/aiconfigurator @ 095f58a51c4c), their
// parameter counts by hand, and the cache vLLM builds for them.
//
// Module list (vllm-project/vllm vllm/model_executor/models/deepseek_v4.py, layers/deepseek_v4_attention.py,
// layers/deepseek_compressor.py; see src/model/arch/compressed_attention.cpp). V4-Flash by hand, one layer:
//   attention: wq_a 1024 x 4096 + q_norm 1024 + wq_b 32,768 x 1024 + wkv 512 x 4096 + kv_norm 512 +
//     wo_a 8192 x 4096 + wo_b 4096 x 8192 + 64 sinks = 106,956,352;
//   hyper-connections: 2 x (24 x 16,384 + 24 + 3) = 786,486; two norms 8192;
//   MoE: router 256 x 4096 = 1,048,576, shared SwiGLU expert 3 x 2048 x 4096 = 25,165,824, 256 routed
//     experts of 3 x 2048 x 4096 = 6,442,450,944; a score bias 256 (40 layers) or a tid2eid table
//     129,280 x 6 = 775,680 (the 3 hash layers);
//   compressor at ratio 4 (21 layers): ape 4 x 1024 + wkv, wgate 1024 x 4096 each + norm 512 = 8,393,216,
//     and the indexer: wq_b 8192 x 1024 + weights_proj 64 x 4096 + its compressor (4 x 256 + 2 x 256 x
//     4096 + 128) = 10,749,056; at ratio 128 (20 layers): 128 x 512 + 2 x 512 x 4096 + 512 = 4,260,352.
//   Outside the layers: embedding and head 2 x 129,280 x 4096, final norm 4096, hc_head 4 x 16,384 + 4 + 1.
//   Total = 43 x (106,956,352 + 786,486 + 8192 + 1,048,576 + 25,165,824 + 6,442,450,944)
//         + 21 x (8,393,216 + 10,749,056) + 20 x 4,260,352 + 3 x 775,680 + 40 x 256
//         + 1,059,061,760 + 4096 + 65,541 = 284,334,567,511: the card's "284B total";
//   active, 6 of 256 routed experts: 13,801,959,511 ("13B activated").
// V4-Pro the same way (width 7168, 128 heads of 512, q_lora_rank 1536, 16 output groups of 1024, 384
// experts of 3072, 61 layers: 30 of ratio 4, 31 of ratio 128): 1,572,999,528,803 total, 49,781,408,099
// active: the card's "1.6T total, 49B activated".
//
// vLLM's cache (src/estimate/kv_cache.cpp cites each line):
//   every layer a 128-token window of 584-byte rows (DeepseekSparseSWABackend.get_kv_cache_shape:
//     448 fp8 + 128 bf16 RoPE bytes + 8 scale bytes, fp8_ds_mla, the only cache DeepseekV4 takes);
//   ratio-4 layers one 584-byte row and one 132-byte indexer key (128 fp8 + fp32 scale,
//     DeepseekV4IndexerCache) every 4 tokens: 179 bytes a token; ratio-128 layers one 584-byte row
//     every 128 tokens;
//   compressor states in fp32 (CompressorStateCache: coff x ratio tokens of 2 x coff x head_dim):
//     ratio 4: 8 x 2048 x 4 = 65,536 and the indexer's 8 x 512 x 4 = 16,384; ratio 128: 128 x 1024 x 4
//     = 524,288 a sequence.
#include "catalog_fixtures.h"
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

using test::catalog_model;

struct dsv4_ratio_counts {
    std::uint32_t window_only = 0, r4 = 0, r128 = 0;
};
dsv4_ratio_counts dsv4_ratios(const model_desc& m) {
    dsv4_ratio_counts c;
    for (const auto& l : m.layers) {
        c.window_only += l.compressed.ratio == 1;
        c.r4 += l.compressed.ratio == 4;
        c.r128 += l.compressed.ratio == 128;
    }
    return c;
}

/// vLLM's whole cache for one sequence of `ctx` tokens: every layer's rows plus its fixed part.
std::uint64_t dsv4_vllm_cache(const model_desc& m, std::uint64_t ctx) {
    std::uint64_t b = 0;
    for (const auto& l : m.layers)
        b += kv_layer_bytes(m, l, engine_kind::vllm, dtype::f8_e4m3, dtype::f8_e4m3, ctx) +
             state_layer_bytes(l, engine_kind::vllm, dtype::bf16);
    return b;
}

TEST(deepseek_v4_family, flash_count_and_layers) {
    const auto m = catalog_model("deepseek-ai/DeepSeek-V4-Flash");
    ASSERT_EQ(m.n_layer, 43u);
    EXPECT_FALSE(m.low_confidence());
    EXPECT_EQ(m.gguf_arch, "deepseek4");
    const auto r = dsv4_ratios(m);
    EXPECT_EQ(r.window_only, 2u);
    EXPECT_EQ(r.r4, 21u);
    EXPECT_EQ(r.r128, 20u);
    EXPECT_EQ(m.layers[0].n_swa, 128u); // window-only layers are sliding-window layers
    EXPECT_EQ(m.layers[2].n_swa, 0u);   // compressed layers read the whole context
    EXPECT_EQ(m.layers[2].compressed.index_dim, 128u);
    EXPECT_EQ(m.layers[3].compressed.index_dim, 0u);
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 284'334'567'511u);
    EXPECT_EQ(c.active, 13'801'959'511u);
}

TEST(deepseek_v4_family, pro_count) {
    const auto m = catalog_model("deepseek-ai/DeepSeek-V4-Pro");
    ASSERT_EQ(m.n_layer, 61u);
    const auto r = dsv4_ratios(m);
    EXPECT_EQ(r.window_only, 0u);
    EXPECT_EQ(r.r4, 30u);
    EXPECT_EQ(r.r128, 31u);
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 1'572'999'528'803u);
    EXPECT_EQ(c.active, 49'781'408'099u);
}

// V4-Flash at 8192 tokens: 21 x 179 x 8192 + 20 x 64 x 584 + the fixed part 15,420,416 (43 x 128 x 584
// window rows = 3,214,336; 21 x (65,536 + 16,384) + 20 x 524,288 compressor states = 12,206,080)
// = 46,961,664 bytes; at 1,048,576 tokens (its max_position_embeddings): 21 x 179 x 1,048,576 + 20 x
// 8192 x 584 + 15,420,416 = 4,052,700,160 (3.77 GiB a sequence).
TEST(deepseek_v4_family, flash_vllm_cache_at_two_contexts) {
    const auto m = catalog_model("deepseek-ai/DeepSeek-V4-Flash");
    EXPECT_EQ(dsv4_vllm_cache(m, 8192), 46'961'664u);
    EXPECT_EQ(dsv4_vllm_cache(m, 1'048'576), 4'052'700'160u);
    // The estimate's linear rate: 21 x 179 + 20 x ceil(584 / 128) = 3859 bytes a token (4.56 counted as
    // 5 for the ratio-128 layers: 0.25 % over), plus the fixed part per sequence.
    for (std::uint64_t ctx : {8192u, 65536u}) {
        auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "fp8", ctx));
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, 3859u);
        EXPECT_EQ(v->state_bytes_per_sequence, 15'420'416u);
    }
}

// V4-Pro: 30 x 179 + 31 x 5 = 5525 bytes a token; fixed 61 x 128 x 584 + 30 x 81,920 + 31 x 524,288 =
// 23,270,400. At 8192 tokens: 30 x 179 x 8192 + 31 x 37,376 + 23,270,400 = 68,420,096.
TEST(deepseek_v4_family, pro_vllm_cache) {
    const auto m = catalog_model("deepseek-ai/DeepSeek-V4-Pro");
    EXPECT_EQ(dsv4_vllm_cache(m, 8192), 68'420'096u);
    auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "fp8", 8192));
    ASSERT_TRUE(v.has_value()) << v.error().what();
    EXPECT_EQ(v->kv_bytes_per_token, 5525u);
    EXPECT_EQ(v->state_bytes_per_sequence, 23'270'400u);
}

// Issue 21 item 2: the checkpoint is FP8 (128 x 128 blocks, ue8m0 scales: 1 byte a block) with the
// routed experts in FP4 (expert_dtype "fp4": e2m1 pairs and an e8m0 scale a 32, DeepSeek's reference
// Linear in inference/model.py). V4-Flash by hand:
//   experts: 43 x 256 x (2 x (2048 x 2048 + 2048 x 128) + 4096 x 1024 + 4096 x 64) = 147,169,738,752;
//   FP8 matrices (wq_a, wq_b, wkv, wo_a, wo_b, the shared expert's three, the 21 indexers' wq_b):
//     5,857,345,536 weights + 357,504 blocks of one byte = 5,857,703,040;
//   everything else in bf16: (284,334,567,511 - 5,857,345,536 - 277,025,390,592) x 2 = 2,903,662,766;
//   total 155,931,104,558 bytes (145.2 GiB), against "~160 GB" quoted as the download (framia.pro),
//   where the fp32 hyper-connection and compressor tensors (counted here in bf16) add a little.
TEST(deepseek_v4_family, flash_fp4_experts_in_fp8_checkpoint) {
    const auto m = catalog_model("deepseek-ai/DeepSeek-V4-Flash");
    EXPECT_EQ(weights_bytes(m), 155'931'104'558u);
    std::uint64_t experts = 0;
    for (const auto& t : m.tensors)
        if (is_expert(t.role)) experts += t.bytes;
    EXPECT_EQ(experts, 147'169'738'752u);
}

TEST(deepseek_v4_family, bad_compress_ratios_name_the_field) {
    const std::string base = R"({"model_type": "deepseek_v4", "hidden_size": 64, "vocab_size": 100,
        "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 32, "qk_rope_head_dim": 8,
        "q_lora_rank": 16, "o_groups": 2, "o_lora_rank": 16, "hc_mult": 2, "sliding_window": 8,
        "index_n_heads": 2, "index_head_dim": 16, "num_experts_per_tok": 2, "n_routed_experts": 4,
        "n_shared_experts": 1, "moe_intermediate_size": 32, "num_hidden_layers": 2, )";
    auto short_list        = parse_hf_config(base + R"("compress_ratios": [4]})", "c.json");
    ASSERT_FALSE(short_list.has_value());
    EXPECT_NE(short_list.error().what().find("compress_ratios"), std::string::npos) << short_list.error().what();
    auto bad = parse_hf_config(base + R"("compress_ratios": [4, "x"]})", "c.json");
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().what().find("compress_ratios/1"), std::string::npos) << bad.error().what();
    auto good = parse_hf_config(base + R"("compress_ratios": [4, 128]})", "c.json");
    ASSERT_TRUE(good.has_value()) << good.error().what();
    EXPECT_EQ(good->layers[1].compressed.ratio, 128u);
}

} // namespace
} // namespace llmplan

// Catalog round 10 (data/models/SOURCES.md): five models the benchmark's training cases name that the
// catalog lacked (issue 23), their assembled config.json files counted by hand from the shapes of the
// sources cited there, and checked against the published counts.
#include "catalog_fixtures.h"
#include "llmplan/estimate.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

// Falcon-7B (Lightning-AI/litgpt litgpt/config.py @ 26857050fe3f: n_embd 4544, 32 layers, 71 heads,
// n_query_groups 1, bias False, vocab 65,024): one fused QKV of 4544 x (71 + 2) x 64, the dense, a plain
// 4 x 4544 MLP, one LayerNorm a layer (parallel attention; transformers modeling_falcon.py: one
// input_layernorm unless new_decoder_architecture), ln_f, the head tied to the embedding. "6.92B"
// is this count; the Hub's safetensors metadata lists 7,217,189,760 (code-index file id 66004594245),
// which is this count + one stored lm_head copy (65,024 x 4,544), and LitGPT, which builds its own
// untied head, trains 7,217,189,760 parameters in full fine-tuning (Lightning AI's Falcon fine-tuning
// post, code-index file id 6875332761).
TEST(catalog_round10, falcon_7b_count_by_hand) {
    const auto m          = catalog_model("tiiuae/falcon-7b");
    const std::uint64_t h = 4544, v = 65'024, hd = 64, ff = 4 * h;
    const std::uint64_t layer   = h * (71 + 2) * hd + h * h + 2 * h * ff + 2 * h;
    const std::uint64_t by_hand = v * h + 32 * layer + 2 * h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 6'921'720'704u);
    EXPECT_EQ(c.total + v * h, 7'217'189'760u); // the Hub's stored tensors (a head copy), LitGPT's count
    EXPECT_TRUE(m.tied_embd);
    EXPECT_EQ(m.typical_layer().n_head_kv, 1u); // multi_query without new_decoder_architecture
}

// Falcon-40B (litgpt config.py: n_embd 8192, 60 layers, 128 heads, n_query_groups 8; tenstorrent/tt-metal
// falcon40b model_config.py: new_decoder_architecture, num_kv_heads 8): QKV 8192 x (128 + 2 x 8) x 64,
// two LayerNorms a layer (ln_attn, ln_mlp), tied head. The Hub's safetensors metadata lists
// 41,835,970,560 (code-index file id 66007164521, the "41.8B" figure) = this count + one stored
// lm_head copy of 65,024 x 8,192.
TEST(catalog_round10, falcon_40b_count_by_hand) {
    const auto m          = catalog_model("tiiuae/falcon-40b");
    const std::uint64_t h = 8192, v = 65'024, hd = 64, ff = 4 * h;
    const std::uint64_t layer   = h * (128 + 2 * 8) * hd + h * h + 2 * h * ff + 2 * 2 * h;
    const std::uint64_t by_hand = v * h + 60 * layer + 2 * h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 41'303'293'952u);
    EXPECT_EQ(c.total + v * h, 41'835'970'560u);
    EXPECT_EQ(m.typical_layer().n_head_kv, 8u);
}

// StableLM-Base-Alpha-3B (litgpt config.py: the Config defaults it takes, n_embd 4096, 16 layers,
// 32 heads, GptNeoxMLP 4 x 4096, bias, vocab 50,254 padded to a multiple of 512 = 50,688): GPT-NeoX
// blocks with biases, two LayerNorms a layer, untied embed_out. "3B" on the card; ~3.6B counted.
TEST(catalog_round10, stablelm_alpha_3b_count_by_hand) {
    const auto m          = catalog_model("stabilityai/stablelm-base-alpha-3b");
    const std::uint64_t h = 4096, v = 50'688, ff = 4 * h;
    const std::uint64_t layer   = (4 * h * h + 4 * h) + (2 * h * ff + ff + h) + 2 * 2 * h;
    const std::uint64_t by_hand = 2 * v * h + 16 * layer + 2 * h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 3'637'321'728u);
    EXPECT_FALSE(m.tied_embd);
}

// LLaMA-65B (young-geng/EasyLM llama_model.py LLAMA_STANDARD_CONFIGS['65b']: 8192, FFN 22016 = Meta's
// 2/3 x 4 x 8192 rounded up to a multiple of 256, 80 layers, 64 heads, vocab 32,000, untied): the
// LLaMA paper's (arXiv 2302.13971, Table 2) 65.2B.
TEST(catalog_round10, llama_65b_count_by_hand) {
    const auto m          = catalog_model("huggyllama/llama-65b");
    const std::uint64_t h = 8192, v = 32'000, ff = 22'016;
    EXPECT_EQ((2 * 4 * h / 3 + 255) / 256 * 256, ff);
    const std::uint64_t by_hand = 2 * v * h + 80 * (4 * h * h + 3 * h * ff + 2 * h) + h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 65'285'660'672u);
    EXPECT_EQ((c.total + 50'000'000) / 100'000'000, 653u); // 65.3B; the paper rounds down to 65.2B
    EXPECT_EQ(m.n_ctx_train, 2048u);
}

// BLOOMZ-7B1, fine-tuned from BLOOM-7B1 (bigscience-workshop/bigscience
// train/tr11-176B-ml/smaller_models/tr11f-6B3-ml.slurm: 30 layers, 4096 wide, 32 heads, ALiBi,
// embedding LayerNorm, vocabulary padded to 250,880): biases everywhere, the head tied. The BLOOM-7B1
// card's 7,069,016,064.
TEST(catalog_round10, bloomz_7b1_count_by_hand) {
    const auto m          = catalog_model("bigscience/bloomz-7b1");
    const std::uint64_t h = 4096, v = 250'880, ff = 4 * h;
    const std::uint64_t layer   = (3 * h * h + 3 * h) + (h * h + h) + (2 * h * ff + ff + h) + 2 * 2 * h;
    const std::uint64_t by_hand = v * h + 2 * h + 30 * layer + 2 * h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 7'069'016'064u);
    EXPECT_TRUE(m.tied_embd);
}

} // namespace
} // namespace llmplan

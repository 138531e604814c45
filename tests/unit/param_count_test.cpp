// Parameter counts from the architecture alone, against published totals.
// Expected values: the Hub's safetensors totals (`safetensors.total`) recorded in
// data/models/SOURCES.md (column "params"; the table is tests/data/param_counts.csv), and model
// cards where the Hub figure counts something else (gpt-oss's MXFP4 blocks; BERT's MLM head). Every
// one is exact, not within a tolerance.
#include "llmplan/load.h"
#include "unit/data_rows.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

// tests/data/param_counts.csv: one published total a line (id,total,note), its source beside it.
TEST(param_count, matches_hub_totals_exactly) {
    const auto rows = test::data_rows("param_counts.csv", ',');
    EXPECT_EQ(rows.size(), 56u); // every row was read
    for (const auto& f : rows) {
        ASSERT_GE(f.size(), 2u) << f[0];
        const auto* entry = find_in_catalog(f[0]);
        ASSERT_NE(entry, nullptr) << f[0];
        auto m = load_catalog_model(*entry);
        ASSERT_TRUE(m.has_value()) << m.error().what();
        EXPECT_EQ(count_params(*m).total, std::stoull(f[1])) << f[0];
    }
}

// Active parameters of MoE models: model cards state 14B (Qwen2-57B-A14B), 22B (Qwen3-235B-A22B),
// 37B (DeepSeek-V3), 12.9B (Mixtral 8x7B), 3.3B (Qwen3-30B-A3B), 5.1B (gpt-oss-120b), 3.6B (gpt-oss-20b).
// The exact figures below are the card figure's arithmetic: shared parts + n_expert_used / n_expert
// of the routed experts (hand check for Mixtral: 46,702,792,704 - 3/4 of 32 x 3 x 4096 x 14336 x 8).
TEST(param_count, moe_active) {
    struct row {
        const char* id;
        std::uint64_t total, active;
    };
    const row rows[] = {
        {"mistralai/Mixtral-8x7B-v0.1", 46'702'792'704,  46'702'792'704 - 32ull * 3 * 4096 * 14336 * 6},
        {"Qwen/Qwen3-30B-A3B",          30'532'122'624,  3'353'032'704                                },
        {"deepseek-ai/DeepSeek-V3",     671'026'419'200, 37'552'297'472                               },
        {"openai/gpt-oss-120b",         116'829'156'672, 5'711'982'912                                },
        {"openai/gpt-oss-20b",          20'914'757'184,  4'187'440'704                                },
    };
    for (const auto& r : rows) {
        auto m = load_catalog_model(*find_in_catalog(r.id));
        ASSERT_TRUE(m.has_value()) << m.error().what();
        const auto c = count_params(*m);
        EXPECT_EQ(c.total, r.total) << r.id;
        EXPECT_EQ(c.active, r.active) << r.id;
        EXPECT_LE(c.active, c.total);
    }
}

// Classic published counts: GPT-2 124,439,808 and GPT-2 large 774,030,080 (OpenAI / HF cards),
// BERT-base 109,482,240 (BertModel with pooler), Phi-2 2,779,683,840 (2.78B card).
TEST(param_count, classic_models) {
    EXPECT_EQ(count_params(*load_model("openai-community/gpt2")).total, 124'439'808u);
    EXPECT_EQ(count_params(*load_model("openai-community/gpt2-large")).total, 774'030'080u);
    EXPECT_EQ(count_params(*load_model("google-bert/bert-base-uncased")).total, 109'482'240u);
    EXPECT_EQ(count_params(*load_model("microsoft/phi-2")).total, 2'779'683'840u);
}

TEST(param_count, head_dim_is_read_not_derived) {
    // Gemma-2-9B states head_dim 256, where n_embd / n_head would give 3584 / 16 = 224.
    auto g = load_model("google/gemma-2-9b");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->layers[0].head_dim_k, 256u);
    EXPECT_EQ(g->layers[0].n_swa, 4096u); // layer 0 slides, layer 1 is global
    EXPECT_EQ(g->layers[1].n_swa, 0u);
}

// SmolLM3-3B: Llama blocks with embeddings tied by default (configuration_smollm3.py), by hand:
// 128256 x 2048 embedding + 36 x (q,o 2048^2 each + k,v 2048 x 512 each + 3 x 2048 x 11008 + 2 norms)
// + final norm = 3,075,098,624; the model card says 3.08B. Untied it would be 262,668,288 more.
TEST(param_count, smollm3_ties_embeddings_by_default) {
    const std::uint64_t layer = 2ull * 2048 * 2048 + 2ull * 2048 * 512 + 3ull * 2048 * 11008 + 2 * 2048;
    EXPECT_EQ(count_params(*load_model("HuggingFaceTB/SmolLM3-3B")).total, 128256ull * 2048 + 36 * layer + 2048);
}

// Kimi K2 ships DeepseekV3ForCausalLM weights under model_type kimi_k2 (an alias of deepseek_v3):
// the card says 1T total and 32B activated. The Hub total, 1,026,470,731,056, also counts the FP8
// block scales (62.5M of them by the 128x128 block arithmetic), so it is a bound, not the value.
TEST(param_count, kimi_k2_reads_as_deepseek_v3) {
    const auto c = count_params(*load_model("moonshotai/Kimi-K2-Instruct"));
    EXPECT_EQ(c.total, 1'026'408'232'448u);
    EXPECT_LT(c.total, 1'026'470'731'056u);
    EXPECT_GT(c.active, 32'000'000'000u);
    EXPECT_LT(c.active, 33'000'000'000u);
}

// Llama 4 Maverick: the Hub total 401,583,781,376 (llmfit scrape) is the language model plus the
// vision tower and projector, which llmplan does not count. The vision part by hand from
// modeling_llama4.py and the config's vision_config (hidden 1408, 34 layers, MLP 5632, patch 14,
// image 336, projector 4096 -> 5120): patch linear 3*14*14*1408 + class embedding 1408 + positions
// 577*1408 + 2 LayerNorms 4*1408 + 34 layers x (4 biased 1408^2 linears + biased 1408<->5632 MLP +
// 2 LayerNorms) + pixel-shuffle MLP 5632*4096 + 4096*4096 + projector 4096*5120 = 871,932,416.
TEST(param_count, llama4_maverick_plus_vision_is_the_hub_total) {
    const std::uint64_t h = 1408, f = 5632;
    const std::uint64_t layer = 4 * (h * h + h) + (h * f + f) + (f * h + h) + 4 * h;
    const std::uint64_t vision =
        3 * 14 * 14 * h + h + 577 * h + 4 * h + 34 * layer + f * 4096 + 4096ull * 4096 + 4096ull * 5120;
    ASSERT_EQ(vision, 871'932'416u);
    const auto c = count_params(*load_model("meta-llama/Llama-4-Maverick-17B-128E-Instruct"));
    EXPECT_EQ(c.total + vision, 401'583'781'376u);
    // The card's "17B active": shared parts + 1 of 128 experts in the 24 MoE layers.
    EXPECT_EQ(c.active, c.total - 24ull * 127 * 3 * 5120 * 8192);
    // Scout: every layer MoE (16 experts), card "109B total, 17B active" with the vision tower.
    const auto s = count_params(*load_model("meta-llama/Llama-4-Scout-17B-16E-Instruct"));
    EXPECT_EQ(s.active, s.total - 48ull * 15 * 3 * 5120 * 8192);
    EXPECT_GT(s.total + vision, 108'500'000'000u); // "109B" rounded
    EXPECT_LT(s.total + vision, 109'500'000'000u);
}

// Every built-in model loads and sizes: a config the readers cannot take has no place in the catalog.
TEST(catalog, every_model_loads) {
    EXPECT_GE(catalog().size(), 160u);
    for (const auto& e : catalog()) {
        auto m = load_catalog_model(e);
        ASSERT_TRUE(m.has_value()) << e.id << ": " << m.error().what();
        const auto c = count_params(*m);
        EXPECT_GT(c.total, 1'000'000u) << e.id;
        EXPECT_LE(c.active, c.total) << e.id;
    }
}

TEST(catalog, lookup_is_case_insensitive_with_aliases) {
    EXPECT_GE(catalog().size(), 40u);
    ASSERT_NE(find_in_catalog("qwen/qwen2.5-7b-instruct"), nullptr);
    EXPECT_EQ(find_in_catalog("QWEN2.5-7B")->id, "Qwen/Qwen2.5-7B");
    EXPECT_EQ(find_in_catalog("no-such-model"), nullptr);
    auto bad = load_model("no-such-model");
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().code, error_code::file_not_found);
}

} // namespace
} // namespace llmplan

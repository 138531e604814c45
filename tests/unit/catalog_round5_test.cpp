// Catalog round 5 (data/models/SOURCES.md): Granite 3.x, the DeepSeek-V3 refreshes and the
// Nemotron-H hybrids, each against the published total named beside it.
#include "llmplan/hf_config.h"
#include "llmplan/load.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

param_counts counted(const char* id) {
    const auto* entry = find_in_catalog(id);
    EXPECT_NE(entry, nullptr) << id;
    if (entry == nullptr) return {};
    auto m = load_catalog_model(*entry);
    EXPECT_TRUE(m.has_value()) << id << ": " << (m ? "" : m.error().what());
    return m ? count_params(*m) : param_counts{};
}

// Granite 3.3 8B by hand (modeling_granite.py: Llama blocks, tied embeddings per its config):
// 49,159 x 4,096 (embedding = head) + 4,096 (final norm) + 40 x (4,096^2 q + 2 x 1,024 x 4,096 k/v
// + 4,096^2 o + 3 x 4,096 x 12,800 SwiGLU + 2 x 4,096 norms) = 8,170,864,640, the Hub total of
// ibm-granite/granite-3.3-8b-instruct (AlexsJones/llmfit llmfit-core/data/hf_models.json @ 026ac571).
TEST(catalog_round5, granite_3_3_8b_is_the_hub_total) {
    const auto c = counted("ibm-granite/granite-3.3-8b-instruct");
    EXPECT_EQ(c.total, 8'170'864'640u);
    EXPECT_EQ(c.total, 49'159ull * 4'096 + 4'096 +
                           40ull * (2 * 4'096ull * 4'096 + 2 * 1'024ull * 4'096 + 3 * 4'096ull * 12'800 + 2 * 4'096));
    EXPECT_EQ(c.active, c.total);
    const auto* e = find_in_catalog("ibm-granite/granite-3.3-8b-instruct");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(load_catalog_model(*e)->gguf_arch, "granite"); // convert_hf_to_gguf.py GraniteModel
}

// DeepSeek-V3-0324, R1-0528 and V3.1 share DeepSeek-V3's shapes (evidence in SOURCES.md: equal
// NVFP4 / Hub totals, nvidia's V3.1 config equal on every shape key): the V3 count, 671B total and
// 37B active (DeepSeek-V3 card), without the multi-token-prediction layer.
TEST(catalog_round5, deepseek_refreshes_count_as_deepseek_v3) {
    const auto v3 = counted("deepseek-ai/DeepSeek-V3");
    EXPECT_EQ(v3.total, 671'026'419'200u);
    EXPECT_EQ(v3.active, 37'552'297'472u);
    for (const char* id :
         {"deepseek-ai/DeepSeek-V3-0324", "deepseek-ai/DeepSeek-R1-0528", "deepseek-ai/DeepSeek-V3.1"}) {
        const auto c = counted(id);
        EXPECT_EQ(c.total, v3.total) << id;
        EXPECT_EQ(c.active, v3.active) << id;
    }
}

// The Nemotron-H rows are the tests/data configs (byte copies of the same aiconfigurator files), so
// they count the module sums state_space_test checks. Nemotron-3-Nano's Hub total (llmfit, BF16 repo)
// is 31,577,937,344: 2,944 = 23 MoE layers x 128 fewer than the modules counted here, under 1e-7.
TEST(catalog_round5, nemotron_h_rows_match_their_published_sizes) {
    EXPECT_EQ(counted("nvidia/Nemotron-H-56B-Base-8K").total, 56'324'350'464u); // "56B" (card)
    const auto nano = counted("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    EXPECT_EQ(nano.total, 31'577'940'288u);
    EXPECT_NEAR(static_cast<double>(nano.total) / 31'577'937'344.0, 1.0, 1e-7);
    EXPECT_NEAR(static_cast<double>(nano.active) / 3.6e9, 1.0, 0.03); // "3.6B active" (card)
}

// Mistral Small 3.1 (mistral3 wrapper): the text model by hand, 2 x 131,072 x 5,120 (untied) + 5,120 +
// 40 x (5,120 x 4,096 q + 2 x 5,120 x 1,024 k/v + 4,096 x 5,120 o + 3 x 5,120 x 32,768 + 2 x 5,120)
// = 23,572,403,200, the count keras-hub lists for Magistral Small 2506/2507 (mistral_presets.py @
// 71453d08f), Mistral Small 3.1's text model. The Pixtral tower and projector by hand
// (modeling_pixtral.py, modeling_mistral3.py): 24 x (4 x 1,024^2 + 3 x 1,024 x 4,096 + 2 x 1,024)
// + 3 x 14^2 x 1,024 patch conv + 1,024 ln_pre + (1,024 norm + 4,096 x 1,024 merger + 1,024 x 5,120
// + 5,120^2) = 438,958,080; text + vision = 24,011,361,280, the card's "24B".
TEST(catalog_round5, mistral_small_3_1_text_and_pixtral_tower) {
    const auto* e = find_in_catalog("mistralai/Mistral-Small-3.1-24B-Instruct-2503");
    ASSERT_NE(e, nullptr);
    auto m = load_catalog_model(*e);
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(count_params(*m).total, 23'572'403'200u);
    EXPECT_EQ(m->vision.n_params, 24ull * (4 * 1'024ull * 1'024 + 3 * 1'024ull * 4'096 + 2 * 1'024) +
                                      3ull * 14 * 14 * 1'024 + 1'024 +
                                      (1'024 + 4'096ull * 1'024 + 1'024ull * 5'120 + 5'120ull * 5'120));
    EXPECT_EQ(m->vision.n_params, 438'958'080u);
}

// GLM-4.5-Air (glm4_moe) by hand from its config: untied 2 x 151,552 x 4,096 + 4,096; per layer the
// attention (4,096 x 12,288 q + bias, 2 x (4,096 x 1,024 + bias) k/v, 12,288 x 4,096 o, no q/k norms)
// and 2 x 4,096 norms; layer 0 a dense 3 x 4,096 x 10,944 MLP, layers 1..45 128 experts and one shared
// of 3 x 4,096 x 1,408 each plus a 128 x 4,096 router and its 128-float score bias. The card's "106B
// total"; the multi-token-prediction layer 46 is not counted (as DeepSeek-V3's).
std::uint64_t glm_attention(std::uint64_t h, bool qk_norm) {
    return h * 12'288 + 12'288 + 2 * (h * 1'024 + 1'024) + 12'288 * h + (qk_norm ? 2 * 128 : 0);
}
std::uint64_t glm_moe_layer(std::uint64_t h, std::uint64_t experts, std::uint64_t ff, bool qk_norm) {
    return glm_attention(h, qk_norm) + (experts + 1) * 3 * h * ff + experts * h + experts + 2 * h;
}

TEST(catalog_round5, glm_4_5_air_counts_its_modules) {
    const auto c           = counted("zai-org/GLM-4.5-Air");
    const std::uint64_t h  = 4'096;
    const std::uint64_t v  = 151'552;
    const std::uint64_t l0 = glm_attention(h, false) + 3 * h * 10'944 + 2 * h;
    EXPECT_EQ(c.total, 2 * v * h + h + l0 + 45 * glm_moe_layer(h, 128, 1'408, false));
    EXPECT_EQ(c.total, 106'852'251'264u);
}

// The same reader on GLM-4.5's shapes (Megatron-Bridge docs/models/llm/glm45.md: 92 layers, the first
// 3 dense with FFN 12,288, width 5,120, 96 heads in 8 groups of 128, 160 experts of 1,536 plus one
// shared, q/k norms; vocab 151,552) reproduces the Hub total of zai-org/GLM-4.5 exactly, 358,337,791,296
// (AlexsJones/llmfit hf_models.json @ 026ac571), once the checkpoint's multi-token-prediction layer 92
// is added: one more MoE layer, eh_proj 2h x h, enorm, hnorm, shared_head.norm, and its own copies of
// embed_tokens and shared_head.head (2 x vocab x h).
TEST(catalog_round5, glm4_moe_reader_matches_glm_4_5_hub_total_with_its_mtp_layer) {
    const auto cfg = nlohmann::json::parse(R"({
        "architectures": ["Glm4MoeForCausalLM"], "model_type": "glm4_moe", "attention_bias": true,
        "first_k_dense_replace": 3, "head_dim": 128, "hidden_size": 5120, "intermediate_size": 12288,
        "max_position_embeddings": 131072, "moe_intermediate_size": 1536, "n_routed_experts": 160,
        "n_shared_experts": 1, "num_attention_heads": 96, "num_experts_per_tok": 8, "num_hidden_layers": 92,
        "num_key_value_heads": 8, "num_nextn_predict_layers": 1, "tie_word_embeddings": false,
        "torch_dtype": "bfloat16", "use_qk_norm": true, "vocab_size": 151552})");
    auto m         = model_from_hf_json(cfg, "glm-4.5");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    const std::uint64_t h   = 5'120;
    const std::uint64_t v   = 151'552;
    const std::uint64_t mtp = glm_moe_layer(h, 160, 1'536, true) + 2 * h * h + 3 * h + 2 * v * h;
    EXPECT_EQ(count_params(*m).total + mtp, 358'337'791'296u);
}

// Qwen3-Next-80B-A3B: the catalog count plus its multi-token-prediction layer (modeling_qwen3_next.py
// MTP: one full-attention MoE layer, q_proj doubled for the output gate, 512 experts + a gated shared
// expert of 512; fc 2h x h; three norms) is the Hub total of Qwen/Qwen3-Next-80B-A3B-Instruct,
// 81,324,862,720 (AlexsJones/llmfit hf_models.json @ 026ac571).
TEST(catalog_round5, qwen3_next_plus_mtp_is_the_hub_total) {
    const std::uint64_t h    = 2'048;
    const std::uint64_t attn = h * 16 * 256 * 2 + 2 * h * 2 * 256 + 16 * 256 * h + 2 * 256;
    const std::uint64_t moe  = 512 * 3 * h * 512 + 3 * h * 512 + h + 512 * h;
    const std::uint64_t mtp  = attn + moe + 2 * h + 2 * h * h + 3 * h;
    const auto instruct      = counted("Qwen/Qwen3-Next-80B-A3B-Instruct");
    EXPECT_EQ(instruct.total + mtp, 81'324'862'720u);
    EXPECT_EQ(counted("Qwen/Qwen3-Next-80B-A3B-Thinking").total, instruct.total);
}

} // namespace
} // namespace llmplan

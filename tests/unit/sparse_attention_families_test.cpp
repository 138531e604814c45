// MLA families with DeepSeek Sparse Attention (issue 21 item 1): DeepSeek-V3.2 (deepseek_v32) and
// GLM-5 / 5.1 / 5.2 (glm_moe_dsa), whose lightning indexer adds weights and a key cache per layer
// (src/model/arch/dsa_indexer.cpp, src/estimate/kv_cache.cpp), and Kimi K2.5 (a multimodal wrapper
// around kimi_k2 = deepseek_v3, dense MLA). Configs: data/models/SOURCES.md, section "Sparse-attention
// families". Hub totals: `safetensors.total` as scraped into AlexsJones/llmfit
// llmfit-core/data/hf_models.json @ 026ac571bab477fcc50ba9c7a4aabbeff56828d2.
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "unit/catalog_fixtures.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using namespace llmplan;
using test::kv_bytes;

using test::catalog_model;

/// Parameters of the tensors of one layer (the generated names carry their block index).
std::uint64_t layer_params(const model_desc& m, int layer) {
    std::uint64_t n = 0;
    for (const auto& t : m.tensors)
        if (t.layer == layer) n += t.n_elements();
    return n;
}

/// KV cache bytes of `cells` token slots summed over the layers, as engine `e` stores them.
std::uint64_t kv_total(const model_desc& m, engine_kind e, dtype kv, std::uint64_t cells) {
    std::uint64_t s = 0;
    for (const auto& l : m.layers)
        s += kv_layer_bytes(m, l, e, kv, kv, cells);
    return s;
}

// One DeepSeek-V3.2 indexer by hand (vLLM deepseek_v2.py Indexer; llama.cpp blk.N.indexer.*):
// wq_b 64 heads x 128 x q_lora_rank 1536 = 12,582,912; wk 128 x 7168 = 917,504; k_norm LayerNorm
// weight + bias 256; weights_proj 64 x 7168 = 458,752: 13,959,424.
constexpr std::uint64_t v32_indexer = 64ull * 128 * 1536 + 128ull * 7168 + 2 * 128 + 64ull * 7168;
// Its FP8 block scales (128 x 128 blocks, weights_proj unquantized): wq_b 8192/128 x 1536/128 = 768,
// wk 1 x 7168/128 = 56.
constexpr std::uint64_t v32_indexer_scales = 64 * 12 + 1 * 56;

// DeepSeek-V3.2 is DeepSeek-V3 (671,026,419,200, tests/unit/param_count_test.cpp) plus an indexer in
// each of its 61 layers. The Hub total of deepseek-ai/DeepSeek-V3.2, 685,396,921,376, is the Hub total
// of deepseek-ai/DeepSeek-V3-0324 (684,531,386,000, the same FP8 checkpoint layout with its MTP layer)
// plus 62 indexers (61 layers and the MTP layer) with their FP8 scales: exact to the unit.
TEST(sparse_attention, deepseek_v32_parameters_match_the_hub_total) {
    static_assert(v32_indexer == 13'959'424);
    static_assert(685'396'921'376ull - 684'531'386'000ull == 62 * (v32_indexer + v32_indexer_scales));
    const auto m = catalog_model("deepseek-ai/DeepSeek-V3.2");
    EXPECT_EQ(m.arch, "deepseek_v32");
    EXPECT_EQ(m.gguf_arch, "deepseek32");
    EXPECT_EQ(m.mla.index_n_heads, 64u);
    EXPECT_EQ(m.mla.index_head_dim, 128u);
    EXPECT_EQ(m.mla.index_topk, 2048u);
    for (const auto& l : m.layers)
        EXPECT_TRUE(l.indexer);
    const auto c  = count_params(m);
    const auto v3 = count_params(catalog_model("deepseek-ai/DeepSeek-V3"));
    EXPECT_EQ(c.total, 671'026'419'200u + 61 * v32_indexer);
    EXPECT_EQ(c.total, 671'877'944'064u);
    EXPECT_EQ(c.total - v3.total, 61 * v32_indexer);
    EXPECT_EQ(c.active - v3.active, 61 * v32_indexer); // the indexer runs for every token
}

// GLM-5 (BF16): the Hub total of zai-org/GLM-5, 753,864,139,008, is llmplan's count plus the MTP layer
// that inference engines skip: one more MoE layer like the last (MLA, indexer, 256 experts + 1 shared,
// router and its score bias), eh_proj 6144 x 12288 and three norms (enorm, hnorm, shared_head.norm);
// unlike GLM-4.5's, it stores no copies of the embedding and head. The card says 744B total.
TEST(sparse_attention, glm5_parameters_match_the_hub_total) {
    const auto m = catalog_model("zai-org/GLM-5");
    EXPECT_EQ(m.arch, "glm_moe_dsa");
    EXPECT_EQ(m.gguf_arch, "glm-dsa");
    ASSERT_EQ(m.n_layer, 78u);
    EXPECT_TRUE(m.layers[0].attn == attn_kind::mla && m.layers[0].indexer);
    EXPECT_FALSE(m.layers[2].is_moe); // first_k_dense_replace 3
    EXPECT_TRUE(m.layers[3].is_moe);
    const std::uint64_t h = 6'144;
    // One GLM-5 indexer: 32 heads x 128 x q_lora_rank 2048 + 128 x 6144 + 256 + 32 x 6144.
    const std::uint64_t indexer = 32ull * 128 * 2048 + 128 * h + 256 + 32 * h;
    EXPECT_EQ(indexer, 9'371'904u);
    const auto c            = count_params(m);
    const std::uint64_t mtp = layer_params(m, 77) + 2 * h * h + 3 * h;
    EXPECT_EQ(c.total, 743'911'218'432u);
    EXPECT_EQ(c.total + mtp, 753'864'139'008u);
    // GLM-5.1's config differs only in transformers_version.
    EXPECT_EQ(count_params(catalog_model("zai-org/GLM-5.1")).total, c.total);
    // Card: 40B active. Shared parts + 8 of 256 routed experts in the 75 MoE layers: 41,784,728,832,
    // of which 39,881,563,392 without the embedding and head (2 x 154,880 x 6,144).
    EXPECT_EQ(c.active, c.total - 75ull * 248 * 3 * h * 2048);
    EXPECT_EQ(c.active - 2 * 154'880 * h, 39'881'563'392u);
}

// GLM-5.2: indexer_types keeps an indexer in 21 "full" layers; the 57 "shared" ones reuse the last full
// layer's token choice and have none (transformers GlmMoeDsaAttention: self.indexer = None when
// indexer_types[layer_idx] == "shared"). Its other shapes are GLM-5's. No Hub total was found.
TEST(sparse_attention, glm52_shared_layers_have_no_indexer) {
    const auto m = catalog_model("zai-org/GLM-5.2");
    ASSERT_EQ(m.n_layer, 78u);
    std::uint32_t full = 0;
    for (const auto& l : m.layers)
        full += l.indexer;
    EXPECT_EQ(full, 21u);
    EXPECT_TRUE(m.layers[0].indexer && m.layers[6].indexer && !m.layers[3].indexer);
    const std::uint64_t indexer = 9'371'904;
    EXPECT_EQ(count_params(m).total, 743'911'218'432u - 57 * indexer);
}

// KV cache per token. vLLM (vllm/model_executor/models/deepseek_v2.py): MLA's one latent row of
// kv_lora_rank + qk_rope_head_dim = 576 in bf16 (1,152 bytes) and, per layer, the indexer cache
// DeepseekV32IndexerCache of index_head_dim + index_head_dim / 128 x 4 = 132 bytes (fp8 keys, fp32
// scale per 128). With an fp8 KV cache vLLM switches to fp8_ds_mla (vllm/model_executor/models/config.py
// DeepseekV32ForCausalLM): 512 fp8 + 4 fp32 scales + 64 bf16 = 656 bytes. llama.cpp (llmplan's MLA
// layout K = latent + rope, V = latent, in f16: 2,176 bytes) adds its indexer key cache
// (src/llama-kv-cache-dsa.cpp: one head of indexer_head_size in type_k, no V): 128 x 2 = 256 bytes.
TEST(sparse_attention, deepseek_v32_kv_and_indexer_cache) {
    const auto m                  = catalog_model("deepseek-ai/DeepSeek-V3.2");
    const std::uint64_t vllm_bf16 = 61 * (576 * 2 + 132);
    const std::uint64_t vllm_fp8  = 61 * (512 + 16 + 128 + 132);
    const std::uint64_t llama_f16 = 61 * ((576 + 512) * 2 + 128 * 2);
    EXPECT_EQ(vllm_bf16, 78'324u);
    EXPECT_EQ(vllm_fp8, 48'068u);
    EXPECT_EQ(llama_f16, 148'352u);
    for (std::uint64_t ctx : {4'096ull, 163'840ull}) {
        EXPECT_EQ(kv_total(m, engine_kind::vllm, dtype::bf16, ctx), ctx * vllm_bf16) << ctx;
        EXPECT_EQ(kv_total(m, engine_kind::vllm, dtype::f8_e4m3, ctx), ctx * vllm_fp8) << ctx;
        EXPECT_EQ(kv_total(m, engine_kind::llama_cpp, dtype::f16, ctx), ctx * llama_f16) << ctx;
    }
    // q8_0 blocks of 32 values in 34 bytes: K 576 -> 612, V 512 -> 544, index key 128 -> 136.
    EXPECT_EQ(kv_total(m, engine_kind::llama_cpp, dtype::q8_0, 1), 61u * (612 + 544 + 136));

    // Through the estimators: vLLM's per-token figure, llama.cpp's cache at two contexts.
    auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "fp8", 4096));
    ASSERT_TRUE(v.has_value()) << v.error().what();
    EXPECT_EQ(v->kv_bytes_per_token, vllm_bf16);
    for (std::uint64_t ctx : {4'096ull, 32'768ull}) {
        auto l = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(l.has_value()) << l.error().what();
        EXPECT_EQ(l->kv_bytes_per_token, llama_f16);
        EXPECT_EQ(kv_bytes(*l), ctx * llama_f16) << ctx;
    }
}

// GLM-5 and GLM-5.2 in vLLM, bf16: 78 MLA rows of 1,152 bytes, plus 132 bytes for each layer with an
// indexer (78 for GLM-5, 21 for GLM-5.2).
TEST(sparse_attention, glm5_kv_and_indexer_cache) {
    const auto g5  = catalog_model("zai-org/GLM-5");
    const auto g52 = catalog_model("zai-org/GLM-5.2");
    for (std::uint64_t ctx : {8'192ull, 202'752ull}) {
        EXPECT_EQ(kv_total(g5, engine_kind::vllm, dtype::bf16, ctx), ctx * 78 * (1'152 + 132)) << ctx;
        EXPECT_EQ(kv_total(g52, engine_kind::vllm, dtype::bf16, ctx), ctx * (78 * 1'152 + 21 * 132)) << ctx;
        EXPECT_EQ(kv_total(g5, engine_kind::llama_cpp, dtype::f16, ctx), ctx * 78 * (2'176 + 256)) << ctx;
    }
}

// Kimi K2.5: the multimodal wrapper (model_type kimi_k25) keeps a kimi_k2 text_config, read as
// DeepSeek-V3 (dense MLA, no indexer): the K2 count (param_count_test) and 61 x 1,152 bytes a token
// in vLLM.
TEST(sparse_attention, kimi_k25_wrapper_is_dense_mla) {
    const auto m = catalog_model("moonshotai/Kimi-K2.5");
    EXPECT_EQ(m.arch, "kimi_k2");
    EXPECT_EQ(m.mla.index_head_dim, 0u);
    for (const auto& l : m.layers)
        EXPECT_FALSE(l.indexer);
    EXPECT_EQ(count_params(m).total, 1'026'408'232'448u);
    EXPECT_EQ(kv_total(m, engine_kind::vllm, dtype::bf16, 1), 61u * 1'152);
}

// Bad indexer fields name the field.
TEST(sparse_attention, bad_indexer_fields_name_the_field) {
    auto cfg = nlohmann::json::parse(R"({
        "model_type": "deepseek_v32", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
        "intermediate_size": 512, "moe_intermediate_size": 64, "vocab_size": 1000, "n_routed_experts": 4,
        "num_experts_per_tok": 2, "n_shared_experts": 1, "first_k_dense_replace": 1, "q_lora_rank": 64,
        "kv_lora_rank": 32, "qk_nope_head_dim": 16, "qk_rope_head_dim": 8, "v_head_dim": 16,
        "index_n_heads": 4, "index_head_dim": 32, "index_topk": 16})");
    auto ok  = model_from_hf_json(cfg, "v32.json");
    ASSERT_TRUE(ok.has_value()) << ok.error().what();
    EXPECT_TRUE(ok->layers[0].indexer && ok->layers[1].indexer);

    auto no_heads = cfg;
    no_heads.erase("index_n_heads");
    auto e = model_from_hf_json(no_heads, "v32.json");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, error_code::missing_field);
    EXPECT_NE(e.error().context.find("index_n_heads"), std::string::npos) << e.error().context;

    auto zero              = cfg;
    zero["index_head_dim"] = 0;
    e                      = model_from_hf_json(zero, "v32.json");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, error_code::bad_value);

    auto types             = cfg;
    types["indexer_types"] = {"full"};
    e                      = model_from_hf_json(types, "v32.json");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, error_code::inconsistent_dims);
    types["indexer_types"] = {"full", "sometimes"};
    e                      = model_from_hf_json(types, "v32.json");
    ASSERT_FALSE(e.has_value());
    EXPECT_NE(e.error().context.find("indexer_types/1"), std::string::npos) << e.error().context;

    auto no_q           = cfg;
    no_q["q_lora_rank"] = nullptr;
    e                   = model_from_hf_json(no_q, "v32.json");
    ASSERT_FALSE(e.has_value());
    EXPECT_NE(e.error().context.find("q_lora_rank"), std::string::npos) << e.error().context;
}

} // namespace

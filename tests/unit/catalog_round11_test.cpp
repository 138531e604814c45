// Catalog round 11 (data/models/SOURCES.md, "Round 11 additions"): MiniMax-M2.5, Falcon-180B, Qwen3.5-9B,
// GLM-4.6 and DeepSeek-V3.2-Exp, the models the serving scorer named that the catalog lacked (issue 22).
// Each parameter count is derived by hand from the config's shapes and checked against the published
// total cited beside it; each KV cache a token is computed by hand from the engines' layouts:
//   vLLM and llama.cpp keep K and V rows of n_kv_heads x head_dim per attention layer, 2 bytes a value
//   in bf16 / f16 (vLLM's "auto" KV dtype is the model's 16-bit dtype; llama.cpp's default
//   --cache-type-k/-v is f16); Gated DeltaNet layers keep a per-sequence state instead (see
//   tests/unit/qwen3_5_family_test.cpp for the engine code behind the state sizes).
#include "catalog_fixtures.h"
#include "llmplan/estimate.h"
#include "llmplan/inference.h"
#include "model/mtp.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;
using test::kv_bytes;

/// The KV cache a token `engine` keeps for `m` at `ctx` tokens: vLLM with the checkpoint's own weights,
/// llama.cpp with a q4_k_m file (the weight format does not change the cache).
std::uint64_t kv_per_token(const model_desc& m, engine_kind engine, std::uint64_t ctx) {
    inference_params p = test::infer_params(engine, "q4_k_m", ctx);
    if (engine == engine_kind::vllm) {
        p        = inference_params{};
        p.engine = engine;
        p.ctx    = ctx;
    }
    auto e = estimate_inference(m, p);
    EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().what());
    return e ? e->kv_bytes_per_token : 0;
}

// MiniMax-M2.5: MiniMax-M2.7's shapes (62 layers of width 3072, 48 / 8 heads of 128 with q/k norms over
// all heads, 256 SwiGLU experts of 1536 with a routing bias, vocab 200,064 untied). By hand: attention
// 6144 x 3072 + 2 x 1024 x 3072 + 3072 x 6144 + norms 6144 + 1024 = 44,047,360; MoE 256 x 3072 + 256 +
// 256 x 3 x 1536 x 3072 = 3,624,665,344; total 2 x 200,064 x 3072 + 3072 + 62 x (44,047,360 +
// 3,624,665,344 + 2 x 3072) = 228,689,764,864. The Hub lists MiniMaxAI/MiniMax-M2.5 at 228,703,644,928
// (a table of Hub totals, code-index file id 69468411049): the count plus the checkpoint's FP8 block
// scales (128 x 128 blocks, config quantization_config): per layer 256 experts x 3 x (12 x 24) + q 48 x 24
// + k, v 8 x 24 each + o 24 x 48 = 223,872, x 62 = 13,880,064. (M2 / M2.1 / M2.7 are listed without
// scales, at the count itself.)
// KV: 62 x 2 x 8 x 128 x 2 bytes = 253,952 a token.
TEST(catalog_round11, minimax_m25_count_scales_and_kv) {
    const auto m          = catalog_model("MiniMaxAI/MiniMax-M2.5");
    const std::uint64_t h = 3'072, v = 200'064, ff = 1'536, experts = 256;
    const std::uint64_t attn   = 6'144 * h + 2 * 1'024 * h + h * 6'144 + 6'144 + 1'024;
    const std::uint64_t moe    = experts * h + experts + experts * 3 * ff * h;
    const std::uint64_t total  = 2 * v * h + h + 62 * (attn + moe + 2 * h);
    const std::uint64_t scales = 62 * (experts * 3 * (12 * 24) + 48 * 24 + 2 * 8 * 24 + 24 * 48);
    EXPECT_EQ(attn, 44'047'360u);
    EXPECT_EQ(scales, 13'880'064u);
    ASSERT_EQ(m.n_layer, 62u);
    EXPECT_EQ(m.arch, "minimax_m2");
    EXPECT_EQ(m.quant.method, quant_method::fp8);
    EXPECT_EQ(m.n_ctx_train, 196'608u);
    const auto c = count_params(m);
    EXPECT_EQ(c.total, total);
    EXPECT_EQ(c.total, 228'689'764'864u);
    EXPECT_EQ(c.total + scales, 228'703'644'928u);
    EXPECT_EQ(c.total, count_params(catalog_model("MiniMaxAI/MiniMax-M2.7")).total);
    EXPECT_EQ(c.active, 11'030'553'088u);
    constexpr std::uint64_t per_tok = 62ull * 2 * 8 * 128 * 2;
    static_assert(per_tok == 253'952);
    for (std::uint64_t ctx : {8'192u, 131'072u}) {
        EXPECT_EQ(kv_per_token(m, engine_kind::vllm, ctx), per_tok) << ctx;
        EXPECT_EQ(kv_per_token(m, engine_kind::llama_cpp, ctx), per_tok) << ctx;
    }
}

// MiniMax-M2.5's weights as the FP8 checkpoint stores them (quantization_config: e4m3 in 128 x 128 blocks,
// modules_to_not_convert "gate", "e_score_correction_bias", "lm_head"): every attention and expert matrix
// at 1 byte a weight plus a float32 scale a block, the rest in bf16. transformers matches those entries as
// substrings of MiniMax's own module paths (block_sparse_moe.gate is the router, the experts are
// block_sparse_moe.experts.N.w1 / w2 / w3), so "gate" leaves only the routers in bf16, not the experts'
// w1 (before this round llmplan matched it against Llama's spelling mlp.experts.N.gate_proj and sized a
// third of the experts at 2 bytes: 304.9 GB). By hand: 62 x (44,040,192 attention + 256 x 3 x 1536 x 3072)
// = 227,410,968,576 FP8 weights + 13,880,064 scales x 4 bytes + (228,689,764,864 - 227,410,968,576) x 2
// bytes = 230,024,081,408 bytes (MiniMax's deployment guides: "220 GB for weights", rounded).
TEST(catalog_round11, minimax_m25_fp8_checkpoint_bytes) {
    const std::uint64_t fp8    = 62ull * (44'040'192 + 256ull * 3 * 1'536 * 3'072);
    const std::uint64_t scales = 13'880'064;
    const std::uint64_t rest   = 228'689'764'864ull - fp8;
    EXPECT_EQ(fp8, 227'410'968'576u);
    for (const char* id : {"MiniMaxAI/MiniMax-M2.5", "MiniMaxAI/MiniMax-M2.7"}) {
        const auto m = catalog_model(id);
        auto e       = estimate_inference(m, inference_params{});
        ASSERT_TRUE(e.has_value()) << e.error().what();
        EXPECT_EQ(e->weights.quantized_bytes, fp8 + 4 * scales) << id;
        EXPECT_EQ(e->weights.unquantized_bytes, 2 * rest) << id;
        EXPECT_EQ(e->weights.bytes, 230'024'081'408u) << id;
    }
}

// Falcon-180B (Lightning-AI/litgpt litgpt/config.py @ 26857050fe3f: n_embd 14848, 80 layers, 232 heads,
// n_query_groups 8, vocab 65,024, bias False; new_decoder_architecture as TensorRT-LLM's checkpoint
// config for it says): a fused QKV of 14848 x (232 + 2 x 8) x 64, the dense 14848^2, a plain 4 x 14848
// MLP, two LayerNorms a layer (ln_attn, ln_mlp, weight and bias), ln_f, the head tied to the embedding.
// The Hub's safetensors.total for tiiuae/falcon-180B, 179,522,565,120 (revision d2ea5531862d, code-index
// file id 71571056092), is this count + one stored lm_head copy (65,024 x 14,848), as for Falcon-7B/40B.
// KV: 80 x 2 x 8 x 64 x 2 bytes = 163,840 a token.
TEST(catalog_round11, falcon_180b_count_and_kv) {
    const auto m          = catalog_model("tiiuae/falcon-180B");
    const std::uint64_t h = 14'848, v = 65'024, hd = 64, ff = 4 * h;
    const std::uint64_t layer   = h * (232 + 2 * 8) * hd + h * h + 2 * h * ff + 2 * 2 * h;
    const std::uint64_t by_hand = v * h + 80 * layer + 2 * h;
    const auto c                = count_params(m);
    EXPECT_EQ(c.total, by_hand);
    EXPECT_EQ(c.total, 178'557'088'768u);
    EXPECT_EQ(c.total + v * h, 179'522'565'120u);
    EXPECT_TRUE(m.tied_embd);
    EXPECT_EQ(m.typical_layer().n_head_kv, 8u);
    EXPECT_EQ(m.n_ctx_train, 2'048u);
    constexpr std::uint64_t per_tok = 80ull * 2 * 8 * 64 * 2;
    static_assert(per_tok == 163'840);
    EXPECT_EQ(kv_per_token(m, engine_kind::vllm, 2'048), per_tok);
    EXPECT_EQ(kv_per_token(m, engine_kind::llama_cpp, 2'048), per_tok);
}

// Qwen3.5-9B (qwen3_5 wrapper, dense: width 4096, 32 layers of which 8 gated full attention (16 heads,
// 4 KV heads of 256) and 24 Gated DeltaNet (16 key heads, 32 value heads of 128), SwiGLU 12288, vocab
// 248,320 untied), by the module formulas of tests/unit/qwen3_5_family_test.cpp:
//   attention: 2 x 16 x 256 x 4096 (queries and their gate) + 2 x 4 x 256 x 4096 + 4096 x 16 x 256 + 2 x 256
//   DeltaNet:  in_proj_qkv (2 x 2048 + 4096) x 4096, in_proj_z 4096 x 4096, in_proj_b/a 2 x 32 x 4096,
//              conv 8192 x 4, dt_bias and A_log 2 x 32, norm 128, out_proj 4096 x 4096
// = 8,953,803,264; the vision tower (depth 27, out 4096) 456,010,480; the MTP layer (a full-attention
// layer with its MLP and two norms, fc 2 x 4096^2, three norms) 243,290,624. The sum is the Hub total of
// Qwen/Qwen3.5-9B, 9,653,104,368 (license audit table, code-index file id 71142266638).
// KV: 8 x 2 x 4 x 256 x 2 = 32,768 bytes a token; state a sequence (conv_dim 2 x 2048 + 32 x 128 = 8192,
// a 32 x 128 x 128 = 524,288 state): llama.cpp (f32) 24 x (3 x 8192 + 524,288) x 4 = 52,690,944, vLLM
// (conv in bf16, the temporal state in float32) 24 x (3 x 8192 x 2 + 524,288 x 4) = 51,511,296.
TEST(catalog_round11, qwen3_5_9b_is_the_hub_total) {
    const auto m          = catalog_model("Qwen/Qwen3.5-9B");
    const std::uint64_t e = 4'096, vocab = 248'320, mlp = 3 * e * 12'288;
    const std::uint64_t attn = 2 * 16 * 256 * e + 2 * 4 * 256 * e + e * 16 * 256 + 2 * 256;
    const std::uint64_t vdim = 32 * 128, conv = 2 * 2'048 + vdim;
    const std::uint64_t delta = conv * e + vdim * e + 2 * 32 * e + conv * 4 + 2 * 32 + 128 + e * vdim;
    const auto c              = count_params(m);
    EXPECT_EQ(c.total, 2 * vocab * e + 8 * attn + 24 * delta + 32 * (mlp + 2 * e) + e);
    EXPECT_EQ(c.total, 8'953'803'264u);
    EXPECT_EQ(c.active, c.total);
    const std::uint64_t mtp = attn + mlp + 2 * e + 2 * e * e + 3 * e;
    EXPECT_EQ(detail::mtp_block_params(m), mtp);
    EXPECT_EQ(m.vision.n_params, 456'010'480u);
    EXPECT_EQ(c.total + m.vision.n_params + mtp, 9'653'104'368u);
    ASSERT_EQ(m.n_layer, 32u);
    for (std::uint32_t i = 0; i < m.n_layer; ++i)
        EXPECT_EQ(m.layers[i].has_kv(), (i + 1) % 4 == 0) << i;

    constexpr std::uint64_t per_tok = 8ull * 2 * 4 * 256 * 2;
    constexpr std::uint64_t cpp     = 24ull * (3 * 8'192 + 524'288) * 4;
    constexpr std::uint64_t vllm    = 24ull * (3 * 8'192 * 2 + 524'288 * 4);
    static_assert(per_tok == 32'768 && cpp == 52'690'944 && vllm == 51'511'296);
    auto cp = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", 32'768));
    ASSERT_TRUE(cp.has_value()) << cp.error().what();
    EXPECT_EQ(cp->kv_bytes_per_token, per_tok);
    EXPECT_EQ(cp->state_bytes_per_sequence, cpp);
    EXPECT_EQ(kv_bytes(*cp), 32'768 * per_tok + cpp);
    auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", 32'768)); // its own dtype
    ASSERT_TRUE(v.has_value()) << v.error().what();
    EXPECT_EQ(v->kv_bytes_per_token, per_tok);
    EXPECT_EQ(v->state_bytes_per_sequence, vllm);
}

// GLM-4.6 (glm4_moe, GLM-4.5's shapes: width 5120, 92 layers, the first 3 dense of 12,288, 96 heads in
// 8 KV groups of 128 with q/k/v biases and q/k norms, 160 experts of 1536 + 1 shared, vocab 151,552
// untied), by the formulas of tests/unit/catalog_round5_test.cpp: attention 5120 x 12288 + 12288 +
// 2 x (5120 x 1024 + 1024) + 12288 x 5120 + 2 x 128; a dense layer adds 3 x 5120 x 12288, a MoE layer
// 161 x 3 x 5120 x 1536 + a 160 x 5120 router and its 160 score biases; two norms a layer.
// = 352,797,829,024. The Hub lists zai-org/GLM-4.6 at 356,785,898,816 (code-index file id 69468411049):
// the count + its multi-token-prediction layer (one more MoE layer, eh_proj 2 x 5120^2, three norms),
// which unlike GLM-4.5's (358,337,791,296) stores no embedding or head copy (2 x 151,552 x 5120).
// KV: 92 x 2 x 8 x 128 x 2 bytes = 376,832 a token.
TEST(catalog_round11, glm_4_6_count_and_kv) {
    const auto m          = catalog_model("zai-org/GLM-4.6");
    const std::uint64_t h = 5'120, v = 151'552;
    const std::uint64_t attn  = h * 12'288 + 12'288 + 2 * (h * 1'024 + 1'024) + 12'288 * h + 2 * 128;
    const std::uint64_t dense = attn + 3 * h * 12'288 + 2 * h;
    const std::uint64_t moe   = attn + 161 * 3 * h * 1'536 + 160 * h + 160 + 2 * h;
    const auto c              = count_params(m);
    EXPECT_EQ(c.total, 2 * v * h + h + 3 * dense + 89 * moe);
    EXPECT_EQ(c.total, 352'797'829'024u);
    const std::uint64_t mtp = moe + 2 * h * h + 3 * h;
    EXPECT_EQ(c.total + mtp, 356'785'898'816u);
    EXPECT_EQ(c.total + mtp + 2 * v * h, 358'337'791'296u); // GLM-4.5's total, with the copies
    EXPECT_EQ(m.n_ctx_train, 202'752u);
    constexpr std::uint64_t per_tok = 92ull * 2 * 8 * 128 * 2;
    static_assert(per_tok == 376'832);
    EXPECT_EQ(kv_per_token(m, engine_kind::vllm, 8'192), per_tok);
    EXPECT_EQ(kv_per_token(m, engine_kind::llama_cpp, 8'192), per_tok);
}

// DeepSeek-V3.2-Exp shares DeepSeek-V3.2's config (data/models/deepseek-ai--DeepSeek-V3.2-Exp/catalog.json):
// the same count (tests/unit/sparse_attention_families_test.cpp: 671,877,944,064; the Hub's 685,396,921,376
// for V3.2-Exp adds the MTP layer and the FP8 scales) and vLLM's MLA row of 576 bf16 values + the
// indexer key (128 fp8 values + one fp32 scale per 128 = 132 bytes) in each of 61 layers: 78,324 bytes.
TEST(catalog_round11, deepseek_v32_exp_is_v32) {
    const auto exp = catalog_model("deepseek-ai/DeepSeek-V3.2-Exp");
    const auto v32 = catalog_model("deepseek-ai/DeepSeek-V3.2");
    EXPECT_EQ(exp.arch, "deepseek_v32");
    EXPECT_EQ(count_params(exp).total, 671'877'944'064u);
    EXPECT_EQ(count_params(exp).active, count_params(v32).active);
    EXPECT_EQ(kv_per_token(exp, engine_kind::vllm, 4'096), 61u * (576 * 2 + 132));
}

} // namespace
} // namespace llmplan

// Gemma 4 (gemma4_text / gemma4) and Gemma 3n (gemma3n_text / gemma3n): the reader on real configs
// (data/models/SOURCES.md, "Gemma 4 additions"), parameter counts derived by hand and checked against
// published totals, per-layer embeddings, KV shared across layers, K=V global layers and their KV cache in
// llama.cpp and vLLM. Module lists: src/model/gemma_ple.cpp and src/model/vision.cpp.
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "unit/catalog_fixtures.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

using test::kv_bytes;

using test::catalog_model;

std::size_t count_role(const model_desc& m, tensor_role r) {
    std::size_t n = 0;
    for (const auto& t : m.tensors)
        n += t.role == r ? 1 : 0;
    return n;
}

// google/gemma-4-31B-it (modeling_gemma4.py; E = 5376, V = 262,144, 60 layers, 50 sliding and 10
// full, 32 query heads, tied head):
//   embedding V E = 1,409,286,144; final norm E;
//   every layer: 4 norms 4 E, layer_scalar 1, MLP 3 x E x 21,504;
//   sliding: q 8,192 E, k and v 4,096 E each (16 KV heads of 256), o E x 8,192, q/k norms 2 x 256;
//   full: q 16,384 E, k 2,048 E (4 global KV heads of 512, K=V: no v_proj), o E x 16,384, norms 2 x 512;
//   text = 30,697,345,340 (the card's "30.7B").
// Vision (gemma4_vision, h = 1152, f = 4304, 27 layers, 16 heads of 72): per layer 4 h^2 + 3 h f +
//   4 h + 2 x 72; input_proj h x 768; position table 2 x 10,240 x h; std_bias, std_scale 2 h;
//   embed_vision projection E x h = 575,743,536.
// Sum 31,273,088,876 = the "参数总量" (total parameters) of a report listing every safetensors
// tensor of gemma-4-31B-it (code-index file id 62810419502, the catalog config's source).
TEST(Gemma4Family, Dense31BMatchesTheCheckpointTotal) {
    const auto m = catalog_model("google/gemma-4-31B-it");
    EXPECT_EQ(m.arch, "gemma4_text");
    EXPECT_EQ(m.gguf_arch, "gemma4");
    EXPECT_EQ(count_params(m).total, 30'697'345'340u);
    EXPECT_EQ(m.vision.n_params, 575'743'536u);
    EXPECT_EQ(count_params(m).total + m.vision.n_params, 31'273'088'876u);
    ASSERT_EQ(m.layers.size(), 60u);
    EXPECT_EQ(m.layers[0].n_swa, 1024u);
    EXPECT_EQ(m.layers[0].head_dim_k, 256u);
    EXPECT_EQ(m.layers[0].n_head_kv, 16u);
    EXPECT_FALSE(m.layers[0].v_from_k);
    EXPECT_EQ(m.layers[5].n_swa, 0u); // 5 sliding : 1 full (layer_types)
    EXPECT_EQ(m.layers[5].head_dim_k, 512u);
    EXPECT_EQ(m.layers[5].n_head_kv, 4u);
    EXPECT_TRUE(m.layers[5].v_from_k);
    EXPECT_EQ(count_role(m, tensor_role::attn_v), 50u); // v_proj in the 50 sliding layers only
    EXPECT_EQ(count_role(m, tensor_role::attn_k), 60u);
}

// google/gemma-4-26B-A4B (E = 2816, 30 layers, 25 sliding, 16 heads; sliding 8 KV heads of 256,
// full 2 global KV heads of 512 with K=V; 128 experts of 704, top 8, beside a 2,112-wide MLP):
//   every layer: 4 + 3 norms 7 E, layer_scalar 1, MLP 3 x E x 2,112, router proj 128 E, scale E,
//   per_expert_scale 128, experts 128 x 3 x 704 x E = 761,266,176;
//   sliding attention 12,288 E + 512, full 17,408 E + 1,024; embedding 262,144 E; final norm E.
//   text = 25,233,141,790, active (8 of 128 experts) 3,822,530,590: the model card's "25.2B total,
//   3.8B active" (quoted in code-index file ids 71535895240 and 60898091980); "26B" in keras-hub's
//   gemma4_26b_a4b preset (keras_hub/src/models/gemma4/gemma4_presets.py @ 9c60259d1f81).
// Vision: the 31B tower with a 2,816-wide projector: 572,794,416.
TEST(Gemma4Family, MoE26BA4BByHand) {
    const auto m = catalog_model("google/gemma-4-26B-A4B");
    const auto p = count_params(m);
    EXPECT_EQ(p.total, 25'233'141'790u);
    EXPECT_EQ(p.active, 3'822'530'590u);
    EXPECT_EQ(m.vision.n_params, 572'794'416u);
    EXPECT_EQ(m.moe.n_expert, 128u);
    EXPECT_EQ(m.moe.n_expert_used, 8u);
    EXPECT_EQ(m.moe.n_ff_expert, 704u);
    EXPECT_EQ(m.moe.n_ff_shexp, 2112u); // the dense MLP beside the experts
    EXPECT_TRUE(m.layers[0].is_moe);
    EXPECT_EQ(count_role(m, tensor_role::ffn_gate_up_exps), 30u);
}

// Gemma 4 E2B's text config, the values of GEMMA4_E2B_TEXT in code-index file id 61689293231
// ("Official Gemma 4 E2B text_config subset, verified against the checkpoint's config.json
// (google/gemma-4-E2B) and its safetensors tensor inventory"); the same numbers in llama.cpp's
// gemma4 loader (35 layers = LLM_TYPE_E2B) and other readers (code-index ids 53158868777, 54091846013).
std::string gemma4_e2b_text() {
    std::string types;
    for (int i = 0; i < 35; ++i)
        types += std::string(i ? ", " : "") + (i % 5 == 4 ? "\"full_attention\"" : "\"sliding_attention\"");
    return R"({"model_type": "gemma4_text", "hidden_size": 1536, "intermediate_size": 6144,
      "num_hidden_layers": 35, "num_attention_heads": 8, "num_key_value_heads": 1, "head_dim": 256,
      "global_head_dim": 512, "vocab_size": 262144, "rms_norm_eps": 1e-6, "sliding_window": 512,
      "num_kv_shared_layers": 20, "hidden_size_per_layer_input": 256, "final_logit_softcapping": 30.0,
      "hidden_activation": "gelu_pytorch_tanh", "use_double_wide_mlp": true, "tie_word_embeddings": true,
      "layer_types": [)" +
           types + "]}";
}

// E2B text (E = 1536, V = 262,144, 35 layers, PLE width 256, 8 query heads, 1 KV head):
//   embedding V E; final norm E; PLE table V x 35 x 256 = 2,348,810,240, its projection 8,960 E and
//   norm 256; every layer: 4 norms, layer_scalar, PLE gate + projection 2 x 256 E + norm E;
//   q and o 2 x 8 x hd x E + q_norm hd (hd 256 sliding, 512 full); the first 15 layers also k, v
//   2 x hd x E + k_norm hd; the last 20 share KV (no k, v, k_norm) and run double-wide MLPs
//   (3 x E x 12,288, else 3 x E x 6,144). Total 4,628,569,379: with the vision and audio towers the
//   keras-hub gemma4_2b preset's "5.1B total with Per-Layer Embeddings"; less the PLE table, 2.28B,
//   its "2.3B effective".
TEST(Gemma4Family, E2BPerLayerEmbeddingsAndSharedKV) {
    auto r = parse_hf_config(gemma4_e2b_text(), "e2b.json");
    ASSERT_TRUE(r.has_value()) << r.error().what();
    const auto& m = *r;
    const auto p  = count_params(m);
    EXPECT_EQ(p.total, 4'628'569'379u);
    EXPECT_EQ(p.embedding, 262'144u * 1536u + 2'348'810'240u); // token + per-layer embeddings
    EXPECT_EQ(count_role(m, tensor_role::per_layer_token_embd), 1u);
    EXPECT_FALSE(m.layers[14].kv_shared);
    EXPECT_TRUE(m.layers[15].kv_shared);
    EXPECT_EQ(m.layers[15].n_ff, 12'288u); // use_double_wide_mlp
    EXPECT_EQ(count_role(m, tensor_role::attn_k), 15u);
    EXPECT_EQ(count_role(m, tensor_role::attn_v), 15u); // E2B has no attention_k_eq_v
}

// KV of E2B at f16 in llama.cpp (gemma4.cpp: n_layer_kv_from_start = 35 - 20 = 15; only those layers
// get cells, llama_hparams::has_kv): 12 sliding layers of 1 x 256 (K and V: 1,024 bytes a token) and
// 3 full layers of 1 x 512 (2,048) = 18,432 bytes a token, not the 43,008 of all 35 layers. Sliding
// layers keep min(n_ctx, pad(512 + 512 ubatch, 256)) = 1,024 cells (llama_kv_cache_iswa):
//   4,096 tokens: 12 x 1,024 x 1,024 + 3 x 2,048 x 4,096 = 37,748,736;
//   32,768 tokens: 12 x 1,024 x 1,024 + 3 x 2,048 x 32,768 = 213,909,504.
// vLLM (models/gemma4.py: shared layers get kv_sharing_target_layer_name, no cache of their own) holds
// the same 18,432 bytes a token in bf16, so 75,497,472 and 603,979,776 bytes for one sequence of
// 4,096 and 32,768 tokens.
TEST(Gemma4Family, E2BKVCacheSkipsSharedLayers) {
    auto r = parse_hf_config(gemma4_e2b_text(), "e2b.json");
    ASSERT_TRUE(r.has_value()) << r.error().what();
    for (const auto& [ctx, want] : {
             std::pair{std::uint64_t{4096},  std::uint64_t{37'748'736} },
             std::pair{std::uint64_t{32768}, std::uint64_t{213'909'504}}
    }) {
        auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx);
        p.device     = device_kind::cpu;
        const auto e = estimate_inference(*r, p);
        ASSERT_TRUE(e.has_value()) << e.error().what();
        EXPECT_EQ(e->kv_bytes_per_token, 18'432u);
        EXPECT_EQ(kv_bytes(*e), want) << ctx;
    }
    const auto v = estimate_inference(*r, test::infer_params(engine_kind::vllm, "bf16", 4096));
    ASSERT_TRUE(v.has_value()) << v.error().what();
    EXPECT_EQ(v->kv_bytes_per_token, 18'432u);
    EXPECT_EQ(v->kv_bytes_per_token * 4096, 75'497'472u);
    EXPECT_EQ(v->kv_bytes_per_token * 32768, 603'979'776u);
}

// 31B at f16 in llama.cpp: sliding layers 16 KV heads x 256 x 2 (K, V) x 2 bytes = 16,384 a token,
// full layers 4 x 512 x 2 x 2 = 8,192 (K=V still caches V: gemma4.cpp feeds K as V, vLLM loads K into
// both slots of qkv_proj); 50 x 16,384 + 10 x 8,192 = 901,120 bytes a token. Sliding layers keep
// pad(1,024 + 512, 256) = 1,536 cells:
//   4,096 tokens: 50 x 16,384 x 1,536 + 10 x 8,192 x 4,096 = 1,593,835,520;
//   32,768 tokens: 50 x 16,384 x 1,536 + 10 x 8,192 x 32,768 = 3,942,645,760.
// vLLM in bf16: the same 901,120 bytes a token (3,690,987,520 for 4,096 tokens, 29,527,900,160 for 32,768).
TEST(Gemma4Family, Dense31BKVCache) {
    const auto m = catalog_model("google/gemma-4-31B-it");
    for (const auto& [ctx, want] : {
             std::pair{std::uint64_t{4096},  std::uint64_t{1'593'835'520}},
             std::pair{std::uint64_t{32768}, std::uint64_t{3'942'645'760}}
    }) {
        auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx);
        p.device     = device_kind::cpu;
        const auto e = estimate_inference(m, p);
        ASSERT_TRUE(e.has_value()) << e.error().what();
        EXPECT_EQ(e->kv_bytes_per_token, 901'120u);
        EXPECT_EQ(kv_bytes(*e), want) << ctx;
    }
    const auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", 4096));
    ASSERT_TRUE(v.has_value()) << v.error().what();
    EXPECT_EQ(v->kv_bytes_per_token, 901'120u);
    EXPECT_EQ(v->kv_bytes_per_token * 4096, 3'690'987'520u);
    EXPECT_EQ(v->kv_bytes_per_token * 32768, 29'527'900'160u);
}

// llama.cpp keeps the per-layer embedding table in host memory (src/llama-arch.cpp:
// LLM_TENSOR_PER_LAYER_TOKEN_EMBD is LLM_TENSOR_LAYER_INPUT), like the token embeddings.
TEST(Gemma4Family, LlamaCppKeepsPerLayerEmbeddingsOnTheHost) {
    auto r = parse_hf_config(gemma4_e2b_text(), "e2b.json");
    ASSERT_TRUE(r.has_value()) << r.error().what();
    const auto e = estimate_inference(*r, test::infer_params(engine_kind::llama_cpp, "q4_k_m", 4096));
    ASSERT_TRUE(e.has_value()) << e.error().what();
    EXPECT_GT(e->weights.per_layer_embd_bytes, 0u);
    std::uint64_t host = 0;
    for (const auto& d : e->devices)
        if (d.kind == device_kind::cpu) host += d.parts.weights;
    EXPECT_GE(host, e->weights.token_embd_bytes + e->weights.per_layer_embd_bytes);
}

// Gemma 3n's text model: a 4-layer config in the shape of Gemma 3n E2B as a Go reader's test writes
// it (code-index file id 53413059857: width 2048, PLE 256 over a 262,144 vocabulary, 8 heads / 2 KV
// of 256, window 512, AltUp 4 inputs, Laurel rank 64, 2 of 4 layers sharing KV), with E2B's
// 262,400-token vocabulary and a per-layer intermediate_size list (Gemma3nTextConfig accepts one).
//   E = 2048, V = 262,400, PLE vocab 262,144, 8 heads / 2 KV of 256, MLP 8,192 (layers 0-1), 16,384 (2-3):
//   embedding 537,395,200 + PLE table 262,144 x 1,024 = 268,435,456 + projection 1,024 E + norm 256;
//   AltUp projections 2 x 3 x E^2 = 25,165,824; final norm E;
//   per layer: attention (q, o 2 x 2,048 E; k, v 2 x 512 E; q/k norms 512) 10,486,272, 4 norms 8,192,
//   AltUp 16 + 64 coefficients, router 4 E, scale and norm 2 E = 12,368, Laurel 2 x 64 E + E = 264,192,
//   PLE 2 x 256 E + E = 1,050,624; MLP 3 x E x 8,192 = 50,331,648 or 3 x E x 16,384 = 100,663,296.
TEST(Gemma3nFamily, AltUpLaurelAndPerLayerWidths) {
    const std::string cfg = R"({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text",
      "hidden_size": 2048, "hidden_size_per_layer_input": 256, "vocab_size": 262400,
      "vocab_size_per_layer_input": 262144, "num_attention_heads": 8, "num_key_value_heads": 2,
      "num_hidden_layers": 4, "num_kv_shared_layers": 2, "head_dim": 256, "sliding_window": 512,
      "intermediate_size": [8192, 8192, 16384, 16384],
      "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
      "altup_num_inputs": 4, "laurel_rank": 64, "tie_word_embeddings": true}})";
    auto r                = parse_hf_config(cfg, "gemma3n.json");
    ASSERT_TRUE(r.has_value()) << r.error().what();
    const auto& m                  = *r;
    const std::uint64_t common     = 10'486'272 + 8'192 + 12'368 + 264'192 + 1'050'624;
    const std::uint64_t global     = 537'395'200 + 268'435'456 + 1'024ull * 2048 + 256 + 25'165'824 + 2048;
    const std::uint64_t want_total = global + 4 * common + 2 * 50'331'648 + 2 * 100'663'296;
    EXPECT_EQ(count_params(m).total, want_total);
    EXPECT_EQ(m.arch, "gemma3n_text");
    EXPECT_EQ(m.layers[3].n_ff, 16'384u);
    EXPECT_TRUE(m.layers[2].kv_shared);
    EXPECT_EQ(count_role(m, tensor_role::attn_k), 4u); // Gemma 3n keeps k/v weights in shared layers
    // llama.cpp: layers 0 (sliding, 2 x 256 x 2 x 2 = 2,048 bytes a token) and 1 (full, the same).
    auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 4096);
    p.device     = device_kind::cpu;
    const auto e = estimate_inference(m, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    EXPECT_EQ(e->kv_bytes_per_token, 4'096u);
}

// Bad values name their key.
TEST(Gemma4Family, BadValuesNameTheKey) {
    auto too_many = parse_hf_config(R"({"model_type": "gemma4_text", "hidden_size": 64, "num_hidden_layers": 2,
      "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32, "intermediate_size": 128,
      "vocab_size": 100, "num_kv_shared_layers": 2})",
                                    "x.json");
    ASSERT_FALSE(too_many.has_value());
    EXPECT_NE(too_many.error().context.find("num_kv_shared_layers"), std::string::npos);
    auto bad_list = parse_hf_config(R"({"model_type": "gemma3n_text", "hidden_size": 64, "num_hidden_layers": 2,
      "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32, "intermediate_size": [128],
      "vocab_size": 100})",
                                    "x.json");
    ASSERT_FALSE(bad_list.has_value());
    EXPECT_NE(bad_list.error().context.find("intermediate_size"), std::string::npos);
}

} // namespace
} // namespace llmplan

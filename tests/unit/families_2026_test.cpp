// 2026 families (issue 21, item 1): Nemotron 3 Super / Ultra / 3.5 (nemotron_h with LatentMoE and
// layers_block_type), MiniMax-M2.7 (minimax_m2), GLM-4.7-Flash (glm4_moe_lite), read from their real
// config.json (data/models/SOURCES.md, tests/data/models/README.md), their parameter counts against
// the published totals, and the KV cache / recurrent state per token and per sequence as llama.cpp
// and vLLM build them.
//
// Engine code behind the KV figures (see src/estimate/kv_cache.cpp for the full rules):
//   llama.cpp: llama_kv_cache keeps K and V rows of n_head_kv x head_dim per attention layer in f16
//     by default (--cache-type-k/-v f16); deepseek2 (GLM-4.7-Flash) keeps the MLA latent: K =
//     kv_lora_rank + qk_rope_head_dim, V = kv_lora_rank; llama_memory_recurrent keeps, per sequence,
//     the conv state (d_conv - 1) x conv channels and the SSM state d_state x d_inner in f32
//     (llama-hparams.cpp n_embd_r / n_embd_s).
//   vLLM: full attention K and V in the model dtype; MLA one row of kv_lora_rank + qk_rope_head_dim
//     (MLACommonBackend); Mamba2 conv state (conv_dim, d_conv - 1) in the model dtype and SSM state
//     (heads, head_dim, d_state) in float32 for NemotronH (config's mamba_ssm_cache_dtype "float32").
#include "catalog_fixtures.h"
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace llmplan {
namespace {

using test::catalog_model;
using test::kv_bytes;

struct counted {
    std::uint32_t mamba = 0, moe = 0, attn = 0, mlp = 0;
};
counted layer_kinds(const model_desc& m) {
    counted c;
    for (const auto& l : m.layers) {
        c.mamba += l.has_state();
        c.moe += l.is_moe;
        c.attn += l.has_kv();
        c.mlp += l.n_ff > 0;
    }
    return c;
}

// Nemotron 3 Super (hybrid_override_pattern, 88 letters: 40 M, 40 E, 8 *): width 4096, vocab 131,072
// untied. By hand (NemotronHMamba2Mixer, NemotronHAttention, NemotronHMoE in modeling_nemotron_h.py):
//   Mamba2 layer: in_proj (8192 + 10240 + 128) x 4096 + conv1d 10240 x 4 + bias 10240 + dt_bias,
//     A_log, D 3 x 128 + gated norm 8192 + out_proj 4096 x 8192 + layer norm 4096 = 109,640,064;
//   attention layer: q 4096 x 4096, k and v 256 x 4096, o 4096 x 4096 + norm = 35,655,680;
//   LatentMoE layer: router 512 x 4096 + score bias 512, fc1_latent_proj 1024 x 4096, fc2 4096 x
//     1024, 512 routed relu2 experts (up 2688 x 1024, down 1024 x 2688), shared expert (up 5376 x
//     4096, down 4096 x 5376) + norm = 2,873,102,848; with 22 experts active: 175,641,088.
//   total = 2 x 131,072 x 4096 + 4096 + 40 x 109,640,064 + 8 x 35,655,680 + 40 x 2,873,102,848
//         = 120,668,707,840 = llama.cpp's model_n_params for the Super GGUF ("nemotron_h_moe
//         120B.A12B", llama-bench on unsloth/NVIDIA-Nemotron-3-Super-120B-A12B-GGUF UD-IQ4_XS, llama.cpp
//         b9453; code-index file id 58138836309). Without moe_latent_size the experts would read the
//         full 4096 width and the count was 458.6B.
//   active: the same with 175,641,088 a MoE layer = 12,770,237,440 (the card's "12B active", A12B).
TEST(families_2026, nemotron3_super_latent_moe_matches_llamacpp_count) {
    const auto m = catalog_model("nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16");
    ASSERT_EQ(m.n_layer, 88u);
    const auto k = layer_kinds(m);
    EXPECT_EQ(k.mamba, 40u);
    EXPECT_EQ(k.moe, 40u);
    EXPECT_EQ(k.attn, 8u);
    EXPECT_EQ(m.moe.n_expert, 512u);
    EXPECT_EQ(m.moe.n_expert_used, 22u);
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 2ull * 131'072 * 4096 + 4096 + 40 * 109'640'064ull + 8 * 35'655'680ull + 40 * 2'873'102'848ull);
    EXPECT_EQ(c.total, 120'668'707'840u);
    EXPECT_EQ(c.active, 12'770'237'440u);
    // The latent projections are dense matrices every token reads, named as llama.cpp names them; the
    // routed experts work in the latent width (layer 1 is the first "E").
    std::uint64_t latent = 0;
    for (const auto& t : m.tensors) {
        if (t.name.find("ffn_latent_") != std::string::npos) {
            latent += t.n_elements();
            EXPECT_TRUE(is_linear(t.role)) << t.name;
            EXPECT_FALSE(is_expert(t.role)) << t.name;
        }
        if (t.name == "blk.1.ffn_latent_down.weight") EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{1024, 4096}));
        if (t.name == "blk.1.ffn_up_exps.weight") EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{512, 2688, 1024}));
        if (t.name == "blk.1.ffn_down_exps.weight") EXPECT_EQ(t.shape, (std::vector<std::uint64_t>{512, 1024, 2688}));
    }
    EXPECT_EQ(latent, 40u * 2 * 1024 * 4096);
}

// Nemotron 3 Ultra: no num_hidden_layers; layers_block_type lists 108 layers (48 mamba, 48 moe, 12
// attention). Width 8192, 256 Mamba heads of 64 (inner 16,384, conv 16,384 + 2 x 8 x 128 = 18,432),
// 64/2 heads of 128, latent 2048, 512 experts of 5120 (22 per token), shared 10,240. By hand as above:
// Mamba2 layer 421,645,056; attention 138,420,224; MoE 10,942,947,840 (active 666,903,040);
//   total = 2 x 131,072 x 8192 + 8192 + 48 x 421,645,056 + 12 x 138,420,224 + 48 x 10,942,947,840
//         = 549,308,993,536, active 56,058,843,136: the card's "550B (55B active)" (RedHatAI's copy of
//         the nvidia model card, June 2026; research.nvidia.com "550 billion total and 55 billion active").
TEST(families_2026, nemotron3_ultra_reads_layers_block_type) {
    const auto m = catalog_model("nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16");
    ASSERT_EQ(m.n_layer, 108u);
    const auto k = layer_kinds(m);
    EXPECT_EQ(k.mamba, 48u);
    EXPECT_EQ(k.moe, 48u);
    EXPECT_EQ(k.attn, 12u);
    EXPECT_EQ(m.layers[7].has_kv(), true); // "mamba, moe, mamba, moe, mamba, moe, mamba, attention"
    const auto c = count_params(m);
    EXPECT_EQ(c.total,
              2ull * 131'072 * 8192 + 8192 + 48 * 421'645'056ull + 12 * 138'420'224ull + 48 * 10'942'947'840ull);
    EXPECT_EQ(c.total, 549'308'993'536u);
    EXPECT_EQ(c.active, 56'058'843'136u);
    EXPECT_NEAR(static_cast<double>(c.total) / 550e9, 1.0, 0.002);
    EXPECT_NEAR(static_cast<double>(c.active) / 55e9, 1.0, 0.02);
}

// Nemotron 3.5 Lightning 30B-A3B: layers_block_type (52 entries) beside num_hidden_layers 52,
// moe_latent_size null (no projection): the same shapes as Nemotron 3 Nano 30B-A3B, so the same count
// (state_space_test: 31,577,940,288, 3,580,076,352 active; the card's 31.6B / 3.6B).
TEST(families_2026, nemotron35_block_types_without_latent) {
    const auto m = test::load_test_model("nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4");
    ASSERT_EQ(m.n_layer, 52u);
    const auto k = layer_kinds(m);
    EXPECT_EQ(k.mamba, 23u);
    EXPECT_EQ(k.moe, 23u);
    EXPECT_EQ(k.attn, 6u);
    for (const auto& t : m.tensors)
        EXPECT_EQ(t.name.find("ffn_latent_"), std::string::npos) << t.name;
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 31'577'940'288u);
    EXPECT_EQ(c.active, 3'580'076'352u);
}

// KV and state of Nemotron 3 Super, by hand:
//   KV per token: 8 attention layers x (K + V) 2 x 128 x 2 bytes (f16 / bf16) = 8,192;
//   state per sequence, one Mamba2 layer: llama.cpp f32 (10,240 x 3 + 8192 x 128) x 4 = 4,317,184,
//     x 40 = 172,687,360; vLLM 30,720 x 2 bytes + 1,048,576 x 4 bytes = 4,255,744, x 40 = 170,229,760.
//   llama.cpp at 8192 tokens: 8192 x 8,192 + 172,687,360 = 239,796,224; at 65,536 tokens:
//   65,536 x 8,192 + 172,687,360 = 709,558,272.
TEST(families_2026, nemotron3_super_kv_and_state) {
    const auto m = catalog_model("nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16");
    auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 8192);
    auto a       = estimate_inference(m, p);
    ASSERT_TRUE(a.has_value()) << a.error().what();
    EXPECT_EQ(a->kv_bytes_per_token, 8192u);
    EXPECT_EQ(a->state_bytes_per_sequence, 172'687'360u);
    EXPECT_EQ(kv_bytes(*a), 239'796'224u);
    p.ctx  = 65536;
    auto b = estimate_inference(m, p);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(kv_bytes(*b), 709'558'272u);
    for (std::uint64_t ctx : {8192u, 65536u}) {
        auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", ctx));
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, 8192u) << ctx;
        EXPECT_EQ(v->state_bytes_per_sequence, 170'229'760u) << ctx;
    }
}

// Ultra: KV 12 x 2 x 256 x 2 = 12,288 bytes a token; one Mamba2 layer's state: llama.cpp (18,432 x 3 +
// 16,384 x 128) x 4 = 8,609,792 (x 48 = 413,270,016); vLLM 55,296 x 2 + 2,097,152 x 4 = 8,499,200
// (x 48 = 407,961,600). llama.cpp at 8192 tokens: 100,663,296 + 413,270,016 = 513,933,312; at 131,072:
// 1,610,612,736 + 413,270,016 = 2,023,882,752.
TEST(families_2026, nemotron3_ultra_kv_and_state) {
    const auto m = catalog_model("nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16");
    for (auto [ctx, total] : {
             std::pair{8192ull,   513'933'312ull  },
             std::pair{131072ull, 2'023'882'752ull}
    }) {
        auto a = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(a.has_value()) << a.error().what();
        EXPECT_EQ(a->kv_bytes_per_token, 12'288u);
        EXPECT_EQ(a->state_bytes_per_sequence, 413'270'016u);
        EXPECT_EQ(kv_bytes(*a), total) << ctx;
        auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", ctx));
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, 12'288u);
        EXPECT_EQ(v->state_bytes_per_sequence, 407'961'600u);
    }
}

// MiniMax-M2.7: 62 layers of width 3072, 48/8 heads of 128, q/k norms over all heads, 256 SwiGLU experts
// of 1536 (8 per token) with a routing bias, vocab 200,064 untied. By hand: attention 6144 x 3072 +
// 2 x 1024 x 3072 + 3072 x 6144 + norms 6144 + 1024 = 44,047,360; MoE 256 x 3072 + 256 + 256 x 3 x 1536 x
// 3072 = 3,624,665,344; total = 2 x 200,064 x 3072 + 3072 + 62 x (44,047,360 + 3,624,665,344 + 2 x 3072)
// = 228,689,764,864: the Hub's safetensors total for MiniMaxAI/MiniMax-M2.7 (HF Hub API, listed in a
// license audit table, code-index file id 71142266638) and llama.cpp's model_n_params ("minimax-m2
// 230B.A10B", code-index file id 58464340977). Active 11,030,553,088: "A10B" is 9.80B once the
// embedding and output matrices (2 x 200,064 x 3072) are left out.
// KV: 62 x 2 x 8 x 128 x 2 bytes = 253,952 a token (f16 in llama.cpp, bf16 in vLLM).
TEST(families_2026, minimax_m27_count_and_kv) {
    const auto m = catalog_model("MiniMaxAI/MiniMax-M2.7");
    ASSERT_EQ(m.n_layer, 62u);
    EXPECT_TRUE(m.qk_norm_full);
    EXPECT_EQ(m.rope_dim, 64u);
    EXPECT_TRUE(m.moe.score_bias);
    EXPECT_EQ(m.moe.n_ff_shexp, 0u);
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 228'689'764'864u);
    EXPECT_EQ(c.active, 11'030'553'088u);
    EXPECT_EQ(m.quant.method, quant_method::fp8);
    for (std::uint64_t ctx : {8192u, 131072u}) {
        auto a = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(a.has_value()) << a.error().what();
        EXPECT_EQ(a->kv_bytes_per_token, 253'952u);
        EXPECT_EQ(kv_bytes(*a), 253'952u * ctx);
        inference_params v;
        v.engine = engine_kind::vllm;
        v.ctx    = ctx;
        auto b   = estimate_inference(m, v);
        ASSERT_TRUE(b.has_value()) << b.error().what();
        EXPECT_EQ(b->kv_bytes_per_token, 253'952u);
    }
}

// GLM-4.7-Flash: DeepSeek-V3's blocks at width 2048, 47 layers (the first dense, 10,240 wide), MLA with
// 20 heads (q_lora 768, kv_lora 512, nope 192, rope 64, v 256), 64 experts of 1536 (4 per token) + 1
// shared, a router score bias in every MoE layer, vocab 154,880 untied. By hand: attention 768 x 2048 +
// 768 + 20 x 256 x 768 + 576 x 2048 + 512 + 20 x 448 x 512 + 2048 x 5120 = 21,759,232; MoE 64 x 2048 +
// 64 + 65 x 3 x 1536 x 2048 = 613,548,096; total = 2 x 154,880 x 2048 + 2048 + 47 x (21,759,232 + 4096)
// + 3 x 10,240 x 2048 + 46 x 613,548,096 = 29,943,393,920: llama.cpp's n_params for its GGUF (a
// llama-server /v1/models answer, code-index file id 60005726306), active 3,896,766,080 (a GGUF tensor
// census, code-index file id 70898634227).
// KV a token: vLLM one latent row of 512 + 64 in bf16: 47 x 576 x 2 = 54,144; llama.cpp (deepseek2, f16)
// K 576 and V 512: 47 x 1088 x 2 = 102,272.
TEST(families_2026, glm47_flash_count_and_mla_cache) {
    const auto m = catalog_model("zai-org/GLM-4.7-Flash");
    ASSERT_EQ(m.n_layer, 47u);
    EXPECT_EQ(m.layers[0].is_moe, false);
    EXPECT_EQ(m.layers[1].attn, attn_kind::mla);
    EXPECT_TRUE(m.moe.score_bias);
    EXPECT_EQ(m.gguf_arch, "deepseek2");
    const auto c = count_params(m);
    EXPECT_EQ(c.total, 29'943'393'920u);
    EXPECT_EQ(c.active, 3'896'766'080u);
    for (std::uint64_t ctx : {8192u, 65536u}) {
        auto a = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(a.has_value()) << a.error().what();
        EXPECT_EQ(a->kv_bytes_per_token, 102'272u);
        EXPECT_EQ(kv_bytes(*a), 102'272u * ctx);
        auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", ctx));
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, 54'144u);
    }
}

// A bad layer list names the field and the entry.
TEST(families_2026, bad_layers_block_type_names_the_entry) {
    const std::string base = R"({"model_type": "nemotron_h", "hidden_size": 64, "vocab_size": 100,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "mamba_num_heads": 4,
        "mamba_head_dim": 32, "n_groups": 1, "ssm_state_size": 16, "intermediate_size": 128, )";
    auto bad               = parse_hf_config(base + R"("layers_block_type": ["mamba", "conv"]})", "c.json");
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().what().find("layers_block_type/1"), std::string::npos) << bad.error().what();
    auto short_list =
        parse_hf_config(base + R"("num_hidden_layers": 3, "layers_block_type": ["mamba", "mlp"]})", "c.json");
    ASSERT_FALSE(short_list.has_value());
    EXPECT_NE(short_list.error().what().find("layers_block_type"), std::string::npos);
    auto good = parse_hf_config(base + R"("layers_block_type": ["mamba", "mlp", "attention"]})", "c.json");
    ASSERT_TRUE(good.has_value()) << good.error().what();
    EXPECT_EQ(good->n_layer, 3u);
    EXPECT_EQ(good->layers[1].n_ff, 128u);
    EXPECT_TRUE(good->layers[2].has_kv());
}

// OLMo 3 (no Hub config.json was found to copy; the row is checked on a small config with Olmo3Config's
// keys): OLMo 2's blocks, q/k norms over all heads, sliding windows where layer_types says so. Width
// 64, 4 heads of 16 (2 KV), FFN 128, vocab 100 untied. A layer: q 64 x 64 + k, v 32 x 64 + o 64 x 64 =
// 12,288; q_norm 64 + k_norm 32; SwiGLU 3 x 128 x 64 = 24,576; two norms 128: 37,088. Total 2 x 100 x
// 64 + 64 + 4 x 37,088 = 161,216. Ministral 3 (a mistral3 wrapper around text_config "ministral3")
// reads as Mistral.
TEST(families_2026, olmo3_sliding_layers_and_ministral3_text) {
    auto olmo = parse_hf_config(R"({"model_type": "olmo3", "hidden_size": 64, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 100,
        "sliding_window": 16, "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention",
        "full_attention"]})",
                                "olmo3.json");
    ASSERT_TRUE(olmo.has_value()) << olmo.error().what();
    for (std::uint32_t i = 0; i < 4; ++i)
        EXPECT_EQ(olmo->layers[i].n_swa, i < 3 ? 16u : 0u) << i;
    EXPECT_EQ(count_params(*olmo).total, 161'216u);
    EXPECT_EQ(olmo->gguf_arch, "olmo2");
    auto mini = parse_hf_config(R"({"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"],
        "text_config": {"model_type": "ministral3", "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
        "vocab_size": 100, "tie_word_embeddings": true}})",
                                "ministral3.json");
    ASSERT_TRUE(mini.has_value()) << mini.error().what();
    EXPECT_EQ(mini->arch, "ministral3");
    // 100 x 64 tied + 64 + 2 x (12,288 + 24,576 + 128).
    EXPECT_EQ(count_params(*mini).total, 100u * 64 + 64 + 2 * (12'288 + 24'576 + 128));
}

} // namespace
} // namespace llmplan

// Qwen3.5 / Qwen3.6 (model_type qwen3_5_text, qwen3_5_moe_text, in their qwen3_5 / qwen3_5_moe
// multimodal wrappers): Gated DeltaNet in 3 of 4 layers, gated attention, dense or MoE MLPs, a
// vision tower and one multi-token-prediction layer, each against the Hub's safetensors totals.
//
// Hub totals: AlexsJones/llmfit scripts/scrape_hf_models.py @ 3f44fd30a43d2619146f7bc0aa66c90aa54d78e6
// (entries of the Hub API field safetensors.total): Qwen/Qwen3.5-27B 27,781,427,952;
// Qwen/Qwen3.5-35B-A3B 35,951,822,704; Qwen/Qwen3.5-122B-A10B 125,086,497,008;
// Qwen/Qwen3.5-397B-A17B 403,397,928,944. Those totals count every tensor of the checkpoint: the
// language model (llmplan's count), the vision tower (model.visual.*) and the MTP layer (mtp.*).
//
// Module lists: transformers src/transformers/models/qwen3_5/modular_qwen3_5.py @ 009e78d6 and
// qwen3_5_moe/modular_qwen3_5_moe.py @ 0960594c (Qwen3_5GatedDeltaNet: in_proj_qkv [2 key_dim +
// value_dim, e], in_proj_z [value_dim, e], in_proj_b and in_proj_a [v_heads, e], conv1d, dt_bias,
// A_log, norm [head_v_dim], out_proj; Qwen3_5Attention = Qwen3NextAttention; Qwen3_5VisionModel =
// Qwen3VLVisionModel without deepstack mergers).
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "model/mtp.h"
#include "unit/catalog_fixtures.h"
#include "unit/hybrid_fixture.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

using test::kv_bytes;

using test::catalog_model;

constexpr std::uint64_t vocab = 248'320;

// The vision tower of every Qwen3.5 / 3.6 config (depth 27, hidden 1152, MLP 4304, patch 16,
// temporal patch 2, 2304 learned positions, merge 2), by hand: a block is qkv 3h^2 + 3h, proj
// h^2 + h, fc1 h x 4304 + 4304, fc2 4304 x h + h, two LayerNorms 4h; patch_embed (Conv3d with bias)
// 3 x 2 x 16 x 16 x h + h; pos_embed 2304 x h; the merger's LayerNorm 2h, linear_fc1 (4h)^2 + 4h,
// linear_fc2 4h x out + out (out = the language model's width).
std::uint64_t vision_by_hand(std::uint64_t out) {
    const std::uint64_t h = 1'152, f = 4'304, in = 4 * h;
    const std::uint64_t block = 3 * h * h + 3 * h + h * h + h + h * f + f + f * h + h + 4 * h;
    return 27 * block + (3 * 2 * 16 * 16 * h + h) + 2'304 * h + (2 * h + in * in + in + in * out + out);
}

// One gated full-attention layer's attention (Qwen3NextAttention): q_proj yields the queries and
// their gate (2 x heads x 256 rows), k and v (kv heads x 256), o (e x heads x 256), q/k norms 256.
std::uint64_t attention(std::uint64_t e, std::uint64_t heads, std::uint64_t kv) {
    return 2 * heads * 256 * e + 2 * kv * 256 * e + e * heads * 256 + 2 * 256;
}

// One Gated DeltaNet layer: key_dim = 16 x 128 = 2048, value_dim = v_heads x 128, conv over
// 2 key_dim + value_dim channels with kernel 4, out_proj e x value_dim.
std::uint64_t delta_net(std::uint64_t e, std::uint64_t v_heads) {
    const std::uint64_t k = 2'048, v = v_heads * 128, conv = 2 * k + v;
    return (2 * k + v) * e + v * e + 2 * v_heads * e + conv * 4 + 2 * v_heads + 128 + e * v;
}

// Qwen3.5-27B (dense, 64 layers: 16 full attention, 48 Gated DeltaNet, SwiGLU 17408, untied):
// 2 x 248320 x 5120 + 16 attention(5120, 24, 4) + 48 delta_net(5120, 48) + 64 x (3 x 5120 x 17408 +
// 2 x 5120) + 5120 = 26,895,998,464. The MTP layer (a full-attention layer with its MLP and two norms, fc
// 2e^2, three norms)
// is 424,699,392; with the vision tower, 460,730,096, the sum is the Hub total exactly.
TEST(qwen3_5_family, dense_27b_is_the_hub_total) {
    const auto m            = catalog_model("Qwen/Qwen3.5-27B");
    const std::uint64_t e   = 5'120;
    const auto c            = count_params(m);
    const std::uint64_t mlp = 3 * e * 17'408;
    EXPECT_EQ(c.total, 2 * vocab * e + 16 * attention(e, 24, 4) + 48 * delta_net(e, 48) + 64 * (mlp + 2 * e) + e);
    EXPECT_EQ(c.total, 26'895'998'464u);
    EXPECT_EQ(c.active, c.total);
    const std::uint64_t mtp = attention(e, 24, 4) + mlp + 2 * e + 2 * e * e + 3 * e;
    EXPECT_EQ(detail::mtp_block_params(m), mtp);
    EXPECT_EQ(m.vision.n_params, vision_by_hand(e));
    EXPECT_EQ(c.total + m.vision.n_params + mtp, 27'781'427'952u);
    EXPECT_EQ(m.gguf_arch, "qwen35"); // llama.cpp llama-arch.cpp LLM_ARCH_QWEN35
}

// The MoE block of every Qwen3.5-MoE layer (Qwen3NextSparseMoeBlock): router n x e, n experts of
// 3 x e x f, a shared expert 3 x e x f_shared and its gate e x 1. Active: the router, k experts,
// the shared expert and its gate.
struct moe_shape {
    std::uint64_t e, layers, heads, v_heads, experts, used, f, shared;
};
std::uint64_t moe_block(const moe_shape& s, std::uint64_t experts) {
    return s.e * s.experts + experts * 3 * s.e * s.f + 3 * s.e * s.shared + s.e;
}
std::uint64_t moe_model(const moe_shape& s, std::uint64_t experts) {
    const std::uint64_t full = s.layers / 4; // full_attention_interval 4
    return 2 * vocab * s.e + full * attention(s.e, s.heads, 2) + (s.layers - full) * delta_net(s.e, s.v_heads) +
           s.layers * (moe_block(s, experts) + 2 * s.e) + s.e;
}

// Qwen3.5 MoE configs have no intermediate_size (Qwen3_5MoeTextConfig deletes it); every layer is
// sparse. Each total: the count by the formulas above + the vision tower + one MTP layer (a full
// attention layer with the whole MoE block, fc 2e^2, three norms) = the Hub total exactly.
TEST(qwen3_5_family, moe_counts_are_the_hub_totals) {
    struct row {
        const char* id;
        moe_shape s;
        std::uint64_t total, active, hub;
    };
    const row rows[] = {
        {"Qwen/Qwen3.5-35B-A3B",
         {2'048, 40, 16, 32, 256, 8, 512, 512},
         34'660'610'688u,  3'454'988'928u,
         35'951'822'704u },
        {"Qwen/Qwen3.5-122B-A10B",
         {3'072, 48, 32, 64, 256, 8, 1'024, 1'024},
         122'111'526'912u, 9'771'288'576u,
         125'086'497'008u},
        {"Qwen/Qwen3.5-397B-A17B",
         {4'096, 60, 32, 64, 512, 10, 1'024, 1'024},
         396'346'350'336u, 17'349'040'896u,
         403'397'928'944u},
    };
    for (const auto& r : rows) {
        const auto m = catalog_model(r.id);
        const auto c = count_params(m);
        EXPECT_EQ(c.total, moe_model(r.s, r.s.experts)) << r.id;
        EXPECT_EQ(c.total, r.total) << r.id;
        EXPECT_EQ(c.active, moe_model(r.s, r.s.used)) << r.id;
        EXPECT_EQ(c.active, r.active) << r.id; // the cards' "A3B", "A10B", "A17B"
        const std::uint64_t mtp =
            attention(r.s.e, r.s.heads, 2) + moe_block(r.s, r.s.experts) + 2 * r.s.e + 2 * r.s.e * r.s.e + 3 * r.s.e;
        EXPECT_EQ(detail::mtp_block_params(m), mtp) << r.id;
        EXPECT_EQ(m.vision.n_params, vision_by_hand(r.s.e)) << r.id;
        EXPECT_EQ(c.total + m.vision.n_params + mtp, r.hub) << r.id;
        EXPECT_EQ(m.gguf_arch, "qwen35moe") << r.id; // LLM_ARCH_QWEN35MOE
    }
}

// Qwen3.6 shares Qwen3.5's shapes (data/models/sources.json: nvidia's NVFP4 Qwen3.6 configs).
TEST(qwen3_5_family, qwen3_6_counts_as_qwen3_5) {
    EXPECT_EQ(count_params(catalog_model("Qwen/Qwen3.6-27B")).total, 26'895'998'464u);
    EXPECT_EQ(count_params(catalog_model("Qwen/Qwen3.6-35B-A3B")).active, 3'454'988'928u);
}

// Layers: full attention where (i + 1) % 4 == 0 (the configs' layer_types say the same), Gated
// DeltaNet elsewhere with conv_dim 2 x 2048 + v_heads x 128 channels and a v_heads x 128 x 128 state;
// the MTP layer is a note, not a counted weight.
TEST(qwen3_5_family, layers_state_and_notes) {
    const auto m = catalog_model("Qwen/Qwen3.5-27B");
    ASSERT_EQ(m.n_layer, 64u);
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        EXPECT_EQ(m.layers[i].has_kv(), (i + 1) % 4 == 0) << i;
        EXPECT_EQ(m.layers[i].has_state(), (i + 1) % 4 != 0) << i;
    }
    EXPECT_EQ(m.layers[0].recurrent.conv_channels, 10'240u); // 2 x 2048 + 48 x 128
    EXPECT_EQ(m.layers[0].recurrent.state_elems, 786'432u);  // 48 x 128 x 128
    EXPECT_TRUE(m.layers[0].recurrent.vllm_ssm_f32);         // mamba_ssm_dtype "float32"
    EXPECT_TRUE(m.attn_output_gate);
    bool mtp_note = false;
    for (const auto& n : m.notes)
        mtp_note = mtp_note || n.find("1 multi-token-prediction layer (mtp_num_hidden_layers): 0.42 B") == 0;
    EXPECT_TRUE(mtp_note);
}

// KV cache and recurrent state, Qwen3.5-27B, one sequence:
//   KV: 16 full-attention layers x 4 KV heads x 256 x 2 (K, V) x 2 bytes (f16 / bf16) = 65,536 B a token.
//   llama.cpp (llama-memory-recurrent, r and s in f32; n_embd_r = (kernel - 1) x conv_dim, n_embd_s =
//   state): 48 x (3 x 10,240 + 786,432) x 4 = 156,893,184 B a sequence.
//   vLLM (MambaStateShapeCalculator.gated_delta_net_state_shape: conv (conv_dim, kernel - 1), temporal
//   (v_heads, 128, 128); conv in the model dtype, the temporal state in mamba_ssm_dtype float32 through
//   Qwen3_5ForConditionalGenerationConfig): 48 x (3 x 10,240 x 2 + 786,432 x 4) = 153,944,064 B.
TEST(qwen3_5_family, dense_27b_kv_and_state) {
    const auto m                    = catalog_model("Qwen/Qwen3.5-27B");
    constexpr std::uint64_t per_tok = 16ull * 4 * 256 * 2 * 2;
    constexpr std::uint64_t cpp     = 48ull * (3 * 10'240 + 786'432) * 4;
    constexpr std::uint64_t vllm    = 48ull * (3 * 10'240 * 2 + 786'432 * 4);
    static_assert(per_tok == 65'536 && cpp == 156'893'184 && vllm == 153'944'064);
    for (const std::uint64_t ctx : {4'096u, 32'768u}) {
        auto cp = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(cp.has_value()) << cp.error().what();
        EXPECT_EQ(cp->kv_bytes_per_token, per_tok);
        EXPECT_EQ(cp->state_bytes_per_sequence, cpp);
        EXPECT_EQ(kv_bytes(*cp), ctx * per_tok + cpp) << ctx; // 268,435,456 / 2,147,483,648 of KV + the state
        auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", ctx));
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, per_tok);
        EXPECT_EQ(v->state_bytes_per_sequence, vllm);
    }
}

// Qwen3.5-35B-A3B: 10 full-attention layers x 2 KV heads x 256 x 2 x 2 = 20,480 B a token; 30 Gated
// DeltaNet layers of conv_dim 8,192 and a 32 x 128 x 128 = 524,288 state: llama.cpp 30 x (3 x 8,192 +
// 524,288) x 4 = 65,863,680 B, vLLM 30 x (3 x 8,192 x 2 + 524,288 x 4) = 64,389,120 B a sequence.
TEST(qwen3_5_family, moe_35b_kv_and_state) {
    const auto m                    = catalog_model("Qwen/Qwen3.5-35B-A3B");
    constexpr std::uint64_t per_tok = 10ull * 2 * 256 * 2 * 2;
    constexpr std::uint64_t cpp     = 30ull * (3 * 8'192 + 524'288) * 4;
    constexpr std::uint64_t vllm    = 30ull * (3 * 8'192 * 2 + 524'288 * 4);
    static_assert(per_tok == 20'480 && cpp == 65'863'680 && vllm == 64'389'120);
    for (const std::uint64_t ctx : {4'096u, 32'768u}) {
        auto cp = estimate_inference(m, test::infer_params(engine_kind::llama_cpp, "q4_k_m", ctx));
        ASSERT_TRUE(cp.has_value()) << cp.error().what();
        EXPECT_EQ(cp->kv_bytes_per_token, per_tok);
        EXPECT_EQ(cp->state_bytes_per_sequence, cpp);
        EXPECT_EQ(kv_bytes(*cp), ctx * per_tok + cpp) << ctx;
        auto v = estimate_inference(m, test::infer_params(engine_kind::vllm, "bf16", ctx));
        ASSERT_TRUE(v.has_value()) << v.error().what();
        EXPECT_EQ(v->kv_bytes_per_token, per_tok);
        EXPECT_EQ(v->state_bytes_per_sequence, vllm);
    }
}

// The wrapper without a text model_type still reads (aliases qwen3_5 / qwen3_5_moe); a MoE config
// with a dense layer (mlp_only_layers) but no intermediate_size names the missing field.
TEST(qwen3_5_family, wrappers_and_missing_widths) {
    const std::string text = R"("hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 256, "linear_conv_kernel_dim": 4,
        "linear_key_head_dim": 8, "linear_value_head_dim": 8, "linear_num_key_heads": 2,
        "linear_num_value_heads": 4, "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 32,
        "shared_expert_intermediate_size": 32)";
    auto ok = parse_hf_config(R"({"model_type": "qwen3_5_moe", "text_config": {)" + text + "}}", "w.json");
    ASSERT_TRUE(ok.has_value()) << ok.error().what();
    EXPECT_EQ(ok->moe.n_ff_expert, 32u);
    EXPECT_TRUE(ok->layers[0].is_moe);
    EXPECT_TRUE(ok->layers[0].has_state());
    auto bad = parse_hf_config(
        R"({"model_type": "qwen3_5_moe", "text_config": {"mlp_only_layers": [1], )" + text + "}}", "w.json");
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().what().find("intermediate_size"), std::string::npos) << bad.error().what();
}

} // namespace
} // namespace llmplan

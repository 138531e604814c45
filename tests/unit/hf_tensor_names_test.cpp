// Hugging Face tensor names -> roles; the cases are tests/data/hf_tensor_names.tsv. Names are copied
// from real checkpoints (the model's model.safetensors.index.json on the Hub, or the test files in
// tests/data/safetensors); the expected role is the GGUF tensor llama.cpp's convert_hf_to_gguf.py
// writes for that name.
#include "model/hf_tensor_names.h"
#include "unit/data_rows.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

using enum tensor_role;

// Every case of tests/data/hf_tensor_names.tsv: the name's role, layer and bias flag.
TEST(HfTensorNames, CheckpointNamesGetTheirGgufRoles) {
    const auto rows = test::data_rows("hf_tensor_names.tsv", '\t');
    EXPECT_EQ(rows.size(), 122u); // every case was read
    for (const auto& f : rows) {
        ASSERT_GE(f.size(), 4u) << f[0];
        int layer             = -2;
        bool is_bias          = !(f[3] == "bias");
        const tensor_role got = hf_tensor_role(f[0], layer, is_bias);
        EXPECT_EQ(role_name(got), f[1]) << f[0];
        EXPECT_EQ(layer, std::stoi(f[2])) << f[0];
        EXPECT_EQ(is_bias, f[3] == "bias") << f[0];
    }
}

TEST(HfTensorNames, GemmaPostNormFixup) {
    // With post_feedforward_layernorm present (Gemma-2/3, OLMo-2) post_attention_layernorm is the
    // norm after attention; without it (Llama, Gemma-1) it is the norm before the FFN.
    std::vector<tensor_desc> g(2), l(1);
    g[0].name = "model.layers.0.post_attention_layernorm.weight";
    g[1].name = "model.layers.0.post_feedforward_layernorm.weight";
    l[0].name = "model.layers.0.post_attention_layernorm.weight";
    hf_assign_roles(g);
    hf_assign_roles(l);
    EXPECT_EQ(g[0].role, attn_post_norm);
    EXPECT_EQ(g[1].role, ffn_post_norm);
    EXPECT_EQ(l[0].role, ffn_norm);
}

TEST(HfTensorNames, MoeAndMla) {
    EXPECT_EQ(hf_parse_tensor_name("model.layers.3.mlp.experts.255.gate_proj.weight").expert, 255);
}

TEST(HfTensorNames, QuantSideTensors) {
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.qzeros"));
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.scales"));
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.0.mlp.down_proj.weight.absmax"));
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.5.mlp.experts.down_proj_scales"));
    EXPECT_FALSE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.qweight")); // the packed weight
    EXPECT_FALSE(hf_is_quant_metadata("model.layers.5.mlp.experts.down_proj_blocks"));
    EXPECT_FALSE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.weight"));
    EXPECT_EQ(hf_parse_tensor_name("model.layers.0.self_attn.q_proj.qweight").quant, hf_quant_part::packed_weight);
}

} // namespace
} // namespace llmplan

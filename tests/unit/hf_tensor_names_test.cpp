// Hugging Face tensor names -> roles. Names are copied from real checkpoints (the model's
// model.safetensors.index.json on the Hub, or the test files in tests/data/safetensors); the
// expected role is the GGUF tensor llama.cpp's convert_hf_to_gguf.py writes for that name.
#include "model/hf_tensor_names.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using enum tensor_role;

struct name_case {
    const char* name;
    tensor_role role;
    int layer;
    bool is_bias;
};

void check(const name_case& c) {
    int layer             = -2;
    bool is_bias          = true;
    const tensor_role got = hf_tensor_role(c.name, layer, is_bias);
    EXPECT_EQ(got, c.role) << c.name << ": got " << role_name(got) << ", expected " << role_name(c.role);
    EXPECT_EQ(layer, c.layer) << c.name;
    EXPECT_EQ(is_bias, c.is_bias) << c.name;
}

TEST(HfTensorNames, LlamaQwen3Gemma) {
    for (const auto& c : std::initializer_list<name_case>{
             {"model.embed_tokens.weight",                                          token_embd,    -1, false},
             {"lm_head.weight",                                                     output,        -1, false},
             {"model.norm.weight",                                                  output_norm,   -1, false},
             {"model.layers.0.input_layernorm.weight",                              attn_norm,     0,  false},
             {"model.layers.35.self_attn.q_proj.weight",                            attn_q,        35, false},
             {"model.layers.1.self_attn.k_proj.bias",                               attn_k,        1,  true }, // qwen2 qkv bias
             {"model.layers.1.self_attn.v_proj.weight",                             attn_v,        1,  false},
             {"model.layers.1.self_attn.o_proj.weight",                             attn_output,   1,  false},
             {"model.layers.7.self_attn.q_norm.weight",                             attn_q_norm,   7,  false},
             {"model.layers.7.self_attn.k_norm.weight",                             attn_k_norm,   7,  false},
             {"model.layers.2.post_attention_layernorm.weight",                     ffn_norm,      2,  false},
             {"model.layers.2.mlp.gate_proj.weight",                                ffn_gate,      2,  false},
             {"model.layers.2.mlp.up_proj.weight",                                  ffn_up,        2,  false},
             {"model.layers.2.mlp.down_proj.weight",                                ffn_down,      2,  false},
             {"model.layers.3.pre_feedforward_layernorm.weight",                    ffn_norm,      3,  false}, // gemma2/3
             {"model.layers.3.post_feedforward_layernorm.weight",                   ffn_post_norm, 3,  false},
             {"language_model.model.layers.4.self_attn.q_proj.weight",              attn_q,        4,  false}, // gemma3 multimodal
             {"vision_tower.vision_model.encoder.layers.4.self_attn.q_proj.weight", other,         -1, false},
             {"model.layers.0.self_attn.rotary_emb.inv_freq",                       other,         0,  false},
    })
        check(c);
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

TEST(HfTensorNames, GptFamilies) {
    for (const auto& c : std::initializer_list<name_case>{
  // gpt2 (openai-community/gpt2 stores names without "transformer.")
             {"wte.weight",                                            token_embd,      -1, false},
             {"wpe.weight",                                            pos_embd,        -1, false},
             {"h.0.ln_1.weight",                                       attn_norm,       0,  false},
             {"h.0.attn.c_attn.weight",                                attn_qkv,        0,  false},
             {"h.0.attn.c_attn.bias",                                  attn_qkv,        0,  true },
             {"h.0.attn.c_proj.weight",                                attn_output,     0,  false},
             {"h.11.ln_2.bias",                                        ffn_norm,        11, true },
             {"h.11.mlp.c_fc.weight",                                  ffn_up,          11, false},
             {"h.11.mlp.c_proj.weight",                                ffn_down,        11, false},
             {"ln_f.weight",                                           output_norm,     -1, false},
             {"h.0.attn.bias",                                         other,           0,  true }, // causal-mask buffer in old checkpoints
  // gpt_neox
             {"gpt_neox.embed_in.weight",                              token_embd,      -1, false},
             {"gpt_neox.layers.5.attention.query_key_value.weight",    attn_qkv,        5,  false},
             {"gpt_neox.layers.5.attention.dense.weight",              attn_output,     5,  false},
             {"gpt_neox.layers.5.mlp.dense_h_to_4h.weight",            ffn_up,          5,  false},
             {"gpt_neox.layers.5.mlp.dense_4h_to_h.weight",            ffn_down,        5,  false},
             {"gpt_neox.final_layer_norm.weight",                      output_norm,     -1, false},
             {"embed_out.weight",                                      output,          -1, false},
 // gptj
             {"transformer.h.3.attn.out_proj.weight",                  attn_output,     3,  false},
             {"transformer.h.3.mlp.fc_in.weight",                      ffn_up,          3,  false},
             {"transformer.h.3.mlp.fc_out.bias",                       ffn_down,        3,  true },
 // opt
             {"model.decoder.embed_positions.weight",                  pos_embd,        -1, false},
             {"model.decoder.layers.2.self_attn_layer_norm.weight",    attn_norm,       2,  false},
             {"model.decoder.layers.2.final_layer_norm.weight",        ffn_norm,        2,  false},
             {"model.decoder.layers.2.fc1.weight",                     ffn_up,          2,  false},
             {"model.decoder.final_layer_norm.weight",                 output_norm,     -1, false},
 // bloom, falcon
             {"transformer.word_embeddings.weight",                    token_embd,      -1, false},
             {"transformer.word_embeddings_layernorm.bias",            token_embd_norm, -1, true },
             {"transformer.h.9.self_attention.query_key_value.weight", attn_qkv,        9,  false},
             {"transformer.h.9.self_attention.dense.weight",           attn_output,     9,  false},
             {"transformer.h.9.ln_attn.weight",                        attn_norm,       9,  false},
             {"transformer.h.9.ln_mlp.weight",                         ffn_norm,        9,  false},
 // phi (phi-2), phi3
             {"model.layers.0.self_attn.dense.weight",                 attn_output,     0,  false},
             {"model.layers.0.mlp.fc2.bias",                           ffn_down,        0,  true },
             {"model.final_layernorm.weight",                          output_norm,     -1, false},
             {"model.layers.0.self_attn.qkv_proj.weight",              attn_qkv,        0,  false},
             {"model.layers.0.mlp.gate_up_proj.weight",                ffn_up,          0,  false},
 // Qwen-1: c_proj(w1(x) * silu(w2(x)))
             {"transformer.h.0.mlp.w1.weight",                         ffn_up,          0,  false},
             {"transformer.h.0.mlp.w2.weight",                         ffn_gate,        0,  false},
             {"transformer.h.0.mlp.c_proj.weight",                     ffn_down,        0,  false},
 // internlm2
             {"model.tok_embeddings.weight",                           token_embd,      -1, false},
             {"model.layers.0.attention.wqkv.weight",                  attn_qkv,        0,  false},
             {"model.layers.0.attention.wo.weight",                    attn_output,     0,  false},
             {"model.layers.0.attention_norm.weight",                  attn_norm,       0,  false},
             {"model.layers.0.feed_forward.w1.weight",                 ffn_gate,        0,  false},
             {"model.layers.0.feed_forward.w3.weight",                 ffn_up,          0,  false},
             {"model.layers.0.feed_forward.w2.weight",                 ffn_down,        0,  false},
             {"output.weight",                                         output,          -1, false},
 // bert (TF-era gamma/beta names too)
             {"bert.embeddings.word_embeddings.weight",                token_embd,      -1, false},
             {"bert.embeddings.position_embeddings.weight",            pos_embd,        -1, false},
             {"bert.embeddings.token_type_embeddings.weight",          token_types,     -1, false},
             {"bert.embeddings.LayerNorm.gamma",                       token_embd_norm, -1, false},
             {"bert.encoder.layer.11.attention.self.query.weight",     attn_q,          11, false},
             {"bert.encoder.layer.11.attention.self.value.bias",       attn_v,          11, true },
             {"bert.encoder.layer.11.attention.output.dense.weight",   attn_output,     11, false},
             {"bert.encoder.layer.11.attention.output.LayerNorm.beta", attn_post_norm,  11, true },
             {"bert.encoder.layer.11.intermediate.dense.weight",       ffn_up,          11, false},
             {"bert.encoder.layer.11.output.dense.weight",             ffn_down,        11, false},
             {"bert.encoder.layer.11.output.LayerNorm.weight",         ffn_post_norm,   11, false},
             {"bert.pooler.dense.weight",                              other,           -1, false},
    })
        check(c);
}

TEST(HfTensorNames, MoeAndMla) {
    for (const auto& c : std::initializer_list<name_case>{
  // deepseek_v3
             {"model.layers.3.self_attn.q_a_proj.weight",             attn_q_a,           3,  false},
             {"model.layers.3.self_attn.q_a_layernorm.weight",        attn_q_a_norm,      3,  false},
             {"model.layers.3.self_attn.q_b_proj.weight",             attn_q_b,           3,  false},
             {"model.layers.3.self_attn.kv_a_proj_with_mqa.weight",   attn_kv_a,          3,  false},
             {"model.layers.3.self_attn.kv_a_layernorm.weight",       attn_kv_a_norm,     3,  false},
             {"model.layers.3.self_attn.kv_b_proj.weight",            attn_kv_b,          3,  false},
             {"model.layers.3.mlp.experts.255.gate_proj.weight",      ffn_gate_exps,      3,  false},
             {"model.layers.3.mlp.experts.0.up_proj.weight",          ffn_up_exps,        3,  false},
             {"model.layers.3.mlp.experts.17.down_proj.weight",       ffn_down_exps,      3,  false},
             {"model.layers.3.mlp.shared_experts.gate_proj.weight",   ffn_gate_shexp,     3,  false},
             {"model.layers.3.mlp.shared_experts.down_proj.weight",   ffn_down_shexp,     3,  false},
             {"model.layers.3.mlp.gate.weight",                       ffn_gate_inp,       3,  false},
             {"model.layers.3.mlp.gate.e_score_correction_bias",      ffn_gate_inp,       3,  true },
             {"model.layers.61.eh_proj.weight",                       other,              61, false}, // MTP module
  // mixtral
             {"model.layers.31.block_sparse_moe.gate.weight",         ffn_gate_inp,       31, false},
             {"model.layers.31.block_sparse_moe.experts.7.w1.weight", ffn_gate_exps,      31, false},
             {"model.layers.31.block_sparse_moe.experts.7.w2.weight", ffn_down_exps,      31, false},
             {"model.layers.31.block_sparse_moe.experts.7.w3.weight", ffn_up_exps,        31, false},
 // qwen2_moe
             {"model.layers.0.mlp.shared_expert.up_proj.weight",      ffn_up_shexp,       0,  false},
             {"model.layers.0.mlp.shared_expert_gate.weight",         ffn_gate_inp_shexp, 0,  false},
 // gpt_oss (MXFP4 blocks and scales, fused experts, router, sinks)
             {"model.layers.5.mlp.experts.gate_up_proj_blocks",       ffn_gate_up_exps,   5,  false},
             {"model.layers.5.mlp.experts.gate_up_proj_scales",       ffn_gate_up_exps,   5,  false},
             {"model.layers.5.mlp.experts.gate_up_proj_bias",         ffn_gate_up_exps,   5,  true },
             {"model.layers.5.mlp.experts.down_proj_blocks",          ffn_down_exps,      5,  false},
             {"model.layers.5.mlp.router.weight",                     ffn_gate_inp,       5,  false},
             {"model.layers.5.mlp.router.bias",                       ffn_gate_inp,       5,  true },
             {"model.layers.5.self_attn.sinks",                       attn_sinks,         5,  false},
    })
        check(c);
    EXPECT_EQ(hf_parse_tensor_name("model.layers.3.mlp.experts.255.gate_proj.weight").expert, 255);
}

TEST(HfTensorNames, QuantSideTensors) {
    for (const auto& c : std::initializer_list<name_case>{
             {"model.layers.0.self_attn.q_proj.qweight",                           attn_q,   0, false}, // GPTQ/AWQ
             {"model.layers.0.self_attn.q_proj.qzeros",                            attn_q,   0, false},
             {"model.layers.0.self_attn.q_proj.scales",                            attn_q,   0, false},
             {"model.layers.0.self_attn.q_proj.g_idx",                             attn_q,   0, false},
             {"model.layers.0.mlp.down_proj.weight_scale_inv",                     ffn_down, 0, false}, // DeepSeek-V3 FP8
             {"model.layers.0.mlp.down_proj.weight_scale",                         ffn_down, 0, false},
             {"model.layers.0.mlp.down_proj.SCB",                                  ffn_down, 0, false}, // bitsandbytes int8
             {"model.layers.0.mlp.down_proj.weight.absmax",                        ffn_down, 0, false}, // bitsandbytes 4-bit
             {"model.layers.0.mlp.down_proj.weight.quant_map",                     ffn_down, 0, false},
             {"model.layers.0.mlp.down_proj.weight.quant_state.bitsandbytes__nf4", ffn_down, 0, false},
    })
        check(c);
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.qzeros"));
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.scales"));
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.0.mlp.down_proj.weight.absmax"));
    EXPECT_TRUE(hf_is_quant_metadata("model.layers.5.mlp.experts.down_proj_scales"));
    EXPECT_FALSE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.qweight")); // the packed weight
    EXPECT_FALSE(hf_is_quant_metadata("model.layers.5.mlp.experts.down_proj_blocks"));
    EXPECT_FALSE(hf_is_quant_metadata("model.layers.0.self_attn.q_proj.weight"));
    EXPECT_EQ(hf_parse_tensor_name("model.layers.0.self_attn.q_proj.qweight").quant, hf_quant_part::packed_weight);
}

TEST(HfTensorNames, OddInputsAreOther) {
    for (const auto& c : std::initializer_list<name_case>{
             {"",                                             other, -1, false},
             {".",                                            other, -1, false},
             {".weight",                                      other, -1, false},
             {"model.layers.x.self_attn.q_proj.weight",       other, -1, false}, // not an index
             {"model.layers.9999999.self_attn.q_proj.weight", other, -1, false}, // too many digits
             {"model.layers.30.self_attn.q_proj.lora_a",      other, 30, false}, // LoRA adapter
    })
        check(c);
}

} // namespace
} // namespace llmplan

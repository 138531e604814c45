#include "model/hf_tensor_names.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace llmplan {
namespace {

using enum tensor_role;

/// A name suffix that marks a quantization side tensor; the rest of the name is the module path.
struct quant_row {
    std::string_view suffix;
    hf_quant_part part;
};

// clang-format off
// Sources: AutoGPTQ/AutoAWQ QuantLinear buffers (qweight, qzeros, scales, g_idx); compressed-tensors
// and FP8 checkpoints (weight_scale, weight_scale_inv of DeepSeek-V3, input_scale, weight_packed,
// weight_zero_point, weight_shape, weight_global_scale); bitsandbytes Int8Params (SCB, weight_format)
// and Params4bit quant_state (absmax, quant_map, nested_*, quant_state.bitsandbytes__nf4/fp4);
// gpt-oss MXFP4 experts (<name>_blocks = packed fp4 pairs, <name>_scales = e8m0 scales).
constexpr quant_row quant_suffixes[] = {
    {".qweight",                          hf_quant_part::packed_weight},
    {".weight_packed",                    hf_quant_part::packed_weight},
    {"_blocks",                           hf_quant_part::packed_weight},
    {".qzeros",                           hf_quant_part::metadata},
    {".scales",                           hf_quant_part::metadata},
    {".g_idx",                            hf_quant_part::metadata},
    {".weight_g_idx",                     hf_quant_part::metadata},
    {".weight_scale",                     hf_quant_part::metadata},
    {".weight_scale_inv",                 hf_quant_part::metadata},
    {".weight_zero_point",                hf_quant_part::metadata},
    {".weight_global_scale",              hf_quant_part::metadata},
    {".input_scale",                      hf_quant_part::metadata},
    {".input_global_scale",               hf_quant_part::metadata},
    {".weight_shape",                     hf_quant_part::metadata},
    {".SCB",                              hf_quant_part::metadata},
    {".weight_format",                    hf_quant_part::metadata},
    {".absmax",                           hf_quant_part::metadata},
    {".quant_map",                        hf_quant_part::metadata},
    {".nested_absmax",                    hf_quant_part::metadata},
    {".nested_quant_map",                 hf_quant_part::metadata},
    {"_scales",                           hf_quant_part::metadata},
};
// bitsandbytes 4-bit: "<module>.weight.quant_state.bitsandbytes__nf4" (or __fp4), prefix match below.
constexpr std::string_view bnb_quant_state = ".quant_state.bitsandbytes__";

/// Parameter suffixes: weight, bias; gamma/beta in old (TF-converted) BERT LayerNorms.
struct param_row {
    std::string_view suffix;
    bool is_bias;
};
constexpr param_row param_suffixes[] = {
    {".weight", false}, {".bias", true}, {".gamma", false}, {".beta", true},
};

/// A module path pattern (dot-separated segments, `*` = an expert index), matched at the end of the
/// path on a segment boundary; the longest matching pattern wins, so table order does not matter.
struct role_row {
    std::string_view pattern;
    tensor_role role;
    bool is_bias = false; ///< the pattern names a bias parameter itself (gpt-oss *_bias, DeepSeek-V3)
};

/// Inside a block (after `.layers.N.`), with `experts.N` rewritten to `experts.*`.
constexpr role_row layer_roles[] = {
    // attention: llama/mistral/qwen2/qwen3/gemma/starcoder2/deepseek/opt/gptj/phi/gpt-oss
    {"q_proj", attn_q}, {"k_proj", attn_k}, {"v_proj", attn_v},
    {"o_proj", attn_output}, {"out_proj", attn_output},       // out_proj: OPT, GPT-J
    {"self_attn.dense", attn_output},                          // phi (Phi-1/2)
    {"qkv_proj", attn_qkv},                                    // phi3
    {"query_key_value", attn_qkv},                             // gpt_neox, bloom, falcon
    {"attention.dense", attn_output},                          // gpt_neox
    {"self_attention.dense", attn_output},                     // bloom, falcon
    {"c_attn", attn_qkv}, {"attn.c_proj", attn_output},        // gpt2, starcoder(1), Qwen-1
    {"attn.Wqkv", attn_qkv},                                   // mpt
    {"attention.wqkv", attn_qkv}, {"attention.wo", attn_output}, // internlm2
    {"attention.self.query", attn_q}, {"attention.self.key", attn_k},  // bert
    {"attention.self.value", attn_v}, {"attention.output.dense", attn_output},
    {"attention.output.LayerNorm", attn_post_norm},            // bert (post-norm)
    {"q_norm", attn_q_norm}, {"k_norm", attn_k_norm},          // qwen3, gemma3, olmo2
    {"q_layernorm", attn_q_norm}, {"k_layernorm", attn_k_norm}, // phi (qk_layernorm), stablelm
    {"sinks", attn_sinks},                                     // gpt-oss
    // MLA (deepseek_v2/v3, minicpm3)
    {"q_a_proj", attn_q_a}, {"q_a_layernorm", attn_q_a_norm}, {"q_b_proj", attn_q_b},
    {"kv_a_proj_with_mqa", attn_kv_a}, {"kv_a_layernorm", attn_kv_a_norm}, {"kv_b_proj", attn_kv_b},
    // DeepSeek Sparse Attention's indexer (deepseek_v32, glm_moe_dsa: self_attn.indexer.*)
    {"indexer.wq_b", indexer_q_b}, {"indexer.wk", indexer_k}, {"indexer.k_norm", indexer_k_norm},
    {"indexer.weights_proj", indexer_proj},
    // norms
    {"input_layernorm", attn_norm}, {"ln_1", attn_norm}, {"ln_attn", attn_norm},
    {"attention_norm", attn_norm}, {"self_attn_layer_norm", attn_norm},
    {"post_attention_layernorm", ffn_norm},                    // Llama meaning; see hf_assign_roles
    {"ln_2", ffn_norm}, {"ln_mlp", ffn_norm}, {"ffn_norm", ffn_norm},
    {"final_layer_norm", ffn_norm},                            // OPT, inside a layer
    {"pre_feedforward_layernorm", ffn_norm},                   // gemma2/3
    {"post_feedforward_layernorm", ffn_post_norm},             // gemma2/3, olmo2
    {"output.LayerNorm", ffn_post_norm},                       // bert
    // dense FFN
    {"gate_proj", ffn_gate}, {"up_proj", ffn_up}, {"down_proj", ffn_down},
    {"gate_up_proj", ffn_up},                                  // phi3: fused [2*n_ff, n_embd] (llama.cpp: ffn_up)
    {"c_fc", ffn_up}, {"mlp.c_proj", ffn_down},                // gpt2, starcoder2, Qwen-1 (c_proj)
    {"fc_in", ffn_up}, {"fc_out", ffn_down},                   // gptj
    {"fc1", ffn_up}, {"fc2", ffn_down},                        // phi, opt
    {"dense_h_to_4h", ffn_up}, {"dense_4h_to_h", ffn_down},    // gpt_neox, bloom, falcon
    {"mlp.w1", ffn_up}, {"mlp.w2", ffn_gate},                  // Qwen-1: c_proj(w1(x) * silu(w2(x)))
    {"feed_forward.w1", ffn_gate}, {"feed_forward.w3", ffn_up}, // internlm2
    {"feed_forward.w2", ffn_down},
    {"intermediate.dense", ffn_up}, {"output.dense", ffn_down}, // bert
    // MoE routed experts, one tensor per expert
    {"experts.*.gate_proj", ffn_gate_exps}, {"experts.*.up_proj", ffn_up_exps},  // deepseek, qwen2/3_moe
    {"experts.*.down_proj", ffn_down_exps},
    {"experts.*.w1", ffn_gate_exps}, {"experts.*.w3", ffn_up_exps},              // mixtral
    {"experts.*.w2", ffn_down_exps},
    // MoE experts fused in one tensor (gpt-oss, llama4)
    {"experts.gate_up_proj", ffn_gate_up_exps}, {"experts.down_proj", ffn_down_exps},
    {"experts.gate_up_proj_bias", ffn_gate_up_exps, true}, {"experts.down_proj_bias", ffn_down_exps, true},
    // MoE routers
    {"mlp.gate", ffn_gate_inp}, {"block_sparse_moe.gate", ffn_gate_inp}, {"mlp.router", ffn_gate_inp},
    {"mlp.gate.e_score_correction_bias", ffn_gate_inp, true}, // deepseek_v3 (llama.cpp exp_probs_b)
    // shared experts
    {"shared_experts.gate_proj", ffn_gate_shexp}, {"shared_experts.up_proj", ffn_up_shexp},   // deepseek
    {"shared_experts.down_proj", ffn_down_shexp},
    {"shared_expert.gate_proj", ffn_gate_shexp}, {"shared_expert.up_proj", ffn_up_shexp},     // qwen2_moe
    {"shared_expert.down_proj", ffn_down_shexp}, {"shared_expert_gate", ffn_gate_inp_shexp},
};

/// Outside the blocks (no `.layers.N.` in the name).
constexpr role_row global_roles[] = {
    {"embed_tokens", token_embd}, {"wte", token_embd}, {"word_embeddings", token_embd},
    {"embed_in", token_embd},                                  // gpt_neox
    {"tok_embeddings", token_embd},                            // internlm2
    {"wpe", pos_embd}, {"position_embeddings", pos_embd}, {"embed_positions", pos_embd}, // gpt2, bert, opt
    {"token_type_embeddings", token_types},                    // bert
    {"word_embeddings_layernorm", token_embd_norm},            // bloom
    {"embeddings.LayerNorm", token_embd_norm},                 // bert
    {"lm_head", output}, {"embed_out", output}, {"output", output}, // -, gpt_neox, internlm2
    {"norm", output_norm}, {"ln_f", output_norm},              // llama..., gpt2/bloom/falcon/gptj/Qwen-1
    {"final_layernorm", output_norm},                          // phi
    {"final_layer_norm", output_norm},                         // gpt_neox, opt (decoder level)
};

/// Module names of non-text towers: their tensors are `other` even inside `.layers.N.`.
constexpr std::string_view non_text_segments[] = {
    "vision_tower", "vision_model", "visual", "vision_encoder", "multi_modal_projector",
    "mm_projector", "audio_tower", "audio_model", "vpm",
};

/// Segment names that precede a block index.
constexpr std::string_view block_segments[] = {"layers", "h", "layer", "blocks"};
// clang-format on

bool ends_with_segments(std::string_view path, std::string_view pattern) {
    if (!path.ends_with(pattern)) return false;
    return path.size() == pattern.size() || path[path.size() - pattern.size() - 1] == '.';
}

template <std::size_t n> const role_row* longest_match(const role_row (&table)[n], std::string_view path) {
    const role_row* best = nullptr;
    for (const auto& row : table)
        if (ends_with_segments(path, row.pattern) && (!best || row.pattern.size() > best->pattern.size())) best = &row;
    return best;
}

/// Small non-negative decimal index ("0".."999999"); -1 otherwise.
int parse_index(std::string_view s) {
    constexpr std::size_t max_digits = 6; // far above any layer/expert count, far below INT_MAX
    if (s.empty() || s.size() > max_digits) return -1;
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

std::vector<std::string_view> split_segments(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = s.find('.', start);
        out.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return out;
}

} // namespace

hf_name_info hf_parse_tensor_name(std::string_view name) {
    hf_name_info out;
    std::string_view path = name;

    // 1. quantization side tensors: strip the suffix, keep the module path
    if (const auto pos = path.find(bnb_quant_state); pos != std::string_view::npos) {
        out.quant = hf_quant_part::metadata;
        path      = path.substr(0, pos);
    } else {
        for (const auto& q : quant_suffixes)
            if (path.ends_with(q.suffix) && path.size() > q.suffix.size()) {
                out.quant = q.part;
                path.remove_suffix(q.suffix.size());
                break;
            }
    }
    // 2. parameter suffix (.weight/.bias); quant side tensors are never biases
    for (const auto& p : param_suffixes)
        if (path.ends_with(p.suffix) && path.size() > p.suffix.size()) {
            out.is_bias = p.is_bias && out.quant == hf_quant_part::none;
            path.remove_suffix(p.suffix.size());
            break;
        }

    // 3. split on the first block index; rewrite experts.N to experts.*
    const auto segs         = split_segments(path);
    std::size_t local_begin = 0;
    for (std::size_t i = 0; i < segs.size(); ++i) {
        if (std::ranges::find(non_text_segments, segs[i]) != std::end(non_text_segments))
            return hf_name_info{tensor_role::other, -1, -1, out.is_bias, out.quant};
        if (out.layer < 0 && i + 1 < segs.size() &&
            std::ranges::find(block_segments, segs[i]) != std::end(block_segments)) {
            const int idx = parse_index(segs[i + 1]);
            if (idx >= 0) {
                out.layer   = idx;
                local_begin = i + 2;
            }
        }
    }
    std::string local;
    for (std::size_t i = local_begin; i < segs.size(); ++i) {
        std::string_view seg = segs[i];
        if (i > local_begin && segs[i - 1] == "experts") {
            if (const int e = parse_index(seg); e >= 0) {
                out.expert = e;
                seg        = "*";
            }
        }
        if (!local.empty()) local += '.';
        local += seg;
    }

    const role_row* row = out.layer >= 0 ? longest_match(layer_roles, local) : longest_match(global_roles, local);
    if (row) {
        out.role = row->role;
        if (row->is_bias && out.quant == hf_quant_part::none) out.is_bias = true;
    }
    return out;
}

tensor_role hf_tensor_role(std::string_view name, int& layer, bool& is_bias) {
    const hf_name_info i = hf_parse_tensor_name(name);
    layer                = i.layer;
    is_bias              = i.is_bias;
    return i.role;
}

bool hf_is_quant_metadata(std::string_view name) {
    return hf_parse_tensor_name(name).quant == hf_quant_part::metadata;
}

void hf_assign_roles(std::vector<tensor_desc>& tensors) {
    bool has_post_ffn_norm = false;
    for (auto& t : tensors) {
        const hf_name_info i = hf_parse_tensor_name(t.name);
        t.role               = i.role;
        t.layer              = i.layer;
        t.is_bias            = i.is_bias;
        if (t.name.find("post_feedforward_layernorm") != std::string::npos) has_post_ffn_norm = true;
    }
    if (!has_post_ffn_norm) return;
    for (auto& t : tensors)
        if (t.role == tensor_role::ffn_norm && t.name.find("post_attention_layernorm") != std::string::npos)
            t.role = tensor_role::attn_post_norm;
}

} // namespace llmplan

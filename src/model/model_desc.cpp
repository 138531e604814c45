#include "llmplan/model_desc.h"

#include "detail/enum_names.h"

#include <array>

namespace llmplan {
namespace {

struct role_name_row {
    tensor_role role;
    std::string_view name; ///< GGUF base name (llama.cpp LLM_TENSOR_NAMES)
    bool linear;
    bool expert;
};

// clang-format off
constexpr std::array<role_name_row, static_cast<std::size_t>(tensor_role::count)> roles{{
    {tensor_role::token_embd,         "token_embd",         false, false},
    {tensor_role::pos_embd,           "position_embd",      false, false},
    {tensor_role::token_embd_norm,    "token_embd_norm",    false, false},
    {tensor_role::token_types,        "token_types",        false, false},
    {tensor_role::output_norm,        "output_norm",        false, false},
    {tensor_role::output,             "output",             true,  false},
    {tensor_role::attn_norm,          "attn_norm",          false, false},
    {tensor_role::attn_q,             "attn_q",             true,  false},
    {tensor_role::attn_k,             "attn_k",             true,  false},
    {tensor_role::attn_v,             "attn_v",             true,  false},
    {tensor_role::attn_qkv,           "attn_qkv",           true,  false},
    {tensor_role::attn_output,        "attn_output",        true,  false},
    {tensor_role::attn_q_norm,        "attn_q_norm",        false, false},
    {tensor_role::attn_k_norm,        "attn_k_norm",        false, false},
    {tensor_role::attn_q_a,           "attn_q_a",           true,  false},
    {tensor_role::attn_q_a_norm,      "attn_q_a_norm",      false, false},
    {tensor_role::attn_q_b,           "attn_q_b",           true,  false},
    {tensor_role::attn_kv_a,          "attn_kv_a_mqa",      true,  false},
    {tensor_role::attn_kv_a_norm,     "attn_kv_a_norm",     false, false},
    {tensor_role::attn_kv_b,          "attn_kv_b",          true,  false},
    {tensor_role::attn_sinks,         "attn_sinks",         false, false},
    {tensor_role::attn_post_norm,     "post_attention_norm", false, false},
    {tensor_role::ffn_norm,           "ffn_norm",           false, false},
    {tensor_role::ffn_post_norm,      "post_ffw_norm",      false, false},
    {tensor_role::ffn_gate,           "ffn_gate",           true,  false},
    {tensor_role::ffn_up,             "ffn_up",             true,  false},
    {tensor_role::ffn_down,           "ffn_down",           true,  false},
    {tensor_role::ffn_gate_inp,       "ffn_gate_inp",       true,  false},
    {tensor_role::ffn_gate_exps,      "ffn_gate_exps",      true,  true},
    {tensor_role::ffn_up_exps,        "ffn_up_exps",        true,  true},
    {tensor_role::ffn_down_exps,      "ffn_down_exps",      true,  true},
    {tensor_role::ffn_gate_up_exps,   "ffn_gate_up_exps",   true,  true},
    {tensor_role::ffn_gate_shexp,     "ffn_gate_shexp",     true,  false},
    {tensor_role::ffn_up_shexp,       "ffn_up_shexp",       true,  false},
    {tensor_role::ffn_down_shexp,     "ffn_down_shexp",     true,  false},
    {tensor_role::ffn_gate_inp_shexp, "ffn_gate_inp_shexp", false, false},
    {tensor_role::ssm_in,             "ssm_in",             true,  false},
    {tensor_role::ssm_ba,             "ssm_ba",             true,  false},
    {tensor_role::ssm_conv1d,         "ssm_conv1d",         false, false},
    {tensor_role::ssm_dt,             "ssm_dt",             false, false},
    {tensor_role::ssm_a,              "ssm_a",              false, false},
    {tensor_role::ssm_norm,           "ssm_norm",           false, false},
    {tensor_role::ssm_out,            "ssm_out",            true,  false},
    {tensor_role::ssm_x,              "ssm_x",              false, false},
    {tensor_role::ssm_d,              "ssm_d",              false, false},
    {tensor_role::ssm_dt_norm,        "ssm_dt_norm",        false, false},
    {tensor_role::ssm_b_norm,         "ssm_b_norm",         false, false},
    {tensor_role::ssm_c_norm,         "ssm_c_norm",         false, false},
    {tensor_role::per_layer_token_embd, "per_layer_token_embd", false, false},
    // llama.cpp LLM_TENSOR_NAMES "blk.%d.indexer.*". weights_proj stays out of the FP8 checkpoints
    // (vLLM deepseek_v2.py Indexer: "weights_proj is not quantized"), so it is not a quantized linear.
    {tensor_role::indexer_q_b,        "indexer.attn_q_b",   true,  false},
    {tensor_role::indexer_k,          "indexer.attn_k",     true,  false},
    {tensor_role::indexer_k_norm,     "indexer.k_norm",     false, false},
    {tensor_role::indexer_proj,       "indexer.proj",       false, false},
    {tensor_role::other,              "other",              false, false},
}};
// clang-format on

static_assert(detail::rows_in_enum_order(roles, &role_name_row::role), "role table rows must follow the enum order");

} // namespace

std::string_view role_name(tensor_role r) {
    return roles[static_cast<std::size_t>(r)].name;
}
bool is_linear(tensor_role r) {
    return roles[static_cast<std::size_t>(r)].linear;
}
bool is_expert(tensor_role r) {
    return roles[static_cast<std::size_t>(r)].expert;
}

std::string_view mixer_name(layer_desc::recurrent_state::mixer k) {
    using mixer = layer_desc::recurrent_state::mixer;
    return k == mixer::mamba1 ? "mamba" : k == mixer::mamba2 ? "mamba2" : "gated_delta";
}

std::string_view attn_kind_name(attn_kind k) {
    // In attn_kind's order (llmplan/model_desc.h); a value cast from a bad integer has no name.
    static constexpr std::array<std::string_view, 5> names{"mha", "gqa", "mqa", "mla", "none"};
    const auto i = static_cast<std::size_t>(k);
    return i < names.size() ? names[i] : "?";
}

std::uint64_t tensor_desc::n_elements() const {
    std::uint64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

const layer_desc& model_desc::typical_layer() const {
    static const layer_desc empty{};
    for (const auto& l : layers)
        if (l.has_kv()) return l;
    return layers.empty() ? empty : layers.front();
}

std::string model_desc::weights_type_name() const {
    return weights_type.empty() ? std::string(name(torch_dtype)) : weights_type;
}

param_counts count_params(const model_desc& m) {
    param_counts c;
    for (const auto& t : m.tensors) {
        const std::uint64_t n = t.n_elements();
        c.total += n;
        if (t.role == tensor_role::token_embd || t.role == tensor_role::pos_embd ||
            t.role == tensor_role::per_layer_token_embd)
            c.embedding += n;
        if (is_expert(t.role) && m.moe.n_expert > 0)
            c.active += n / m.moe.n_expert * m.moe.n_expert_used;
        else
            c.active += n;
    }
    return c;
}

std::uint64_t weights_bytes(const model_desc& m) {
    std::uint64_t b = 0;
    for (const auto& t : m.tensors)
        b += t.bytes;
    return b;
}

} // namespace llmplan

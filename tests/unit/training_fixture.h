// Hand-built model descriptions for the training tests: a llama-like decoder with the tensors
// transformers would hold (names GGUF-style, shapes [out, in], bf16).
#pragma once

#include "llmplan/model_desc.h"

#include <string>

namespace llmplan::test {

struct llama_dims {
    std::uint32_t n_layer   = 2;
    std::uint64_t n_embd    = 64;
    std::uint32_t n_head    = 4;
    std::uint32_t n_head_kv = 2;
    std::uint64_t n_ff      = 128;
    std::uint64_t n_vocab   = 100;
    bool tied               = false;
    bool fused_qkv          = false; ///< one attn_qkv tensor with a bias (Qwen-1's c_attn)
};

inline tensor_desc make_tensor(std::string name, tensor_role role, int layer, std::vector<std::uint64_t> shape,
                               bool bias = false) {
    tensor_desc t;
    t.name    = std::move(name);
    t.role    = role;
    t.layer   = layer;
    t.shape   = std::move(shape);
    t.type    = dtype::bf16;
    t.bytes   = t.n_elements() * 2;
    t.is_bias = bias;
    return t;
}

inline model_desc make_llama(const llama_dims& d, std::string arch = "llama") {
    model_desc m;
    m.id                    = arch + "-test";
    m.arch                  = std::move(arch);
    m.n_layer               = d.n_layer;
    m.n_embd                = d.n_embd;
    m.n_vocab               = d.n_vocab;
    m.tied_embd             = d.tied;
    m.fused_qkv             = d.fused_qkv;
    const std::uint64_t hd  = d.n_embd / d.n_head;
    const std::uint64_t q_w = hd * d.n_head;
    const std::uint64_t kv  = hd * d.n_head_kv;
    m.tensors.push_back(make_tensor("token_embd.weight", tensor_role::token_embd, -1, {d.n_vocab, d.n_embd}));
    for (std::uint32_t i = 0; i < d.n_layer; ++i) {
        layer_desc l;
        l.attn       = d.n_head_kv == d.n_head ? attn_kind::mha : attn_kind::gqa;
        l.n_head     = d.n_head;
        l.n_head_kv  = d.n_head_kv;
        l.head_dim_k = static_cast<std::uint32_t>(hd);
        l.head_dim_v = static_cast<std::uint32_t>(hd);
        l.n_ff       = d.n_ff;
        m.layers.push_back(l);
        const int li        = static_cast<int>(i);
        const std::string p = "blk." + std::to_string(i) + ".";
        m.tensors.push_back(make_tensor(p + "attn_norm.weight", tensor_role::attn_norm, li, {d.n_embd}));
        if (d.fused_qkv) {
            m.tensors.push_back(
                make_tensor(p + "attn_qkv.weight", tensor_role::attn_qkv, li, {q_w + 2 * kv, d.n_embd}));
            m.tensors.push_back(make_tensor(p + "attn_qkv.bias", tensor_role::attn_qkv, li, {q_w + 2 * kv}, true));
        } else {
            m.tensors.push_back(make_tensor(p + "attn_q.weight", tensor_role::attn_q, li, {q_w, d.n_embd}));
            m.tensors.push_back(make_tensor(p + "attn_k.weight", tensor_role::attn_k, li, {kv, d.n_embd}));
            m.tensors.push_back(make_tensor(p + "attn_v.weight", tensor_role::attn_v, li, {kv, d.n_embd}));
        }
        m.tensors.push_back(make_tensor(p + "attn_output.weight", tensor_role::attn_output, li, {d.n_embd, q_w}));
        m.tensors.push_back(make_tensor(p + "ffn_norm.weight", tensor_role::ffn_norm, li, {d.n_embd}));
        m.tensors.push_back(make_tensor(p + "ffn_gate.weight", tensor_role::ffn_gate, li, {d.n_ff, d.n_embd}));
        m.tensors.push_back(make_tensor(p + "ffn_up.weight", tensor_role::ffn_up, li, {d.n_ff, d.n_embd}));
        m.tensors.push_back(make_tensor(p + "ffn_down.weight", tensor_role::ffn_down, li, {d.n_embd, d.n_ff}));
    }
    m.tensors.push_back(make_tensor("output_norm.weight", tensor_role::output_norm, -1, {d.n_embd}));
    if (!d.tied) m.tensors.push_back(make_tensor("output.weight", tensor_role::output, -1, {d.n_vocab, d.n_embd}));
    m.source = weights_source::formula;
    return m;
}

} // namespace llmplan::test

// The weight tensors an architecture implies: the module lists of each family's modeling code,
// written once over per-layer facts (attention kind, FFN kind, biases, norms), never per family name.
#include "model/arch_tensors.h"

#include <fmt/format.h>

namespace llmplan {
namespace {

class builder {
  public:
    explicit builder(model_desc& m) : m_(m) {}

    void add(tensor_role role, int layer, std::vector<std::uint64_t> shape, bool bias = false) {
        tensor_desc t;
        t.role    = role;
        t.layer   = layer;
        t.shape   = std::move(shape);
        t.is_bias = bias;
        // 1-D tensors (norms, biases) are kept in the checkpoint dtype too; quantized formats decide later.
        t.type  = m_.torch_dtype;
        t.bytes = tensor_bytes_ceil(t.type, t.n_elements());
        t.name  = layer < 0 ? fmt::format("{}.{}", role_name(role), bias ? "bias" : "weight")
                            : fmt::format("blk.{}.{}.{}", layer, role_name(role), bias ? "bias" : "weight");
        m_.tensors.push_back(std::move(t));
    }
    /// A linear layer [out, in] with an optional bias [out] (experts: [n, out, in] and [n, out]).
    void linear(tensor_role role, int layer, std::uint64_t out, std::uint64_t in, bool bias, std::uint64_t n = 0) {
        if (n)
            add(role, layer, {n, out, in});
        else
            add(role, layer, {out, in});
        if (bias) {
            if (n)
                add(role, layer, {n, out}, true);
            else
                add(role, layer, {out}, true);
        }
    }
    void norm(tensor_role role, int layer, std::uint64_t width) {
        add(role, layer, {width});
        if (m_.norm_bias) add(role, layer, {width}, true);
    }

  private:
    model_desc& m_;
};

/// A Gated DeltaNet mixer (transformers modeling_qwen3_next.py Qwen3NextGatedDeltaNet): in_proj_qkvz
/// [2 key_dim + 2 value_dim, e], in_proj_ba [2 v_heads, e], conv1d [conv_dim, 1, kernel] without bias,
/// dt_bias and A_log [v_heads], a gated RMSNorm over one value head, out_proj [e, value_dim].
void linear_attention(builder& b, const model_desc& m, const layer_desc& l, int il) {
    const auto& r               = l.recurrent;
    const std::uint64_t e       = m.n_embd;
    const std::uint64_t value   = r.value_width;
    const std::uint64_t key_dim = r.conv_channels > value ? (r.conv_channels - value) / 2 : 0;
    b.linear(tensor_role::ssm_in, il, 2 * key_dim + 2 * value, e, false);
    b.linear(tensor_role::ssm_ba, il, 2 * std::uint64_t{r.v_heads}, e, false);
    b.add(tensor_role::ssm_conv1d, il, {r.conv_channels, 1, r.conv_kernel});
    b.add(tensor_role::ssm_dt, il, {r.v_heads}, true);
    b.add(tensor_role::ssm_a, il, {r.v_heads});
    b.add(tensor_role::ssm_norm, il, {r.v_heads ? value / r.v_heads : 0});
    b.linear(tensor_role::ssm_out, il, e, value, false);
}

/// A Mamba mixer (see model/state_space.cpp for the module lists): Mamba1 with x_proj and dt_proj,
/// Mamba2 with per-head dt_bias / A_log / D and a gated norm over d_inner.
void mamba_mixer(builder& b, const model_desc& m, const layer_desc& l, int il) {
    const auto& r             = l.recurrent;
    const std::uint64_t e     = m.n_embd;
    const std::uint64_t inner = r.value_width;
    const bool mamba2         = r.kind == layer_desc::recurrent_state::mixer::mamba2;
    // in_proj: x and the gate z (Mamba1); z, x, B, C and dt per head (Mamba2).
    b.linear(tensor_role::ssm_in, il, mamba2 ? inner + r.conv_channels + r.v_heads : 2 * inner, e, r.proj_bias);
    b.add(tensor_role::ssm_conv1d, il, {r.conv_channels, 1, r.conv_kernel});
    if (r.conv_bias) b.add(tensor_role::ssm_conv1d, il, {r.conv_channels}, true);
    if (mamba2) {
        b.add(tensor_role::ssm_dt, il, {r.v_heads}, true);
        b.add(tensor_role::ssm_a, il, {r.v_heads});
        b.add(tensor_role::ssm_d, il, {r.v_heads});
        if (r.gated_norm) b.add(tensor_role::ssm_norm, il, {inner});
    } else {
        b.linear(tensor_role::ssm_x, il, std::uint64_t{r.dt_rank} + 2 * r.d_state, inner, false);
        b.linear(tensor_role::ssm_dt, il, inner, r.dt_rank, true);
        b.add(tensor_role::ssm_a, il, {inner, r.d_state});
        b.add(tensor_role::ssm_d, il, {inner});
        if (r.bcdt_norms) {
            b.add(tensor_role::ssm_dt_norm, il, {r.dt_rank});
            b.add(tensor_role::ssm_b_norm, il, {r.d_state});
            b.add(tensor_role::ssm_c_norm, il, {r.d_state});
        }
    }
    b.linear(tensor_role::ssm_out, il, e, inner, r.proj_bias);
}

void attention(builder& b, const model_desc& m, const layer_desc& l, int il) {
    const std::uint64_t e = m.n_embd;
    if (l.compressed.ratio) return; // DeepSeek-V4: extra_weights (model/arch/compressed_attention.cpp)
    if (l.has_state()) {
        if (l.recurrent.kind == layer_desc::recurrent_state::mixer::gated_delta)
            linear_attention(b, m, l, il);
        else
            mamba_mixer(b, m, l, il);
    }
    if (l.attn == attn_kind::none) {
        if (l.attn_linear) b.linear(tensor_role::attn_output, il, e, e, false);
        return;
    }
    const std::uint64_t q_out = std::uint64_t{l.n_head} * l.head_dim_k;
    const std::uint64_t k_out = std::uint64_t{l.n_head_kv} * l.head_dim_k;
    const std::uint64_t v_out = std::uint64_t{l.n_head_kv} * l.head_dim_v;
    const std::uint64_t o_in  = std::uint64_t{l.n_head} * l.head_dim_v;
    if (l.attn == attn_kind::mla) {
        const auto& a   = m.mla;
        const auto rope = a.qk_rope_head_dim;
        if (a.q_lora_rank > 0) {
            b.linear(tensor_role::attn_q_a, il, a.q_lora_rank, e, false);
            b.add(tensor_role::attn_q_a_norm, il, {a.q_lora_rank});
            b.linear(tensor_role::attn_q_b, il, q_out, a.q_lora_rank, false);
        } else {
            b.linear(tensor_role::attn_q, il, q_out, e, false);
        }
        b.linear(tensor_role::attn_kv_a, il, std::uint64_t{a.kv_lora_rank} + rope, e, false);
        b.add(tensor_role::attn_kv_a_norm, il, {a.kv_lora_rank});
        b.linear(tensor_role::attn_kv_b, il, std::uint64_t{l.n_head} * (a.qk_nope_head_dim + a.v_head_dim),
                 a.kv_lora_rank, false);
        if (l.indexer) { // DeepSeek Sparse Attention's lightning indexer (model/arch/dsa_indexer.cpp)
            const std::uint64_t d = a.index_head_dim;
            b.linear(tensor_role::indexer_q_b, il, std::uint64_t{a.index_n_heads} * d, a.q_lora_rank, false);
            b.linear(tensor_role::indexer_k, il, d, e, false);
            b.add(tensor_role::indexer_k_norm, il, {d});       // LayerNorm weight
            b.add(tensor_role::indexer_k_norm, il, {d}, true); // ... and bias
            b.linear(tensor_role::indexer_proj, il, a.index_n_heads, e, false);
        }
    } else if (m.fused_qkv) {
        b.linear(tensor_role::attn_qkv, il, q_out + k_out + v_out, e, m.attn_qkv_bias);
    } else {
        // Qwen3NextAttention: q_proj yields the queries and a sigmoid gate per head (2x rows).
        b.linear(tensor_role::attn_q, il, m.attn_output_gate ? 2 * q_out : q_out, e, m.attn_qkv_bias);
        // Gemma 4: a layer sharing an earlier layer's KV has no k/v projections; K=V layers no v_proj.
        if (!l.kv_weights_dropped) b.linear(tensor_role::attn_k, il, k_out, e, m.attn_qkv_bias);
        if (!l.kv_weights_dropped && !l.v_from_k) b.linear(tensor_role::attn_v, il, v_out, e, m.attn_qkv_bias);
    }
    b.linear(tensor_role::attn_output, il, e, o_in, m.attn_out_bias);
    if (m.qk_norm) {
        b.add(tensor_role::attn_q_norm, il, {m.qk_norm_full ? q_out : l.head_dim_k});
        if (!l.kv_weights_dropped) b.add(tensor_role::attn_k_norm, il, {m.qk_norm_full ? k_out : l.head_dim_k});
    }
    if (m.attn_sinks) b.add(tensor_role::attn_sinks, il, {l.n_head});
}

void feed_forward(builder& b, const model_desc& m, const layer_desc& l, int il) {
    const std::uint64_t e = m.n_embd;
    if (l.is_moe) {
        const auto& x = m.moe;
        const auto n  = std::uint64_t{x.n_expert};
        b.linear(tensor_role::ffn_gate_inp, il, n, e, x.router_bias);
        if (x.score_bias) b.add(tensor_role::other, il, {n}, true); // e_score_correction_bias
        if (x.fused_gate_up) {
            b.linear(tensor_role::ffn_gate_up_exps, il, 2 * x.n_ff_expert, e, x.expert_bias, n);
        } else {
            if (!x.plain_experts) b.linear(tensor_role::ffn_gate_exps, il, x.n_ff_expert, e, x.expert_bias, n);
            b.linear(tensor_role::ffn_up_exps, il, x.n_ff_expert, e, x.expert_bias, n);
        }
        b.linear(tensor_role::ffn_down_exps, il, e, x.n_ff_expert, x.expert_bias, n);
        if (x.n_ff_shexp > 0) {
            if (!x.plain_experts) b.linear(tensor_role::ffn_gate_shexp, il, x.n_ff_shexp, e, false);
            b.linear(tensor_role::ffn_up_shexp, il, x.n_ff_shexp, e, false);
            b.linear(tensor_role::ffn_down_shexp, il, e, x.n_ff_shexp, false);
            if (x.shexp_gate) b.add(tensor_role::ffn_gate_inp_shexp, il, {1, e});
        }
        return;
    }
    if (l.n_ff == 0) {
        if (l.ffn_linear) b.linear(tensor_role::ffn_down, il, e, e, false);
        return;
    }
    if (m.ffn == ffn_kind::plain) {
        b.linear(tensor_role::ffn_up, il, l.n_ff, e, m.ffn_bias);
    } else if (m.fused_gate_up) {
        b.linear(tensor_role::ffn_up, il, 2 * l.n_ff, e, m.ffn_bias); // Phi-3 gate_up_proj
    } else {
        b.linear(tensor_role::ffn_gate, il, l.n_ff, e, m.ffn_bias);
        b.linear(tensor_role::ffn_up, il, l.n_ff, e, m.ffn_bias);
    }
    b.linear(tensor_role::ffn_down, il, e, l.n_ff, m.ffn_bias);
}

/// One T5Block (modeling_t5.py), named as llama.cpp's T5 tensors are ("enc.blk.N.attn_q",
/// "dec.blk.N.cross_attn_q"; N counts within the stack): self-attention with its norm, the first
/// layer of each stack also holding the relative attention bias table [buckets, n_head]; in the
/// decoder a cross-attention block (norm, q, k, v, o over the encoder's output); then the FFN with
/// its norm. `layer` stays the index in m.layers so per-layer sums see every block.
void encoder_decoder_layer(builder& b, model_desc& m, const layer_desc& l, std::uint32_t i) {
    const std::uint64_t e     = m.n_embd;
    const int il              = static_cast<int>(i);
    const bool dec            = !l.in_encoder;
    const std::uint32_t local = dec ? i - m.n_layer_enc : i;
    const std::size_t first   = m.tensors.size();
    b.norm(tensor_role::attn_norm, il, e);
    attention(b, m, l, il);
    if (local == 0 && m.rel_attn_buckets > 0) {
        b.add(tensor_role::other, il, {m.rel_attn_buckets, l.n_head});
        m.tensors.back().name = fmt::format("blk.{}.attn_rel_b.weight", il);
    }
    const std::size_t cross = m.tensors.size();
    if (l.cross_attn) {
        b.norm(tensor_role::attn_norm, il, e);
        attention(b, m, l, il);
    }
    const std::size_t ffn = m.tensors.size();
    b.norm(tensor_role::ffn_norm, il, e);
    feed_forward(b, m, l, il);
    const std::string from = fmt::format("blk.{}.", il);
    const std::string to   = fmt::format("{}.blk.{}.", dec ? "dec" : "enc", local);
    for (std::size_t t = first; t < m.tensors.size(); ++t) {
        auto& name = m.tensors[t].name;
        name       = to + (t >= cross && t < ffn ? "cross_" : "") + name.substr(from.size());
    }
}

} // namespace

void generate_tensors(model_desc& m) {
    m.tensors.clear();
    builder b(m);
    const std::uint64_t e = m.n_embd;
    b.add(tensor_role::token_embd, -1, {m.n_vocab, e});
    if (m.pos == pos_kind::learned && m.n_pos_embd > 0) b.add(tensor_role::pos_embd, -1, {m.n_pos_embd, e});
    if (m.n_token_types > 0) b.add(tensor_role::token_types, -1, {m.n_token_types, e});
    if (m.embd_norm) b.norm(tensor_role::token_embd_norm, -1, e);

    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const auto& l = m.layers[i];
        const int il  = static_cast<int>(i);
        if (m.is_encoder_decoder()) {
            encoder_decoder_layer(b, m, l, i);
            continue;
        }
        // Norms per layer: 1 (parallel block), 2 (pre-attention, pre-FFN), 4 (Gemma sandwich).
        // DeciLM drops the norm of a no-op sub-block.
        const bool attn_present = l.has_kv() || l.attn_linear || l.has_state();
        const bool ffn_present  = l.is_moe || l.n_ff > 0 || l.ffn_linear;
        if (attn_present || m.n_norm_per_layer == 1) b.norm(tensor_role::attn_norm, il, e);
        attention(b, m, l, il);
        if (m.n_norm_per_layer == 4) b.norm(tensor_role::attn_post_norm, il, e);
        if (m.n_norm_per_layer >= 2 && ffn_present) b.norm(tensor_role::ffn_norm, il, e);
        feed_forward(b, m, l, il);
        if (m.n_norm_per_layer == 4) b.norm(tensor_role::ffn_post_norm, il, e);
    }
    if (m.pooler) b.linear(tensor_role::other, -1, e, e, true); // BertPooler dense
    // Each T5Stack ends in its own final_layer_norm.
    if (m.is_encoder_decoder()) {
        b.norm(tensor_role::output_norm, -1, e);
        m.tensors.back().name = "enc.output_norm.weight";
        b.norm(tensor_role::output_norm, -1, e);
        m.tensors.back().name = "dec.output_norm.weight";
    } else if (m.has_output_norm && !m.is_encoder) {
        b.norm(tensor_role::output_norm, -1, e);
    }
    if (!m.tied_embd) b.linear(tensor_role::output, -1, m.n_vocab, e, m.output_bias);
    // Family weights beyond the common block (model/gemma_ple.cpp), under their own names.
    for (const auto& x : m.extra_weights) {
        b.add(x.role, x.layer, x.shape);
        m.tensors.back().name = x.name;
    }
}

} // namespace llmplan

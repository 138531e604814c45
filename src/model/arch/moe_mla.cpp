// MoE and MLA families: which layers are sparse, expert sizes, shared experts, latent attention.
// Sources: modeling_mixtral.py, modeling_qwen2_moe.py, modeling_qwen3_moe.py, modeling_deepseek.py
// (DeepSeek-V2/V3 remote code), modeling_gpt_oss.py, modeling_llama4.py, modeling_glm4_moe.py in
// huggingface/transformers.
#include "model/arch_tensors.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using json = nlohmann::json;

std::uint64_t get_u(const json& j, std::initializer_list<const char*> keys, std::uint64_t fallback) {
    for (const char* k : keys) {
        auto it = j.find(k);
        if (it != j.end() && it->is_number_integer() && it->get<std::int64_t>() >= 0) return it->get<std::uint64_t>();
    }
    return fallback;
}

bool in_list(const json& j, const char* key, std::uint32_t i) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return false;
    return std::any_of(it->begin(), it->end(),
                       [&](const json& v) { return v.is_number_integer() && v.get<std::int64_t>() == i; });
}

} // namespace

status fill_moe(model_desc& m, const json& cfg, const detail::arch_row& row, std::string_view path) {
    using detail::moe_style;
    if (row.moe == moe_style::none) return ok();
    auto& moe    = m.moe;
    moe.n_expert = static_cast<std::uint32_t>(get_u(cfg, {"num_local_experts", "num_experts", "n_routed_experts"}, 0));
    moe.n_expert_used   = static_cast<std::uint32_t>(get_u(cfg, {"num_experts_per_tok", "experts_per_token"}, 0));
    const auto dense_ff = get_u(cfg, {"intermediate_size"}, 0);
    if (moe.n_expert == 0 || moe.n_expert_used == 0 || moe.n_expert_used > moe.n_expert)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("MoE with {} experts and {} used per token; expected 0 < used <= experts",
                                      moe.n_expert, moe.n_expert_used),
                          fmt::format("{}:/num_experts_per_tok", path));

    switch (row.moe) {
    case moe_style::mixtral:
        moe.n_ff_expert = dense_ff; // MixtralBlockSparseTop2MLP uses intermediate_size
        for (auto& l : m.layers)
            l.is_moe = true;
        break;
    case moe_style::gpt_oss:
        moe.n_ff_expert   = dense_ff; // GptOssExperts: expert_dim = intermediate_size
        moe.router_bias   = true;     // GptOssTopKRouter has a bias
        moe.expert_bias   = true;     // gate_up_proj_bias, down_proj_bias
        moe.fused_gate_up = true;     // gate_up_proj [n_expert, n_embd, 2 * expert_dim]
        m.attn_sinks      = true;     // GptOssAttention.sinks [n_head]
        for (auto& l : m.layers)
            l.is_moe = true;
        break;
    case moe_style::llama4: {
        // Llama4TextMoe: Llama4TextExperts (gate_up_proj [n_expert, n_embd, 2 * intermediate_size]),
        // a router without bias, and shared_expert = Llama4TextMLP(intermediate_size).
        moe.n_ff_expert     = dense_ff;
        moe.n_expert_shared = 1;
        moe.n_ff_shexp      = dense_ff;
        moe.fused_gate_up   = true;
        // Llama4TextConfig: moe_layers defaults to range(step - 1, n_layer, step), step = interleave_moe_layer_step.
        const auto step   = std::max<std::uint64_t>(1, get_u(cfg, {"interleave_moe_layer_step"}, 1));
        const auto mlp_ff = get_u(cfg, {"intermediate_size_mlp"}, dense_ff);
        const bool listed = cfg.contains("moe_layers") && cfg["moe_layers"].is_array();
        for (std::uint32_t i = 0; i < m.n_layer; ++i) {
            auto& l  = m.layers[i];
            l.is_moe = listed ? in_list(cfg, "moe_layers", i) : (i + 1) % step == 0;
            l.n_ff   = l.is_moe ? 0 : mlp_ff;
        }
        break;
    }
    case moe_style::qwen2_moe:
    case moe_style::qwen3_moe: {
        moe.n_ff_expert = get_u(cfg, {"moe_intermediate_size"}, 0);
        if (row.moe == moe_style::qwen2_moe) {
            moe.n_ff_shexp      = get_u(cfg, {"shared_expert_intermediate_size"}, 0);
            moe.n_expert_shared = moe.n_ff_shexp > 0 ? 1 : 0;
            moe.shexp_gate      = moe.n_ff_shexp > 0; // shared_expert_gate: Linear(n_embd, 1)
        }
        // Qwen2MoeDecoderLayer: sparse when not in mlp_only_layers and (i + 1) % decoder_sparse_step == 0.
        const auto step = std::max<std::uint64_t>(1, get_u(cfg, {"decoder_sparse_step"}, 1));
        for (std::uint32_t i = 0; i < m.n_layer; ++i) {
            auto& l  = m.layers[i];
            l.is_moe = !in_list(cfg, "mlp_only_layers", i) && (i + 1) % step == 0;
            if (l.is_moe) l.n_ff = 0;
        }
        break;
    }
    case moe_style::deepseek:
    case moe_style::glm4_moe: {
        moe.n_ff_expert     = get_u(cfg, {"moe_intermediate_size"}, 0);
        moe.n_expert_shared = static_cast<std::uint32_t>(get_u(cfg, {"n_shared_experts"}, 0));
        moe.n_ff_shexp      = moe.n_ff_expert * moe.n_expert_shared; // DeepseekV2MoE: one MLP of width n * moe_ff
        // e_score_correction_bias: DeepSeek's remote code keeps it for noaux_tc; Glm4MoeTopkRouter always.
        auto method    = cfg.find("topk_method");
        moe.score_bias = row.moe == moe_style::glm4_moe || row.quirks.score_bias_always ||
                         (method != cfg.end() && method->is_string() && method->get<std::string>() == "noaux_tc");
        // DeepseekV2DecoderLayer: MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0.
        const auto first_dense = get_u(cfg, {"first_k_dense_replace"}, 0);
        const auto freq        = std::max<std::uint64_t>(1, get_u(cfg, {"moe_layer_freq"}, 1));
        for (std::uint32_t i = 0; i < m.n_layer; ++i) {
            auto& l  = m.layers[i];
            l.is_moe = i >= first_dense && i % freq == 0;
            if (l.is_moe) l.n_ff = 0;
        }
        if (get_u(cfg, {"num_nextn_predict_layers"}, 0) > 0)
            m.notes.push_back("multi-token-prediction layers (num_nextn_predict_layers) are not counted: inference "
                              "engines do not load them by default");
        if (row.moe == moe_style::glm4_moe) break; // grouped-query attention, read by the common reader
        auto& mla            = m.mla;
        mla.q_lora_rank      = static_cast<std::uint32_t>(get_u(cfg, {"q_lora_rank"}, 0));
        mla.kv_lora_rank     = static_cast<std::uint32_t>(get_u(cfg, {"kv_lora_rank"}, 0));
        mla.qk_nope_head_dim = static_cast<std::uint32_t>(get_u(cfg, {"qk_nope_head_dim"}, 0));
        mla.qk_rope_head_dim = static_cast<std::uint32_t>(get_u(cfg, {"qk_rope_head_dim"}, 0));
        mla.v_head_dim       = static_cast<std::uint32_t>(get_u(cfg, {"v_head_dim"}, 0));
        if (mla.kv_lora_rank == 0 || mla.qk_nope_head_dim + mla.qk_rope_head_dim == 0 || mla.v_head_dim == 0)
            return make_error(error_code::missing_field,
                              "MLA needs kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and v_head_dim",
                              fmt::format("{}:/kv_lora_rank", path));
        for (auto& l : m.layers) {
            l.attn       = attn_kind::mla;
            l.n_head_kv  = l.n_head; // each head has its own K/V once decompressed
            l.head_dim_k = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
            l.head_dim_v = mla.v_head_dim;
        }
        break;
    }
    case moe_style::none:
        break;
    }
    // MiniMax-M2 (MiniMaxM2SparseMoeBlock): e_score_correction_bias [n_expert] when use_routing_bias.
    if (auto it = cfg.find("use_routing_bias"); it != cfg.end() && it->is_boolean() && it->get<bool>())
        moe.score_bias = true;
    if (moe.n_ff_expert == 0)
        return make_error(error_code::missing_field, "no expert width (moe_intermediate_size / intermediate_size)",
                          fmt::format("{}:/moe_intermediate_size", path));
    return ok();
}

} // namespace llmplan

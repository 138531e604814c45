// Two attention shapes in one stack, and MoE layers listed one by one: the keys of Xiaomi's
// MiMo-V2-Flash (model_type mimo_v2_flash) and MiniMax-M3's moe_layer_freq.
//
// MiMo-V2-Flash (XiaomiMiMo remote code, the same module list in vllm-project/vllm
// vllm/model_executor/models/mimo_v2_flash.py, commit 01ed47b4, and transformers
// modeling_mimo_v2_flash.py):
//   hybrid_layer_pattern[i] == 1: a sliding-window layer (MiMoV2FlashDecoderLayer
//     is_compressed_softmax_layer) of swa_num_attention_heads / swa_num_key_value_heads heads,
//     swa_head_dim for q and k, swa_v_head_dim for v, window sliding_window_size, and, when
//     add_swa_attention_sink_bias, a learned sink logit per query head (attention_sink_bias [n_head]);
//   0: full attention of num_attention_heads / num_key_value_heads, head_dim for q and k, v_head_dim
//     for v (sinks when add_full_attention_sink_bias);
//   q, k and v are separate projections, o_proj reads n_head x v_head_dim.
//   moe_layer_freq is a list, one 0/1 a layer (MiMoV2FlashDecoderLayer.is_moe_layer): 1 = the MoE
//   block, 0 = the dense MLP of intermediate_size.
// Engines cache K and V at their own widths: vLLM's FlashAttentionDiffKVBackend (head_size_v), llama.cpp's
// n_embd_head_k / n_embd_head_v with per-layer n_head_kv (LLM_ARCH_MIMO2).
#include "model/arch_tensors.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using nlohmann::json;

/// A size key: absent or null -> fallback; present, a whole number from 1 to 2^20.
result<std::uint32_t> size_or(const json& cfg, const char* key, std::uint32_t fallback, std::string_view path) {
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null()) return fallback;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > (1 << 20))
        return make_error(error_code::bad_value, fmt::format("{}; expected a size from 1 to 1048576", it->dump()),
                          fmt::format("{}:/{}", path, key));
    return static_cast<std::uint32_t>(it->get<std::int64_t>());
}

/// A per-layer 0/1 list of n_layer entries, or nullptr when the key is absent or not a list.
result<const json*> layer_flags(const json& cfg, const char* key, std::uint32_t n_layer, std::string_view path) {
    auto it = cfg.find(key);
    if (it == cfg.end() || !it->is_array()) return static_cast<const json*>(nullptr);
    if (it->size() != n_layer)
        return make_error(error_code::inconsistent_dims, fmt::format("{} entries for {} layers", it->size(), n_layer),
                          fmt::format("{}:/{}", path, key));
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json& v = (*it)[i];
        if (!(v.is_number_integer() && (v.get<std::int64_t>() == 0 || v.get<std::int64_t>() == 1)) && !v.is_boolean())
            return make_error(error_code::bad_value, fmt::format("{}; expected 0 or 1", v.dump()),
                              fmt::format("{}:/{}/{}", path, key, i));
    }
    return &*it;
}

bool set(const json& v) {
    return v.is_boolean() ? v.get<bool>() : v.get<std::int64_t>() == 1;
}

attn_kind kind_of(std::uint32_t heads, std::uint32_t kv) {
    return kv == heads ? attn_kind::mha : kv == 1 ? attn_kind::mqa : attn_kind::gqa;
}

} // namespace

status read_hybrid_attention(model_desc& m, const json& cfg, std::string_view path) {
    // moe_layer_freq as a list (MiMo-V2-Flash, MiniMax-M3): which layers hold the MoE block.
    auto moe_list = layer_flags(cfg, "moe_layer_freq", m.n_layer, path);
    if (!moe_list) return moe_list.error();
    if (*moe_list && m.moe.n_expert > 0) {
        const auto dense_ff = cfg.value("dense_intermediate_size", cfg.value("intermediate_size", std::uint64_t{0}));
        for (std::uint32_t i = 0; i < m.n_layer; ++i) {
            auto& l  = m.layers[i];
            l.is_moe = set((**moe_list)[i]);
            l.n_ff   = l.is_moe ? 0 : dense_ff;
            if (!l.is_moe && dense_ff == 0)
                return make_error(error_code::missing_field, "a dense layer (moe_layer_freq 0) needs intermediate_size",
                                  fmt::format("{}:/intermediate_size", path));
        }
    }

    auto pattern = layer_flags(cfg, "hybrid_layer_pattern", m.n_layer, path);
    if (!pattern) return pattern.error();
    if (!*pattern) return ok();
    // The full layers' shapes: the common reader's heads and head_dim, v_head_dim for v.
    const layer_desc full = m.layers.empty() ? layer_desc{} : m.layers[0];
    auto v_full           = size_or(cfg, "v_head_dim", full.head_dim_k, path);
    if (!v_full) return v_full.error();
    auto heads = size_or(cfg, "swa_num_attention_heads", full.n_head, path);
    if (!heads) return heads.error();
    auto kv = size_or(cfg, "swa_num_key_value_heads", full.n_head_kv, path);
    if (!kv) return kv.error();
    if (*heads % *kv != 0)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} query heads cannot be grouped over {} KV heads", *heads, *kv),
                          fmt::format("{}:/swa_num_key_value_heads", path));
    auto k_dim = size_or(cfg, "swa_head_dim", full.head_dim_k, path);
    if (!k_dim) return k_dim.error();
    auto v_dim = size_or(cfg, "swa_v_head_dim", *v_full, path);
    if (!v_dim) return v_dim.error();
    auto window = size_or(cfg, "sliding_window_size", 0, path);
    if (!window) return window.error();
    if (*window == 0) {
        window = size_or(cfg, "sliding_window", 0, path);
        if (!window) return window.error();
    }
    if (*window == 0)
        return make_error(error_code::missing_field, "sliding layers (hybrid_layer_pattern 1) need a window",
                          fmt::format("{}:/sliding_window_size", path));
    const bool swa_sinks  = cfg.value("add_swa_attention_sink_bias", false);
    const bool full_sinks = cfg.value("add_full_attention_sink_bias", false);
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        auto& l = m.layers[i];
        if (!l.has_kv() || l.attn == attn_kind::mla) continue;
        const bool sliding = set((**pattern)[i]);
        if (sliding) {
            l.n_head     = *heads;
            l.n_head_kv  = *kv;
            l.head_dim_k = *k_dim;
            l.head_dim_v = *v_dim;
            l.n_swa      = *window;
        } else {
            l.head_dim_v = *v_full;
            l.n_swa      = 0;
        }
        l.attn = kind_of(l.n_head, l.n_head_kv);
        if (sliding ? swa_sinks : full_sinks)
            m.extra_weights.push_back(
                {fmt::format("blk.{}.attn_sinks.weight", i), tensor_role::attn_sinks, static_cast<int>(i), {l.n_head}});
    }
    return ok();
}

} // namespace llmplan::detail

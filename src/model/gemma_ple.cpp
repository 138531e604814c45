// Gemma 3n (gemma3n_text) and Gemma 4 (gemma4_text): what their decoder adds to Gemma 3's.
//
// Module lists, from huggingface/transformers:
//   modeling_gemma4.py @ c308a309e651a7e033f683353f3f75aa66d29502 (Gemma4TextAttention,
//   Gemma4TextDecoderLayer, Gemma4TextRouter, Gemma4TextExperts, Gemma4TextModel);
//   modeling_gemma3n.py @ b87ecf8c180bf5c0d28b9f94e039c001d9f07701 (Gemma3nTextAltUp,
//   Gemma3nTextLaurelBlock, Gemma3nTextAttention, Gemma3nTextDecoderLayer, Gemma3nTextModel).
// Both:
//   per-layer embeddings (PLE) when hidden_size_per_layer_input > 0: embed_tokens_per_layer
//     [vocab_size_per_layer_input, n_layer x ple], per_layer_model_projection [n_layer x ple, n_embd],
//     per_layer_projection_norm [ple]; per layer per_layer_input_gate [ple, n_embd],
//     per_layer_projection [n_embd, ple], post_per_layer_input_norm [n_embd];
//   KV sharing: layer i >= n_layer - num_kv_shared_layers reads the K and V of the last earlier layer
//     of its kind (sliding or full) and caches nothing (is_kv_shared_layer); Gemma 4 also drops that
//     layer's k_proj, v_proj and k_norm (its _keys_to_ignore_on_load_unexpected), Gemma 3n keeps them;
//   q_norm and k_norm of one head, v_norm without a weight (with_scale=False).
// Gemma 4:
//   full-attention layers use global_head_dim; with attention_k_eq_v they have
//     num_global_key_value_heads KV heads and no v_proj (V is the projected K);
//   layer_scalar, a persistent [1] buffer per layer (stored in the checkpoint);
//   use_double_wide_mlp doubles intermediate_size in the KV-shared layers (Gemma4TextMLP);
//   enable_moe_block: beside the dense MLP, Gemma4TextRouter (proj [n_experts, n_embd], scale
//     [n_embd], per_expert_scale [n_experts]) and Gemma4TextExperts (gate_up_proj [n, 2 x
//     moe_intermediate_size, n_embd], down_proj [n, n_embd, moe_intermediate_size]) with three more
//     norms (post_feedforward_layernorm_1/_2, pre_feedforward_layernorm_2).
// Gemma 3n:
//   intermediate_size per layer (a list, or one width for all);
//   AltUp per layer: correct_output_scale [n_embd], correction_coefs [k, k], prediction_coefs
//     [k^2, k], modality_router [k, n_embd], router_norm [n_embd] (k = altup_num_inputs); and
//     globally altup_projections and altup_unembed_projections, k - 1 matrices [n_embd, n_embd] each;
//   Laurel per layer: linear_left [laurel_rank, n_embd], linear_right [n_embd, laurel_rank],
//     post_laurel_norm [n_embd].
// Checked by tests/unit/gemma4_family_test.cpp against the Hub count of google/gemma-4-31B-it.
// Tensor names follow llama.cpp's (src/llama-arch.cpp LLM_TENSOR_NAMES).
#include "model/gemma_ple.h"

#include "detail/json_fields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using nlohmann::json;

constexpr std::uint64_t max_size = 1ull << 24; // no real config states a width or count this large

/// A size key: absent or null gives the fallback; anything but an integer in [0, 2^24] is an error.
result<std::uint64_t> size_key(const json& cfg, const char* key, std::uint64_t fallback, std::string_view path) {
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null()) return fallback;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::uint64_t>() > max_size)
        return make_error(error_code::bad_value,
                          fmt::format("{} is {}; expected a size from 0 to {}", key, it->dump(), max_size),
                          fmt::format("{}/{}", path, key));
    return it->get<std::uint64_t>();
}

class extras {
  public:
    explicit extras(model_desc& m) : m_(m) {}
    void add(std::string name, int layer, std::vector<std::uint64_t> shape, tensor_role role = tensor_role::other) {
        m_.extra_weights.push_back({std::move(name), role, layer, std::move(shape)});
    }
    void blk(int il, std::string_view what, std::vector<std::uint64_t> shape) {
        add(fmt::format("blk.{}.{}", il, what), il, std::move(shape));
    }

  private:
    model_desc& m_;
};

/// Per-layer embeddings: the table, its projection and norm, and each layer's gate / projection / norm.
void per_layer_embeddings(model_desc& m, extras& x, std::uint64_t ple, std::uint64_t vocab) {
    const std::uint64_t e = m.n_embd, all = std::uint64_t{m.n_layer} * ple;
    x.add("per_layer_token_embd.weight", -1, {vocab, all}, tensor_role::per_layer_token_embd);
    x.add("per_layer_model_proj.weight", -1, {all, e});
    x.add("per_layer_proj_norm.weight", -1, {ple});
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const int il = static_cast<int>(i);
        x.blk(il, "inp_gate.weight", {ple, e});
        x.blk(il, "proj.weight", {e, ple});
        x.blk(il, "post_norm.weight", {e});
    }
}

/// The last num_kv_shared_layers layers reuse the KV of the last earlier layer of their kind.
status share_kv(model_desc& m, std::uint64_t shared, bool drop_weights, std::string_view path) {
    if (shared == 0) return ok();
    if (shared >= m.n_layer)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} KV-shared layers of {}; expected fewer than the layers", shared, m.n_layer),
                          fmt::format("{}/num_kv_shared_layers", path));
    const std::uint32_t first = m.n_layer - static_cast<std::uint32_t>(shared);
    for (std::uint32_t i = first; i < m.n_layer; ++i) {
        auto& l           = m.layers[i];
        bool has_producer = false;
        for (std::uint32_t j = 0; j < first; ++j)
            has_producer = has_producer || (m.layers[j].n_swa > 0) == (l.n_swa > 0);
        if (!has_producer)
            return make_error(
                error_code::inconsistent_dims,
                fmt::format("layer {} shares the KV of an earlier {} layer, and none of the first {} is one", i,
                            l.n_swa ? "sliding" : "full-attention", first),
                fmt::format("{}/num_kv_shared_layers", path));
        l.kv_shared          = true;
        l.kv_weights_dropped = drop_weights;
    }
    return ok();
}

attn_kind kind_of(const layer_desc& l) {
    return l.n_head_kv == l.n_head ? attn_kind::mha : l.n_head_kv == 1 ? attn_kind::mqa : attn_kind::gqa;
}

status gemma4_layers(model_desc& m, const json& cfg, extras& x, std::string_view path) {
    auto global_dim = size_key(cfg, "global_head_dim", 0, path);
    if (!global_dim) return global_dim.error();
    const bool k_eq_v = json_flag(cfg, "attention_k_eq_v");
    auto global_kv    = size_key(cfg, "num_global_key_value_heads", 0, path);
    if (!global_kv) return global_kv.error();
    const bool double_wide = json_flag(cfg, "use_double_wide_mlp");
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        auto& l      = m.layers[i];
        const int il = static_cast<int>(i);
        if (l.n_swa == 0) { // a full-attention layer (Gemma4TextAttention: not is_sliding)
            if (*global_dim) l.head_dim_k = l.head_dim_v = static_cast<std::uint32_t>(*global_dim);
            if (k_eq_v) {
                l.v_from_k = true;
                if (*global_kv) {
                    if (l.n_head % *global_kv != 0)
                        return make_error(error_code::inconsistent_dims,
                                          fmt::format("{} query heads cannot be grouped over {} global KV heads",
                                                      l.n_head, *global_kv),
                                          fmt::format("{}/num_global_key_value_heads", path));
                    l.n_head_kv = static_cast<std::uint32_t>(*global_kv);
                }
            }
            l.attn = kind_of(l);
        }
        if (double_wide && l.kv_shared) l.n_ff *= 2;
        x.blk(il, "layer_output_scale.weight", {1}); // layer_scalar, a persistent buffer
    }
    if (!json_flag(cfg, "enable_moe_block")) return ok();
    auto n_expert = size_key(cfg, "num_experts", 0, path);
    if (!n_expert) return n_expert.error();
    auto used = size_key(cfg, "top_k_experts", 0, path);
    if (!used) return used.error();
    auto ff = size_key(cfg, "moe_intermediate_size", 0, path);
    if (!ff) return ff.error();
    if (*ff == 0) {
        ff = size_key(cfg, "expert_intermediate_size", 0, path);
        if (!ff) return ff.error();
    }
    if (*n_expert == 0 || *used == 0 || *used > *n_expert || *ff == 0)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("MoE block with {} experts, {} used per token, experts {} wide; expected "
                                      "0 < used <= experts and a width",
                                      *n_expert, *used, *ff),
                          fmt::format("{}/num_experts", path));
    auto& moe         = m.moe;
    moe.n_expert      = static_cast<std::uint32_t>(*n_expert);
    moe.n_expert_used = static_cast<std::uint32_t>(*used);
    moe.n_ff_expert   = *ff;
    moe.fused_gate_up = true; // Gemma4TextExperts.gate_up_proj
    // The dense MLP runs beside the experts for every token: a shared expert (llama.cpp gemma4.cpp:
    // "for expert layers, we use normal FFN as shared expert").
    moe.n_ff_shexp        = m.layers.empty() ? 0 : m.layers.front().n_ff;
    const std::uint64_t e = m.n_embd;
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const int il       = static_cast<int>(i);
        m.layers[i].is_moe = true;
        x.blk(il, "ffn_gate_inp.scale", {e});             // Gemma4TextRouter.scale
        x.blk(il, "ffn_down_exps.scale", {moe.n_expert}); // Gemma4TextRouter.per_expert_scale
        x.blk(il, "pre_ffw_norm_2.weight", {e});
        x.blk(il, "post_ffw_norm_1.weight", {e});
        x.blk(il, "post_ffw_norm_2.weight", {e});
    }
    return ok();
}

status gemma3n_layers(model_desc& m, const json& cfg, extras& x, std::string_view path) {
    // Per-layer widths: Gemma3nTextConfig accepts one int or a list of num_hidden_layers ints.
    if (auto it = cfg.find("intermediate_size"); it != cfg.end() && it->is_array()) {
        if (it->size() != m.n_layer)
            return make_error(error_code::inconsistent_dims,
                              fmt::format("{} widths for {} layers", it->size(), m.n_layer),
                              fmt::format("{}/intermediate_size", path));
        for (std::uint32_t i = 0; i < m.n_layer; ++i) {
            const json& v = (*it)[i];
            if (!v.is_number_integer() || v.get<std::int64_t>() <= 0 || v.get<std::uint64_t>() > max_size)
                return make_error(error_code::bad_value, fmt::format("{}; expected a positive width", v.dump()),
                                  fmt::format("{}/intermediate_size/{}", path, i));
            m.layers[i].n_ff = v.get<std::uint64_t>();
        }
    }
    // Gemma3nTextConfig defaults: altup_num_inputs 4, laurel_rank 64.
    auto k = size_key(cfg, "altup_num_inputs", 4, path);
    if (!k) return k.error();
    auto rank = size_key(cfg, "laurel_rank", 64, path);
    if (!rank) return rank.error();
    if (*k == 0)
        return make_error(error_code::bad_value, "altup_num_inputs is 0; expected at least 1",
                          fmt::format("{}/altup_num_inputs", path));
    const std::uint64_t e = m.n_embd;
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const int il = static_cast<int>(i);
        x.blk(il, "altup_correct_scale.weight", {e});
        x.blk(il, "altup_correct_coef.weight", {*k, *k});
        x.blk(il, "altup_predict_coef.weight", {*k * *k, *k});
        x.blk(il, "altup_router.weight", {*k, e});
        x.blk(il, "altup_router_norm.weight", {e});
        x.blk(il, "laurel_l.weight", {*rank, e});
        x.blk(il, "laurel_r.weight", {e, *rank});
        x.blk(il, "laurel_post_norm.weight", {e});
    }
    x.add("altup_proj.weight", -1, {*k - 1, e, e});
    x.add("altup_unembd_proj.weight", -1, {*k - 1, e, e});
    return ok();
}

} // namespace

std::uint64_t gemma_first_ff(const json& cfg) {
    auto it = cfg.find("intermediate_size");
    if (it == cfg.end() || !it->is_array() || it->empty() || !(*it)[0].is_number_integer() ||
        (*it)[0].get<std::int64_t>() <= 0)
        return 0;
    return (*it)[0].get<std::uint64_t>();
}

status read_gemma_layers(model_desc& m, const json& cfg, gemma_generation gen, std::string_view path) {
    if (gen == gemma_generation::none) return ok();
    const bool g3n = gen == gemma_generation::gemma3n;
    if (auto t = cfg.find("layer_types"); t != cfg.end() && t->is_array() && t->size() != m.n_layer)
        return make_error(error_code::inconsistent_dims, fmt::format("{} entries for {} layers", t->size(), m.n_layer),
                          fmt::format("{}/layer_types", path));
    extras x(m);
    // Gemma3nTextConfig defaults hidden_size_per_layer_input 256 and vocab_size_per_layer_input
    // 262144; Gemma 4's configs state both (0 where a model has no per-layer embeddings).
    auto ple = size_key(cfg, "hidden_size_per_layer_input", g3n ? 256 : 0, path);
    if (!ple) return ple.error();
    auto ple_vocab = size_key(cfg, "vocab_size_per_layer_input", 262144, path);
    if (!ple_vocab) return ple_vocab.error();
    auto shared = size_key(cfg, "num_kv_shared_layers", 0, path);
    if (!shared) return shared.error();
    if (auto s = share_kv(m, *shared, !g3n, path); !s) return s.error();
    if (*ple > 0) {
        per_layer_embeddings(m, x, *ple, *ple_vocab);
        m.notes.push_back(fmt::format("per-layer embeddings: a {} x {} table read by row, counted in the "
                                      "parameters; llama.cpp keeps it in host memory like the token embeddings",
                                      *ple_vocab, std::uint64_t{m.n_layer} * *ple));
    }
    if (*shared > 0)
        m.notes.push_back(fmt::format("the last {} layers reuse earlier layers' K and V and cache none", *shared));
    return g3n ? gemma3n_layers(m, cfg, x, path) : gemma4_layers(m, cfg, x, path);
}

} // namespace llmplan::detail

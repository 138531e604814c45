// A model_type no row of the architecture table knows (unknown_arch.h). Everything a family's
// modeling code adds beyond the config is unknown then, so the reader takes the block most decoders
// share (transformers' LlamaDecoderLayer: RMSNorm, attention with rotary positions, a gated MLP)
// and says so. The KV cache only needs the standard keys (num_hidden_layers, num_key_value_heads,
// head_dim or hidden_size / num_attention_heads, sliding_window, layer_types), read as every
// transformers decoder reads them; the weights are exact whenever the checkpoint's tensors are read.
#include "model/unknown_arch.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using json = nlohmann::json;

bool has_any(const json& cfg, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        if (auto it = cfg.find(k); it != cfg.end() && !it->is_null()) return true;
    return false;
}

bool positive_any(const json& cfg, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        if (auto it = cfg.find(k); it != cfg.end() && it->is_number_integer() && it->get<std::int64_t>() > 0)
            return true;
    return false;
}

} // namespace

arch_row unknown_arch_row(const json& cfg, std::string_view model_type, model_desc& m) {
    // The same expert keys the common reader takes (hf_config.cpp field aliases, moe_mla.cpp).
    const bool experts = positive_any(cfg, {"num_local_experts", "num_experts", "n_routed_experts"}) &&
                         positive_any(cfg, {"num_experts_per_tok", "experts_per_token"});
    const bool mla = positive_any(cfg, {"kv_lora_rank"});
    moe_style moe  = moe_style::none;
    if (experts)
        moe = mla                                       ? moe_style::deepseek
              : has_any(cfg, {"moe_intermediate_size"}) ? moe_style::qwen3_moe
                                                        : moe_style::mixtral;
    // PretrainedConfig's default (transformers configuration_utils.py): tie_word_embeddings=True.
    const bool tied_default = true;
    arch_row row{"",
                 experts ? ffn_kind::moe : ffn_kind::gated,
                 norm_kind::rms,
                 pos_kind::rope,
                 false,
                 false,
                 false,
                 false,
                 false,
                 false,
                 false,
                 false,
                 false,
                 tied_default,
                 false,
                 layer_pattern::from_config,
                 moe,
                 false,
                 "",
                 {}};

    auto& w = m.guessed_weights;
    w.push_back(fmt::format("model_type \"{}\" is not one llmplan knows: its layers are taken as a standard decoder "
                            "block (RMS norms, attention, a gated feed-forward of gate, up and down matrices, as "
                            "Llama's)",
                            model_type));
    if (!has_any(cfg, {"attention_bias", "use_bias", "bias", "mlp_bias"}))
        w.push_back("no bias key: the linear layers are taken to have no biases");
    if (!has_any(cfg, {"tie_word_embeddings"}))
        w.push_back("no tie_word_embeddings: the output head is taken to share the embedding matrix (the default "
                    "of transformers' configs)");
    if (experts)
        w.push_back(mla ? "experts and kv_lora_rank: laid out as DeepSeek-V3's (latent attention, shared experts, "
                          "first_k_dense_replace dense layers)"
                        : fmt::format("experts laid out as {} (routed experts only, no shared expert)",
                                      moe == moe_style::qwen3_moe ? "Qwen3-MoE's" : "Mixtral's"));
    else if (mla)
        w.push_back("kv_lora_rank without experts: latent attention is not laid out; attention taken as standard");
    return row;
}

void finish_unknown_arch(model_desc& m, const json& cfg) {
    auto& c              = m.guessed_cache;
    const bool types     = cfg.contains("layer_types") && cfg["layer_types"].is_array();
    std::uint64_t window = 0;
    for (const char* k : {"sliding_window", "attention_window"})
        if (auto it = cfg.find(k); it != cfg.end() && it->is_number_integer() && it->get<std::int64_t>() > 0) {
            window = it->get<std::uint64_t>();
            break;
        }
    const bool sliding_on = !(cfg.contains("use_sliding_window") && cfg["use_sliding_window"].is_boolean() &&
                              !cfg["use_sliding_window"].get<bool>());
    // MistralConfig: a sliding_window with no per-layer list applies to every layer.
    if (window && !types && sliding_on && window < (1u << 31)) {
        for (auto& l : m.layers)
            if (l.has_kv()) l.n_swa = static_cast<std::uint32_t>(window);
        c.push_back(fmt::format("sliding_window {} with no layer_types: every layer is taken to keep only the last "
                                "{} tokens (as Mistral's)",
                                window, window));
    }
    // Keys of 2026 families whose attention or blocks the standard decoder does not have: named, so that
    // the answer says what it did not interpret (DeepSeek-V4 compress_ratios and hc_mult, Kimi Linear
    // linear_attn_config, MiniMax-M3 sparse_attention_config, MiMo hybrid_layer_pattern read elsewhere).
    for (const char* k : {"compress_ratios", "hc_mult", "linear_attn_config", "sparse_attention_config", "o_lora_rank",
                          "routed_expert_hidden_size", "attn_res_block_size"})
        if (has_any(cfg, {k}))
            c.push_back(fmt::format("{} is not interpreted: the cache and weights it changes are "
                                    "a standard decoder's here",
                                    k));
    c.push_back(fmt::format("KV cache read from the standard keys: {} layers of {} KV heads x {} dims{}; a "
                            "family's own cache (shared or compressed KV, extra state) would differ",
                            m.n_layer, m.typical_layer().n_head_kv, m.typical_layer().head_dim_k,
                            types ? ", sliding per layer_types" : ""));
}

status check_weights_known(const model_desc& m) {
    if (m.formula_needs.empty() || m.source == weights_source::tensors) return ok();
    return make_error(error_code::missing_field,
                      fmt::format("no {}: the weights of model_type \"{}\" cannot be sized from its config alone; "
                                  "give the folder with its safetensors files, or add the key",
                                  m.formula_needs, m.arch),
                      fmt::format("{}:/{}", m.origin.location.empty() ? m.id : m.origin.location, m.formula_needs));
}

void weights_read_from_tensors(model_desc& m) {
    if (m.guessed_weights.empty() && m.formula_needs.empty()) return;
    m.guessed_weights.clear();
    m.formula_needs.clear();
    m.guessed_cache.push_back(fmt::format("model_type \"{}\" is not one llmplan knows: the weights are exact from "
                                          "the checkpoint's tensors; activations and compute buffers are a standard "
                                          "decoder's of these sizes",
                                          m.arch));
}

} // namespace llmplan::detail

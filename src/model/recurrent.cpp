// Hybrid models: which layers are linear attention (Gated DeltaNet) and how large their state is.
//
// Qwen3NextConfig (transformers configuration_qwen3_next.py): layer_types[i] is "linear_attention"
// or "full_attention"; when absent, layer i is full attention when (i + 1) % full_attention_interval
// == 0 (default 4). A linear layer (Qwen3NextGatedDeltaNet) keeps per sequence:
//   conv state: conv_dim = 2 x key_dim + value_dim channels over the conv kernel's past inputs,
//               key_dim = linear_num_key_heads x linear_key_head_dim,
//               value_dim = linear_num_value_heads x linear_value_head_dim;
//   recurrent state: linear_num_value_heads x linear_key_head_dim x linear_value_head_dim.
// Engines store them differently (kv_cache.cpp, state_layer_bytes); the shapes are the model's.
#include "model/recurrent.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmplan::detail {
namespace {

using nlohmann::json;

std::uint64_t size_of(const json& cfg, const char* key, std::uint64_t fallback) {
    return cfg.contains(key) && cfg[key].is_number_unsigned() ? cfg[key].get<std::uint64_t>() : fallback;
}

} // namespace

status read_recurrent(model_desc& m, const json& cfg, std::string_view path) {
    const bool gdn = cfg.contains("linear_num_value_heads") || cfg.contains("linear_conv_kernel_dim");
    if (!gdn) return ok();
    // Qwen3NextConfig defaults: 4, 128, 128, 16, 32, interval 4.
    const std::uint64_t kernel = size_of(cfg, "linear_conv_kernel_dim", 4);
    const std::uint64_t k_dim  = size_of(cfg, "linear_key_head_dim", 128);
    const std::uint64_t v_dim  = size_of(cfg, "linear_value_head_dim", 128);
    const std::uint64_t k_hd   = size_of(cfg, "linear_num_key_heads", 16);
    const std::uint64_t v_hd   = size_of(cfg, "linear_num_value_heads", 32);
    const std::uint64_t every  = size_of(cfg, "full_attention_interval", 4);
    for (const auto& [key, v] : {
             std::pair{"linear_conv_kernel_dim",  kernel},
             std::pair{"linear_key_head_dim",     k_dim },
             std::pair{"linear_value_head_dim",   v_dim },
             std::pair{"linear_num_key_heads",    k_hd  },
             std::pair{"linear_num_value_heads",  v_hd  },
             std::pair{"full_attention_interval", every }
    })
        if (v == 0 || v > (1u << 20))
            return make_error(error_code::bad_value, fmt::format("{}; expected a size from 1 to 1048576", v),
                              fmt::format("{}:/{}", path, key));
    const json* types = cfg.contains("layer_types") && cfg["layer_types"].is_array() ? &cfg["layer_types"] : nullptr;
    if (types && types->size() != m.n_layer)
        return make_error(error_code::inconsistent_dims,
                          fmt::format("{} entries for {} layers", types->size(), m.n_layer),
                          fmt::format("{}:/layer_types", path));
    m.attn_output_gate = cfg.value("attn_output_gate", true); // Qwen3NextAttention gates every head's output
    // Qwen3.5 / Qwen3.6 configs say mamba_ssm_dtype "float32"; vLLM's Qwen3_5ForConditionalGenerationConfig
    // hook (vllm/model_executor/models/config.py, MODELS_CONFIG_MAP for Qwen3_5ForConditionalGeneration and
    // Qwen3_5MoeForConditionalGeneration) sets mamba_ssm_cache_dtype to it when left "auto": the recurrent
    // state in f32, the conv state in the model dtype.
    const auto ssm_dtype = cfg.find("mamba_ssm_dtype");
    const bool ssm_f32   = m.arch.starts_with("qwen3_5") && ssm_dtype != cfg.end() && ssm_dtype->is_string() &&
                         ssm_dtype->get<std::string>() == "float32";
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        bool linear = (i + 1) % every != 0;
        if (types) {
            // Compared as std::string: json == const char* trips GCC 12's -Warray-bounds (a false positive).
            const json& t          = (*types)[i];
            const std::string kind = t.is_string() ? t.get<std::string>() : std::string();
            if (kind != "linear_attention" && kind != "full_attention" && kind != "sliding_attention")
                return make_error(error_code::bad_value,
                                  fmt::format("{}; expected \"linear_attention\" or \"full_attention\"", t.dump()),
                                  fmt::format("{}:/layer_types/{}", path, i));
            linear = kind == "linear_attention";
        }
        if (!linear) continue;
        auto& l                   = m.layers[i];
        l.attn                    = attn_kind::none;
        l.n_swa                   = 0;
        l.recurrent.conv_kernel   = static_cast<std::uint32_t>(kernel);
        l.recurrent.conv_channels = 2 * k_hd * k_dim + v_hd * v_dim;
        l.recurrent.state_elems   = v_hd * k_dim * v_dim;
        l.recurrent.v_heads       = static_cast<std::uint32_t>(v_hd);
        l.recurrent.value_width   = v_hd * v_dim;
        l.recurrent.vllm_ssm_f32  = ssm_f32;
    }
    return ok();
}

} // namespace llmplan::detail

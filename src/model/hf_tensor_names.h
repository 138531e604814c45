// Hugging Face checkpoint tensor names -> GGUF-style roles (tensor_role).
//
// The tables in hf_tensor_names.cpp follow the module names of the transformers modeling files
// and llama.cpp's gguf-py/gguf/tensor_mapping.py, which maps the same names to GGUF tensors.
#pragma once

#include "llmplan/model_desc.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace llmplan {

/// What a quantization side tensor is, relative to the weight it belongs to.
enum class hf_quant_part : std::uint8_t {
    none,          ///< a plain weight or bias
    packed_weight, ///< the quantized weight itself (GPTQ/AWQ .qweight, gpt-oss _blocks, .weight_packed)
    metadata,      ///< scales, zero points, group indices, bitsandbytes state (.scales, .qzeros, .absmax ...)
};

struct hf_name_info {
    tensor_role role    = tensor_role::other;
    int layer           = -1; ///< block index from `.layers.N.` / `.h.N.` / `.layer.N.` / `.blocks.N.`
    int expert          = -1; ///< expert index from `.experts.N.` (-1: none, or all experts fused)
    bool is_bias        = false;
    hf_quant_part quant = hf_quant_part::none;
};

/// Role of one tensor name. Quantization side tensors get the role of their weight.
hf_name_info hf_parse_tensor_name(std::string_view name);

/// Role of one tensor name; layer = -1 for global tensors; unknown names give tensor_role::other.
tensor_role hf_tensor_role(std::string_view name, int& layer, bool& is_bias);

/// True for quantization metadata tensors (scales, zero points, indices, bitsandbytes state), whose
/// bytes are overhead on top of the packed weight.
bool hf_is_quant_metadata(std::string_view name);

/// Fills role, layer and is_bias of every tensor from its name, then applies the fix-ups that need
/// the whole checkpoint: with `post_feedforward_layernorm` present (Gemma-2/3, OLMo-2),
/// `post_attention_layernorm` is a post-attention norm, not the pre-FFN norm of Llama.
void hf_assign_roles(std::vector<tensor_desc>& tensors);

} // namespace llmplan

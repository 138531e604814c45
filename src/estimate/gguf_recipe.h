// llama.cpp's per-tensor quantization recipe: which ggml type `llama-quantize` stores each tensor in
// for a requested file type (Q4_K_M, Q4_0, IQ2_XXS ...).
//
// A file type is a mixture, not one type: llama.cpp's llama_tensor_get_type (src/llama-quant.cpp)
// gives output.weight more bits, gives some attn_v / ffn_down layers more bits, keeps 1-D tensors in
// F32 and falls back to a 32-block type when a row is not a whole number of 256-blocks. This module
// reproduces those rules for the llama.cpp of 2025 (as vendored by node-llama-cpp 3.x and ollama),
// for a plain run: no importance matrix, no --pure, no --output-tensor-type / --token-embedding-type
// and no --tensor-type overrides.
#pragma once

#include "llmplan/dtype.h"
#include "llmplan/model_desc.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace llmplan {

/// One file type that llama-quantize offers (include/llama.h enum llama_ftype).
struct gguf_ftype_info {
    std::string_view name; ///< lower-case llama-quantize name: "q4_k_m", "iq2_xxs", "f16"
    int llama_ftype;       ///< LLAMA_FTYPE_* value written to general.file_type (Q4_K_M = 15)
    dtype base;            ///< the default tensor type of the mixture (Q4_K_M -> q4_k)
};

/// By name, case-insensitive: every llama-quantize name, plus its aliases "q3_k" / "q4_k" / "q5_k"
/// (= the _M mixtures, as in tools/quantize/quantize.cpp QUANT_OPTIONS) and "mxfp4" (= mxfp4_moe).
std::optional<gguf_ftype_info> gguf_ftype_from_name(std::string_view name);
/// By the LLAMA_FTYPE_* number found in a GGUF's general.file_type.
std::optional<gguf_ftype_info> gguf_ftype_from_id(int llama_ftype);

/// Every LLAMA_FTYPE_* llama-quantize offers, one row each (no aliases), in enum order.
std::span<const gguf_ftype_info> gguf_ftypes();

/// The ggml type llama-quantize (default options) stores tensor t in, for the model m.
/// Uses m.tensors (when filled) for the counters llama.cpp keeps (how many attn_v tensors came before
/// t ...), else m.layers. Tensors llama-quantize copies unchanged get the type convert_hf_to_gguf.py
/// gives them: f32 for 1-D tensors, norms, biases and the MoE router, f16 for the other matrices.
/// with_imatrix: an importance matrix was given (changes IQ3_XXS, IQ4_NL/IQ4_XS and Q4_0/Q5_0 rules;
/// IQ1/IQ2 types and Q2_K_S cannot be made without one, and their recipe does not depend on it).
dtype gguf_recipe_type(const model_desc& m, const tensor_desc& t, const gguf_ftype_info& f, bool with_imatrix = false);

/// gguf_recipe_type of every tensor in m.tensors, in their order, in one pass (the counters are
/// computed once, not per tensor).
std::vector<dtype> gguf_recipe_types(const model_desc& m, const gguf_ftype_info& f, bool with_imatrix = false);

/// Sets type and bytes of every tensor in m.tensors to the recipe of f; returns the sum of bytes.
/// A row that is not a whole number of blocks is rounded up (tensor_bytes_ceil).
std::uint64_t gguf_apply_recipe(model_desc& m, const gguf_ftype_info& f, bool with_imatrix = false);

} // namespace llmplan

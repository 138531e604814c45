// bitsandbytes' 4-bit layout (Linear4bit / Params4bit; bitsandbytes/functional.py quantize_4bit): the 4-bit
// codes packed two a byte, one absmax per block of 64 weights (the blocksize default). With double
// quantization (bnb_4bit_use_double_quant, on in transformers' and PEFT's QLoRA recipes) each absmax is an
// 8-bit code with one fp32 scale per 256 of them; without it (LitGPT's "bnb.nf4") an fp32 absmax.
#pragma once

#include "detail/checked_number.h"

#include <cstdint>

namespace llmplan::detail {

inline constexpr std::uint64_t bnb4_block    = 64;  ///< weights per absmax
inline constexpr std::uint64_t bnb4_dq_block = 256; ///< absmax values per fp32 scale (double quantization)

/// Bytes of the absmax values of `weights` weights.
inline std::uint64_t bnb4_absmax_bytes(std::uint64_t weights, bool double_quant) {
    const std::uint64_t blocks = ceil_div(weights, bnb4_block);
    return double_quant ? blocks + ceil_div(blocks, bnb4_dq_block) * 4 : blocks * 4;
}

/// Bytes of one matrix of `weights` weights in 4-bit: the packed codes and their absmax values.
inline std::uint64_t bnb4_matrix_bytes(std::uint64_t weights, bool double_quant) {
    return weights / 2 + bnb4_absmax_bytes(weights, double_quant);
}

} // namespace llmplan::detail

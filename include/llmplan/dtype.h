// Element types of tensors: every ggml type (GGUF) and every safetensors dtype, one table.
//
// Bytes of a tensor are n_elements / block_size * bytes_per_block, in integers. Block sizes and
// bytes per block come from ggml's type_traits (ggml/src/ggml.c, the block_* structs in
// ggml-common.h); safetensors dtypes from the safetensors spec (huggingface/safetensors README).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace llmplan {

enum class dtype : std::uint8_t {
    // ggml types (GGUF); ggml_id is the on-disk enum value
    f32,
    f16,
    q4_0,
    q4_1,
    q5_0,
    q5_1,
    q8_0,
    q8_1,
    q2_k,
    q3_k,
    q4_k,
    q5_k,
    q6_k,
    q8_k,
    iq2_xxs,
    iq2_xs,
    iq3_xxs,
    iq1_s,
    iq4_nl,
    iq3_s,
    iq2_s,
    iq4_xs,
    i8,
    i16,
    i32,
    i64,
    f64,
    iq1_m,
    bf16,
    tq1_0,
    tq2_0,
    mxfp4,
    // ik_llama.cpp's own ggml types (a fork of llama.cpp; its GGUF files carry them)
    iq2_k,
    iq3_k,
    iq4_k,
    iq5_k,
    iq6_k,
    // safetensors-only dtypes
    f8_e4m3,
    f8_e5m2,
    f8_e8m0,
    u8,
    u16,
    u32,
    u64,
    boolean,
    count
};

struct dtype_info {
    dtype type;
    std::string_view name;         ///< lower-case ggml name ("q4_k"), or safetensors name lower-cased
    std::string_view safetensors;  ///< safetensors spelling ("BF16"), empty when none
    int ggml_id;                   ///< GGUF on-disk type id, -1 when not a ggml type
    std::uint32_t block_size;      ///< elements per block
    std::uint32_t bytes_per_block; ///< bytes per block
    bool is_quantized;             ///< block-quantized (scales inside the block)
};

const dtype_info& info(dtype t);
std::string_view name(dtype t);

/// Bytes of n elements of type t; false when n is not a whole number of blocks or on overflow.
bool tensor_bytes(dtype t, std::uint64_t n_elements, std::uint64_t& bytes);
/// Bytes of n elements, rounding partial blocks up (for estimates on shapes that are not multiples).
std::uint64_t tensor_bytes_ceil(dtype t, std::uint64_t n_elements);
/// Bits per element as a rate (for display only; never used for byte arithmetic).
double bits_per_element(dtype t);

std::optional<dtype> dtype_from_ggml_id(std::uint32_t id);
std::optional<dtype> dtype_from_safetensors(std::string_view s);
/// By lower-case name: "q4_k", "f16", "bf16", "f8_e4m3" ... (case-insensitive).
std::optional<dtype> dtype_from_name(std::string_view s);

} // namespace llmplan

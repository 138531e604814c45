#include "llmplan/dtype.h"

#include "detail/strings.h"

#include <array>
#include <cctype>
#include <string>

namespace llmplan {
namespace {

// clang-format off
// Block sizes and bytes per block: ggml-common.h block_* structs (QK_K = 256, QK4_0 = QK8_0 = 32).
// e.g. block_q4_K = 2 x f16 (d, dmin) + 12 scale bytes + 128 nibble bytes = 144 bytes per 256.
constexpr std::array<dtype_info, static_cast<std::size_t>(dtype::count)> dtype_rows{{
    {dtype::f32,     "f32",     "F32",      0,  1,   4,   false},
    {dtype::f16,     "f16",     "F16",      1,  1,   2,   false},
    {dtype::q4_0,    "q4_0",    "",         2,  32,  18,  true}, // f16 d + 16 B nibbles
    {dtype::q4_1,    "q4_1",    "",         3,  32,  20,  true}, // f16 d, m + 16 B
    {dtype::q5_0,    "q5_0",    "",         6,  32,  22,  true}, // f16 d + 4 B high bits + 16 B
    {dtype::q5_1,    "q5_1",    "",         7,  32,  24,  true},
    {dtype::q8_0,    "q8_0",    "",         8,  32,  34,  true}, // f16 d + 32 x int8
    {dtype::q8_1,    "q8_1",    "",         9,  32,  36,  true},
    {dtype::q2_k,    "q2_k",    "",         10, 256, 84,  true}, // 16 scales + 64 qs + 2 x f16
    {dtype::q3_k,    "q3_k",    "",         11, 256, 110, true}, // 32 hmask + 64 qs + 12 scales + f16
    {dtype::q4_k,    "q4_k",    "",         12, 256, 144, true},
    {dtype::q5_k,    "q5_k",    "",         13, 256, 176, true}, // 4 + 12 + 32 qh + 128 qs
    {dtype::q6_k,    "q6_k",    "",         14, 256, 210, true}, // 128 ql + 64 qh + 16 scales + f16
    {dtype::q8_k,    "q8_k",    "",         15, 256, 292, true}, // f32 d + 256 qs + 16 x int16 bsums
    {dtype::iq2_xxs, "iq2_xxs", "",         16, 256, 66,  true}, // f16 + 32 x u16
    {dtype::iq2_xs,  "iq2_xs",  "",         17, 256, 74,  true}, // f16 + 32 x u16 + 8 scales
    {dtype::iq3_xxs, "iq3_xxs", "",         18, 256, 98,  true}, // f16 + 96
    {dtype::iq1_s,   "iq1_s",   "",         19, 256, 50,  true}, // f16 + 32 qs + 8 x u16 qh
    {dtype::iq4_nl,  "iq4_nl",  "",         20, 32,  18,  true},
    {dtype::iq3_s,   "iq3_s",   "",         21, 256, 110, true}, // f16 + 64 + 8 + 32 + 4
    {dtype::iq2_s,   "iq2_s",   "",         22, 256, 82,  true}, // f16 + 64 + 8 + 8
    {dtype::iq4_xs,  "iq4_xs",  "",         23, 256, 136, true}, // f16 + u16 + 4 + 128
    {dtype::i8,      "i8",      "I8",       24, 1,   1,   false},
    {dtype::i16,     "i16",     "I16",      25, 1,   2,   false},
    {dtype::i32,     "i32",     "I32",      26, 1,   4,   false},
    {dtype::i64,     "i64",     "I64",      27, 1,   8,   false},
    {dtype::f64,     "f64",     "F64",      28, 1,   8,   false},
    {dtype::iq1_m,   "iq1_m",   "",         29, 256, 56,  true}, // 32 qs + 16 qh + 8 scales
    {dtype::bf16,    "bf16",    "BF16",     30, 1,   2,   false},
    {dtype::tq1_0,   "tq1_0",   "",         34, 256, 54,  true}, // 48 qs + 4 qh + f16
    {dtype::tq2_0,   "tq2_0",   "",         35, 256, 66,  true}, // 64 qs + f16
    {dtype::mxfp4,   "mxfp4",   "",         39, 32,  17,  true}, // e8m0 scale + 16 B fp4 pairs (OCP MX)
    // ik_llama.cpp's block_iq*_k structs (GGML_TYPE_IQ2_K = 137 ... IQ6_K = 141): f16 d + u16 extra + ...
    {dtype::iq2_k,   "iq2_k",   "",         137, 256, 76,  true}, // + 8 scales + 64 qs
    {dtype::iq3_k,   "iq3_k",   "",         138, 256, 110, true}, // + u16 scales_h + 8 scales_l + 64 qs + 32 qh
    {dtype::iq4_k,   "iq4_k",   "",         139, 256, 144, true}, // + 4 scales_h + 8 scales_l + 128 qs
    {dtype::iq5_k,   "iq5_k",   "",         140, 256, 176, true}, // + 4 scales_h + 8 scales_l + 128 qs + 32 qh
    {dtype::iq6_k,   "iq6_k",   "",         141, 256, 212, true}, // + 16 scales + 128 qs + 64 qh
    {dtype::f8_e4m3, "f8_e4m3", "F8_E4M3",  -1, 1,   1,   false},
    {dtype::f8_e5m2, "f8_e5m2", "F8_E5M2",  -1, 1,   1,   false},
    {dtype::f8_e8m0, "f8_e8m0", "F8_E8M0",  -1, 1,   1,   false},
    {dtype::u8,      "u8",      "U8",       -1, 1,   1,   false},
    {dtype::u16,     "u16",     "U16",      -1, 1,   2,   false},
    {dtype::u32,     "u32",     "U32",      -1, 1,   4,   false},
    {dtype::u64,     "u64",     "U64",      -1, 1,   8,   false},
    {dtype::boolean, "bool",    "BOOL",     -1, 1,   1,   false},
}};
// clang-format on

constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < dtype_rows.size(); ++i)
        if (static_cast<std::size_t>(dtype_rows[i].type) != i) return false;
    return true;
}
static_assert(rows_in_enum_order(), "dtype table rows must follow the enum order");

using detail::iequals;

} // namespace

const dtype_info& info(dtype t) {
    return dtype_rows[static_cast<std::size_t>(t)];
}
std::string_view name(dtype t) {
    return info(t).name;
}

bool tensor_bytes(dtype t, std::uint64_t n_elements, std::uint64_t& bytes) {
    const auto& i = info(t);
    if (n_elements % i.block_size != 0) return false;
    return !__builtin_mul_overflow(n_elements / i.block_size, std::uint64_t{i.bytes_per_block}, &bytes);
}

std::uint64_t tensor_bytes_ceil(dtype t, std::uint64_t n_elements) {
    const auto& i = info(t);
    return (n_elements + i.block_size - 1) / i.block_size * i.bytes_per_block;
}

double bits_per_element(dtype t) {
    const auto& i = info(t);
    return 8.0 * i.bytes_per_block / i.block_size;
}

std::optional<dtype> dtype_from_ggml_id(std::uint32_t id) {
    for (const auto& row : dtype_rows)
        if (row.ggml_id >= 0 && static_cast<std::uint32_t>(row.ggml_id) == id) return row.type;
    return std::nullopt;
}

std::optional<dtype> dtype_from_safetensors(std::string_view s) {
    for (const auto& row : dtype_rows)
        if (!row.safetensors.empty() && row.safetensors == s) return row.type;
    return std::nullopt;
}

std::optional<dtype> dtype_from_name(std::string_view s) {
    for (const auto& row : dtype_rows)
        if (iequals(row.name, s)) return row.type;
    if (iequals(s, "float32") || iequals(s, "fp32")) return dtype::f32;
    if (iequals(s, "float16") || iequals(s, "fp16") || iequals(s, "half")) return dtype::f16;
    if (iequals(s, "bfloat16")) return dtype::bf16;
    if (iequals(s, "fp8") || iequals(s, "float8_e4m3fn")) return dtype::f8_e4m3;
    return std::nullopt;
}

} // namespace llmplan

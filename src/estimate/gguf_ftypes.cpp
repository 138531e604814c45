// The file types llama-quantize offers: names, LLAMA_FTYPE_* numbers and default tensor types.
#include "detail/strings.h"
#include "estimate/llama_ftype.h"
#include "llmplan/gguf_recipe.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace llmplan {
namespace {

namespace ft = detail::ft;

// Names: tools/quantize/quantize.cpp QUANT_OPTIONS. Base types: the default_type switch of
// llama_model_quantize_impl (note IQ2_S -> iq2_xs, IQ2_M -> iq2_s, IQ3_XS / IQ3_M -> iq3_s).
// clang-format off
constexpr std::array<gguf_ftype_info, 38> ftype_table{{
    {"f32",       ft::all_f32,   dtype::f32},
    {"f16",       ft::f16,       dtype::f16},
    {"q4_0",      ft::q4_0,      dtype::q4_0},
    {"q4_1",      ft::q4_1,      dtype::q4_1},
    {"q8_0",      ft::q8_0,      dtype::q8_0},
    {"q5_0",      ft::q5_0,      dtype::q5_0},
    {"q5_1",      ft::q5_1,      dtype::q5_1},
    {"q2_k",      ft::q2_k,      dtype::q2_k},
    {"q3_k_s",    ft::q3_k_s,    dtype::q3_k},
    {"q3_k_m",    ft::q3_k_m,    dtype::q3_k},
    {"q3_k_l",    ft::q3_k_l,    dtype::q3_k},
    {"q4_k_s",    ft::q4_k_s,    dtype::q4_k},
    {"q4_k_m",    ft::q4_k_m,    dtype::q4_k},
    {"q5_k_s",    ft::q5_k_s,    dtype::q5_k},
    {"q5_k_m",    ft::q5_k_m,    dtype::q5_k},
    {"q6_k",      ft::q6_k,      dtype::q6_k},
    {"iq2_xxs",   ft::iq2_xxs,   dtype::iq2_xxs},
    {"iq2_xs",    ft::iq2_xs,    dtype::iq2_xs},
    {"q2_k_s",    ft::q2_k_s,    dtype::q2_k},
    {"iq3_xs",    ft::iq3_xs,    dtype::iq3_s},
    {"iq3_xxs",   ft::iq3_xxs,   dtype::iq3_xxs},
    {"iq1_s",     ft::iq1_s,     dtype::iq1_s},
    {"iq4_nl",    ft::iq4_nl,    dtype::iq4_nl},
    {"iq3_s",     ft::iq3_s,     dtype::iq3_s},
    {"iq3_m",     ft::iq3_m,     dtype::iq3_s},
    {"iq2_s",     ft::iq2_s,     dtype::iq2_xs},
    {"iq2_m",     ft::iq2_m,     dtype::iq2_s},
    {"iq4_xs",    ft::iq4_xs,    dtype::iq4_xs},
    {"iq1_m",     ft::iq1_m,     dtype::iq1_m},
    {"bf16",      ft::bf16,      dtype::bf16},
    {"tq1_0",     ft::tq1_0,     dtype::tq1_0},
    {"tq2_0",     ft::tq2_0,     dtype::tq2_0},
    {"mxfp4_moe", ft::mxfp4_moe, dtype::mxfp4},
    // ik_llama.cpp (fork) file types: its llama.h LLAMA_FTYPE_MOSTLY_IQ2_K ... IQ6_K
    {"iq2_k",     ft::iq2_k,     dtype::iq2_k},
    {"iq3_k",     ft::iq3_k,     dtype::iq3_k},
    {"iq4_k",     ft::iq4_k,     dtype::iq4_k},
    {"iq5_k",     ft::iq5_k,     dtype::iq5_k},
    {"iq6_k",     ft::iq6_k,     dtype::iq6_k},
}};
// Aliases accepted by llama-quantize (QUANT_OPTIONS "alias for Q4_K_M" ...), plus "mxfp4".
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> aliases{{
    {"q3_k", "q3_k_m"}, {"q4_k", "q4_k_m"}, {"q5_k", "q5_k_m"}, {"mxfp4", "mxfp4_moe"},
}};
// clang-format on

using detail::iequals;

} // namespace

std::span<const gguf_ftype_info> gguf_ftypes() {
    return ftype_table;
}

std::optional<gguf_ftype_info> gguf_ftype_from_name(std::string_view name) {
    for (const auto& [alias, target] : aliases)
        if (iequals(name, alias)) name = target;
    for (const auto& row : ftype_table)
        if (iequals(name, row.name)) return row;
    return std::nullopt;
}

std::optional<gguf_ftype_info> gguf_ftype_from_id(int llama_ftype) {
    for (const auto& row : ftype_table)
        if (row.llama_ftype == llama_ftype) return row;
    return std::nullopt;
}

} // namespace llmplan

// LLAMA_FTYPE_* values of include/llama.h enum llama_ftype (the gaps are types llama.cpp removed:
// 4-6 old Q4_1_SOME_F16 / Q4_2 / Q4_3, 33-35 the Q4_0_4_4 / 4_8 / 8_8 repacks).
#pragma once

namespace llmplan::detail::ft {
constexpr int all_f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q8_0 = 7, q5_0 = 8, q5_1 = 9, q2_k = 10;
constexpr int q3_k_s = 11, q3_k_m = 12, q3_k_l = 13, q4_k_s = 14, q4_k_m = 15, q5_k_s = 16;
constexpr int q5_k_m = 17, q6_k = 18, iq2_xxs = 19, iq2_xs = 20, q2_k_s = 21, iq3_xs = 22;
constexpr int iq3_xxs = 23, iq1_s = 24, iq4_nl = 25, iq3_s = 26, iq3_m = 27, iq2_s = 28, iq2_m = 29;
constexpr int iq4_xs = 30, iq1_m = 31, bf16 = 32, tq1_0 = 36, tq2_0 = 37, mxfp4_moe = 38;
// ik_llama.cpp's llama.h (a fork): its own file types from 135 on
constexpr int iq2_k = 138, iq3_k = 139, iq4_k = 140, iq5_k = 141, iq6_k = 142;
} // namespace llmplan::detail::ft

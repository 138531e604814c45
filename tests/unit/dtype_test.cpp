#include "llmplan/dtype.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

// Expected sizes are ggml's block structs (ggml-common.h): e.g. block_q4_K holds 256 weights in
// 2 f16 (d, dmin) + 12 packed 6-bit scales + 128 bytes of nibbles = 144 bytes, 4.5 bits a weight.
TEST(dtype, block_bytes_match_ggml) {
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::q4_k), 4.5);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::q8_0), 8.5);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::q4_0), 4.5);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::q6_k), 6.5625);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::q2_k), 2.625);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::iq2_xxs), 2.0625);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::mxfp4), 4.25);
    EXPECT_DOUBLE_EQ(bits_per_element(dtype::bf16), 16.0);
}

TEST(dtype, tensor_bytes_is_integer_and_checks_blocks) {
    std::uint64_t b = 0;
    // 4096 x 4096 in Q4_K: 65536 blocks x 144 bytes.
    ASSERT_TRUE(tensor_bytes(dtype::q4_k, 4096ull * 4096, b));
    EXPECT_EQ(b, 65536ull * 144);
    EXPECT_FALSE(tensor_bytes(dtype::q4_k, 100, b));  // not a whole block
    EXPECT_FALSE(tensor_bytes(dtype::f32, ~0ull, b)); // overflow
    EXPECT_EQ(tensor_bytes_ceil(dtype::q8_0, 33), 68u);
}

TEST(dtype, lookups) {
    EXPECT_EQ(dtype_from_ggml_id(12), dtype::q4_k);
    EXPECT_EQ(dtype_from_ggml_id(30), dtype::bf16);
    EXPECT_EQ(dtype_from_ggml_id(39), dtype::mxfp4);
    EXPECT_FALSE(dtype_from_ggml_id(4).has_value()); // removed Q4_2
    EXPECT_EQ(dtype_from_safetensors("F8_E4M3"), dtype::f8_e4m3);
    EXPECT_FALSE(dtype_from_safetensors("bf16").has_value()); // spec spelling is upper case
    EXPECT_EQ(dtype_from_name("Q4_K"), dtype::q4_k);
    EXPECT_EQ(dtype_from_name("bfloat16"), dtype::bf16);
}

} // namespace
} // namespace llmplan

// llama.cpp's Metal prompt GEMM on quantized weights (metal_dequant_table, src/plan/speed_prefill.cpp):
// the tiles are unpacked before the multiply, at 0.89 of the F16 rate on the M1 and M2 and 0.965 from
// the M3 on. Figures worked by hand from the table's comment and from
// ../shared/speed_truth/llamacpp_apple_silicon_4167.json (Llama-2-7B pp512, the same run's F16 and Q4_0).
#include "llmplan/model_desc.h"
#include "plan/speed.h"
#include "unit/catalog_fixtures.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;
using test::hardware_row;

TEST(MetalPrefill, AppleGenerationFromTheCatalogNames) {
    EXPECT_EQ(apple_generation_of(hardware_row("Apple M1 Max")), 1u);
    EXPECT_EQ(apple_generation_of(hardware_row("Apple M2 Ultra")), 2u);
    EXPECT_EQ(apple_generation_of(hardware_row("Apple M3 Max")), 3u);
    // A Mac row of laptops.csv: the chip is in its GPU's name ("Apple M4 Max 32-core GPU").
    EXPECT_EQ(apple_generation_of(hardware_row("Mac Studio M4 Max (14-core), 36GB")), 4u);
    EXPECT_EQ(apple_generation_of(hardware_row("GeForce RTX 4090")), 0u);
}

TEST(MetalPrefill, QuantizedShareByGeneration) {
    EXPECT_DOUBLE_EQ(metal_quantized_gemm_share(1), 0.89);
    EXPECT_DOUBLE_EQ(metal_quantized_gemm_share(2), 0.89);
    EXPECT_DOUBLE_EQ(metal_quantized_gemm_share(3), 0.965);
    EXPECT_DOUBLE_EQ(metal_quantized_gemm_share(4), 0.965);
    EXPECT_DOUBLE_EQ(metal_quantized_gemm_share(0), 0.89); // unknown: the lower rate
}

// pp512 of Llama-2-7B: the weights' GEMMs (2 FLOPs a parameter a token) at the share of the F16 rate,
// attention (32 layers x 2 x 32 heads x (128 + 128) x 256 tokens seen, at half the GEMM rate on Metal)
// unchanged. Measured Q4_0 / F16: M2 Ultra 76-core 1238.5 / 1401.9 = 0.88, M3 Max 40-core 759.7 /
// 779.2 = 0.975.
TEST(MetalPrefill, QuantizedWeightsPayTheirUnpackingOnlyInTheGemms) {
    const auto m        = catalog_model("meta-llama/Llama-2-7b-hf");
    const double gemm   = 2.0 * static_cast<double>(count_params(m).active);
    const double attn   = 32.0 * 2 * 32 * (128 + 128) * 256;
    auto q4             = test::infer_params(engine_kind::llama_cpp, "q4_0", 512);
    q4.device           = device_kind::metal;
    auto f16            = test::infer_params(engine_kind::llama_cpp, "f16", 512);
    f16.device          = device_kind::metal;
    const auto ratio_on = [&](std::string_view row) {
        const auto chip = chip_of(hardware_row(row), engine_kind::llama_cpp, device_kind::metal);
        return prefill_tokens_per_s(m, q4, chip, 1, 512) / prefill_tokens_per_s(m, f16, chip, 1, 512);
    };
    EXPECT_NEAR(ratio_on("Apple M2 Ultra"), (gemm + 2 * attn) / (gemm / 0.89 + 2 * attn), 1e-9);
    EXPECT_NEAR(ratio_on("Apple M3 Max"), (gemm + 2 * attn) / (gemm / 0.965 + 2 * attn), 1e-9);
    EXPECT_NEAR(ratio_on("Apple M2 Ultra"), 0.88, 0.02);
    EXPECT_NEAR(ratio_on("Apple M3 Max"), 0.975, 0.02);
    // The M2 Ultra's Q4_0 rate itself: 0.65 x 27.2 TFLOPS for F16, x 0.89 for the weights' GEMMs:
    // 1150 tokens/s planned against 1238.5 measured (-7%; 1286, +4%, before the unpacking).
    const auto m2u = chip_of(hardware_row("Apple M2 Ultra"), engine_kind::llama_cpp, device_kind::metal);
    EXPECT_NEAR(prefill_tokens_per_s(m, q4, m2u, 1, 512) / 1238.5, 0.93, 0.02);
    // Strix Halo's Radeon 8060S, placed like a Mac (unified memory), runs llama.cpp's Vulkan / HIP
    // kernels: no Metal unpacking share (Q4_0 / F16 = the F16 rate for both GEMMs).
    const auto igpu =
        chip_of(hardware_row("Radeon 8060S (Ryzen AI Max+ 395 iGPU)"), engine_kind::llama_cpp, device_kind::metal);
    EXPECT_DOUBLE_EQ(prefill_tokens_per_s(m, q4, igpu, 1, 512), prefill_tokens_per_s(m, f16, igpu, 1, 512));
    // A CUDA chip carries no Apple generation (its quantized share is prefill_share_llamacpp_quantized).
    EXPECT_EQ(chip_of(hardware_row("GeForce RTX 4090"), engine_kind::llama_cpp, device_kind::cuda).apple_generation,
              0u);
}

} // namespace
} // namespace llmplan

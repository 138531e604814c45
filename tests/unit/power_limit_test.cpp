// A GPU's tensor rate held to its board power (src/plan/speed.cpp, tensor_power_table): the share of
// the rated peak is min(1, tdp_w / (W per TFLOPS x dense FP16 tensor TFLOPS)), Ada 1.36 W/TFLOPS.
// Values worked by hand from the gpus.csv rows (tdp_w, fp16_fp16acc_dense_tflops or, blank,
// fp16_bf16_dense_tflops); the prefill check is against xiongjiedai_llama3.json (llama-bench pp512).
#include "plan/speed.h"
#include "unit/catalog_fixtures.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

TEST(PowerLimit, AdaCardsBelowTheirPeaksPowerHoldTheirClockInProportion) {
    // L40S: 350 W / (1.36 x 362 TFLOPS = 492.3 W) = 0.7109.
    EXPECT_NEAR(power_limited_tensor_share(test::hardware_row("L40S")), 350.0 / (1.36 * 362.0), 1e-9);
    // RTX 6000 Ada: 300 W / (1.36 x 364 = 495.0 W) = 0.6060 (no FP16-acc figure: the FP16 one).
    EXPECT_NEAR(power_limited_tensor_share(test::hardware_row("RTX 6000 Ada Generation")), 300.0 / (1.36 * 364.0),
                1e-9);
    // L4: 72 W / (1.36 x 121 = 164.6 W) = 0.4375.
    EXPECT_NEAR(power_limited_tensor_share(test::hardware_row("L4")), 72.0 / (1.36 * 121.0), 1e-9);
    // A cloud row takes its GPU's board power, not the machine's: g6e.12xlarge = 4 x L40S.
    EXPECT_NEAR(power_limited_tensor_share(test::hardware_row("g6e.12xlarge")), 350.0 / (1.36 * 362.0), 1e-9);
}

TEST(PowerLimit, CardsWithThePowerOrWithoutAKnownNeedKeepTheirPeak) {
    // RTX 4090: 450 W >= 1.36 x 330.3 = 449.2 W; RTX 4080: 320 W >= 1.36 x 195 = 265.2 W.
    EXPECT_DOUBLE_EQ(power_limited_tensor_share(test::hardware_row("GeForce RTX 4090")), 1.0);
    EXPECT_DOUBLE_EQ(power_limited_tensor_share(test::hardware_row("GeForce RTX 4080 (16GB)")), 1.0);
    // Architectures without a row (Ampere 8.6 and 8.0, Hopper): 1.
    EXPECT_DOUBLE_EQ(power_limited_tensor_share(test::hardware_row("RTX A6000")), 1.0);
    EXPECT_DOUBLE_EQ(power_limited_tensor_share(test::hardware_row("A100 PCIe 80GB")), 1.0);
    // Blank board power (RTX 4070 Laptop GPU) or blank tensor figures (L40): 1.
    EXPECT_DOUBLE_EQ(power_limited_tensor_share(test::hardware_row("GeForce RTX 4070 Laptop GPU")), 1.0);
    EXPECT_DOUBLE_EQ(power_limited_tensor_share(test::hardware_row("L40")), 1.0);
}

TEST(PowerLimit, OnlyTheCudaMatmulRateIsHeld) {
    const auto& l40s      = test::hardware_row("L40S");
    const chip_rates cuda = chip_of(l40s, engine_kind::llama_cpp, device_kind::cuda);
    EXPECT_NEAR(cuda.matmul_flops, 362e12 * 350.0 / (1.36 * 362.0), 1e3); // 257.4 TFLOPS
    EXPECT_NEAR(cuda.fp32_flops, 91.6e12, 1e3);                           // decode's ALU rate: unchanged
}

TEST(PowerLimit, SameDiePrefillFollowsBoardPower) {
    // Llama-3 8B Q4_K_M pp512, xiongjiedai_llama3.json: RTX 4090 7139, L40S 6035, RTX 6000 Ada 5792
    // tokens/s. The spec peaks alone (330.3 / 362 / 364 TFLOPS) put the L40S and 6000 Ada 10% above the
    // 4090; measured they are 15% and 19% below it. Within 25% of each measurement:
    const auto m    = test::catalog_model("meta-llama/Meta-Llama-3-8B");
    auto p          = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 512);
    p.device        = device_kind::cuda;
    const auto rate = [&](std::string_view gpu) {
        return prefill_tokens_per_s(m, p, chip_of(test::hardware_row(gpu), p.engine, p.device), 1, 512);
    };
    EXPECT_NEAR(rate("GeForce RTX 4090") / 7139.0, 1.0, 0.25);
    EXPECT_NEAR(rate("L40S") / 6035.0, 1.0, 0.25);
    EXPECT_NEAR(rate("RTX 6000 Ada Generation") / 5792.0, 1.0, 0.25);
    EXPECT_LT(rate("RTX 6000 Ada Generation"), rate("L40S")); // 300 W vs 350 W for the same 142 SMs
    EXPECT_LT(rate("L40S"), rate("GeForce RTX 4090"));
}

} // namespace
} // namespace llmplan

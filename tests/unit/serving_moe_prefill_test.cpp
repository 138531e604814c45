// The experts' prefill matmul share by weight format and GPU architecture (src/serve/moe_kernels.cpp,
// "Prefill"): Marlin's INT4 experts run on SM80 mma.sync (0.7 on Hopper; Blackwell held at 1.0, see the
// table's comment), block-scaled FP8 experts on Hopper run Triton's per-block rescaled dot (0.6); everything
// else, and Ampere, 1.0. Checked by
// hand against the engine row's expert share (0.7, src/serve/step_model.cpp).
#include "llmplan/serving.h"
#include "serve/moe_kernels.h"
#include "serving_fixtures.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

instance_shape prefill_shape_of(const char* model, const char* gpu, std::uint32_t tp) {
    return test::vllm_instance_shape(test::catalog_model(model), test::hardware_row(gpu), tp);
}

TEST(ServingMoePrefill, TheTableByFormatAndArchitecture) {
    using detail::moe_prefill_matmul_share;
    using detail::moe_weights;
    const auto v = serving_engine::vllm;
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(v, moe_weights::int4, "Hopper"), 0.7);
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(v, moe_weights::int4, "Blackwell"), 1.0);
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(v, moe_weights::int4, "Ampere"), 1.0);
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(serving_engine::sglang, moe_weights::fp8_block, "Hopper"), 0.6);
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(v, moe_weights::fp8_block, "Blackwell"), 1.0);
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(v, moe_weights::mxfp4, "Hopper"), 1.0);
    EXPECT_DOUBLE_EQ(moe_prefill_matmul_share(serving_engine::trtllm, moe_weights::int4, "Blackwell"), 1.0);
}

TEST(ServingMoePrefill, BlockFp8ExpertsOnHopperReachOnlyPartOfTheDoubledRate) {
    // Qwen3-235B-A22B-FP8 on H200 (vLLM row): expert share 0.7 x 0.6 = 0.42 of a matmul rate that FP8 doubles:
    // per GPU 989 x 2 x 0.45 x 0.42 = 373.8 TFLOPS for the experts, 1.2x the 989 x 0.45 x 0.7 = 311.5 TFLOPS
    // BF16 experts would reach (device table: H200 SXM 989 dense BF16, 1979 FP8 TFLOPS).
    const auto q = prefill_shape_of("Qwen/Qwen3-235B-A22B-FP8", "H200 SXM", 2);
    EXPECT_NEAR(q.eff.expert_matmul_share, 0.42, 1e-12);
    EXPECT_NEAR(q.matmul_rate * q.eff.expert_matmul_share / q.tensor_parallel / 1e12, 373.8, 374.0 * 0.02);
    // Kimi-K2.5 (INT4 Marlin) on H200: 0.7 x 0.7 = 0.49; on B200 the engine's 0.7; a dense model 0.7.
    EXPECT_NEAR(prefill_shape_of("moonshotai/Kimi-K2.5", "H200 SXM", 8).eff.expert_matmul_share, 0.49, 1e-12);
    EXPECT_NEAR(prefill_shape_of("moonshotai/Kimi-K2.5", "B200 (HGX/DGX, per GPU)", 8).eff.expert_matmul_share, 0.7,
                1e-12);
    EXPECT_DOUBLE_EQ(prefill_shape_of("meta-llama/Llama-3.1-8B-Instruct", "H200 SXM", 1).eff.expert_matmul_share, 0.7);
}

} // namespace
} // namespace llmplan

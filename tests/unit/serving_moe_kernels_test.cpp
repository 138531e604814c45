// The fused-MoE kernel's cost in the serving step (src/serve/moe_kernels.cpp): which kernel the experts'
// weight format selects, and what it adds to a decode step, checked by hand from the table's values
// (FP8 block: 50 us a MoE layer, reads at 0.9; INT4 Marlin: 50 us, 0.5; MXFP4 and 16-bit: nothing).
#include "llmplan/serving.h"
#include "serve/moe_kernels.h"
#include "serving_fixtures.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

inference_params params_for(const device_spec& d, const char* weights) {
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.ctx                 = 2048;
    p.device_memory_bytes = d.memory_bytes.value_or(0);
    if (weights) p.weights = *parse_weight_choice(weights);
    return p;
}

instance_shape shape_of(const char* model, const char* weights, std::uint32_t tp) {
    return test::vllm_instance_shape(test::catalog_model(model), test::hardware_row("H200 SXM"), tp, weights);
}

TEST(ServingMoeKernels, TheWeightFormatPicksTheKernel) {
    const auto& d = test::hardware_row("H200 SXM");
    using detail::moe_weights;
    // Kimi-K2.5: compressed-tensors pack-quantized, int 4-bit, group 32 (its config.json): Marlin.
    EXPECT_EQ(detail::moe_weights_of(test::catalog_model("moonshotai/Kimi-K2.5"), params_for(d, nullptr)),
              moe_weights::int4);
    // DeepSeek-R1: quant_method fp8, weight_block_size [128, 128], native or --weights fp8.
    const auto r1 = test::catalog_model("deepseek-ai/DeepSeek-R1");
    EXPECT_EQ(detail::moe_weights_of(r1, params_for(d, nullptr)), moe_weights::fp8_block);
    EXPECT_EQ(detail::moe_weights_of(r1, params_for(d, "fp8")), moe_weights::fp8_block);
    // gpt-oss-120b: quant_method mxfp4.
    EXPECT_EQ(detail::moe_weights_of(test::catalog_model("openai/gpt-oss-120b"), params_for(d, nullptr)),
              moe_weights::mxfp4);
    // Mixtral-8x7B is BF16; --weights fp8 quantizes it per channel, not in blocks.
    const auto mixtral = test::catalog_model("mistralai/Mixtral-8x7B-v0.1");
    EXPECT_EQ(detail::moe_weights_of(mixtral, params_for(d, nullptr)), moe_weights::sixteen_bit);
    EXPECT_EQ(detail::moe_weights_of(mixtral, params_for(d, "fp8")), moe_weights::fp8_channel);
}

TEST(ServingMoeKernels, MarlinAddsItsLaunchesAndReadsAtHalfTheShare) {
    // Kimi-K2.5 at tensor parallel 8: 61 layers, the first dense (first_k_dense_replace 1), so 60 MoE
    // layers of 384 experts, 8 a token.
    const auto s = shape_of("moonshotai/Kimi-K2.5", nullptr, 8);
    ASSERT_EQ(s.moe_layers, 60u);
    ASSERT_EQ(s.n_expert, 384u);
    ASSERT_EQ(s.n_expert_used, 8u);
    EXPECT_DOUBLE_EQ(s.moe_layer_s, 50e-6);
    EXPECT_DOUBLE_EQ(s.expert_bandwidth_share, 0.5);
    instance_shape plain         = s;
    plain.moe_layer_s            = 0;
    plain.expert_bandwidth_share = 1.0;
    const step_load one{1, 1000, 0, 0};
    const auto with_kernel = step_seconds(s, one);
    const auto without     = step_seconds(plain, one);
    // 60 MoE layers x 50 us = 3.0 ms of fixed time a step.
    EXPECT_NEAR(with_kernel.fixed_s - without.fixed_s, 3.0e-3, 1e-9);
    // One sequence touches its 8 experts of 384 in each layer; read at half the share they take twice
    // as long: the extra is their bytes once more over the bandwidth.
    const double touched_bytes = s.moe_layers * s.expert_bytes_per_layer * 8.0 / 384.0;
    EXPECT_NEAR(with_kernel.memory_s - without.memory_s, touched_bytes / s.bandwidth, 1e-12);
}

TEST(ServingMoeKernels, BlockFp8AddsItsLaunchesMxfp4AndDenseNothing) {
    // Qwen3-235B-A22B-FP8: 94 layers, every one MoE: 94 x 50 us = 4.7 ms a step.
    const auto q = shape_of("Qwen/Qwen3-235B-A22B-FP8", "fp8", 2);
    ASSERT_EQ(q.moe_layers, 94u);
    EXPECT_NEAR(q.moe_layer_s * q.moe_layers, 4.7e-3, 1e-12);
    EXPECT_DOUBLE_EQ(q.expert_bandwidth_share, 0.9);
    // gpt-oss-120b (MXFP4 experts) and a dense model: no extra time, experts read at the engine's share.
    for (const auto* m : {"openai/gpt-oss-120b", "meta-llama/Llama-3.1-8B-Instruct"}) {
        const auto s = shape_of(m, nullptr, 1);
        EXPECT_EQ(s.moe_layer_s, 0.0) << m;
        EXPECT_EQ(s.expert_bandwidth_share, 1.0) << m;
    }
}

} // namespace
} // namespace llmplan

// The serving step model's costs that grow with the batch and with the tensor-parallel group
// (src/serve/step_model.cpp): the time each decoding sequence adds to a step, and the all-reduce ring
// over PCIe past two GPUs. The values are the fitted constants of bench/accuracy_serving.md, checked
// by hand here.
#include "llmplan/serving.h"
#include "serve/step_table.h"
#include "serving_fixtures.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

instance_shape vllm_shape_on(const device_spec& d) {
    return test::vllm_instance_shape(test::catalog_model("meta-llama/Llama-3.1-8B-Instruct"), d, 1);
}

TEST(ServingStepCosts, EachDecodingSequenceAddsItsOwnTime) {
    const auto s = vllm_shape_on(test::hardware_row("H100 SXM 80GB"));
    // vLLM's row: 2.0 ms a step plus 25 us a decoding sequence (one GPU: no all-reduce). 64 sequences
    // take 63 x 25 us = 1.575 ms more fixed time than one, whatever their depth.
    const auto one  = step_seconds(s, step_load{1, 1000, 0, 0});
    const auto many = step_seconds(s, step_load{64, 64000, 0, 0});
    EXPECT_NEAR(one.fixed_s, 2.0e-3 + 25e-6, 1e-9);
    EXPECT_NEAR(many.fixed_s - one.fixed_s, 63 * 25e-6, 1e-9);
    // A prefill-only step samples no token of a running request: the per-step time alone.
    EXPECT_NEAR(step_seconds(s, step_load{0, 0, 512, 512.0 * 513 / 2}).fixed_s, 2.0e-3, 1e-9);
}

TEST(ServingStepCosts, PcieRingPastAPairReachesLess) {
    const auto& l40s = test::hardware_row("L40S"); // PCIe Gen4 x16: 32 GB/s a direction
    // Two GPUs: 0.8 of the link (NCCL's ring); four and eight: 0.45 (fitted on the 2048-token prompts
    // of serving_nvidia_dli_trtllm090_static.json, L40/L40S/H100 NVL at TP 4 and 8).
    EXPECT_TRUE(detail::allreduce_crosses_pcie(l40s, 2));
    EXPECT_NEAR(detail::allreduce_link_bytes_per_s(l40s, 2), 32e9 * 0.8, 1e6);
    EXPECT_NEAR(detail::allreduce_link_bytes_per_s(l40s, 4), 32e9 * 0.45, 1e6);
    EXPECT_NEAR(detail::allreduce_link_bytes_per_s(l40s, 8), 32e9 * 0.45, 1e6);
    // NVLink keeps its ring share at eight: H100 SXM, 450 GB/s a direction x 0.8.
    const auto& sxm = test::hardware_row("H100 SXM 80GB");
    EXPECT_FALSE(detail::allreduce_crosses_pcie(sxm, 8));
    EXPECT_NEAR(detail::allreduce_link_bytes_per_s(sxm, 8), 450e9 * 0.8, 1e6);
}

} // namespace
} // namespace llmplan

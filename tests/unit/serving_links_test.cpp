// Serving step model (src/serve/step_model.cpp): the all-reduce link a tensor-parallel group uses, the
// routed experts' share of a step's FLOPs, and the decode line the simulation steps with.
#include "catalog_fixtures.h"
#include "llmplan/serving.h"
#include "serve/step_table.h"

#include <cmath>
#include <gtest/gtest.h>

namespace llmplan {
namespace {

instance_shape shape_of(const model_desc& m, const device_spec& d, std::uint32_t tp) {
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.ctx                 = 4096;
    p.gpus                = tp;
    p.device_memory_bytes = d.memory_bytes.value_or(0);
    auto e                = estimate_inference(m, p);
    EXPECT_TRUE(e.has_value());
    return e ? make_instance_shape(m, *e, p, d, serving_engine::vllm, tp, 1) : instance_shape{};
}

TEST(ServingLinks, AnNvlinkBridgeJoinsTwoCardsOnly) {
    // H100 NVL: an NVLink bridge of 600 GB/s (300 a direction) between the two cards of a pair, PCIe Gen5
    // (64 GB/s a direction) past them; x 0.8 reached by the ring over NVLink or two PCIe cards, x 0.45 by a
    // ring of more than two over PCIe (step_model.cpp, fitted on serving_nvidia_dli_trtllm090_static.json).
    const auto& nvl = test::hardware_row("H100 NVL (per GPU)");
    EXPECT_FALSE(detail::allreduce_crosses_pcie(nvl, 2));
    EXPECT_TRUE(detail::allreduce_crosses_pcie(nvl, 4));
    EXPECT_DOUBLE_EQ(detail::allreduce_link_bytes_per_s(nvl, 2), 300e9 * 0.8);
    EXPECT_DOUBLE_EQ(detail::allreduce_link_bytes_per_s(nvl, 4), 64e9 * 0.45);
    // H100 SXM: NVLink 4 (900 GB/s, 450 a direction) between all eight GPUs of a board.
    const auto& sxm = test::hardware_row("H100 SXM 80GB");
    EXPECT_FALSE(detail::allreduce_crosses_pcie(sxm, 8));
    EXPECT_DOUBLE_EQ(detail::allreduce_link_bytes_per_s(sxm, 8), 450e9 * 0.8);
    // L40S: PCIe Gen4 only (32 GB/s a direction).
    const auto& l40s = test::hardware_row("L40S");
    EXPECT_TRUE(detail::allreduce_crosses_pcie(l40s, 2));
    EXPECT_DOUBLE_EQ(detail::allreduce_link_bytes_per_s(l40s, 2), 32e9 * 0.8);
}

TEST(ServingLinks, AllReducesOverPcieCostTheFittedLatency) {
    const auto m = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    // 80 us more an all-reduce over PCIe (fitted on the TensorRT-LLM 0.9.0 static rows, step_model.cpp).
    EXPECT_DOUBLE_EQ(shape_of(m, test::hardware_row("L40S"), 2).allreduce_extra_s, 80e-6);
    EXPECT_DOUBLE_EQ(shape_of(m, test::hardware_row("H100 SXM 80GB"), 2).allreduce_extra_s, 0.0);
    // A decode step of one sequence on two L40S: 2 all-reduces x 32 layers x 80 us = 5.12 ms more than
    // the same step would pay over NVLink's latency alone.
    const auto s         = shape_of(m, test::hardware_row("L40S"), 2);
    auto nv              = s;
    nv.allreduce_extra_s = 0;
    const step_load one{1, 1000, 0, 0};
    EXPECT_NEAR(step_seconds(s, one).seconds - step_seconds(nv, one).seconds, 2 * 32 * 80e-6, 1e-12);
}

TEST(ServingSteps, RoutedExpertsAreMostOfMixtralsFlops) {
    // Mixtral-8x7B: 2 of 8 experts, 32 layers of 3 x 4096 x 14336 weights an expert: 11.27 B of the 12.9 B
    // active parameters, 0.874 of them.
    const auto m = test::catalog_model("mistralai/Mixtral-8x7B-v0.1");
    const auto s = shape_of(m, test::hardware_row("H100 SXM 80GB"), 2);
    ASSERT_GT(s.flops_per_token, 0);
    EXPECT_NEAR(s.expert_flops_per_token / s.flops_per_token, 0.874, 0.01);
    // A prompt chunk with no attention to pay: its compute time is the dense part at the matmul rate and
    // the experts' at 0.7 of it, (0.126 + 0.874 / 0.7) = 1.37 x the time at one rate.
    auto flat                    = s;
    flat.eff.expert_matmul_share = 1.0;
    const step_load chunk{0, 0, 4096, 0};
    const double ratio = step_seconds(s, chunk).compute_s / step_seconds(flat, chunk).compute_s;
    EXPECT_NEAR(ratio, 1 - 0.874 + 0.874 / s.eff.expert_matmul_share, 0.02);
}

TEST(ServingSteps, TheDecodeLineIsTheStepModel) {
    // decode_step_line is step_seconds with no prefill, as a line in the summed context.
    for (const char* id : {"meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mixtral-8x7B-v0.1"}) {
        const auto m = test::catalog_model(id);
        const auto s = shape_of(m, test::hardware_row("H100 SXM 80GB"), 2);
        for (const double n : {1.0, 7.0, 64.0, 256.0})
            for (const double ctx : {0.0, 1000.0, 250000.0}) {
                const auto t     = step_seconds(s, step_load{n, ctx, 0, 0});
                const auto line  = detail::decode_step_line(s, n);
                const double mem = line.mem_a + line.mem_b * ctx, cmp = line.cmp_a + line.cmp_b * ctx;
                EXPECT_NEAR(mem, t.memory_s, 1e-12 * t.seconds) << id << " n " << n << " ctx " << ctx;
                EXPECT_NEAR(cmp, t.compute_s, 1e-12 * t.seconds) << id;
                EXPECT_NEAR(std::max(mem, cmp) + line.fixed_s, t.seconds, 1e-12 * t.seconds) << id;
            }
    }
}

} // namespace
} // namespace llmplan

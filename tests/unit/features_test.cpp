// Will it run at all (issue 14, item 9): chip features against the plan's engine and dtype.
#include "catalog_fixtures.h"
#include "llmplan/hardware.h"
#include "llmplan/plan.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;

plan_candidate one(const char* hw, engine_kind e, const char* weights = "bf16") {
    inference_params p;
    p.engine  = e;
    p.weights = *parse_weight_choice(weights);
    p.ctx     = 4096;
    return make_plan(catalog_model("Qwen/Qwen2.5-7B"), p, {*builtin_hardware().lookup(hw)}).candidates.front();
}

TEST(features, bf16_on_a_t4_offers_fp16) {
    // T4: compute capability 7.5 (NVIDIA's table); bf16 tensor cores start at 8.0 (Ampere).
    const auto c = one("g4dn.xlarge", engine_kind::transformers);
    ASSERT_FALSE(c.unsupported.empty());
    EXPECT_NE(c.unsupported.front().find("fp16"), std::string::npos) << c.unsupported.front();
    EXPECT_TRUE(one("GeForce RTX 4090", engine_kind::transformers).unsupported.empty()); // 8.9
}

TEST(features, vllm_needs_compute_capability_7) {
    // P100 (6.0) is below vLLM's 7.0; llama.cpp (5.0+) runs there.
    const auto c = one("P100 PCIe 16GB", engine_kind::vllm, "f16");
    ASSERT_FALSE(c.unsupported.empty());
    EXPECT_NE(c.unsupported.front().find("vLLM needs compute capability 7.0+"), std::string::npos);
    EXPECT_FALSE(c.meets_speed);
    EXPECT_TRUE(one("P100 PCIe 16GB", engine_kind::llama_cpp, "f16").unsupported.empty());
}

TEST(features, launch_lines_name_the_cuda_floor) {
    const auto c = one("GeForce RTX 5090", engine_kind::vllm); // Blackwell, 12.0
    ASSERT_FALSE(c.requires_versions.empty());
    EXPECT_EQ(c.requires_versions.front(), "CUDA 12.8+ and NVIDIA driver 570+ (Blackwell)");
}

} // namespace
} // namespace llmplan

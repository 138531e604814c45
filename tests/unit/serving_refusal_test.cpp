// Why a row serves nothing (include/llmplan/serving.h, plan_serving's why_none): the person reads the
// limit in place of an empty table, so each refusal names it with figures that can be checked by hand.
#include "catalog_fixtures.h"
#include "llmplan/serving.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

serving_context fixed_context(const model_desc& m, std::uint32_t gpus, std::uint32_t tp) {
    serving_context c;
    c.model                   = &m;
    c.infer.engine            = engine_kind::vllm;
    c.infer.device            = device_kind::cuda;
    c.infer.gpus              = gpus;
    c.gpus_given              = true;
    c.request.on              = true;
    c.request.concurrency     = 8;
    c.request.tensor_parallel = tp;
    return c;
}

// Llama-3.1-70B in BF16 is 70,553,706,496 parameters x 2 bytes = 131.4 GiB of weights: one H100 (80 GiB
// of HBM3 less the driver's share: 79.2 GiB, hardware_test's figure, which vLLM logs as 79.22 GiB) cannot
// hold them at tensor parallel 1, and the refusal says the weights' size and the GPU's.
TEST(ServingRefusal, WeightsLargerThanTheGpuSayBothSizes) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-70B");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    std::string why;
    const auto f = plan_serving(fixed_context(m, 1, 1), d, &why);
    EXPECT_FALSE(f.has_value());
    EXPECT_EQ(why, "does not fit at tensor parallel 1: the weights take 131.4 GiB a GPU of its 79.2 GiB");
}

// Llama-3.1-8B has 32 attention heads and 8 KV heads: 3 GPUs split neither evenly.
TEST(ServingRefusal, HeadsThatDoNotSplitSaySo) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    std::string why;
    EXPECT_FALSE(plan_serving(fixed_context(m, 3, 3), d, &why).has_value());
    EXPECT_EQ(why, "3 GPUs (tensor parallel) do not split the model's attention heads evenly");
}

// A row that serves clears the reason.
TEST(ServingRefusal, AServedRowHasNoReason) {
    const auto m    = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d   = test::hardware_row("H100 SXM 80GB");
    std::string why = "left from before";
    EXPECT_TRUE(plan_serving(fixed_context(m, 1, 1), d, &why).has_value());
    EXPECT_TRUE(why.empty());
}

} // namespace
} // namespace llmplan

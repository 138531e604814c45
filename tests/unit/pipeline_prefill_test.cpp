// llama.cpp prefill on a layer split over several GPUs: micro-batches overlap across the GPUs
// (pipeline parallelism, src/plan/speed.h llamacpp_pipeline_speedup). Values worked by hand from
// speedup = U / (1 + (U - 1) / (min(N, 4) x 0.75)), U = ceil(prompt / n_ubatch).
#include "plan/speed.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

TEST(PipelinePrefill, OneMicroBatchOrOneGpuGainsNothing) {
    EXPECT_DOUBLE_EQ(llamacpp_pipeline_speedup(512, 512, 4), 1.0); // pp512: U = 1
    EXPECT_DOUBLE_EQ(llamacpp_pipeline_speedup(300, 512, 8), 1.0);
    EXPECT_DOUBLE_EQ(llamacpp_pipeline_speedup(8192, 512, 1), 1.0);
    EXPECT_DOUBLE_EQ(llamacpp_pipeline_speedup(0, 512, 4), 1.0);
}

TEST(PipelinePrefill, SpeedupGrowsWithMicroBatches) {
    // 4 GPUs: U = 2 -> 2 / (1 + 1/3) = 1.5; U = 16 -> 16 / (1 + 15/3) = 2.667. xiongjiedai_llama3.json
    // measures 1.46-1.56 (pp1024) and 2.78-2.94 (pp8192) for Llama-3 8B on 4 GPUs over one.
    EXPECT_NEAR(llamacpp_pipeline_speedup(1024, 512, 4), 1.5, 1e-12);
    EXPECT_NEAR(llamacpp_pipeline_speedup(8192, 512, 4), 16.0 / 6.0, 1e-12);
    // A partial micro-batch counts as one: 1025 tokens = U 3 -> 3 / (1 + 2/3) = 1.8.
    EXPECT_NEAR(llamacpp_pipeline_speedup(1025, 512, 4), 1.8, 1e-12);
    // 2 GPUs, U = 8: 8 / (1 + 7/1.5) = 1.4118.
    EXPECT_NEAR(llamacpp_pipeline_speedup(4096, 512, 2), 8.0 / (1.0 + 7.0 / 1.5), 1e-12);
}

TEST(PipelinePrefill, AtMostFourMicroBatchesInFlight) {
    // GGML_SCHED_MAX_COPIES = 4: 8 GPUs overlap no more than 4 (measured 8 x RTX 4090, 8B pp8192:
    // 3.01-3.42x one GPU; the model 2.667).
    EXPECT_DOUBLE_EQ(llamacpp_pipeline_speedup(8192, 512, 8), llamacpp_pipeline_speedup(8192, 512, 4));
}

} // namespace
} // namespace llmplan

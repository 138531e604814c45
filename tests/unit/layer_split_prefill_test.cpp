// llama.cpp prefill on a layer split: each micro-batch pays a hand-over at every GPU boundary
// (src/plan/layer_split_prefill.h). Values worked by hand from the formula
// rate = tokens / (tokens / one_gpu_rate + (N - 1) x (0.225 ms + tokens x n_embd x 4 B / 25 GB/s)).
#include "llmplan/model_desc.h"
#include "plan/layer_split_prefill.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

model_desc width(std::uint64_t n_embd) {
    model_desc m;
    m.n_embd = n_embd;
    return m;
}

TEST(LayerSplitPrefill, BoundaryBytesAreTheF32ResidualStream) {
    // Llama-3 8B (hidden_size 4096), 512 tokens: 512 x 4096 x 4 = 8 MiB.
    EXPECT_DOUBLE_EQ(llamacpp_boundary_bytes(width(4096), 512), 8388608.0);
}

TEST(LayerSplitPrefill, EachBoundaryAddsAHopAndACopy) {
    // 8 MiB over 25 GB/s = 0.33554 ms, plus 0.225 ms = 0.56054 ms a boundary; 4 GPUs: 3 boundaries.
    // One GPU at 10000 tokens/s: 51.2 ms for 512 tokens -> 512 / (0.0512 + 3 x 0.00056054) = 9682.0.
    const double hop      = 0.225e-3 + 8388608.0 / 25e9;
    const double expected = 512.0 / (512.0 / 10000.0 + 3.0 * hop);
    EXPECT_NEAR(expected, 9682.0, 0.05);
    EXPECT_NEAR(llamacpp_split_prefill_tokens_per_s(10000.0, width(4096), 512, 512, 4), expected, 1e-9);
    // A longer prompt is still priced per micro-batch of n_ubatch tokens (the same rate before overlap).
    EXPECT_NEAR(llamacpp_split_prefill_tokens_per_s(10000.0, width(4096), 4096, 512, 4), expected, 1e-9);
}

TEST(LayerSplitPrefill, OneGpuOrNoRateIsUnchanged) {
    EXPECT_DOUBLE_EQ(llamacpp_split_prefill_tokens_per_s(10000.0, width(4096), 512, 512, 1), 10000.0);
    EXPECT_DOUBLE_EQ(llamacpp_split_prefill_tokens_per_s(0.0, width(4096), 512, 512, 4), 0.0);
    EXPECT_DOUBLE_EQ(llamacpp_split_prefill_tokens_per_s(10000.0, width(4096), 0, 512, 4), 10000.0);
}

} // namespace
} // namespace llmplan

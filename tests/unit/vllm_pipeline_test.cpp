// vLLM tensor x pipeline parallel (how it spans nodes): layers per stage, weights and KV per GPU.
#include "llmplan/inference.h"
#include "llmplan/load.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

inference_params vllm_on(std::uint32_t gpus, std::uint32_t stages) {
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.gpus                = gpus;
    p.pipeline_parallel   = stages;
    p.weights             = *parse_weight_choice("bf16");
    p.device_memory_bytes = 80ull << 30;
    return p;
}

TEST(vllm_pipeline, two_nodes_of_eight_split_layers_and_weights) {
    auto m = load_model("meta-llama/Llama-3.1-405B");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    ASSERT_EQ(m->n_layer, 126u);
    auto tp16 = estimate_inference(*m, vllm_on(16, 1));
    auto pp2  = estimate_inference(*m, vllm_on(16, 2));
    ASSERT_TRUE(tp16.has_value() && pp2.has_value());
    ASSERT_EQ(pp2->devices.size(), 16u);
    // 405,853,388,800 params x 2 bytes over 16 GPUs = 50.7 GB each, either way (within 1%: the
    // embedding and head sit on the first and last stage).
    const double per_gpu = 405'853'388'800.0 * 2 / 16;
    for (const auto& d : pp2->devices)
        EXPECT_NEAR(static_cast<double>(d.parts.weights), per_gpu, 0.01 * per_gpu) << d.device;
    // KV per token per GPU: TP16 replicates the 8 KV heads (one per GPU, all 126 layers): 126 x 128
    // x 2 (K, V) x 2 bytes = 64,512; TP8 x PP2 holds one head of 63 layers: 32,256. Same pool, so
    // the pipeline split holds twice the tokens (16-token blocks round it down).
    const double ratio = static_cast<double>(pp2->vllm_kv_capacity_tokens) / tp16->vllm_kv_capacity_tokens;
    EXPECT_NEAR(ratio, 2.0, 0.02);
}

TEST(vllm_pipeline, stages_must_divide_the_gpus_and_fit_the_layers) {
    auto m = load_model("meta-llama/Llama-3.1-8B");
    ASSERT_TRUE(m.has_value());
    EXPECT_FALSE(estimate_inference(*m, vllm_on(3, 2)).has_value());   // 3 GPUs, 2 stages
    EXPECT_FALSE(estimate_inference(*m, vllm_on(64, 64)).has_value()); // 64 stages, 32 layers
    auto p   = vllm_on(2, 2);
    p.engine = engine_kind::llama_cpp; // llama.cpp splits layers with --gpus alone
    EXPECT_FALSE(estimate_inference(*m, p).has_value());
}

} // namespace
} // namespace llmplan

// The contract's three counters on a training GPU (src/estimate/training_counters.cpp), on the tiny
// llama of training_fixture.h (2 layers, hidden 64, vocab 100): what each tool would print, checked
// against the parts the estimate reports, so each value can be re-added by hand.
#include "estimate/counters.h"
#include "estimate/runtime.h"
#include "estimate/training_detail.h"
#include "llmplan/estimate.h"
#include "training_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

training_params run(std::uint32_t gpus) {
    training_params p;
    p.method = train_method::lora;
    p.seq    = 16;
    p.gpus   = gpus;
    return p;
}

TEST(TrainingCounters, AllocatedReservedAndDeviceUsedNest) {
    for (const std::uint32_t gpus : {1u, 2u}) {
        const auto p = run(gpus);
        auto e       = estimate_training(test::make_llama({}), p);
        ASSERT_TRUE(e) << e.error().message;
        const auto& d = e->devices.front();
        const auto c  = detail::training_counters(d, p);
        ASSERT_TRUE(c);
        // nvidia-smi's figure is the device total the plan fits on (cli-contract.md).
        EXPECT_EQ(c->device_used, static_cast<std::uint64_t>(d.total_bytes()));
        // max_memory_allocated is the total less everything outside the tensors (`overhead`).
        EXPECT_EQ(c->torch_allocated, static_cast<std::uint64_t>(d.total_bytes() - d.parts.overhead));
        // max_memory_reserved leaves out only the CUDA context (1 GiB) and, on several GPUs, NCCL's 0.5 GiB.
        const std::uint64_t outside = detail::torch_cuda_context_bytes + (gpus > 1 ? detail::nccl_bytes : 0);
        EXPECT_EQ(c->torch_reserved, c->device_used - outside);
        EXPECT_LE(c->torch_allocated, c->torch_reserved);
    }
}

TEST(TrainingCounters, HostRowHasNone) {
    auto p              = run(1);
    p.offload_optimizer = true;
    p.zero_stage        = 2;
    auto e              = estimate_training(test::make_llama({}), p);
    ASSERT_TRUE(e) << e.error().message;
    ASSERT_EQ(e->devices.back().kind, device_kind::cpu);
    EXPECT_FALSE(detail::training_counters(e->devices.back(), p));
}

TEST(InferenceCounters, OnlyPyTorchEnginesOnCuda) {
    device_breakdown d;
    d.kind           = device_kind::cuda;
    d.parts.weights  = 1000;
    d.parts.overhead = 300;
    inference_params p;
    p.engine     = engine_kind::transformers;
    const auto c = detail::inference_counters(d, p);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->torch_allocated, 1000u);
    EXPECT_EQ(c->torch_reserved, 1000u); // no cached block modelled for inference
    EXPECT_EQ(c->device_used, 1300u);
    p.engine = engine_kind::llama_cpp;
    EXPECT_FALSE(detail::inference_counters(d, p));
    p.engine = engine_kind::vllm;
    d.kind   = device_kind::cpu;
    EXPECT_FALSE(detail::inference_counters(d, p));
}

} // namespace
} // namespace llmplan

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

namespace llmplan {
namespace {

// LitGPT's own model code (src/estimate/training_habits.cpp): an untied lm_head beside a tied embedding
// (litgpt/model.py @ 00af8b0d l.25; convert_hf_checkpoint.py l.206-207 copies the embedding into it), and
// under QLoRA Fabric's bitsandbytes plugin quantizes that lm_head too. Tiny llama: vocab 100 x hidden 64.
TEST(TrainerOwnModel, LitgptUntiesATiedEmbedding) {
    test::llama_dims dims;
    dims.tied          = true;
    const model_desc m = test::make_llama(dims);
    training_params p;
    p.method    = train_method::lora;
    p.precision = train_precision::bf16;
    p.seq       = 16;
    p.trainer   = "hf";
    auto hf     = estimate_training(m, p);
    p.trainer   = "litgpt";
    auto lit    = estimate_training(m, p);
    ASSERT_TRUE(hf && lit);
    // a bf16 copy of the 100 x 64 embedding: 12800 bytes more frozen weight
    EXPECT_EQ(lit->devices[0].parts.weights - hf->devices[0].parts.weights, 100u * 64u * 2u);

    // QLoRA: the copy is NF4, 0.5 byte a weight + an fp32 absmax per 64 weights: 3200 + 400 bytes
    p.method          = train_method::qlora;
    p.weights.format  = weight_format::nf4;
    auto lit_q        = estimate_training(m, p);
    const auto untied = test::make_llama({});
    auto lit_q_untied = estimate_training(untied, p);
    ASSERT_TRUE(lit_q && lit_q_untied);
    // The untied model's own lm_head is also NF4 under LitGPT: both hold the same weights.
    EXPECT_EQ(lit_q->devices[0].parts.weights, lit_q_untied->devices[0].parts.weights);
    // Against a trainer that neither unties nor upcasts (llama-factory: no k-bit fp32 upcast).
    p.trainer = "llama-factory";
    auto lf_q = estimate_training(m, p);
    ASSERT_TRUE(lf_q);
    // Beside it, LitGPT's `bnb.nf4` keeps an fp32 absmax per 64 weights in every layer where the nf4 format
    // double-quantizes it (1 byte per 64 + 4 per 256 blocks): per layer q and o (64 blocks each: 256 - 68),
    // k and v (32 blocks: 128 - 36), gate, up and down (128 blocks: 512 - 132) = 1,700 bytes, 3,400 for two.
    EXPECT_EQ(lit_q->devices[0].parts.weights - lf_q->devices[0].parts.weights, 100u * 64u / 2u + 100u * 4u + 3'400u);
    // Dequantization: fp16 then a bf16 copy of the largest quantized matrix (here an FFN matrix, 128 x 64,
    // above lm_head's 100 x 64): 2 copies x 2 bytes, where llama-factory's bf16 state makes one.
    EXPECT_EQ(lit_q->devices[0].parts.compute, 128u * 64u * 4u);
    EXPECT_EQ(lf_q->devices[0].parts.compute, 128u * 64u * 2u);
}

} // namespace
} // namespace llmplan

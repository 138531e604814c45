// make_train_plan on catalog rows (data/hardware) and catalog models (data/models): the expected
// figures are worked out by hand from the constants in train_plan.h, as the comments show.
#include "catalog_fixtures.h"
#include "llmplan/load.h"
#include "llmplan/train_plan.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;
using test::hardware_row;

training_params full_adamw() {
    training_params p;
    p.method    = train_method::full;
    p.optimizer = optimizer_kind::adamw;
    p.precision = train_precision::bf16_mixed;
    p.seq       = 2048;
    return p;
}

plan_candidate plan_one(const model_desc& m, const training_params& p, std::string_view hw,
                        std::uint64_t tokens = default_train_tokens) {
    auto r = make_train_plan(m, p, {&hardware_row(hw)}, tokens);
    EXPECT_EQ(r.candidates.size(), 1u);
    return r.candidates.front();
}

TEST(TrainPlan, DeviceFlopsFromMamfOrPeak) {
    // H100 SXM: MAMF 794.5 TFLOP/s measured x 0.52 / 0.80 = 516 TFLOP/s (= 52% of the 989 dense peak).
    EXPECT_NEAR(train_device_flops(hardware_row("H100 SXM 80GB")), 0.65 * 794.5e12, 1e9);
    EXPECT_NEAR(train_mfu_of_dense_peak * 989e12, 0.65 * 794.5e12, 0.01 * 989e12);
    // RTX 4090: no MAMF in the table: 0.52 x 165.2 TFLOP/s dense FP16 (FP32 accumulate).
    EXPECT_NEAR(train_device_flops(hardware_row("RTX 4090")), 0.52 * 165.2e12, 1e9);
    // Ryzen 9 7950X: 16 cores x 3 GHz x 32 FLOP/cycle x 0.52 = 0.799 TFLOP/s.
    EXPECT_NEAR(train_device_flops(hardware_row("Ryzen 9 7950X")), 0.52 * 16 * 3e9 * 32, 1e6);
}

TEST(TrainPlan, Llama8BFullFineTuneNeedsSeveralH100s) {
    const auto m = catalog_model("meta-llama/Llama-3.1-8B");
    auto p       = full_adamw();
    // One GPU: bf16 weights 2 + grads 2 + fp32 master 4 + Adam m, v 8 = 16 bytes x 8.03e9 = 128 GB.
    auto one = estimate_training(m, p);
    ASSERT_TRUE(one.has_value());
    EXPECT_GT(one->devices.front().total_bytes(), 16ll * 8'000'000'000ll);

    const auto c = plan_one(m, p, "H100 SXM 80GB");
    ASSERT_TRUE(c.training.has_value());
    const auto& t = *c.training;
    EXPECT_TRUE(c.fits);
    EXPECT_GT(c.count, 1u);
    EXPECT_LE(c.count, 8u);
    EXPECT_GE(t.zero_stage, 1u); // sharding is what makes it fit
    EXPECT_EQ(t.nodes, 1u);
    EXPECT_GE(c.headroom_bytes, 0);

    // Step: 6 (8 with recomputation) x 7.50e9 non-embedding params (8.03e9 - 128256 x 4096 embedding)
    // plus attention's 32 layers x 2 x 32 heads x (128 + 128) x 1024 (causal mean) x 3 (4) = 1.61e9
    // (2.15e9) FLOPs a token, x 2048 tokens / 516 TFLOP/s = 0.185 s (0.247 s); the estimate's own FLOPs
    // agree. The host's 32 layers x 5 ms (x 3/4 without recomputation) = 0.16 s (0.12 s) is shorter.
    const double per_param = t.grad_checkpointing ? 8.0 : 6.0;
    const double nonembed  = 8'030'261'248.0 - 128256.0 * 4096;
    const double attn      = 32.0 * 2 * 32 * 256 * 1024 * (t.grad_checkpointing ? 4 : 3);
    const double step      = (per_param * nonembed + attn) * 2048 / (train_share_of_mamf * 794.5e12);
    EXPECT_NEAR(t.step_seconds, step, 0.01 * step);
    EXPECT_NEAR(step, t.grad_checkpointing ? 0.247 : 0.185, 0.005);
    EXPECT_EQ(t.tokens_per_step, 2048u * c.count);
    EXPECT_NEAR(t.train_tokens_per_s, 2048.0 * c.count / t.step_seconds, 1e-6);
    // 100 M tokens at that rate.
    EXPECT_EQ(t.train_tokens, default_train_tokens);
    EXPECT_NEAR(t.run_hours, 1e8 / t.train_tokens_per_s / 3600, 1e-9);

    // Launch: DeepSpeed config for the chosen stage, and the command lines naming it.
    bool has_ds = false, has_torchrun = false;
    for (const auto& [k, v] : c.launch) {
        if (k == "ds_config.json") {
            has_ds = true;
            EXPECT_NE(v.find("\"stage\": " + std::to_string(t.zero_stage)), std::string::npos) << v;
        }
        if (k == "torchrun") {
            has_torchrun = true;
            EXPECT_NE(v.find("--nproc_per_node=" + std::to_string(c.count)), std::string::npos) << v;
            EXPECT_NE(v.find("--deepspeed ds_config.json"), std::string::npos) << v;
        }
    }
    EXPECT_TRUE(has_ds);
    EXPECT_TRUE(has_torchrun);
}

TEST(TrainPlan, RunCostIsHoursTimesPrice) {
    const auto c = plan_one(catalog_model("meta-llama/Llama-3.1-8B"), full_adamw(), "p5.48xlarge", 1'000'000'000);
    ASSERT_TRUE(c.training.has_value());
    const auto& t = *c.training;
    EXPECT_TRUE(c.fits);
    EXPECT_EQ(c.count, 8u); // the instance's 8 H100s
    ASSERT_TRUE(c.cost_per_hour_usd.has_value());
    EXPECT_DOUBLE_EQ(*c.cost_per_hour_usd, 98.32); // on-demand, whole instance
    ASSERT_TRUE(t.run_cost_usd.has_value());
    EXPECT_NEAR(*t.run_cost_usd, t.run_hours * 98.32, 1e-9);
    // 1e9 tokens at 8 x 2048 tokens per 0.185 s step (no recomputation; Llama8BFullFineTuneNeedsSeveralH100s)
    // = 88.6k tokens/s: 3.14 h, $308.
    EXPECT_NEAR(t.run_hours, 1e9 / t.train_tokens_per_s / 3600, 1e-9);
    ASSERT_TRUE(c.cost_per_million_tokens_usd.has_value());
    EXPECT_NEAR(*c.cost_per_million_tokens_usd, *t.run_cost_usd / 1000.0, 1e-9);
    if (!t.grad_checkpointing) EXPECT_NEAR(t.run_hours, 3.14, 0.05);
}

TEST(TrainPlan, Llama405BFullFineTuneGoesMultiNode) {
    const auto m = catalog_model("meta-llama/Llama-3.1-405B");
    const auto c = plan_one(m, full_adamw(), "H100 SXM 80GB");
    ASSERT_TRUE(c.training.has_value());
    const auto& t = *c.training;
    // 16 bytes x 405.9e9 params = 6.5 TB of training state: at least 6.5e12 / 80e9 = 82 GPUs, so
    // more than 10 nodes of 8; the plan shards it all with ZeRO-3.
    EXPECT_TRUE(c.fits);
    EXPECT_GT(t.nodes, 10u);
    EXPECT_LE(t.nodes, plan_options{}.max_nodes);
    EXPECT_EQ(t.gpus_per_node, 8u);
    EXPECT_EQ(c.count, 8u * t.nodes);
    EXPECT_EQ(t.zero_stage, 3u);
    bool said = false;
    for (const auto& r : c.reasons)
        said = said || r.find("nodes with ZeRO-3") != std::string::npos;
    EXPECT_TRUE(said);
    bool launch = false;
    for (const auto& [k, v] : c.launch)
        if (k == "torchrun") {
            launch = true;
            EXPECT_NE(v.find("--nnodes=" + std::to_string(t.nodes)), std::string::npos) << v;
            EXPECT_NE(v.find("--nproc_per_node=8"), std::string::npos) << v;
        }
    EXPECT_TRUE(launch);
    // ZeRO-3 across nodes moves 3 x 2 bytes x 405.9e9 = 2.4 TB per GPU a step at 400 Gb/s x 0.8 =
    // 40 GB/s: 61 s, longer than the compute of 2048 tokens (6-8 x 405e9 x 2048 / 397e12 = 12.5-17 s).
    EXPECT_TRUE(t.comm_bound);
    const double comm = 3.0 * 2.0 * static_cast<double>(count_params(m).total) / 40e9;
    EXPECT_NEAR(t.step_seconds, comm, 0.01 * comm);
}

TEST(TrainPlan, ConsumerGpuDoesNotGoMultiNode) {
    const auto c = plan_one(catalog_model("meta-llama/Llama-3.1-405B"), full_adamw(), "RTX 4090");
    EXPECT_FALSE(c.fits);
    ASSERT_TRUE(c.training.has_value());
    EXPECT_EQ(c.training->nodes, 1u);
    EXPECT_LT(c.headroom_bytes, 0);
}

TEST(TrainPlan, CpuIsFarSlowerThanAGpu) {
    const auto m = catalog_model("meta-llama/Llama-3.1-8B");
    training_params p; // LoRA, the default
    const auto cpu = plan_one(m, p, "Ryzen 9 7950X");
    const auto gpu = plan_one(m, p, "H100 SXM 80GB");
    ASSERT_TRUE(cpu.training && gpu.training);
    EXPECT_EQ(cpu.kind, candidate_kind::cpu);
    EXPECT_GT(cpu.training->run_hours, 0);
    // 516 TFLOP/s against 0.80 TFLOP/s: 647x per device (the GPU plan uses one GPU for LoRA), more
    // when the CPU row (no RAM figure, so not fitting) is shown at its leanest, with recomputation.
    EXPECT_EQ(gpu.count, 1u);
    EXPECT_GT(cpu.training->run_hours / gpu.training->run_hours, 600.0);
    training_params q    = p;
    q.grad_checkpointing = cpu.training->grad_checkpointing;
    const auto e         = estimate_training(m, q);
    ASSERT_TRUE(e.has_value());
    // No host term on a CPU (nothing is launched asynchronously); attention's FLOPs as on a GPU.
    const double attn     = train_attention_flops_per_token(m, 2048, q.grad_checkpointing);
    const double cpu_step = (e->flops_per_token + attn) * 2048 / (0.52 * 16 * 3e9 * 32);
    EXPECT_NEAR(cpu.training->step_seconds, cpu_step, 1e-6 * cpu_step);
    bool said = false;
    for (const auto& r : cpu.reasons)
        said = said || r.find("compute-bound") != std::string::npos;
    EXPECT_TRUE(said);
    ASSERT_FALSE(cpu.launch.empty());
    EXPECT_EQ(cpu.launch.front().second, "accelerate launch --cpu train.py");
}

TEST(TrainPlan, SortedCheapestFirstAndRecommended) {
    const auto m = catalog_model("Qwen/Qwen2.5-0.5B");
    training_params p;
    std::vector<const device_spec*> rows{&hardware_row("H100 SXM 80GB"), &hardware_row("RTX 4090"),
                                         &hardware_row("p5.48xlarge"), &hardware_row("Ryzen 9 7950X")};
    const auto r = make_train_plan(m, p, rows);
    ASSERT_EQ(r.candidates.size(), rows.size());
    double last     = 0;
    bool seen_unfit = false;
    for (const auto& c : r.candidates) {
        if (!c.fits) seen_unfit = true;
        EXPECT_FALSE(seen_unfit && c.fits) << "fitting candidates come first";
        if (c.fits && c.cost_per_million_tokens_usd) {
            EXPECT_GE(*c.cost_per_million_tokens_usd, last) << c.hardware;
            last = *c.cost_per_million_tokens_usd;
        }
    }
    ASSERT_TRUE(r.recommendation.has_value());
    EXPECT_EQ(r.recommendation->hardware, r.candidates.front().hardware);
    // Counted as the inference plan counts: a cloud row in instances (issue 25, finding 4).
    const auto& front = r.candidates.front();
    EXPECT_EQ(r.recommendation->count, front.instances > 0 ? front.instances : front.count);
}

TEST(TrainPlan, OffloadAsTheLastResortOnConsumerGpus) {
    // Llama-3.1-8B full fine-tune on 24 GB cards: even 8 of them with ZeRO-3 (16 bytes x 8.03e9 / 8 =
    // 16 GB of state a GPU, plus activations, the gathered layers and 3 GiB of runtime) overflow, and
    // consumer cards get no multi-node plan, so the optimizer goes to host RAM (ZeRO-Offload): the
    // fp32 master, Adam m and v (12 bytes) and DeepSpeed's fp32 gradient copy (4) = 16 x 8.03e9 = 128 GB.
    const auto c = plan_one(catalog_model("meta-llama/Llama-3.1-8B"), full_adamw(), "RTX 4090");
    ASSERT_TRUE(c.training.has_value());
    const auto& t = *c.training;
    EXPECT_TRUE(c.fits);
    EXPECT_TRUE(t.offload_optimizer);
    EXPECT_EQ(t.nodes, 1u);
    EXPECT_NEAR(static_cast<double>(t.host_bytes), 16 * 8.03e9, 0.02 * 16 * 8.03e9);
    // The CPU Adam step: 28 bytes x 8.03e9 / 100 GB/s = 2.25 s, plus the PCIe transfers, every step.
    const double compute = ((t.grad_checkpointing ? 8.0 : 6.0) * (8'030'261'248.0 - 128256.0 * 4096) +
                            32.0 * 2 * 32 * 256 * 1024 * (t.grad_checkpointing ? 4 : 3)) *
                           2048 / (train_mfu_of_dense_peak * 165.2e12);
    const double offload = 28.0 * 8'030'261'248.0 / 100e9 + 8'030'261'248.0 / c.count * 4.0 / 25e9;
    // The cards talk over PCIe: ZeRO-3 moves the 2-byte weights 3 times, ZeRO-2 all-reduces the 2-byte
    // gradients (2 passes), (n-1)/n of it through each card's 25 GB/s x 0.8. On 4 cards with ZeRO-3:
    // 3 x 16.06 GB x 3/4 / 20 GB/s = 1.81 s, longer than the 1.48 s of compute: communication-bound.
    const double volume = (t.zero_stage == 3 ? 3.0 : 2.0) * 2.0 * 8'030'261'248.0;
    const double comm   = volume * (c.count - 1) / c.count / (25e9 * 0.8);
    EXPECT_NEAR(t.step_seconds, std::max(compute, comm) + offload, 0.02 * (std::max(compute, comm) + offload));
}

TEST(TrainPlan, UnknownMemoryIsNotCountedAsFitting) {
    // The Ryzen row has no RAM figure: a 405B full fine-tune (6.5 TB) must not "fit" on it.
    const auto c = plan_one(catalog_model("meta-llama/Llama-3.1-405B"), full_adamw(), "Ryzen 9 7950X");
    EXPECT_FALSE(c.fits);
    EXPECT_LT(c.headroom_bytes, -(6ll << 40));
}

// ---- step time by mechanism: max(host, device), checked against Qwen-1's published s/it
// (truth/qwen1_readme_profiling.json: one A100-SXM4-80G, batch 1 x gradient accumulation 8, so a
// micro-step is s/it / 8).

training_params qwen_lora(std::uint64_t seq) {
    training_params p; // Qwen's finetune_lora_single_gpu.sh: r 64 on every linear layer, checkpointing
    p.seq                = seq;
    p.lora_rank          = 64;
    p.grad_checkpointing = true;
    return p;
}

TEST(TrainStepTime, AttentionFlopsByHand) {
    // Qwen-1.8B: 24 layers of 16 heads x (128 + 128); at 2048 tokens the causal mean context is 1024:
    // 24 x 2 x 16 x 256 x 1024 = 201.3e6 a forward, x 3 (backward twice) = 604e6, x 4 with recomputation.
    const auto m = catalog_model("Qwen/Qwen-1_8B");
    EXPECT_NEAR(train_attention_flops_per_token(m, 2048, false), 24.0 * 2 * 16 * 256 * 1024 * 3, 1.0);
    EXPECT_NEAR(train_attention_flops_per_token(m, 2048, true), 24.0 * 2 * 16 * 256 * 1024 * 4, 1.0);
}

TEST(TrainStepTime, HostTimeFromTheTrainerTable) {
    // 24 layers x 5 ms (hf's host_s_per_layer) = 0.120 s; 3/4 of it without recomputation.
    const auto m      = catalog_model("Qwen/Qwen-1_8B");
    training_params p = qwen_lora(256);
    EXPECT_NEAR(train_host_seconds(m, p, true), 0.120, 1e-12);
    EXPECT_NEAR(train_host_seconds(m, p, false), 0.090, 1e-12);
    p.trainer = "no-such-trainer";
    EXPECT_EQ(train_host_seconds(m, p, true), 0.0);
}

TEST(TrainStepTime, ShortSequenceIsHostBound) {
    // Qwen-1.8B LoRA at 256 tokens on an A100: the GPU's work is 0.037 s (about 9.5e9 FLOPs a token x
    // 256 / (0.65 x 271.2 TFLOP/s)), the host's 24 x 5 ms = 0.120 s: the step is the host's. Qwen
    // publishes 1.0 s/it = 0.125 s a micro-step, the same at 512 tokens (1.0 s/it): the floor.
    const auto m = catalog_model("Qwen/Qwen-1_8B");
    const auto c = plan_one(m, qwen_lora(256), "A100 SXM4 80GB");
    ASSERT_TRUE(c.training.has_value());
    EXPECT_EQ(c.count, 1u);
    EXPECT_NEAR(c.training->step_seconds, 0.120, 1e-9);
    EXPECT_NEAR(c.training->train_tokens_per_s, 256 / 0.120, 1e-6);
    EXPECT_NEAR(c.training->step_seconds, 1.0 / 8, 0.05 * 1.0 / 8); // Qwen's measured micro-step
    bool said = false;
    for (const auto& r : c.reasons)
        said = said || r.starts_with("host-bound: issuing 24 layers' kernels takes 0.120 s");
    EXPECT_TRUE(said);
    // Twice the tokens, the same step (Qwen: 1.0 s/it at 512 too).
    const auto c512 = plan_one(m, qwen_lora(512), "A100 SXM4 80GB");
    ASSERT_TRUE(c512.training.has_value());
    EXPECT_NEAR(c512.training->step_seconds, 0.120, 1e-9);
}

TEST(TrainStepTime, LongSequenceIsDeviceBound) {
    // Qwen-14B LoRA at 8192 tokens: (estimate's FLOPs + attention's 40 layers x 2 x 40 heads x 256 x
    // 4096 x 4 = 13.4e9) x 8192 / (0.65 x 271.2e12); the host's 40 x 5 ms = 0.2 s is far below.
    // Qwen publishes 36.0 s/it = 4.50 s a micro-step.
    const auto m      = catalog_model("Qwen/Qwen-14B-Chat");
    training_params p = qwen_lora(8192);
    const auto e      = estimate_training(m, p);
    ASSERT_TRUE(e.has_value());
    const double attn = 40.0 * 2 * 40 * 256 * 4096 * 4;
    EXPECT_NEAR(train_attention_flops_per_token(m, 8192, true), attn, 1.0);
    const double step = (e->flops_per_token + attn) * 8192 / (0.65 * 271.2e12);
    const auto c      = plan_one(m, p, "A100 SXM4 80GB");
    ASSERT_TRUE(c.training.has_value());
    ASSERT_EQ(c.count, 1u);
    EXPECT_NEAR(c.training->step_seconds, step, 1e-9 * step);
    EXPECT_GT(step, 10 * 0.2);
    EXPECT_NEAR(step, 36.0 / 8, 0.05 * 36.0 / 8); // within 5% of Qwen's measured micro-step
    for (const auto& r : c.reasons)
        EXPECT_FALSE(r.starts_with("host-bound")) << r;
}

TEST(TrainStepTime, QloraAddsDequantization) {
    // Llama-3.1-8B QLoRA on an A100 (2039 GB/s): the decoder layers' 8.03e9 - 2 x 128256 x 4096
    // (embeddings, untied lm_head) = 6.98e9 parameters x 21 bytes x 3 passes / 2039e9 = 0.216 s; 2
    // passes without recomputation; nothing for LoRA on a 16-bit base or an unknown bandwidth.
    const auto m      = catalog_model("meta-llama/Llama-3.1-8B");
    training_params p = qwen_lora(2048);
    p.method          = train_method::qlora;
    const double q    = 8'030'261'248.0 - 2 * 128256.0 * 4096;
    EXPECT_NEAR(train_dequant_seconds(m, p, true, 2039e9), q * 21 * 3 / 2039e9, 1e-9);
    EXPECT_NEAR(train_dequant_seconds(m, p, true, 2039e9), 0.216, 0.001);
    EXPECT_NEAR(train_dequant_seconds(m, p, false, 2039e9), q * 21 * 2 / 2039e9, 1e-9);
    EXPECT_EQ(train_dequant_seconds(m, p, true, 0), 0.0);
    p.method = train_method::lora;
    EXPECT_EQ(train_dequant_seconds(m, p, true, 2039e9), 0.0);
}

} // namespace
} // namespace llmplan

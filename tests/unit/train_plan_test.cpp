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
    // H100 SXM: MAMF 794.5 TFLOP/s measured x 0.5 = 397 TFLOP/s (= 40% of the 989 dense peak).
    EXPECT_NEAR(train_device_flops(hardware_row("H100 SXM 80GB")), 0.5 * 794.5e12, 1e9);
    EXPECT_NEAR(train_mfu_of_dense_peak * 989e12, 0.5 * 794.5e12, 0.01 * 989e12);
    // RTX 4090: no MAMF in the table: 0.40 x 165.2 TFLOP/s dense FP16 (FP32 accumulate).
    EXPECT_NEAR(train_device_flops(hardware_row("RTX 4090")), 0.40 * 165.2e12, 1e9);
    // Ryzen 9 7950X: 16 cores x 3 GHz x 32 FLOP/cycle x 0.40 = 0.614 TFLOP/s.
    EXPECT_NEAR(train_device_flops(hardware_row("Ryzen 9 7950X")), 0.40 * 16 * 3e9 * 32, 1e6);
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
    // x 2048 tokens / 397 TFLOP/s = 0.232 s (0.310 s); the estimate's own FLOPs agree.
    const double per_param = t.grad_checkpointing ? 8.0 : 6.0;
    const double nonembed  = 8'030'261'248.0 - 128256.0 * 4096;
    const double step      = per_param * nonembed * 2048 / (train_share_of_mamf * 794.5e12);
    EXPECT_NEAR(t.step_seconds, step, 0.01 * step);
    EXPECT_NEAR(step, t.grad_checkpointing ? 0.310 : 0.232, 0.005);
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
    // 1e9 tokens at 8 x 2048 tokens per 0.232 s step (no recomputation) = 70.6k tokens/s: 3.9 h, $386.
    EXPECT_NEAR(t.run_hours, 1e9 / t.train_tokens_per_s / 3600, 1e-9);
    ASSERT_TRUE(c.cost_per_million_tokens_usd.has_value());
    EXPECT_NEAR(*c.cost_per_million_tokens_usd, *t.run_cost_usd / 1000.0, 1e-9);
    if (!t.grad_checkpointing) EXPECT_NEAR(t.run_hours, 3.93, 0.05);
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
    EXPECT_EQ(cpu.kind, "cpu");
    EXPECT_GT(cpu.training->run_hours, 0);
    // 397 TFLOP/s against 0.61 TFLOP/s: 647x per device (the GPU plan uses one GPU for LoRA), more
    // when the CPU row (no RAM figure, so not fitting) is shown at its leanest, with recomputation.
    EXPECT_EQ(gpu.count, 1u);
    EXPECT_GT(cpu.training->run_hours / gpu.training->run_hours, 600.0);
    training_params q    = p;
    q.grad_checkpointing = cpu.training->grad_checkpointing;
    const auto e         = estimate_training(m, q);
    ASSERT_TRUE(e.has_value());
    const double cpu_step = e->flops_per_token * 2048 / (0.4 * 16 * 3e9 * 32);
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
    EXPECT_EQ(r.recommendation->count, r.candidates.front().count);
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
    const double compute = (t.grad_checkpointing ? 8.0 : 6.0) * (8'030'261'248.0 - 128256.0 * 4096) * 2048 /
                           (train_mfu_of_dense_peak * 165.2e12);
    const double offload = 28.0 * 8'030'261'248.0 / 100e9 + 8'030'261'248.0 / c.count * 4.0 / 25e9;
    EXPECT_NEAR(t.step_seconds, compute + offload, 0.02 * (compute + offload));
}

TEST(TrainPlan, UnknownMemoryIsNotCountedAsFitting) {
    // The Ryzen row has no RAM figure: a 405B full fine-tune (6.5 TB) must not "fit" on it.
    const auto c = plan_one(catalog_model("meta-llama/Llama-3.1-405B"), full_adamw(), "Ryzen 9 7950X");
    EXPECT_FALSE(c.fits);
    EXPECT_LT(c.headroom_bytes, -(6ll << 40));
}

} // namespace
} // namespace llmplan

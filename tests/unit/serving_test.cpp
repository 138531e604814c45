// Serving at load (include/llmplan/serving.h): the step model, the scheduler simulation and the planner.
// Properties that must hold whatever the fitted constants, and one measured row checked within a band.
#include "catalog_fixtures.h"
#include "llmplan/serving.h"

#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>

namespace llmplan {
namespace {

serving_context context_for(const model_desc& m, serving_request r) {
    serving_context c;
    c.model        = &m;
    c.infer.engine = engine_kind::vllm;
    c.infer.device = device_kind::cuda;
    c.request      = r;
    return c;
}

/// Llama-3.1-8B on one H100 SXM, the shape every property below steps.
struct fixture {
    model_desc m         = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const device_spec& d = test::hardware_row("H100 SXM 80GB");
    inference_estimate e;
    instance_shape s;
    fixture() {
        inference_params p;
        p.engine              = engine_kind::vllm;
        p.ctx                 = 2048;
        p.device_memory_bytes = d.memory_bytes.value_or(0);
        auto r                = estimate_inference(m, p);
        EXPECT_TRUE(r.has_value());
        if (r) e = *r;
        s = make_instance_shape(m, e, p, d, serving_engine::vllm, 1, 1);
    }
};

TEST(ServingStep, DecodeIsBoundByTheWeightsAtBatchOne) {
    fixture f;
    // One sequence at 1000 tokens: the step reads the weights once (16 GB of BF16 for 8B parameters)
    // and 1000 x 128 KiB of KV (32 layers x 8 KV heads x 128 x 2 x 2 bytes = 131072 bytes a token).
    EXPECT_EQ(f.e.kv_bytes_per_token, 131072u);
    step_load one{1, 1000, 0, 0};
    const auto t = step_seconds(f.s, one);
    EXPECT_GT(t.memory_s, t.compute_s);
    // More sequences never make a step shorter.
    step_load many{64, 64000, 0, 0};
    EXPECT_GT(step_seconds(f.s, many).seconds, t.seconds);
}

TEST(ServingStep, PrefillIsBoundByTheMatmulRate) {
    fixture f;
    step_load chunk{0, 0, 8192, 8192.0 * 8193 / 2};
    const auto t = step_seconds(f.s, chunk);
    EXPECT_GT(t.compute_s, t.memory_s);
    // Attention grows with the depth already cached: the same chunk at 32k of context takes longer.
    step_load deep{0, 0, 8192, 8192.0 * 32768 + 8192.0 * 8193 / 2};
    EXPECT_GT(step_seconds(f.s, deep).seconds, t.seconds);
}

TEST(ServingSimulation, HigherRequestRateNeverLowersTtft) {
    fixture f;
    sim_config c;
    c.kv_capacity_tokens = f.e.vllm_kv_capacity_tokens;
    c.max_num_seqs       = 256;
    c.input_len          = 1000;
    c.output_len         = 200;
    double last_mean = 0, last_p99 = 0;
    for (double rate : {0.5, 2.0, 8.0, 16.0, 24.0}) {
        c.request_rate = rate;
        const auto r   = simulate(f.s, c);
        ASSERT_GT(r.completed, 0u);
        EXPECT_GE(r.ttft_s.mean, last_mean * 0.999) << rate;
        EXPECT_GE(r.ttft_s.p99, last_p99 * 0.999) << rate;
        last_mean = r.ttft_s.mean;
        last_p99  = r.ttft_s.p99;
    }
}

TEST(ServingSimulation, SameSeedSameFigures) {
    fixture f;
    sim_config c;
    c.kv_capacity_tokens = f.e.vllm_kv_capacity_tokens;
    c.request_rate       = 5;
    const auto a         = simulate(f.s, c);
    const auto b         = simulate(f.s, c);
    EXPECT_EQ(a.ttft_s.p99, b.ttft_s.p99);
    EXPECT_EQ(a.tpot_s.mean, b.tpot_s.mean);
}

// SGLang's prefill-first policy, by hand: a wave of 8 prompts of 1000 tokens with a step budget of 1000
// tokens runs 8 prompt-only steps (each the same step: 1000 tokens, 1000 x 1001 / 2 query-key pairs, no
// decoder), the k-th request's first token at the end of step k: mean TTFT 4.5 steps. Then one decode
// step of the 8 (output 2 tokens) ends them all: TPOT is that step for the last request, and the
// earlier ones also wait for the prompts after theirs. vLLM's policy on the same wave decodes request 1
// in the step that prefills request 2, so its decoders never wait for a whole wave: a shorter TPOT.
TEST(ServingSimulation, PrefillFirstRunsTheWavesPromptsBeforeAnyDecode) {
    fixture f;
    sim_config c;
    c.kv_capacity_tokens     = f.e.vllm_kv_capacity_tokens;
    c.max_num_seqs           = 8;
    c.max_num_batched_tokens = 1000;
    c.input_len              = 1000;
    c.output_len             = 2;
    c.concurrency            = 8;
    c.closed_loop_rounds     = 1;
    c.prefill_first          = true;
    const auto sg            = simulate(f.s, c);
    ASSERT_EQ(sg.completed, 8u);
    const double prompt = step_seconds(f.s, step_load{0, 0, 1000, 1000.0 * 1001 / 2}).seconds;
    const double decode = step_seconds(f.s, step_load{8, 8 * 1001.0, 0, 0}).seconds;
    EXPECT_NEAR(sg.ttft_s.mean, 4.5 * prompt, 1e-9);
    EXPECT_NEAR(sg.tpot_s.mean, decode + 3.5 * prompt, 1e-9); // (8 - k) prompts after request k, mean 3.5
    c.prefill_first = false;
    const auto vl   = simulate(f.s, c);
    ASSERT_EQ(vl.completed, 8u);
    EXPECT_LT(vl.tpot_s.mean, sg.tpot_s.mean);
}

TEST(ServingSimulation, MoreConcurrencyNeverNeedsLessKv) {
    // The sequences a step holds (and so the KV they need) never fall as more requests are kept in flight;
    // with a pool of 20 requests' worth, the pool binds.
    fixture f;
    sim_config c;
    c.max_num_seqs = 1024;
    c.input_len    = 1000;
    c.output_len   = 200;
    double last    = 0;
    for (double n : {1.0, 4.0, 16.0, 64.0}) {
        c.concurrency = n;
        const auto r  = simulate(f.s, c);
        EXPECT_GE(r.mean_running, last * 0.999) << n;
        last = r.mean_running;
    }
    c.kv_capacity_tokens = 20 * 1200;
    c.concurrency        = 64;
    const auto r         = simulate(f.s, c);
    EXPECT_LE(r.mean_running, 24.5); // the pool holds 24 prompts of 1000 tokens, 20 whole requests
    EXPECT_GT(r.kv_limited_share, 0.5);
}

TEST(ServingPlanner, MoreGpusNeverLowerCapacity) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    serving_request r;
    r.on           = true;
    r.request_rate = std::numeric_limits<double>::infinity();
    auto c         = context_for(m, r);
    c.gpus_given   = true;
    double last    = 0;
    for (std::uint32_t g : {1u, 2u, 4u}) {
        c.infer.gpus              = g;
        c.request.tensor_parallel = 1;
        const auto f              = plan_serving(c, d);
        ASSERT_TRUE(f.has_value());
        EXPECT_EQ(f->instances, g);
        ASSERT_TRUE(f->output_tokens_per_s.has_value());
        EXPECT_GE(*f->output_tokens_per_s, last) << g;
        last = *f->output_tokens_per_s;
    }
}

// Every request at once (`--request-rate inf`): no first-token time (the queue is the run's length), but
// the users it holds are the sequences its steps run, never none (the text table printed 0 before).
TEST(ServingPlanner, SaturatedLoadSaysHowManyUsersItHolds) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    serving_request r;
    r.on           = true;
    r.request_rate = std::numeric_limits<double>::infinity();
    const auto f   = plan_serving(context_for(m, r), d);
    ASSERT_TRUE(f.has_value());
    EXPECT_FALSE(f->ttft_ms.has_value());
    EXPECT_GT(f->users_carried, 0);
    EXPECT_DOUBLE_EQ(f->users_carried, f->concurrency);
    EXPECT_LE(f->users_carried, double(f->max_num_seqs) * f->instances);
}

// --engine sglang: the KV pool is SGLang's own (the --mem-fraction-static it computes for the GPU and
// tensor parallel: `estimate --engine sglang`), smaller than vLLM's at 0.92 on an 80 GB H100, and the
// launch line writes that fraction out.
TEST(ServingPlanner, SglangPlansItsOwnKvPoolAndSaysItsFraction) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    serving_request r;
    r.on          = true;
    r.concurrency = 16;
    r.engine      = serving_engine::sglang;
    auto c        = context_for(m, r);
    c.gpus_given  = true;
    c.infer.gpus  = 1;
    const auto f  = plan_serving(c, d);
    ASSERT_TRUE(f.has_value());
    inference_params p;
    p.engine              = engine_kind::sglang;
    p.device              = device_kind::cuda;
    p.ctx                 = r.input_len + r.output_len;
    p.device_memory_bytes = d.memory_bytes.value_or(0);
    const auto sg         = estimate_inference(m, p);
    ASSERT_TRUE(sg.has_value());
    p.engine      = engine_kind::vllm;
    const auto vl = estimate_inference(m, p);
    ASSERT_TRUE(vl.has_value());
    EXPECT_EQ(f->kv_capacity_tokens, sg->vllm_kv_capacity_tokens);
    EXPECT_LT(sg->vllm_kv_capacity_tokens, vl->vllm_kv_capacity_tokens);
    std::string line;
    for (const auto& [k, v] : f->launch)
        if (k == "sglang") line = v;
    EXPECT_NE(line.find(fmt::format("--mem-fraction-static {:.3g} ", sg->sglang_mem_fraction_static)),
              std::string::npos)
        << line;
}

TEST(ServingPlanner, TargetsAreMetWithTheFewestGpus) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    serving_request r;
    r.on           = true;
    r.request_rate = 20;
    r.input_len    = 1000;
    r.output_len   = 200;
    r.ttft_ms      = 500;
    r.tpot_ms      = 30;
    const auto c   = context_for(m, r);
    const auto f   = plan_serving(c, d);
    ASSERT_TRUE(f.has_value());
    EXPECT_TRUE(f->meets_targets);
    ASSERT_TRUE(f->ttft_ms && f->tpot_ms);
    EXPECT_LE(f->ttft_ms->p99, 500);
    EXPECT_LE(f->tpot_ms->p99, 30);
    EXPECT_EQ(f->request_rate, 20);
    // Carried: the output is the offered rate x output length.
    ASSERT_TRUE(f->output_tokens_per_s.has_value());
    EXPECT_DOUBLE_EQ(*f->output_tokens_per_s, 20.0 * 200);
}

TEST(ServingPlanner, MeasuredRowsWithinTheirBands) {
    // TPOT: ../shared/serving_truth/serving_nvidia_dli_trtllm090_static.json, csv_row 2706: TensorRT-LLM
    // 0.9.0 on 4 x H100 80GB HBM3, tensor parallel 4, LLaMA v2 70B FP8, a static batch of 16 prompts of
    // 2048 tokens, 128 output tokens: 14.96 ms a token after the first. Within 20% (the bar).
    {
        const auto m  = test::catalog_model("meta-llama/Llama-2-70b-hf");
        const auto& d = test::hardware_row("H100 SXM 80GB");
        serving_request r;
        r.on                   = true;
        r.concurrency          = 16;
        r.input_len            = 2048;
        r.output_len           = 128;
        r.tensor_parallel      = 4;
        r.engine               = serving_engine::trtllm;
        auto c                 = context_for(m, r);
        c.gpus_given           = true;
        c.max_num_seqs_given   = true;
        c.infer.gpus           = 4;
        c.infer.max_num_seqs   = 16;
        c.infer.weights.format = weight_format::fp8;
        const auto f           = plan_serving(c, d);
        ASSERT_TRUE(f.has_value());
        ASSERT_TRUE(f->tpot_ms.has_value());
        EXPECT_NEAR(f->tpot_ms->mean / 14.96, 1.0, 0.20);
    }
    // TTFT: serving_nvidia_dli_nim_genaiperf.json, csv_row 2: NIM (TensorRT-LLM) on 2 x A100-SXM4-80GB,
    // tensor parallel 2, Llama-3-8B-Instruct fp16, concurrency 5, 200 prompt and 1000 output tokens:
    // 40.2 ms to the first token. Within 35% (the bar for TTFT).
    {
        const auto m  = test::catalog_model("meta-llama/Meta-Llama-3-8B-Instruct");
        const auto& d = test::hardware_row("A100 SXM4 80GB");
        serving_request r;
        r.on                   = true;
        r.concurrency          = 5;
        r.input_len            = 200;
        r.output_len           = 1000;
        r.tensor_parallel      = 2;
        r.engine               = serving_engine::trtllm;
        auto c                 = context_for(m, r);
        c.gpus_given           = true;
        c.infer.gpus           = 2;
        c.infer.weights.format = weight_format::f16;
        const auto f           = plan_serving(c, d);
        ASSERT_TRUE(f.has_value());
        ASSERT_TRUE(f->ttft_ms.has_value());
        EXPECT_NEAR(f->ttft_ms->mean / 40.17, 1.0, 0.35);
    }
}

} // namespace
} // namespace llmplan

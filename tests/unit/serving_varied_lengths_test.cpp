// A closed loop of fixed lengths against one whose lengths vary (sim_config::length_spread): requests in
// step prefill their whole wave together; varied lengths let them drift apart (src/serve/simulate.cpp),
// and the plan gives both TTFTs (serving_figures::ttft_ms_varied).
#include "catalog_fixtures.h"
#include "serving_fixtures.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

/// Llama-3.1-8B on one H100 SXM, 16 requests of 1000 prompt and 256 output tokens kept in flight, a step
/// budget of 16384 tokens: the whole wave of 16 prompts fits one step.
struct wave {
    model_desc m         = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const device_spec& d = test::hardware_row("H100 SXM 80GB");
    instance_shape s     = test::vllm_instance_shape(m, d, 1);
    sim_config c;
    wave() {
        c.max_num_seqs           = 16;
        c.max_num_batched_tokens = 16384;
        c.input_len              = 1000;
        c.output_len             = 256;
        c.concurrency            = 16;
    }
};

// In step, by hand: every request of a wave finishes in the same step, so the next 16 arrive together and
// are prefilled in one step with no decoder beside them (16 000 prompt tokens, 16 x 1000 x 1001 / 2
// query-key pairs). Every request's TTFT is that step, in every one of the 10 rounds.
TEST(ServingVariedLengths, RequestsInStepWaitForTheirWholeWave) {
    wave w;
    const auto r = simulate(w.s, w.c);
    ASSERT_EQ(r.completed, 160u);
    const double step = step_seconds(w.s, step_load{0, 0, 16000, 16 * 1000.0 * 1001 / 2}).seconds;
    EXPECT_NEAR(r.ttft_s.p50, step, 1e-9);
    EXPECT_NEAR(r.ttft_s.p99, step, 1e-9);
    EXPECT_NEAR(r.output_tokens_per_s, r.requests_per_s * 256, 1e-9);
}

// Lengths within +-11% of the same means: requests finish at different steps, so after the first wave a
// new request is prefilled with few others. The median first token comes in under half the wave's step
// (one prompt of 1000 tokens costs about 1/16 of it), the first wave (a tenth of the requests) still
// waits for its whole step, and the tokens a second stay within 5% of the fixed lengths' (the same mean
// lengths, drawn).
TEST(ServingVariedLengths, VariedLengthsDriftApart) {
    wave w;
    const auto fixed      = simulate(w.s, w.c);
    w.c.length_spread     = 0.1 / 0.9;
    const auto varied     = simulate(w.s, w.c);
    const double wave_pre = step_seconds(w.s, step_load{0, 0, 16000, 16 * 1000.0 * 1001 / 2}).seconds;
    ASSERT_EQ(varied.completed, 160u);
    EXPECT_LT(varied.ttft_s.p50, 0.5 * wave_pre);
    EXPECT_GT(varied.ttft_s.p99, 0.8 * wave_pre); // the first wave, sent together, still waits in step
    EXPECT_NEAR(varied.output_tokens_per_s / fixed.output_tokens_per_s, 1.0, 0.05);
    const auto again = simulate(w.s, w.c); // seeded: the same draws, the same figures
    EXPECT_EQ(again.ttft_s.p50, varied.ttft_s.p50);
    EXPECT_EQ(again.tpot_s.mean, varied.tpot_s.mean);
}

// A prompt that may draw 11% more tokens than the mean must fit the pool: 1050 tokens of pool hold a
// request of 1000 + 16 tokens but not a prompt drawn up to 1111 tokens, so the varied run says it cannot
// run (nothing completed) where the fixed one runs.
TEST(ServingVariedLengths, ThePoolMustHoldTheLongestDrawnPrompt) {
    wave w;
    w.c.kv_capacity_tokens = 1050;
    w.c.output_len         = 16;
    w.c.concurrency        = 1;
    EXPECT_GT(simulate(w.s, w.c).completed, 0u);
    w.c.length_spread = 0.1 / 0.9;
    EXPECT_EQ(simulate(w.s, w.c).completed, 0u);
}

// The plan: a closed loop gets the varied-lengths TTFT beside the in-step one, below it here; an open loop
// (Poisson arrivals already apart) does not.
TEST(ServingVariedLengths, PlanGivesBothTtftsForAClosedLoop) {
    const auto m  = test::catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    const auto& d = test::hardware_row("H100 SXM 80GB");
    serving_context c;
    c.model               = &m;
    c.infer.engine        = engine_kind::vllm;
    c.infer.device        = device_kind::cuda;
    c.request.on          = true;
    c.request.concurrency = 32;
    c.gpus_given          = true;
    c.infer.gpus          = 1;
    const auto closed     = plan_serving(c, d);
    ASSERT_TRUE(closed && closed->ttft_ms && closed->ttft_ms_varied);
    EXPECT_LT(closed->ttft_ms_varied->p50, closed->ttft_ms->p50);
    EXPECT_NEAR(closed->varied_length_spread, 0.1 / 0.9, 1e-12);
    c.request.concurrency.reset();
    c.request.request_rate = 5;
    const auto open        = plan_serving(c, d);
    ASSERT_TRUE(open.has_value());
    EXPECT_FALSE(open->ttft_ms_varied.has_value());
}

} // namespace
} // namespace llmplan

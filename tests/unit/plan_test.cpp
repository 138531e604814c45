// make_plan: fit, speed and order on catalog rows (data/hardware) and catalog models (data/models).
#include "catalog_fixtures.h"
#include "llmplan/load.h"
#include "llmplan/plan.h"
#include "plan/speed.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::hardware_row;

plan_candidate plan_one(const model_desc& m, const inference_params& p, std::string_view hw) {
    auto r = make_plan(m, p, {&hardware_row(hw)});
    EXPECT_EQ(r.candidates.size(), 1u);
    return r.candidates.front();
}

// The contract (candidates[].kind): "local" | "gpu" | "apple" | "cpu" | "cloud", in enum order.
TEST(Plan, CandidateKindNamesAreTheContracts) {
    EXPECT_EQ(name(candidate_kind::local), "local");
    EXPECT_EQ(name(candidate_kind::gpu), "gpu");
    EXPECT_EQ(name(candidate_kind::apple), "apple");
    EXPECT_EQ(name(candidate_kind::cpu), "cpu");
    EXPECT_EQ(name(candidate_kind::cloud), "cloud");
}

TEST(Plan, SmallModelFitsOn24GBGpu) {
    auto m = load_model("Qwen/Qwen2.5-0.5B");
    ASSERT_TRUE(m.has_value());
    const auto c = plan_one(*m, {}, "RTX 4090");
    EXPECT_EQ(c.kind, candidate_kind::gpu);
    EXPECT_EQ(c.count, 1u);
    EXPECT_TRUE(c.fits);
    // ~1 GiB of bf16 weights plus a 4096-token cache leave most of the 24 GB.
    EXPECT_GT(c.headroom_bytes, 15ll << 30);
    EXPECT_GT(c.decode_tokens_per_s, 0);
    EXPECT_GT(c.prefill_tokens_per_s, 0);
    ASSERT_TRUE(c.cost_per_hour_usd.has_value());
    // $1599 MSRP over 3 years, plus its 450 W TDP a working week's 40 of 168 hours and 15 W idle the
    // rest, at the EIA's 16.88 cents a kWh (gpus.csv; plan.h, plan_options::utilization).
    const double u = 40.0 / 168.0;
    EXPECT_NEAR(*c.cost_per_hour_usd, 1599.0 / (3 * 8760) + (0.450 * u + 0.015 * (1 - u)) * 0.1688, 1e-9);
}

TEST(Plan, SeventyBillionBf16NeedsSeveral80GBGpus) {
    auto m = load_model("meta-llama/Llama-3.1-70B");
    ASSERT_TRUE(m.has_value());
    inference_params p;
    p.engine = engine_kind::vllm;
    auto w   = parse_weight_choice("bf16");
    ASSERT_TRUE(w.has_value());
    p.weights    = *w;
    const auto c = plan_one(*m, p, "H100 SXM 80GB");
    // 70.6e9 params x 2 bytes = 141 GB of weights: more than one 80 GB GPU.
    EXPECT_GT(c.count, 1u);
    EXPECT_TRUE(c.fits);
    ASSERT_FALSE(c.launch.empty());
    EXPECT_EQ(c.launch.front().first, "vllm");
    EXPECT_NE(c.launch.front().second.find("--tensor-parallel-size " + std::to_string(c.count)), std::string::npos);
}

TEST(Plan, Llama2DecodeNearMeasuredOnRtx4090) {
    auto m = load_model("meta-llama/Llama-2-7b-hf");
    ASSERT_TRUE(m.has_value());
    auto p          = test::infer_params(engine_kind::llama_cpp, "q4_0");
    p.ctx           = 512; // llama-bench's tg128 decodes at a near-empty context
    const auto& gpu = hardware_row("RTX 4090");
    ASSERT_TRUE(gpu.measured_llama2_7b_q4_0_tokens_per_s.has_value());
    const auto c = plan_one(*m, p, "RTX 4090");
    // gpus.csv measured_llama2_7b_q4_0_tg_tok_s (149.37 [XDAI]); the plan decodes 139.6 (December
    // 2026: llama.cpp's CUDA share of 1008 GB/s over 3.8 GB of q4_0 weights and its per-layer step
    // cost, bench/accuracy_speed.md), 6.5% under: held within 10%.
    EXPECT_NEAR(c.decode_tokens_per_s, *gpu.measured_llama2_7b_q4_0_tokens_per_s,
                0.10 * *gpu.measured_llama2_7b_q4_0_tokens_per_s);
    ASSERT_FALSE(c.launch.empty());
    EXPECT_EQ(c.launch.front().first, "llama.cpp");
    EXPECT_NE(c.launch.front().second.find("-c 512 -ngl 99 -np 1"), std::string::npos);
}

TEST(Plan, MoeDecodeReadsOnlyActiveExperts) {
    auto m = load_model("Qwen/Qwen3-30B-A3B");
    ASSERT_TRUE(m.has_value());
    inference_params p;
    auto e = estimate_inference(*m, p);
    ASSERT_TRUE(e.has_value());
    // 8 of 128 experts per token: far less than all the weights are read.
    EXPECT_LT(decode_bytes_per_step(*m, *e, p), e->weights.bytes / 4);
}

TEST(Plan, FittingFirstCheapestFirstAndRecommended) {
    auto m = load_model("meta-llama/Llama-3.1-8B");
    ASSERT_TRUE(m.has_value());
    const auto r = make_plan(*m, {}, builtin_hardware().candidates());
    ASSERT_FALSE(r.candidates.empty());
    bool seen_unfit = false;
    for (const auto& c : r.candidates) {
        if (!c.fits) seen_unfit = true;
        EXPECT_FALSE(seen_unfit && c.fits) << c.hardware << " fits but comes after a candidate that does not";
    }
    ASSERT_TRUE(r.recommendation.has_value());
    const auto& rec = r.candidates.at(r.recommendation->index);
    EXPECT_EQ(r.recommendation->hardware, rec.hardware);
    EXPECT_TRUE(rec.fits);
    EXPECT_TRUE(rec.meets_speed);
    // Among the rows that fit, those that run as planned come first (issue 25, finding 10), each group
    // cheapest first.
    for (std::size_t i = 1; i < r.candidates.size() && r.candidates[i].fits; ++i) {
        EXPECT_FALSE(!r.candidates[i - 1].unsupported.empty() && r.candidates[i].unsupported.empty())
            << r.candidates[i].hardware << " runs as planned but comes after a row that does not";
        if (r.candidates[i - 1].unsupported.empty() != r.candidates[i].unsupported.empty()) continue;
        const auto& a = r.candidates[i - 1].cost_per_million_tokens_usd;
        const auto& b = r.candidates[i].cost_per_million_tokens_usd;
        if (a && b) EXPECT_LE(*a, *b);
        if (!a) EXPECT_FALSE(b.has_value());
    }
}

} // namespace
} // namespace llmplan

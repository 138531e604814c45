// The turn a plan's speeds are priced for (src/plan/turn.h) and the depth mechanisms of
// src/plan/speed.cpp: decode at the mean depth of the answer, prefill after the tokens already
// cached, flash attention's attention term, GeForce Blackwell's tensor rate, transformers' host time
// in prefill, and llama.cpp's share of an LPDDR iGPU's bandwidth. Each figure is worked by hand from
// the constant's comment or the cited measurement.
#include "llmplan/engine_version.h"
#include "llmplan/model_desc.h"
#include "llmplan/plan.h"
#include "plan/speed.h"
#include "plan/turn.h"
#include "unit/catalog_fixtures.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;
using test::hardware_row;

TEST(TurnSpeed, WithoutPromptAChatTurnFromAnEmptyCache) {
    // vllm PR 18566: 229,711 input / 203,068 generated tokens over 1000 ShareGPT requests.
    auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 4096);
    const auto t = turn_of(p);
    EXPECT_TRUE(t.chat);
    EXPECT_EQ(t.prompt, 230u);
    EXPECT_EQ(t.answer, 203u);
    EXPECT_EQ(t.cached, 0u);
    EXPECT_EQ(t.decode_depth(), 230u + 101u); // not the 4096 of --ctx
    p.ctx        = 300;                       // a context shorter than the turn cuts the answer
    const auto s = turn_of(p);
    EXPECT_EQ(s.prompt, 230u);
    EXPECT_EQ(s.answer, 70u);
    EXPECT_NE(turn_text(t).find("230-token prompt"), std::string::npos);
}

TEST(TurnSpeed, WithPromptTheTurnEndsAtCtx) {
    auto p   = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 4096);
    p.prompt = 4096; // a document into an empty cache: nothing before it, no room after it
    auto t   = turn_of(p);
    EXPECT_FALSE(t.chat);
    EXPECT_EQ(t.cached, 0u);
    EXPECT_EQ(t.answer, 0u);
    EXPECT_EQ(t.decode_depth(), 4096u);
    EXPECT_NE(turn_text(t).find("fills the 4096-token context"), std::string::npos) << turn_text(t);
    p.ctx    = 33280; // llama-bench pp512 @ d32768: 512 tokens after 32,768 of context
    p.prompt = 512;
    t        = turn_of(p);
    EXPECT_EQ(t.cached + t.answer, 32768u);
    EXPECT_EQ(t.answer, 203u);
    EXPECT_EQ(t.decode_depth(), 32565u + 512u + 101u);
}

// Deeper context never decodes faster, for every engine, with and without flash attention.
TEST(TurnSpeed, DeeperContextNeverDecodesFaster) {
    const auto m  = catalog_model("meta-llama/Meta-Llama-3-8B");
    const auto& g = hardware_row("GeForce RTX 4090");
    for (const auto e : {engine_kind::llama_cpp, engine_kind::vllm, engine_kind::transformers}) {
        for (const bool fa : {false, true}) {
            auto p         = test::infer_params(e, e == engine_kind::llama_cpp ? "q4_k_m" : "bf16", 65536);
            p.device       = device_kind::cuda;
            p.flash_attn   = fa;
            const auto est = estimate_inference(m, p);
            ASSERT_TRUE(est.has_value());
            const chip_rates chip = chip_of(g, p.engine, p.device);
            double last           = 0;
            for (const std::uint64_t depth : {0u, 331u, 4096u, 32768u, 65536u}) {
                const double s = decode_step(m, *est, p, chip, 1, depth).seconds;
                EXPECT_GE(s, last) << engine_name(e) << " fa " << fa << " depth " << depth;
                last = s;
            }
        }
    }
}

// Prefill attention over the tokens cached before the prompt, and flash attention's term, as derived:
// Llama-2-7B (32 layers, 32 heads of 128) Q4_0 on an RTX 4090 (llama.cpp: 0.38 of 330.3 TFLOPS FP16
// accumulate, no power limit). A token attends to cached + prompt / 2 tokens: 2 x 32 x (128 + 128) x
// that many FLOPs a layer, at 1/1.5 of the GEMM share with flash attention; without it at the GEMM
// share, plus 28 bytes a (query, cached token, head) pair and layer of F32 scores at the 4090's
// 1008 GB/s (speed_prefill.cpp, llamacpp_unfused_score_bytes).
TEST(TurnSpeed, PrefillAttentionGrowsWithTheCachedDepthAndFlashAttentionAsDerived) {
    const auto m        = catalog_model("meta-llama/Llama-2-7b-hf");
    auto p              = test::infer_params(engine_kind::llama_cpp, "q4_0", 33280);
    p.device            = device_kind::cuda;
    p.flash_attn        = true;
    const auto chip     = chip_of(hardware_row("GeForce RTX 4090"), p.engine, p.device);
    const double rate   = 0.38 * 330.3e12;
    const double active = static_cast<double>(count_params(m).active);
    const auto attn     = [](double seen) { return 32.0 * 2 * 32 * (128 + 128) * seen; };
    const double d0     = prefill_tokens_per_s(m, p, chip, 1, 512, 0);
    const double d32k   = prefill_tokens_per_s(m, p, chip, 1, 512, 32768);
    EXPECT_NEAR(1 / d0, (2 * active + 1.5 * attn(256)) / rate, 1e-9);
    EXPECT_NEAR(1 / d32k, (2 * active + 1.5 * attn(32768 + 256)) / rate, 1e-9);
    EXPECT_GT(d0 / d32k, 2.5); // 13.5 GFLOP of weights a token against 1.5 x 17.3 GFLOP of attention: 2.9x
    p.flash_attn     = false;
    const double off = prefill_tokens_per_s(m, p, chip, 1, 512, 32768);
    EXPECT_NEAR(1 / off - 1 / d32k, (1.0 - 1.5) * attn(32768 + 256) / rate + 32.0 * 32 * (32768 + 256) * 28 / 1008e9,
                1e-9);
}

// Turn shape reaches the plan: without --prompt the first token is the chat prompt's, and decode is
// priced at its depth, not --ctx's.
TEST(TurnSpeed, PlanPricesTheChatTurnNotTheContext) {
    const auto m  = catalog_model("Qwen/Qwen2.5-7B");
    auto p        = test::infer_params(engine_kind::llama_cpp, "q4_k_m", 32768);
    p.flash_attn  = true;
    const auto hw = builtin_hardware().lookup("Apple M3 Pro");
    ASSERT_TRUE(hw.has_value());
    p.device        = device_kind::metal;
    const auto chat = make_plan(m, p, {*hw}).candidates.front();
    EXPECT_NEAR(chat.ttft_s, 230.0 / chat.prefill_tokens_per_s, 1e-9);
    p.prompt       = 32768; // the whole context as one prompt: decode at 32768
    const auto doc = make_plan(m, p, {*hw}).candidates.front();
    EXPECT_NEAR(doc.ttft_s, 32768.0 / doc.prefill_tokens_per_s, 1e-6);
    EXPECT_LT(doc.decode_tokens_per_s, chat.decode_tokens_per_s);
    EXPECT_LT(doc.prefill_tokens_per_s, chat.prefill_tokens_per_s);
}

// GeForce Blackwell (compute capability 12.0) has no wgmma: llama.cpp reaches its rated peak's share
// as Ada does (llamacpp_cuda_scoreboard_15013.json, Llama-2-7B Q4_0 pp512: RTX 5090 14,073, RTX 4090
// 11,993 tokens/s); Hopper (9.0) keeps the halving.
TEST(TurnSpeed, GeForceBlackwellIsNotHalvedLikeHopper) {
    const auto m  = catalog_model("meta-llama/Llama-2-7b-hf");
    auto p        = test::infer_params(engine_kind::llama_cpp, "q4_0", 512);
    p.device      = device_kind::cuda;
    p.prompt      = 512;
    const auto pp = [&](std::string_view g) {
        return prefill_tokens_per_s(m, p, chip_of(hardware_row(g), p.engine, p.device), 1, 512);
    };
    EXPECT_GT(pp("GeForce RTX 5090"), pp("GeForce RTX 4090"));
    EXPECT_NEAR(pp("GeForce RTX 5090") / 14073.0, 1.0, 0.25);
    const auto h100 = chip_of(hardware_row("H100 SXM 80GB"), p.engine, p.device);
    const auto a100 = chip_of(hardware_row("A100 SXM4 80GB"), p.engine, p.device);
    // H100 SXM: half its peak's share (no wgmma kernels in llama.cpp), so the ratio to an A100 is half
    // the ratio of their peaks (with flash attention: without it the score bytes go at each GPU's bandwidth).
    // F16 weights: quantized ones are held on both by their SMs (next test).
    auto f16       = test::infer_params(engine_kind::llama_cpp, "f16", 512);
    f16.device     = device_kind::cuda;
    f16.flash_attn = true;
    EXPECT_NEAR(prefill_tokens_per_s(m, f16, h100, 1, 512) / prefill_tokens_per_s(m, f16, a100, 1, 512),
                0.5 * h100.matmul_flops / a100.matmul_flops, 1e-9);
}

// llama.cpp's quantized prompt GEMMs are held by SMs x clock at 600 FLOPs an SM-cycle
// (llamacpp_quantized_flops_per_sm_cycle, src/plan/speed_prefill.cpp). A100 SXM4: 19.5 TFLOPS FP32 over
// 2 x 64 lanes an SM (compute capability 8.0) = 152.3e9 SM-cycles a second, a cap of 91.4 TFLOPS below
// the 0.38 x 312 = 118.6 of its tensor share; the weights' GEMMs go at the cap, attention at the share.
// RTX 4090: 82.6 / (2 x 128) x 600 = 193.6 TFLOPS, above 0.38 x 330.3 = 125.5: not held.
// llamacpp_cuda_scoreboard_15013.json, Llama-2-7B Q4_0 pp512 with flash attention: A100 SXM 5286
// tokens/s measured, 8668 planned before the cap, 6705 with it.
TEST(TurnSpeed, LlamaCppQuantizedPrefillIsHeldByTheSmsOnDatacenterParts) {
    const auto m        = catalog_model("meta-llama/Llama-2-7b-hf");
    auto p              = test::infer_params(engine_kind::llama_cpp, "q4_0", 512);
    p.device            = device_kind::cuda;
    p.flash_attn        = true;
    const double active = static_cast<double>(count_params(m).active);
    const double attn   = 32.0 * 2 * 32 * (128 + 128) * 256; // FLOPs a token at prompt / 2 = 256 tokens seen
    const auto a100     = chip_of(hardware_row("A100 SXM4 80GB"), p.engine, p.device);
    const double cap    = 600.0 * 19.5e12 / (2 * 64);
    EXPECT_NEAR(1 / prefill_tokens_per_s(m, p, a100, 1, 512), 2 * active / cap + 1.5 * attn / (0.38 * 312e12), 1e-9);
    EXPECT_NEAR(prefill_tokens_per_s(m, p, a100, 1, 512) / 5286.0, 1.27, 0.01); // +27%, was +64% (8668)
    const auto rtx4090 = chip_of(hardware_row("GeForce RTX 4090"), p.engine, p.device);
    EXPECT_NEAR(1 / prefill_tokens_per_s(m, p, rtx4090, 1, 512), (2 * active + 1.5 * attn) / (0.38 * 330.3e12), 1e-9);
    // F16 weights (cuBLAS, nothing to unpack) keep the tensor share on the A100.
    auto f16       = test::infer_params(engine_kind::llama_cpp, "f16", 512);
    f16.device     = device_kind::cuda;
    f16.flash_attn = true;
    EXPECT_NEAR(1 / prefill_tokens_per_s(m, f16, a100, 1, 512), (2 * active + 1.5 * attn) / (0.49 * 312e12), 1e-9);
}

// transformers_optimum_quant_speed.json: Llama-3.1-8B BF16, 64-token prompt, A100 80GB: 2407 tokens/s.
// Host floor: 32 layers x 0.863 ms = 27.6 ms a forward, 64 / 27.6 ms = 2317 tokens/s.
TEST(TurnSpeed, TransformersShortPromptIsBoundByItsHostTime) {
    const auto m  = catalog_model("meta-llama/Llama-3.1-8B-Instruct");
    auto p        = test::infer_params(engine_kind::transformers, "bf16", 64);
    p.device      = device_kind::cuda;
    const auto pp = prefill_tokens_per_s(m, p, chip_of(hardware_row("A100 SXM4 80GB"), p.engine, p.device), 1, 64);
    EXPECT_NEAR(pp, 64.0 / (32 * transformers_layer_seconds), 1e-6);
    EXPECT_NEAR(pp / 2407.0, 1.0, 0.1);
}

// llmtracker_strix_halo.json: Llama-2-7B Q4_0 tg128 on the Radeon 8060S, 50.9-52.7 tokens/s.
TEST(TurnSpeed, LlamaCppOnAnLpddrIgpuReachesTheGddrShare) {
    EXPECT_DOUBLE_EQ(decode_bandwidth_efficiency(engine_kind::llama_cpp, memory_class::lpddr), 0.91);
    const auto& igpu = hardware_row("Radeon 8060S (Ryzen AI Max+ 395 iGPU)");
    EXPECT_EQ(memory_class_of(igpu, device_kind::cuda), memory_class::lpddr);
    const auto m   = catalog_model("meta-llama/Llama-2-7b-hf");
    auto p         = test::infer_params(engine_kind::llama_cpp, "q4_0", 64);
    p.device       = device_kind::metal; // placed as a Mac (unified memory), run by Vulkan / HIP
    p.flash_attn   = true;
    const auto est = estimate_inference(m, p);
    ASSERT_TRUE(est.has_value());
    const auto step = decode_step(m, *est, p, chip_of(igpu, p.engine, p.device), 1, 64);
    EXPECT_NEAR(step.host_s, 32 * 0.088e-3, 1e-9); // the GPU backends' 0.088 ms a layer, not Metal's 0.233
    EXPECT_NEAR(1.0 / step.seconds / 52.2, 1.0, 0.1);
    // An Apple chip keeps Metal's overhead.
    const auto mac = decode_step(m, *est, p, chip_of(hardware_row("Apple M3 Pro"), p.engine, p.device), 1, 64);
    EXPECT_NEAR(mac.host_s, 32 * 0.233e-3, 1e-9);
}

} // namespace
} // namespace llmplan

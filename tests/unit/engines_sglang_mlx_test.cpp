// SGLang and mlx-lm as engines (engine_sglang.cpp, engine_mlx.cpp). Every figure is arithmetic on the
// engines' own code, cited beside it:
//   SGLang v0.5.19 python/sglang/srt/arg_groups/memory_hook.py handle_gpu_memory_settings (the
//   --mem-fraction-static rule), mem_cache/kv_cache_configurator.py (_profile_available_bytes:
//   KV pool = fraction x memory free before the load - weights; resolve_max_num_reqs);
//   mlx-lm 0.32 mlx_lm/models/cache.py (KVCache.step = 256).
#include "cli_run.h"
#include "estimate/engines.h"
#include "infer_fixture.h"
#include "llmplan/engine_version.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using namespace llmplan;
constexpr std::uint64_t mib = 1ull << 20;
constexpr std::uint64_t gib = 1ull << 30;

model_desc catalog(std::string_view id) {
    const auto* e = find_in_catalog(id);
    EXPECT_NE(e, nullptr) << id;
    auto m = load_catalog_model(*e);
    EXPECT_TRUE(m.has_value()) << id;
    return *m;
}

engine_version version(std::string_view text, engine_kind e) {
    auto v = parse_engine_version(text, e);
    EXPECT_TRUE(v.has_value()) << text;
    return v ? *v : engine_version{};
}

// memory_hook.py, GPU of 80 GiB = 81920 MiB (the 60-90 GiB band, "H100, A100"): chunked prefill 8192,
// decode graphs up to batch 256 at TP < 4 (512 at TP >= 4). The prefill graphs are captured at
// 4..32 step 4 (8 sizes), 48..256 step 16 (14), 288..512 step 32 (8), 576..1024 step 64 (8),
// 1280..4096 step 256 (12), 4608..8192 step 512 (8): 58 sizes, 8 MiB each = 464 MiB.
// TP 1: reserved = 512 + 8192 x 1.5 + 1/8 x 1024 + 256 x 2 + 464 = 512 + 12288 + 128 + 512 + 464
//   = 13904 MiB (above the 10240 MiB floor); fraction = round((81920 - 13904) / 81920, 3)
//   = round(0.83027, 3) = 0.830. (sgl-project/sglang issue 29092, 2026-06-23: "the value to be 0.828
//   for H100 with Qwen3 32B", an 81559 MiB H100: (81559 - 13904) / 81559 = 0.8295 by this rule.)
// TP 8: reserved = 512 + 12288 + 8/8 x 1024 + 512 x 2 + 464 = 15312; (81920 - 15312) / 81920 = 0.81309
//   -> 0.813.
// 24 GiB = 24576 MiB (the 20-35 GiB band): chunked prefill 4096, decode graphs up to 48 at TP 1;
//   prefill graph sizes up to 4096: 8 + 14 + 8 + 8 + 12 = 50 (400 MiB); reserved = 512 + 4096 x 1.5
//   + 128 + 48 x 2 + 400 = 7280 (no floor below 60 GiB); (24576 - 7280) / 24576 = 0.70378 -> 0.704.
TEST(EnginesSglang, StaticFractionFromGpuMemory) {
    const auto m   = catalog("meta-llama/Llama-3.1-8B");
    const auto now = engine_version{};
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 80 * gib, 1, now), 0.830);
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 80 * gib, 8, now), 0.813);
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 24 * gib, 1, now), 0.704);
    // Before v0.5.3 (server_args.py v0.4.x): by TP size alone, 0.88 at TP 1 and 0.81 at TP 8.
    const auto old = version("sglang@0.4.9", engine_kind::sglang);
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 80 * gib, 1, old), 0.88);
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 80 * gib, 8, old), 0.81);
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 80 * gib, 2, old), 0.87);
    // GPU memory unknown: memory_hook.py's 0.95.
    EXPECT_DOUBLE_EQ(sglang_static_fraction(m, 0, 1, now), 0.95);
}

// Llama-3.1-8B (bf16) on one 80 GiB GPU at SGLang's default fraction 0.830:
//   memory free before the load = 80 GiB - the CUDA context (1 GiB, runtime.h) = 79 GiB
//     = 84,825,604,096 bytes; x 0.830 = 70,405,251,399 bytes (truncated);
//   KV pool = that - the weights; a token's cell = 32 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes
//     = 131,072 bytes (page size 1: no padding).
TEST(EnginesSglang, KvPoolOfLlama31On80GiB) {
    const auto m          = catalog("meta-llama/Llama-3.1-8B");
    inference_params p    = test::infer_params(engine_kind::sglang, "bf16");
    p.device_memory_bytes = 80 * gib;
    const auto e          = estimate_inference(m, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    ASSERT_EQ(e->devices.size(), 1u);
    const auto& d               = e->devices[0];
    const std::uint64_t weights = e->weights.bytes;
    const std::uint64_t share   = static_cast<std::uint64_t>(0.830 * static_cast<double>(79 * gib));
    EXPECT_EQ(share, 70'405'251'399u);
    EXPECT_EQ(d.parts.weights, weights);
    EXPECT_EQ(d.parts.kv_cache, share - weights);
    EXPECT_EQ(e->kv_bytes_per_token, 131'072u);
    EXPECT_EQ(e->vllm_kv_capacity_tokens, (share - weights) / 131'072u);
    EXPECT_DOUBLE_EQ(e->sglang_mem_fraction_static, 0.830);
    // --max-running-requests: tokens / 4096 x 512 held to [2048, 4096] (resolve_max_num_reqs).
    EXPECT_EQ(e->vllm_max_num_seqs, 4096u);
    // Activations of one 8192-token chunk and the graphs' 256 x 2 + 464 = 976 MiB outside the share.
    EXPECT_EQ(d.parts.compute, 976 * mib);
    EXPECT_EQ(d.parts.overhead, static_cast<std::int64_t>(gib));
    // The whole: the context + the share + what the reserve was made for.
    EXPECT_EQ(static_cast<std::uint64_t>(d.parts.total()), gib + share + d.parts.activations + 976 * mib);
}

// An fp8 KV cache halves the cell (--kv-cache-dtype fp8_e4m3): 65,536 bytes a token.
TEST(EnginesSglang, Fp8KvCacheHalvesTheCell) {
    const auto m          = catalog("meta-llama/Llama-3.1-8B");
    inference_params p    = test::infer_params(engine_kind::sglang, "bf16");
    p.kv_type             = dtype::f8_e4m3;
    p.device_memory_bytes = 80 * gib;
    const auto e          = estimate_inference(m, p);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->kv_bytes_per_token, 65'536u);
}

// mlx-lm's KVCache allocates ceil(tokens / 256) x 256 rows; RotatingKVCache stops at the window.
TEST(EnginesMlx, KvCacheGrowsInStepsOf256) {
    EXPECT_EQ(mlx_kv_cells(4096, 0), 4096u);
    EXPECT_EQ(mlx_kv_cells(4097, 0), 4352u);
    EXPECT_EQ(mlx_kv_cells(1000, 0), 1024u);
    EXPECT_EQ(mlx_kv_cells(1, 0), 256u);
    EXPECT_EQ(mlx_kv_cells(5000, 4096), 4096u);
    EXPECT_EQ(mlx_kv_cells(100, 512), 256u);
}

// Qwen2.5-7B at 4097 tokens: 28 layers x 4 KV heads x 128 x 2 (K, V) x 2 bytes (bf16) = 57,344 bytes a
// token, held for 4352 rows = 249,561,088 bytes; 8-bit KV (--kv-bits 8, group 64: 8.5 bits an element)
// = 28 x 4 x 128 x 2 x 8.5 / 8 = 30,464 bytes a token.
TEST(EnginesMlx, Qwen25KvCacheByHand) {
    const auto m       = catalog("qwen2.5-7b");
    inference_params p = test::infer_params(engine_kind::mlx, "bf16", 4097);
    p.device           = device_kind::metal;
    const auto e       = estimate_inference(m, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    ASSERT_EQ(e->devices.size(), 1u);
    EXPECT_EQ(e->devices[0].kind, device_kind::metal);
    EXPECT_EQ(e->kv_bytes_per_token, 57'344u);
    EXPECT_EQ(e->devices[0].parts.kv_cache, 57'344u * 4352u);
    EXPECT_EQ(e->devices[0].parts.weights, e->weights.bytes);
    p.kv_type     = dtype::q8_0;
    const auto q8 = estimate_inference(m, p);
    ASSERT_TRUE(q8.has_value());
    EXPECT_EQ(q8->kv_bytes_per_token, 30'464u);
}

TEST(EnginesCli, SglangAndMlxAreAccepted) {
    const auto s = test::run_cli("estimate qwen2.5-7b --engine sglang --device-memory 80GiB --json");
    ASSERT_EQ(s.status, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    EXPECT_EQ(j["workload"]["engine"], "sglang");
    EXPECT_DOUBLE_EQ(j["sglang"]["mem_fraction_static"].get<double>(), 0.830);
    EXPECT_EQ(j["devices"][0]["device"], "cuda:0");
    // mlx: its default device is metal.
    const auto x = test::run_cli("estimate qwen2.5-7b --engine mlx --json");
    ASSERT_EQ(x.status, 0) << x.err;
    EXPECT_EQ(nlohmann::json::parse(x.out)["devices"][0]["device"], "metal");
    // Releases of each parse and answer.
    for (const char* v : {"sglang@0.5.19", "sglang@0.4.9", "sglang@0.6"})
        EXPECT_EQ(test::run_cli(std::string("estimate qwen2.5-7b --engine sglang --engine-version ") + v).status, 0)
            << v;
    for (const char* v : {"mlx@0.32.0", "mlx-lm@0.31.2"})
        EXPECT_EQ(test::run_cli(std::string("estimate qwen2.5-7b --engine mlx --engine-version ") + v).status, 0) << v;
}

TEST(EnginesCli, MlxOnCudaIsRefused) {
    test::expect_refused("estimate qwen2.5-7b --engine mlx --device cuda", "--device");
    test::expect_refused("estimate qwen2.5-7b --engine sglang --device metal", "--device");
    test::expect_refused("estimate qwen2.5-7b --engine sglang --engine-version vllm@0.31", "--engine-version");
    test::expect_refused("estimate qwen2.5-7b --engine nosuch", "--engine");
}

// Launch lines from the engines' own launch code (plan/launch_engines.cpp).
TEST(EnginesCli, PlanLaunchLines) {
    const auto s = test::run_cli("plan qwen2.5-7b --engine sglang --hardware 'H100 SXM 80GB' --json");
    ASSERT_EQ(s.status, 0) << s.err;
    bool found   = false;
    const auto j = nlohmann::json::parse(s.out); // kept alive for the loop below
    for (const auto& c : j["candidates"])
        if (c["launch"].contains("sglang")) {
            const std::string line = c["launch"]["sglang"];
            EXPECT_EQ(line.rfind("python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B --tp 1 "
                                 "--mem-fraction-static ",
                                 0),
                      0u)
                << line;
            EXPECT_NE(line.find("--context-length 4096"), std::string::npos) << line;
            found = true;
        }
    EXPECT_TRUE(found) << s.out.substr(0, 2000);
}

} // namespace

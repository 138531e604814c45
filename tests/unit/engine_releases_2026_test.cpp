// Engine releases as they are in Dec 2026 (engine_versions.cpp, engine_traits.cpp): llama.cpp's two
// version eras, the row each release falls in, vLLM's current defaults in an estimate, and a vLLM
// 0.21+ log read by check. Every figure is the release row's (with its source there) or arithmetic
// on it.
#include "check/log_parse.h"
#include "cli_run.h"
#include "llmplan/check.h"
#include "llmplan/engine_version.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using namespace llmplan;
constexpr std::uint64_t mib = 1ull << 20;
constexpr std::uint64_t gib = 1ull << 30;

engine_version parsed(std::string_view text, engine_kind e) {
    auto v = parse_engine_version(text, e);
    EXPECT_TRUE(v.has_value()) << text;
    return v ? *v : engine_version{};
}

std::string log_text(const std::string& name) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/logs/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::uint64_t figure(const log_facts& f, std::string_view part) {
    for (const auto& e : f.figures)
        if (e.part == part && e.device == "cuda:0") return e.bytes;
    return 0;
}

// llama.cpp: build numbers until Aug 2026 (b10630, ollama PR 18003), then v0.3.0 and on.
TEST(EngineReleases2026, LlamaCppTakesBuildsAndSemanticVersions) {
    const auto b = parsed("b7200", engine_kind::llama_cpp);
    EXPECT_FALSE(b.semver);
    EXPECT_EQ(b.major, 7200u);
    for (std::string_view text : {"0.3.0", "v0.3.0", "llama.cpp@v0.3.0", "llama.cpp@0.3"}) {
        const auto v = parsed(text, engine_kind::llama_cpp);
        EXPECT_TRUE(v.semver) << text;
        EXPECT_EQ(v.major, 0u);
        EXPECT_EQ(v.minor, 3u);
        EXPECT_EQ(v.patch, 0u);
    }
    EXPECT_EQ(to_string(engine_kind::llama_cpp, parsed("v0.3.0", engine_kind::llama_cpp)), "llama.cpp@v0.3.0");
    EXPECT_EQ(to_string(engine_kind::llama_cpp, parsed("b10630", engine_kind::llama_cpp)), "llama.cpp@b10630");
    // Before v0.3.0 no llama.cpp release had a semantic version.
    const auto early = parse_engine_version("llama.cpp@0.2.9", engine_kind::llama_cpp);
    ASSERT_FALSE(early.has_value());
    EXPECT_NE(early.error().what().find("start at v0.3.0"), std::string::npos);
    EXPECT_FALSE(parse_engine_version("llama.cpp@v0.x", engine_kind::llama_cpp).has_value());
}

TEST(EngineReleases2026, ASemanticVersionComesAfterEveryBuild) {
    const auto last_build = parsed("b10630", engine_kind::llama_cpp);
    const auto huge_build = parsed("b999999999", engine_kind::llama_cpp); // 9 digits, the most parsed
    const auto v030       = parsed("v0.3.0", engine_kind::llama_cpp);
    const auto v031       = parsed("v0.3.1", engine_kind::llama_cpp);
    const auto v040       = parsed("v0.4.0", engine_kind::llama_cpp);
    EXPECT_LT(parsed("b7200", engine_kind::llama_cpp).key(), last_build.key());
    EXPECT_LT(last_build.key(), v030.key());
    EXPECT_LT(huge_build.key(), v030.key());
    EXPECT_LT(v030.key(), v031.key());
    EXPECT_LT(v031.key(), v040.key());
    // vLLM: 0.31 (the release) parses and orders after 0.30 and 0.9.
    EXPECT_LT(parsed("vllm@0.9", engine_kind::vllm).key(), parsed("vllm@0.30", engine_kind::vllm).key());
    EXPECT_LT(parsed("vllm@0.30", engine_kind::vllm).key(), parsed("vllm@0.31", engine_kind::vllm).key());
}

TEST(EngineReleases2026, EachReleaseFallsInItsRow) {
    auto row = [](engine_kind e, std::string_view v) -> const engine_behaviour& {
        return behaviour_of(e, parsed(v, e));
    };
    // vLLM 0.14 keeps its rules: 0.9 of the GPU, graphs outside the budget, 8192 tokens on large GPUs.
    const auto& v014 = row(engine_kind::vllm, "0.14");
    EXPECT_EQ(v014.range, "vllm 0.8+ (V1 engine)");
    EXPECT_DOUBLE_EQ(v014.gpu_memory_utilization, 0.9);
    EXPECT_FALSE(v014.cuda_graphs_in_budget);
    EXPECT_EQ(v014.large_gpu_batched_tokens, 8192u);
    // 0.21 (PR 38284): graphs in the budget and 0.92; 0.28 (PR 51726): 16384 tokens.
    const auto& v021 = row(engine_kind::vllm, "0.21.0");
    EXPECT_DOUBLE_EQ(v021.gpu_memory_utilization, 0.92);
    EXPECT_TRUE(v021.cuda_graphs_in_budget);
    EXPECT_EQ(v021.large_gpu_batched_tokens, 8192u);
    EXPECT_EQ(row(engine_kind::vllm, "0.27.1").large_gpu_batched_tokens, 8192u);
    EXPECT_EQ(row(engine_kind::vllm, "0.28.0").large_gpu_batched_tokens, 16384u);
    // 0.31, newer than the newest llmplan knows, is answered with the newest row (not 0.14's).
    EXPECT_EQ(row(engine_kind::vllm, "0.31").range, row(engine_kind::vllm, "0.30").range);
    EXPECT_EQ(row(engine_kind::vllm, "0.31").large_gpu_batched_tokens, 16384u);
    // llama.cpp: builds from b4273 repack q4_0; v0.3.0 is its own row, after every build.
    EXPECT_EQ(row(engine_kind::llama_cpp, "b4000").range, "llama.cpp < b4273");
    EXPECT_EQ(row(engine_kind::llama_cpp, "b7200").range, "llama.cpp b4273+");
    EXPECT_EQ(row(engine_kind::llama_cpp, "b10630").range, "llama.cpp b4273+");
    EXPECT_EQ(row(engine_kind::llama_cpp, "v0.3.0").range, "llama.cpp v0.3.0+ (semantic versions)");
    EXPECT_TRUE(row(engine_kind::llama_cpp, "v0.3.0").cpu_repack);
    // transformers: 5.0 loads the checkpoint's dtype by default (PR 42883).
    EXPECT_FALSE(row(engine_kind::transformers, "4.57").dtype_auto_default);
    EXPECT_TRUE(row(engine_kind::transformers, "5.0.0").dtype_auto_default);
    EXPECT_TRUE(behaviour_of(engine_kind::transformers, {}).dtype_auto_default); // current: 5.15.1
}

// `estimate --engine vllm` without a version: the current release's defaults in the JSON.
TEST(EngineReleases2026, EstimateVllmUsesTheCurrentDefaults) {
    const auto now = llmplan::test::run_cli("estimate qwen2.5-7b --engine vllm --device-memory 80GiB --json");
    ASSERT_EQ(now.status, 0);
    const auto j = nlohmann::json::parse(now.out);
    EXPECT_DOUBLE_EQ(j["workload"]["gpu_memory_utilization"].get<double>(), 0.92);
    EXPECT_EQ(j["workload"]["max_num_batched_tokens"].get<std::uint64_t>(), 16384u); // 80 GiB >= 70 GiB
    const auto old = llmplan::test::run_cli(
        "estimate qwen2.5-7b --engine vllm --engine-version vllm@0.14 --device-memory 80GiB --json");
    ASSERT_EQ(old.status, 0);
    const auto o = nlohmann::json::parse(old.out);
    EXPECT_DOUBLE_EQ(o["workload"]["gpu_memory_utilization"].get<double>(), 0.9);
    EXPECT_EQ(o["workload"]["max_num_batched_tokens"].get<std::uint64_t>(), 8192u);
    // The user's fraction wins over the release's.
    const auto mine = llmplan::test::run_cli(
        "estimate qwen2.5-7b --engine vllm --gpu-memory-utilization 0.85 --device-memory 80GiB --json");
    ASSERT_EQ(mine.status, 0);
    EXPECT_DOUBLE_EQ(nlohmann::json::parse(mine.out)["workload"]["gpu_memory_utilization"].get<double>(), 0.85);
}

// On a 24 GiB GPU both releases profile 2048 tokens (below 70 GiB), so the KV pools differ by the
// budget's 0.02 x 24 GiB less the 0.36 GiB (369 MiB) CUDA graph estimate 0.21+ charges inside it.
TEST(EngineReleases2026, TheKvPoolLosesTheGraphEstimateAndGainsTwoPercent) {
    const auto* e = find_in_catalog("qwen2.5-7b");
    ASSERT_NE(e, nullptr);
    auto m = load_catalog_model(*e);
    ASSERT_TRUE(m.has_value());
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.device_memory_bytes = 24 * gib;
    p.version             = parsed("0.14", engine_kind::vllm);
    auto before           = estimate_inference(*m, p);
    p.version             = parsed("0.30", engine_kind::vllm);
    auto after            = estimate_inference(*m, p);
    ASSERT_TRUE(before.has_value());
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(before->vllm_max_num_batched_tokens, after->vllm_max_num_batched_tokens);
    const auto kv_before = static_cast<double>(before->devices.at(0).parts.kv_cache);
    const auto kv_after  = static_cast<double>(after->devices.at(0).parts.kv_cache);
    EXPECT_NEAR(kv_after - kv_before, 0.02 * static_cast<double>(24 * gib) - 369.0 * mib, 2.0);
    EXPECT_EQ(after->vllm_cuda_graph_bytes, 369 * mib);
    EXPECT_EQ(before->vllm_cuda_graph_bytes, 0u);
}

TEST(EngineReleases2026, ANewerReleaseThanKnownSaysSo) {
    const auto r = llmplan::test::run_cli(
        "estimate qwen2.5-7b --engine vllm --engine-version vllm@0.31 --device-memory 80GiB --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("newer than the newest release llmplan knows (vllm@0.30.0)"), std::string::npos);
    const auto l =
        llmplan::test::run_cli("estimate qwen2.5-7b --engine llama.cpp --engine-version llama.cpp@0.3.0 --json");
    EXPECT_EQ(l.status, 0);
}

// gpustack/runner PR 251: a vLLM 0.27.1 start-up log, tensor parallel 2 (tests/data/logs/manifest.json).
TEST(EngineReleases2026, CheckReadsTheCudaGraphEstimate) {
    auto f = parse_engine_log(log_text("vllm_05.log"), "vllm_05.log");
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->engine, engine_kind::vllm);
    EXPECT_EQ(figure(*f, "cuda_graphs"), static_cast<std::uint64_t>(0.36 * gib + 0.5));
    EXPECT_EQ(figure(*f, "kv_cache"), static_cast<std::uint64_t>(6.87 * gib + 0.5));
    ASSERT_TRUE(f->version.has_value()); // the 0.21+ line: at least 0.21
    EXPECT_EQ(f->version->key(), (engine_version{0, 21, 0}).key());
    auto g = parse_engine_log(log_text("vllm_06.log"), "vllm_06.log"); // club-3090 issue 127
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(figure(*g, "cuda_graphs"), static_cast<std::uint64_t>(0.17 * gib + 0.5));
}

// A vLLM 0.31 log: the version line as api_server.py prints it ("vLLM API server version X") and the
// 0.21+ lines of gpustack/runner PR 251; check estimates with the 0.31 rules and sets its graph
// estimate beside the log's.
TEST(EngineReleases2026, CheckReadsAVllm031Log) {
    const std::string text =
        "(APIServer pid=1) INFO 10-20 09:00:00 [api_server.py:1800] vLLM API server version 0.31.0\n"
        "(APIServer pid=1) INFO 10-20 09:00:01 [utils.py:300] non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct'}\n"
        "(EngineCore pid=2) INFO 10-20 09:01:00 [gpu_model_runner.py:6806] Estimated CUDA graph memory: 0.36 GiB "
        "total\n"
        "(EngineCore pid=2) INFO 10-20 09:01:00 [gpu_worker.py:563] Available KV cache memory: 56.08 GiB\n";
    auto f = parse_engine_log(text, "vllm_031.log");
    ASSERT_TRUE(f.has_value());
    ASSERT_TRUE(f->version.has_value());
    EXPECT_EQ(f->version->key(), (engine_version{0, 31, 0}).key());
    EXPECT_EQ(f->model_name, "Qwen/Qwen2.5-7B-Instruct");
    const auto* e = find_in_catalog(f->model_name);
    ASSERT_NE(e, nullptr);
    auto m = load_catalog_model(*e);
    ASSERT_TRUE(m.has_value());
    auto r = check_against_log(*f, *m);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->params.version.key(), (engine_version{0, 31, 0}).key());
    EXPECT_DOUBLE_EQ(gpu_memory_utilization(r->params), 0.92);
    bool seen = false;
    for (const auto& row : r->rows)
        if (row.part == "cuda_graphs") {
            seen = true;
            EXPECT_EQ(row.llmplan_bytes, static_cast<std::int64_t>(369 * mib));
        }
    EXPECT_TRUE(seen);
}

// Current llama-server lines: the sched_reserve compute buffers and "flash_attn = enabled" (llama.cpp
// PR 19408, a ROCm log), the host prompt cache (ollama issue 18072) and a context checkpoint
// (llama.cpp PR 22929), read as one log.
TEST(EngineReleases2026, CheckReadsCurrentLlamaServerLines) {
    const std::string text = log_text("llamacpp_38.log") + log_text("llamacpp_39.log") + log_text("llamacpp_40.log");
    auto f                 = parse_engine_log(text, "llama-server");
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->engine, engine_kind::llama_cpp);
    EXPECT_EQ(f->n_ctx, 32768u);
    ASSERT_TRUE(f->flash_attn.has_value());
    EXPECT_TRUE(*f->flash_attn);
    EXPECT_EQ(figure(*f, "compute"), 1219 * mib);
    EXPECT_EQ(figure(*f, "kv_cache"), 768 * mib + 301 * mib + mib / 2); // KV and the recurrent states
    bool cache = false, checkpoint = false;
    for (const auto& n : f->notes) {
        cache |= n.find("up to 8192 MiB of evicted prompts") != std::string::npos;
        checkpoint |= n.find("up to 8 a slot (--ctx-checkpoints), 149.6 MiB each") != std::string::npos;
    }
    EXPECT_TRUE(cache);
    EXPECT_TRUE(checkpoint);
    // -fa auto resolved off on a backend without the kernel
    auto g = parse_engine_log(
        log_text("llamacpp_38.log") + "llama_context: Flash Attention was auto, set to disabled\n", "x");
    ASSERT_TRUE(g.has_value());
    EXPECT_FALSE(*g->flash_attn);
}

// llama.cpp's -fa auto from b6327: on without --flash-attn; off for an earlier build or when asked.
TEST(EngineReleases2026, LlamaCppFlashAttentionFollowsTheRelease) {
    auto fa = [](const std::string& extra) {
        const auto r =
            llmplan::test::run_cli("estimate qwen2.5-7b --engine llama.cpp --weights q4_k_m " + extra + " --json");
        EXPECT_EQ(r.status, 0) << extra;
        return r.status == 0 ? nlohmann::json::parse(r.out)["workload"]["flash_attn"].get<std::string>() : "";
    };
    EXPECT_EQ(fa(""), "on");
    EXPECT_EQ(fa("--engine-version llama.cpp@b6327"), "on");
    EXPECT_EQ(fa("--engine-version llama.cpp@b6000"), "off");
    EXPECT_EQ(fa("--flash-attn off"), "off");
}

} // namespace

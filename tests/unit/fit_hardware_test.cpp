// fit_hardware: what runs on one catalog machine (data/hardware rows, data/models configs).
#include "catalog_fixtures.h"
#include "llmplan/fit_hardware.h"
#include "llmplan/load.h"
#include "llmplan/plan.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::catalog_model;
using test::hardware_row;

const fit_model_row* find_row(const fit_hardware_result& r, std::string_view id, std::string_view w) {
    for (const auto& row : r.rows)
        if (row.model == id && row.weights == w) return &row;
    return nullptr;
}

TEST(FitHardware, Rtx4090Bf16SevenBFitsSeventyBDoesNot) {
    const std::vector<model_desc> ms = {catalog_model("Qwen/Qwen2.5-7B"), catalog_model("meta-llama/Llama-3.1-70B")};
    auto r                           = fit_named_hardware("RTX 4090", builtin_hardware(), ms, {});
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_EQ(r->engine, "vllm");
    EXPECT_EQ(r->device, "cuda");
    EXPECT_EQ(r->gpus, 1u);
    EXPECT_EQ(r->ctx, 4096u);
    // gpus.csv: 24 GB; vLLM may use 0.92 of it (the current release's default, 0.9 before 0.21).
    EXPECT_EQ(r->budget_bytes, static_cast<std::uint64_t>(0.92 * static_cast<double>(r->memory_bytes)));
    const auto* q7 = find_row(*r, "Qwen/Qwen2.5-7B", "bf16");
    ASSERT_NE(q7, nullptr);
    EXPECT_TRUE(q7->error.empty()) << q7->error;
    // 7.6e9 parameters x 2 bytes = 15.2 GB of weights, under the ~22.1 GB budget.
    EXPECT_TRUE(q7->fits);
    EXPECT_GT(q7->need_bytes, 15'000'000'000u);
    const auto* l70 = find_row(*r, "meta-llama/Llama-3.1-70B", "bf16");
    ASSERT_NE(l70, nullptr);
    // 70.6e9 x 2 bytes = 141 GB: six times the card.
    EXPECT_FALSE(l70->fits);
    EXPECT_LT(l70->headroom_bytes, 0);
    ASSERT_EQ(r->largest.size(), 3u);
    EXPECT_EQ(r->largest[0].weights, "bf16");
    ASSERT_FALSE(r->largest[0].largest.empty());
    EXPECT_EQ(r->largest[0].largest.front(), "Qwen/Qwen2.5-7B");
}

TEST(FitHardware, Mac16GBRunsEightBAtQ4KM) {
    const std::vector<model_desc> ms = {catalog_model("meta-llama/Llama-3.1-8B")};
    auto r                           = fit_named_hardware("MacBook Pro 14\" M4, 16GB", builtin_hardware(), ms, {});
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_EQ(r->engine, "llama.cpp");
    EXPECT_EQ(r->device, "metal");
    // laptops.csv: 16 GB unified; macOS lets the GPU wire 2/3 of it (10922.67 MiB, llama-cpp-python #687).
    EXPECT_EQ(r->memory_bytes, (16ull << 30) * 2 / 3);
    const auto* q4 = find_row(*r, "meta-llama/Llama-3.1-8B", "q4_k_m");
    ASSERT_NE(q4, nullptr);
    // q4_k_m of 8.0e9 parameters is ~4.9 GB (llama.cpp's published Llama-3.1-8B Q4_K_M file size).
    EXPECT_TRUE(q4->fits) << q4->need_bytes;
    const auto* f16 = find_row(*r, "meta-llama/Llama-3.1-8B", "f16");
    ASSERT_NE(f16, nullptr);
    // 8.0e9 x 2 bytes = 16 GB: more than the GPU's 12 GB share.
    EXPECT_FALSE(f16->fits);
}

TEST(FitHardware, ChosenModelLongestContextAndMostSequences) {
    fit_hardware_options o;
    o.chosen = catalog_model("Qwen/Qwen2.5-7B");
    auto r   = fit_named_hardware("RTX 4090", builtin_hardware(), {}, o);
    ASSERT_TRUE(r.has_value()) << r.error().what();
    ASSERT_EQ(r->chosen.size(), 3u);
    const auto& bf16 = r->chosen[0].answer;
    EXPECT_TRUE(bf16.fits_as_asked);
    // Qwen2.5-7B: 28 layers x 4 KV heads x 128 x 2 (K, V) x 2 bytes = 56 KiB per token; the ~6 GB
    // left beside 15.2 GB of weights holds far more than 4096 tokens, up to the trained 131072.
    EXPECT_GE(bf16.max_ctx, 4096u);
    EXPECT_GT(bf16.max_batch, 1u);
    // 4-bit weights leave more room than bf16.
    EXPECT_GE(r->chosen[2].answer.max_batch, bf16.max_batch);
}

TEST(FitHardware, UnknownHardwareSuggestsNames) {
    auto r = fit_named_hardware("RTX 9999 Ultra", builtin_hardware(), {}, {});
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, error_code::unknown_name);
}

TEST(FitHardware, CpuMachineUsesRam) {
    device_spec d;
    d.name              = "test box";
    d.kind              = hardware_kind::local;
    d.host_memory_bytes = 8'000'000'000; // 8 GB of RAM, no GPU
    auto r              = fit_hardware(d, {catalog_model("Qwen/Qwen2.5-0.5B")}, {});
    ASSERT_TRUE(r.has_value()) << r.error().what();
    EXPECT_EQ(r->device, "cpu");
    // This machine's RAM is shared with the OS, the desktop and a browser: a model counts on 2/3 of it
    // (src/hardware/personal_memory.h; issue 25, finding 2): 8e9 x 2 / 3, truncated.
    EXPECT_EQ(r->budget_bytes, 5'333'333'333u);
    // 0.5B at f16 is ~1 GB.
    EXPECT_TRUE(find_row(*r, "Qwen/Qwen2.5-0.5B", "f16")->fits);
}

TEST(Plan, LlamaCppPlanHasOllamaModelfileLine) {
    inference_params p;
    p.engine = engine_kind::llama_cpp;
    p.ctx    = 8192;
    auto hw  = builtin_hardware().lookup("RTX 4090");
    ASSERT_TRUE(hw.has_value());
    auto r = make_plan(catalog_model("Qwen/Qwen2.5-0.5B"), p, {*hw});
    ASSERT_EQ(r.candidates.size(), 1u);
    std::string ollama;
    for (const auto& [engine, line] : r.candidates.front().launch)
        if (engine == "ollama") ollama = line;
    EXPECT_NE(ollama.find("PARAMETER num_ctx 8192"), std::string::npos) << ollama;
}

} // namespace
} // namespace llmplan

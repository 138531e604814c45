// llmplan check: engine logs quoted in GitHub issues (tests/data/logs, copied from
// ../shared/truth/llamacpp_issue_logs.json and vllm_issue_logs.json; manifest.json names each thread).
#include "check/log_parse.h"
#include "cli_run.h"
#include "llmplan/check.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using namespace llmplan;
constexpr std::uint64_t mib = 1ull << 20;

std::string log_text(const std::string& name) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/logs/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string fmt_name(int i) {
    return std::string("llamacpp_") + (i < 10 ? "0" : "") + std::to_string(i) + ".log";
}

std::uint64_t figure(const log_facts& f, std::string_view part, std::string_view device) {
    for (const auto& e : f.figures)
        if (e.part == part && e.device == device) return e.bytes;
    return 0;
}

// ik_llama.cpp issue 103 (old log format): buffers on CUDA0 and the pinned host.
TEST(check_log, llama_cpp_buffers_and_context) {
    auto f = parse_engine_log(log_text("llamacpp_00.log"), "llamacpp_00.log");
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->engine, engine_kind::llama_cpp);
    EXPECT_EQ(f->model_name, "Meta_Llama_3.1_8b_it");
    EXPECT_EQ(f->gguf_ftype, "q5_k_s"); // "Q5_K - Small"
    EXPECT_EQ(figure(*f, "weights", "cuda:0"), 4941 * mib);
    EXPECT_EQ(figure(*f, "weights", "cpu"), static_cast<std::uint64_t>(344.44 * mib + 0.5));
    EXPECT_EQ(figure(*f, "kv_cache", "cuda:0"), 82 * mib);
    EXPECT_EQ(figure(*f, "compute", "cuda:0"), static_cast<std::uint64_t>(266.5 * mib));
    // CUDA_Host output (0.98) + compute (10.01) buffers
    EXPECT_NEAR(static_cast<double>(figure(*f, "compute", "cpu")), 10.99 * mib, 0.01 * mib);
    EXPECT_EQ(f->n_ctx, 1024u);
    EXPECT_EQ(f->n_ubatch, 512u);
    EXPECT_EQ(f->type_k, dtype::iq4_nl);
    EXPECT_EQ(f->gpu_layers, 33);
    EXPECT_EQ(f->gpu_devices, 1u);
}

// Mainline format (llama.cpp issue quoted as llamacpp_03): "model buffer", llama_context, type_k = 'f16'.
TEST(check_log, llama_cpp_mainline_format_on_a_cpu) {
    auto f = parse_engine_log(log_text("llamacpp_03.log"), "llamacpp_03.log");
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->gguf_ftype, "q5_k_m");
    EXPECT_EQ(figure(*f, "weights", "cpu"), static_cast<std::uint64_t>(20713.44 * mib + 0.5));
    EXPECT_EQ(figure(*f, "kv_cache", "cpu"), 384 * mib);
    EXPECT_NEAR(static_cast<double>(figure(*f, "compute", "cpu")), (300.75 + 0.58) * mib, 1);
    EXPECT_EQ(f->gpu_devices, 0u);
    EXPECT_EQ(f->type_k, dtype::f16);
    EXPECT_EQ(f->n_ctx, 4096u);
    // The CLI recovers Qwen/Qwen3-30B-A3B from general.name and sizes Q5_K_M by llama-quantize's
    // recipe: weights and KV within 3% of the engine's own buffers.
    const auto r = llmplan::test::run_cli("check " + std::string(LLMPLAN_TEST_DATA) + "/logs/llamacpp_03.log --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["estimate"]["model"]["id"], "Qwen/Qwen3-30B-A3B");
    for (const auto& row : j["rows"])
        if ((row["part"] == "weights" || row["part"] == "kv_cache") && row["device"] == "cpu")
            EXPECT_LT(std::abs(row["difference"].get<double>()), 0.03) << row.dump();
}

// A German-locale log prints decimal commas: "CPU buffer size = 24079,77 MiB".
TEST(check_log, decimal_commas) {
    std::size_t used = 0;
    EXPECT_DOUBLE_EQ(*detail::parse_number("24079,77 MiB", used), 24079.77);
    EXPECT_EQ(detail::size_after("CPU KV buffer size =  3072,00 MiB", "buffer size"), 3072 * mib);
    EXPECT_EQ(detail::gguf_ftype_of("Q4_K - Medium"), "q4_k_m");
    EXPECT_EQ(detail::gguf_ftype_of("IQ3_S mix - 3.66 bpw"), "iq3_m");
    EXPECT_EQ(detail::gguf_ftype_of("Q2_K - Medium"), "q2_k");
    EXPECT_EQ(detail::device_of_buffer("CUDA_Host"), "cpu");
    EXPECT_EQ(detail::device_of_buffer("CUDA1"), "cuda:1");
}

// vLLM PR 10511 (Dec 2024): the memory profiling block.
TEST(check_log, vllm_profiling_block) {
    auto f = parse_engine_log(log_text("vllm_00.log"), "vllm_00.log");
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->engine, engine_kind::vllm);
    EXPECT_DOUBLE_EQ(*f->gpu_memory_utilization, 0.9);
    EXPECT_EQ(*f->total_gpu_memory, static_cast<std::uint64_t>(79.22 * (1ull << 30) + 0.5));
    EXPECT_NEAR(static_cast<double>(figure(*f, "weights", "cuda:0")) / (1ull << 30), 14.96, 1e-6);
    EXPECT_NEAR(static_cast<double>(figure(*f, "overhead", "cuda:0")) / (1ull << 30), 1.79, 1e-6);
    EXPECT_NEAR(static_cast<double>(figure(*f, "activations", "cuda:0")) / (1ull << 30), 1.26, 1e-6);
    EXPECT_NEAR(static_cast<double>(figure(*f, "kv_cache", "cuda:0")) / (1ull << 30), 53.29, 1e-6);
}

// vLLM issue 10517 (one-line V0 format): the activation peak is peak_torch_memory - weights.
TEST(check_log, vllm_peak_torch_line) {
    auto f = parse_engine_log(log_text("vllm_02.log"), "vllm_02.log");
    ASSERT_TRUE(f.has_value());
    EXPECT_NEAR(static_cast<double>(figure(*f, "activations", "cuda:0")) / (1ull << 30), 17.06 - 14.9888, 1e-6);
    EXPECT_NEAR(static_cast<double>(figure(*f, "kv_cache", "cuda:0")) / (1ull << 30), 3.81, 1e-6);
    EXPECT_EQ(f->kv_tokens, 1952u * 16);
}

TEST(check_log, every_quoted_log_parses) {
    // 34-37 are truncated excerpts (a cut-off size line, bare numbers): no log to read, refused.
    for (int i = 34; i < 38; ++i)
        EXPECT_FALSE(parse_engine_log(log_text(fmt_name(i)), fmt_name(i)).has_value()) << i;
    for (int i = 0; i < 34; ++i) {
        const auto name = fmt_name(i);
        auto f          = parse_engine_log(log_text(name), name);
        ASSERT_TRUE(f.has_value()) << name;
        // some quotes hold only the print_meta lines: then the file's size is what they tell
        EXPECT_TRUE(!f->figures.empty() || f->model_size.has_value()) << name;
    }
}

TEST(check_log, the_model_is_recovered_from_its_name) {
    log_facts f;
    f.model_name = "Qwen3 30B A3B";
    auto m       = model_from_log(f);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->id, "Qwen/Qwen3-30B-A3B");
    f.model_name = "Meta Llama 3.1 70B Instruct";
    m            = model_from_log(f);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->id, "meta-llama/Llama-3.1-70B-Instruct");
    f.model_name = "something else";
    EXPECT_FALSE(model_from_log(f).has_value());
}

// The CLI: llmplan's weights beside vLLM's measured 14.96 GiB for Llama-3-8B within 2%.
TEST(check_log, cli_vllm_weights_within_two_percent) {
    const auto r = llmplan::test::run_cli("check " + std::string(LLMPLAN_TEST_DATA) +
                                          "/logs/vllm_00.log --model meta-llama/Meta-Llama-3-8B --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["engine"], "vllm");
    bool seen = false;
    for (const auto& row : j["rows"])
        if (row["part"] == "weights") {
            seen = true;
            EXPECT_LT(std::abs(row["difference"].get<double>()), 0.02);
        }
    EXPECT_TRUE(seen);
}

TEST(check_log, unparseable_input_exits_2) {
    const std::string not_a_log = std::string(LLMPLAN_TEST_DATA) + "/gguf/ggml-vocab-llama.gguf";
    llmplan::test::expect_refused("check " + not_a_log, not_a_log + ": no llama.cpp, vLLM or transformers log line");
    llmplan::test::expect_refused("check /nonexistent.log", "/nonexistent.log: cannot open the log file");
    EXPECT_FALSE(parse_engine_log("hello\nworld\n", "x").has_value());
}

} // namespace

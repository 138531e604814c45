// Launch lines of catalog models fetch a GGUF that exists (issue 25, finding 10): a repo the table
// data/ollama/gguf_repos.csv knows (sources in data/ollama/SOURCES.md) at a quant it carries is
// `llama-server -hf REPO:QUANT` and Ollama's library tag or hf.co/REPO:QUANT; any other model or quant
// keeps the file its convert + quantize steps write (-m FILE): no repo name is guessed.
#include "catalog_fixtures.h"
#include "plan/detail.h"
#include "plan/launch_source.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>
#include <map>

namespace llmplan {
namespace {

std::map<std::string, std::string> lines_of(const char* model, const char* weights, device_kind device) {
    auto p   = test::infer_params(engine_kind::llama_cpp, weights);
    p.device = device;
    std::map<std::string, std::string> out;
    for (auto& [engine, line] : detail::launch_lines(test::catalog_model(model), p, 1, 1, true))
        out[engine] = line;
    return out;
}

TEST(gguf_repos, a_known_repo_at_a_quant_it_carries_is_fetched_with_hf) {
    // ggml-org/llama.cpp scripts/tool_bench.sh runs --hf bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M.
    const auto l = lines_of("meta-llama/Llama-3.1-8B-Instruct", "q4_k_m", device_kind::cpu);
    EXPECT_EQ(l.at("llama.cpp"),
              "llama-server -hf bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M -c 4096 -ngl 0 -np 1");
    // Ollama keeps its own library tag (data/ollama/names.csv: llama3.1:8b pulls Q4_K_M).
    EXPECT_NE(l.at("ollama").find("ollama pull llama3.1:8b"), std::string::npos) << l.at("ollama");
}

TEST(gguf_repos, the_official_qwen_repo_and_its_quant_tags) {
    // QwenLM/Qwen3 docs/source/run_locally/llama.cpp.md: llama-server -hf Qwen/Qwen3-8B-GGUF:Q8_0.
    EXPECT_EQ(detail::known_gguf_repo_tag(test::catalog_model("Qwen/Qwen3-8B"), "q8_0"), "Qwen/Qwen3-8B-GGUF:Q8_0");
    EXPECT_EQ(detail::known_gguf_repo_tag(test::catalog_model("Qwen/Qwen2.5-7B-Instruct"), "q4_k_m"),
              "Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M");
}

TEST(gguf_repos, no_repo_is_guessed) {
    // A quant the repo is not known to carry, and a model without a known repo (the base Qwen2.5-7B),
    // keep the file line.
    EXPECT_EQ(detail::known_gguf_repo_tag(test::catalog_model("Qwen/Qwen3-8B"), "iq2_xxs"), "");
    const auto l = lines_of("Qwen/Qwen2.5-7B", "q4_k_m", device_kind::cuda);
    EXPECT_EQ(l.at("llama.cpp").rfind("llama-server -m Qwen2.5-7B-q4_k_m.gguf ", 0), 0u) << l.at("llama.cpp");
}

TEST(gguf_repos, ollama_pulls_the_known_repo_when_its_library_has_no_tag) {
    // Qwen3-8B at Q8_0: Ollama's qwen3:8b pulls Q4_K_M, so the Hub repo is pulled as hf.co/REPO:QUANT
    // (Hugging Face docs, "Use Ollama with any GGUF model on Hugging Face Hub").
    const auto l = lines_of("Qwen/Qwen3-8B", "q8_0", device_kind::cuda);
    EXPECT_EQ(l.at("llama.cpp").rfind("llama-server -hf Qwen/Qwen3-8B-GGUF:Q8_0 ", 0), 0u) << l.at("llama.cpp");
    EXPECT_NE(l.at("ollama").find("ollama pull hf.co/Qwen/Qwen3-8B-GGUF:Q8_0"), std::string::npos) << l.at("ollama");
}

} // namespace
} // namespace llmplan

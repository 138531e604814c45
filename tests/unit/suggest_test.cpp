// "Did you mean": Ollama-style names, near-miss ids and typos -> catalog suggestions.
// Ollama mappings: the library pages' tag lists (https://ollama.com/library/<family>/tags).
#include "llmplan/load.h"
#include "model/ollama_names.h"
#include "model/suggest.h"

#include <gtest/gtest.h>
#include <map>

namespace llmplan {
namespace {

model_suggestion first(std::string_view name) {
    const auto s = suggest_models(name, 3);
    EXPECT_FALSE(s.empty()) << name;
    return s.empty() ? model_suggestion{} : s.front();
}

TEST(suggest, ollama_names_map_to_model_and_quant) {
    struct row {
        const char *name, *id, *quant;
    };
    const row rows[] = {
        {"llama3.1:8b",                         "meta-llama/Llama-3.1-8B-Instruct",      "Q4_K_M"},
        {"qwen2.5:7b-instruct-q4_K_M",          "Qwen/Qwen2.5-7B-Instruct",              "Q4_K_M"},
        {"qwen2.5:7b-instruct-q8_0",            "Qwen/Qwen2.5-7B-Instruct",              "Q8_0"  },
        {"gemma3:27b",                          "google/gemma-3-27b-it",                 "Q4_K_M"},
        {"gpt-oss:20b",                         "openai/gpt-oss-20b",                    "MXFP4" },
        {"llama3.2:3b-text-q8_0",               "meta-llama/Llama-3.2-3B",               "Q8_0"  },
        {"mixtral:8x7b-text-v0.1-fp16",         "mistralai/Mixtral-8x7B-v0.1",           "F16"   },
        {"qwen3",                               "Qwen/Qwen3-8B",                         "Q4_K_M"}, // no tag: "latest"
        {"QWEN3:30B",                           "Qwen/Qwen3-30B-A3B",                    "Q4_K_M"}, // case
        {"registry.ollama.ai/library/phi4:14b", "microsoft/phi-4",                       "Q4_K_M"},
        {"deepseek-r1:671b",                    "deepseek-ai/DeepSeek-R1",               "Q4_K_M"},
        {"deepseek-r1:8b",                      "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", "Q4_K_M"},
    };
    for (const auto& r : rows) {
        const auto s = first(r.name);
        EXPECT_EQ(s.id, r.id) << r.name;
        EXPECT_EQ(s.quant, r.quant) << r.name;
        EXPECT_TRUE(s.in_catalog) << r.name;
    }
}

TEST(suggest, every_ollama_row_names_a_hub_id) {
    // A row's id is either in the catalog (then the suggestion is exact) or an ORG/NAME Hub id.
    for (const char* n : {"granite3.3:8b", "mistral-nemo:12b", "gemma3n:e4b", "qwen3-coder:30b"}) {
        const auto s = first(n);
        EXPECT_NE(s.id.find('/'), std::string::npos) << n;
    }
    EXPECT_FALSE(first("mistral-nemo:12b").in_catalog);
}

// data/ollama/names.csv, compiled in: 95 tags, each with a family, a size, a Hub id and a quant; 31
// families mark the size "latest" fetches (at most one each), the others have one size.
TEST(suggest, ollama_table_is_read_whole) {
    const auto rows = detail::ollama_names();
    EXPECT_EQ(rows.size(), 95u);
    std::map<std::string_view, int> latest;
    for (const auto& r : rows) {
        EXPECT_FALSE(r.family.empty() || r.size.empty() || r.hf_id.empty() || r.quant.empty()) << r.family;
        latest[r.family] += r.latest ? 1 : 0;
    }
    int marked = 0;
    for (const auto& [family, n] : latest) {
        EXPECT_LE(n, 1) << family;
        marked += n;
    }
    EXPECT_EQ(marked, 31);
    EXPECT_EQ(detail::ollama_latest_size("llama4"), "16x17b");
    EXPECT_EQ(detail::ollama_latest_size("phi4-reasoning"), "14b"); // one size
    EXPECT_EQ(detail::ollama_latest_size("nonesuch"), "");
}

TEST(suggest, near_misses_and_typos) {
    EXPECT_EQ(first("Qwen3-8b-instruct").id, "Qwen/Qwen3-8B");                        // an extra -Instruct
    EXPECT_EQ(first("qwen2.5-7b-instruc").id, "Qwen/Qwen2.5-7B-Instruct");            // a typo
    EXPECT_EQ(first("unsloth/Qwen3-8B").id, "Qwen/Qwen3-8B");                         // another organisation
    EXPECT_EQ(first("Llama 3.1 8B Instruct").id, "meta-llama/Llama-3.1-8B-Instruct"); // spaces
    EXPECT_EQ(first("gpt-oss-20").id, "openai/gpt-oss-20b");
}

TEST(suggest, gguf_repo_names_give_the_original_model_and_the_quant) {
    // llama.cpp -hf / Ollama hf.co/ spellings of a GGUF conversion of a catalog model.
    const auto s = first("hf.co/bartowski/Qwen2.5-7B-Instruct-GGUF:Q4_K_M");
    EXPECT_EQ(s.id, "Qwen/Qwen2.5-7B-Instruct");
    EXPECT_EQ(s.quant, "Q4_K_M");
    EXPECT_EQ(first("unsloth/gemma-3-27b-it-GGUF").id, "google/gemma-3-27b-it");
    EXPECT_EQ(first("hf:meta-llama/Llama-3.1-8B-Instruct@main").quant, "");
}

TEST(suggest, nothing_close_gives_nothing_and_bad_input_is_bounded) {
    EXPECT_TRUE(suggest_models("xyzzy", 3).empty());
    EXPECT_TRUE(suggest_models("", 3).empty());
    EXPECT_TRUE(suggest_models("qwen3", 0).empty());
    EXPECT_TRUE(suggest_models("nosuchfamily:8b", 3).empty());
    EXPECT_LE(suggest_models("qwen", 2).size(), 2u);
    EXPECT_TRUE(suggest_models(std::string(100000, 'q'), 3).empty());
    EXPECT_TRUE(suggest_models(std::string(100000, ':'), 3).empty());
}

TEST(suggest, the_not_found_error_carries_the_suggestions) {
    auto m = load_model("llama3.1:8b");
    ASSERT_FALSE(m.has_value());
    EXPECT_EQ(m.error().code, error_code::file_not_found);
    EXPECT_NE(m.error().message.find("did you mean meta-llama/Llama-3.1-8B-Instruct --weights Q4_K_M?"),
              std::string::npos)
        << m.error().message;
}

} // namespace
} // namespace llmplan

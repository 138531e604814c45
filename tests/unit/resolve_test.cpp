// Names as people type them (issue 25, finding 8): Ollama tags, LM Studio names and GGUF files, Hub
// addresses and plain words resolve to one model and go on; near misses stay "did you mean".
// Ollama tags: data/ollama/names.csv (https://ollama.com/library/<family>/tags); LM Studio's
// `lms get NAME@QUANT` and its GGUF file names (lmstudio-community/<Model>-GGUF, files
// <Model>-Q4_K_M.gguf); llama.cpp's -hf takes Q4_K_M when no quant is named (common/arg.cpp).
#include "cli_run.h"
#include "llmplan/load.h"
#include "llmplan/resolve.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

model_resolution must(std::string_view name) {
    const auto r = resolve_model_name(name);
    EXPECT_TRUE(r.has_value()) << name;
    return r.value_or(model_resolution{});
}

TEST(resolve, names_people_type_resolve_to_one_model_and_quant) {
    struct row {
        const char *name, *id, *quant, *how;
    };
    const row rows[] = {
        {"llama3.1:8b",                                                                                         "meta-llama/Llama-3.1-8B-Instruct",        "Q4_K_M", "Ollama tag"          },
        {"qwen3:30b-a3b",                                                                                       "Qwen/Qwen3-30B-A3B",                      "Q4_K_M", "Ollama tag"          },
        {"llama 3.1 8b",                                                                                        "meta-llama/Llama-3.1-8B",                 "",       "name"                },
        {"https://huggingface.co/Qwen/Qwen2.5-7B-Instruct",                                                     "Qwen/Qwen2.5-7B-Instruct",                "",       "Hugging Face address"},
        {"https://huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF/blob/main/Qwen2.5-7B-Instruct-Q5_K_M.gguf",
         "Qwen/Qwen2.5-7B-Instruct",                                                                                                                       "Q5_K_M", "Hugging Face address"},
 // The catalog's copy named exactly so: NousResearch's re-upload of Meta's Meta-Llama-3.1-8B-Instruct.
        {"lmstudio-community/Meta-Llama-3.1-8B-Instruct-GGUF",                                                  "NousResearch/Meta-Llama-3.1-8B-Instruct", "Q4_K_M",
         "GGUF file or repo"                                                                                                                                                               },
        {"Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",                                                              "NousResearch/Meta-Llama-3.1-8B-Instruct", "Q4_K_M",
         "GGUF file or repo"                                                                                                                                                               },
        {"qwen2.5-7b-instruct@q8_0",                                                                            "Qwen/Qwen2.5-7B-Instruct",                "Q8_0",   "LM Studio name"      },
    };
    for (const auto& r : rows) {
        const auto got = must(r.name);
        EXPECT_EQ(got.id, r.id) << r.name;
        EXPECT_EQ(got.quant, r.quant) << r.name;
        EXPECT_EQ(got.how, r.how) << r.name;
    }
}

TEST(resolve, near_misses_and_other_versions_are_not_taken_for_the_model) {
    EXPECT_FALSE(resolve_model_name("Qwen/Qwen2.5-7B-Instruct")); // a catalog id needs nothing
    EXPECT_FALSE(resolve_model_name("gpt-oss-20"));               // a typo's neighbour: asked, not guessed
    EXPECT_FALSE(resolve_model_name("deepseek-v4"));              // another version
    EXPECT_FALSE(resolve_model_name("xyzzy"));
    EXPECT_FALSE(resolve_model_name(std::string(100000, 'q')));
}

TEST(resolve, the_estimate_goes_on_and_says_what_it_read) {
    // Before: exit 2, "did you mean meta-llama/Llama-3.1-8B-Instruct --weights Q4_K_M?".
    const auto t = test::run_cli("estimate llama3.1:8b --offline");
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_EQ(t.out.rfind("read \"llama3.1:8b\" (an Ollama tag) as meta-llama/Llama-3.1-8B-Instruct, Q4_K_M", 0), 0u);
    const auto j = test::run_cli("estimate qwen3:30b-a3b --offline --json");
    ASSERT_EQ(j.status, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["model"]["id"], "Qwen/Qwen3-30B-A3B");
    EXPECT_EQ(doc["workload"]["engine"], "llama.cpp"); // a GGUF quant runs on llama.cpp
    EXPECT_EQ(doc["resolved"]["quant"], "Q4_K_M");
    // --weights given wins over the tag's quant.
    const auto w = test::run_cli("estimate qwen3:30b-a3b --weights q8_0 --offline --json");
    ASSERT_EQ(w.status, 0) << w.err;
    EXPECT_EQ(nlohmann::json::parse(w.out)["workload"]["weights"], "q8_0");
    // Another version is offered as such, and the command still stops (no DeepSeek-V5 exists).
    const auto v = test::run_cli("estimate deepseek-v5 --offline");
    EXPECT_EQ(v.status, 2);
    EXPECT_EQ(v.err.find("did you mean"), std::string::npos) << v.err;
    EXPECT_NE(v.err.find("other versions or sizes"), std::string::npos) << v.err;
    // A version released in editions offers the editions as a choice (the catalog's DeepSeek-V4-Flash
    // and -Pro, data/models/SOURCES.md), and still stops: which one is the person's to say.
    const auto e = test::run_cli("estimate deepseek-v4 --offline");
    EXPECT_EQ(e.status, 2);
    EXPECT_NE(e.err.find("did you mean deepseek-ai/DeepSeek-V4-Flash, deepseek-ai/DeepSeek-V4-Pro?"), std::string::npos)
        << e.err;
}

TEST(resolve, a_hub_address_of_a_catalog_model_reads_the_catalog_offline) {
    load_options o;
    o.offline = true;
    std::optional<model_resolution> r;
    auto m = load_model_by_name("https://huggingface.co/meta-llama/Llama-3.1-8B", o, r);
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(m->id, "meta-llama/Llama-3.1-8B");
    ASSERT_TRUE(r);
}

TEST(resolve, models_filter_matches_where_a_word_starts) {
    const auto rows = search_catalog("gemma-4");
    ASSERT_FALSE(rows.empty());
    for (const auto* e : rows)
        EXPECT_NE(e->alias.find("gemma-4"), std::string::npos) << e->id;
    for (const auto* e : rows)
        EXPECT_EQ(e->alias.find("medgemma"), std::string::npos) << e->id;
    EXPECT_FALSE(search_catalog("wen2.5").empty()); // a part of a word still finds something
}

} // namespace
} // namespace llmplan

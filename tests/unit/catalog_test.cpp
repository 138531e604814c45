// The built-in catalog: every entry loads, and a sibling's catalog.json shares another folder's
// config while restating only fields that are not shapes (data/models/SOURCES.md, "Shared configs").
#include "llmplan/load.h"
#include "model/catalog_detail.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

TEST(catalog, every_entry_loads) {
    ASSERT_GE(catalog().size(), 250u); // issue 9, item 7
    for (const auto& e : catalog()) {
        auto m = load_catalog_model(e);
        EXPECT_TRUE(m.has_value()) << e.id << ": " << (m ? "" : m.error().what());
    }
}

// Issue 9: `llmplan models` lists every model "with its source" (data/models/sources.json, written by
// data/models/make_sources.py from SOURCES.md). Only the three seed configs lack an upstream file.
TEST(catalog, every_entry_has_a_source) {
    int seed = 0;
    for (const auto& e : catalog()) {
        ASSERT_FALSE(catalog_source_of(e).kind.empty()) << e.id << " has no row in data/models/sources.json";
        if (catalog_source_of(e).kind == "seed")
            ++seed;
        else
            EXPECT_FALSE(catalog_source_of(e).origin.empty()) << e.id;
        if (catalog_source_of(e).kind == "sibling")
            EXPECT_NE(find_in_catalog(catalog_source_of(e).origin), nullptr) << e.id;
    }
    EXPECT_LE(seed, 3);
    // SOURCES.md, round 1: Qwen2.5-7B-Instruct is sophgo/LLM-TPU's copy at cc4c194.
    const auto* q = find_in_catalog("Qwen/Qwen2.5-7B-Instruct");
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(catalog_source_of(*q).kind, "copy");
    EXPECT_EQ(catalog_source_of(*q).origin,
              "sophgo/LLM-TPU models/Qwen2_5/config/config.json @ cc4c19410e3d30bf962f3e3097111b93f4da7b84");
    // Round 3: Qwen2.5-72B-Instruct shares Qwen2.5-72B's config (both totals 72,706,203,648).
    const auto* i72 = find_in_catalog("Qwen/Qwen2.5-72B-Instruct");
    ASSERT_NE(i72, nullptr);
    EXPECT_EQ(catalog_source_of(*i72).kind, "sibling");
    EXPECT_EQ(catalog_source_of(*i72).origin, "Qwen/Qwen2.5-72B");
}

// Qwen2.5-1.5B-Instruct shares Qwen2.5-1.5B's shapes (both Hub totals 1,543,714,304) but its own
// config says max_position_embeddings 32768 where the base's says 131072.
TEST(catalog, sibling_keeps_shapes_and_its_own_context) {
    const auto* base     = find_in_catalog("Qwen/Qwen2.5-1.5B");
    const auto* instruct = find_in_catalog("Qwen/Qwen2.5-1.5B-Instruct");
    ASSERT_NE(base, nullptr);
    ASSERT_NE(instruct, nullptr);
    auto b = load_catalog_model(*base);
    auto i = load_catalog_model(*instruct);
    ASSERT_TRUE(b && i);
    EXPECT_EQ(count_params(*b).total, 1'543'714'304u);
    EXPECT_EQ(count_params(*i).total, 1'543'714'304u);
    EXPECT_EQ(b->n_ctx_train, 131072u);
    EXPECT_EQ(i->n_ctx_train, 32768u);
    EXPECT_EQ(i->id, "Qwen/Qwen2.5-1.5B-Instruct");
}

const std::string shared_config = R"({"model_type":"llama","hidden_size":64,"max_position_embeddings":2048})";

const std::string* config_of(std::string_view folder) {
    return folder == "org--base" ? &shared_config : nullptr;
}

TEST(catalog, catalog_json_sets_only_fields_that_are_not_shapes) {
    auto ok = detail::apply_catalog_json(R"({"config":"org--base","set":{"max_position_embeddings":4096}})",
                                         "x/catalog.json", config_of, "");
    ASSERT_TRUE(ok) << ok.error().what();
    const auto j = nlohmann::json::parse(*ok);
    EXPECT_EQ(j["max_position_embeddings"], 4096);
    EXPECT_EQ(j["hidden_size"], 64);

    auto shape = detail::apply_catalog_json(R"({"config":"org--base","set":{"hidden_size":128}})", "x/catalog.json",
                                            config_of, "");
    ASSERT_FALSE(shape);
    EXPECT_NE(shape.error().what().find("x/catalog.json:/set/hidden_size"), std::string::npos);

    auto dtype = detail::apply_catalog_json(R"({"config":"org--base","set":{"torch_dtype":"float32"}})",
                                            "x/catalog.json", config_of, "");
    EXPECT_FALSE(dtype);

    auto missing = detail::apply_catalog_json(R"({"config":"org--none"})", "x/catalog.json", config_of, "");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().what().find("org--none"), std::string::npos);

    EXPECT_FALSE(detail::apply_catalog_json("[1,2]", "x/catalog.json", config_of, ""));
    EXPECT_FALSE(detail::apply_catalog_json(R"({"set":{}})", "x/catalog.json", config_of, ""));
    // With no "config", the folder's own config.json is the one restated.
    auto own = detail::apply_catalog_json(R"({"set":{"seq_length":8192}})", "x/catalog.json", config_of,
                                          R"({"model_type":"chatglm","seq_length":512})");
    ASSERT_TRUE(own);
    EXPECT_EQ(nlohmann::json::parse(*own)["seq_length"], 8192);
}

} // namespace
} // namespace llmplan

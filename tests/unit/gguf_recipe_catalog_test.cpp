// The recipe on tensor lists generated from real config.json files (load_model on the catalog).
#include "estimate/gguf_recipe.h"
#include "llmplan/load.h"

#include <array>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace llmplan {
namespace {

model_desc load(std::string_view id) {
    auto r = load_model(id);
    EXPECT_TRUE(r.has_value()) << id;
    return r.has_value() ? r.value() : model_desc{};
}

/// (tensor count, bytes) per type after applying the recipe of ft.
std::map<dtype, std::pair<int, std::uint64_t>> census(model_desc m, std::string_view ft) {
    gguf_apply_recipe(m, *gguf_ftype_from_name(ft));
    std::map<dtype, std::pair<int, std::uint64_t>> r;
    for (const auto& t : m.tensors) {
        ++r[t.type].first;
        r[t.type].second += t.bytes;
    }
    return r;
}

// tests/data/truth/llamacpp_cpu_measured.json: real files of Qwen2.5-0.5B and Llama-3.2-1B at Q4_0 /
// Q8_0 / F16. The catalog holds the Instruct configs, which have the same shapes.
TEST(gguf_recipe_catalog, matches_measured_llamacpp_files) {
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/truth/llamacpp_cpu_measured.json");
    ASSERT_TRUE(in.good());
    const auto doc = nlohmann::json::parse(in);
    const std::map<std::string, std::string> ids{
        {"qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B-Instruct"      },
        {"llama-3.2-1b", "meta-llama/Llama-3.2-1B-Instruct"}
    };
    int checked = 0;
    for (const auto& c : doc.at("cases")) {
        const auto id = ids.find(c.at("model").get<std::string>());
        ASSERT_NE(id, ids.end());
        const auto got = census(load(id->second), c.at("quant_type").get<std::string>());
        for (const auto& [type_name, bytes] : c.at("tensor_bytes_by_type").items()) {
            const auto t = dtype_from_name(type_name);
            ASSERT_TRUE(t.has_value()) << type_name;
            const std::uint64_t want = bytes.get<std::uint64_t>();
            const std::uint64_t have = got.contains(*t) ? got.at(*t).second : 0;
            if (*t == dtype::f32) {
                // Llama-3 rope scaling adds rope_freqs.weight (head_dim / 2 = 32 floats = 128 bytes),
                // which the tensor generator does not emit yet.
                EXPECT_LE(want - have, 128u) << id->second << " " << type_name;
                EXPECT_GE(want, have);
            } else {
                EXPECT_EQ(have, want) << id->second << " " << c.at("quant_type") << " " << type_name;
            }
        }
        ++checked;
    }
    EXPECT_EQ(checked, 81);
}

// Counts that follow from the rules (worked out in the comments) on real configs. The byte totals
// agree with the published files to within their GGUF header: Llama-2-7B Q4_K_M 4.08 GB,
// Llama-2-70B Q4_K_M 41.42 GB (TheBloke), Qwen2.5-7B-Instruct Q4_K_M 4.36 GiB (loader log),
// DeepSeek-V2-Lite Q4_K_M 10.36 GB.
TEST(gguf_recipe_catalog, q4_k_m_counts_on_catalog_models) {
    using counts = std::map<dtype, int>;
    auto n       = [](std::string_view id, std::string_view ft) {
        counts r;
        for (const auto& [t, v] : census(load(id), ft))
            r[t] = v.first;
        return r;
    };
    // 28 layers: use_more_bits on 14 attn_v + 14 ffn_down, + output = 29 q6_K (loader census)
    EXPECT_EQ(n("Qwen/Qwen2.5-7B-Instruct", "q4_k_m"), (counts{
                                                           {dtype::f32,  141},
                                                           {dtype::q4_k, 169},
                                                           {dtype::q6_k, 29 }
    }));
    EXPECT_EQ(n("meta-llama/Llama-2-7b-hf", "q4_k_m"), (counts{
                                                           {dtype::f32,  65 },
                                                           {dtype::q4_k, 193},
                                                           {dtype::q6_k, 33 }
    }));
    // 80 layers, grouped KV -> LLM_TYPE_70B: the 40 attn_v outside use_more_bits get Q5_K, not Q4_K
    EXPECT_EQ(n("meta-llama/Llama-2-70b-hf", "q4_k_m"),
              (counts{
                  {dtype::f32,  161},
                  {dtype::q4_k, 441},
                  {dtype::q5_k, 40 },
                  {dtype::q6_k, 81 }
    }));
    // DeepSeek-V2-Lite (27 layers, layer 0 dense): expert ffn_down rows are 1408 = 5.5 x 256 wide and the
    // dense one 10944, so Q6_K -> Q8_0 on the 13 use_more_bits layers and Q4_K -> Q5_0 on the other 14;
    // the shared-expert ffn_down (2816 = 11 x 256) keeps Q6_K on 12 of them, + output.
    const auto ds = n("deepseek-ai/DeepSeek-V2-Lite", "q4_k_m");
    EXPECT_EQ(ds.at(dtype::q8_0), 13);
    EXPECT_EQ(ds.at(dtype::q5_0), 14);
    EXPECT_EQ(ds.at(dtype::q6_k), 13);
}

// gguf_recipe_types (one walk, used by estimates and plans) gives every tensor the type that
// gguf_recipe_type (a walk per tensor, the rules as llama.cpp states them) gives it: on each catalog
// model, for the file types whose rules read the counters (attn_v / ffn_down / ffn_gate / ffn_up).
TEST(gguf_recipe_catalog, one_walk_equals_per_tensor_rules) {
    // one file type per model, in turn (the per-tensor walk is O(n^2): this keeps the test fast)
    const std::array<std::string_view, 4> fts{"q4_k_m", "q3_k_m", "iq2_xs", "iq3_xs"};
    std::size_t compared = 0;
    for (const auto& e : catalog()) {
        const auto m = load_catalog_model(e);
        ASSERT_TRUE(m.has_value()) << e.id;
        if (m.value().tensors.size() > 400) continue;
        const auto f     = *gguf_ftype_from_name(fts[compared % fts.size()]);
        const auto types = gguf_recipe_types(m.value(), f);
        ASSERT_EQ(types.size(), m.value().tensors.size());
        for (std::size_t i = 0; i < types.size(); ++i)
            ASSERT_EQ(types[i], gguf_recipe_type(m.value(), m.value().tensors[i], f))
                << e.id << " " << f.name << " " << m.value().tensors[i].name;
        ++compared;
    }
    EXPECT_GE(compared, 20u);
}

TEST(gguf_recipe_catalog, mxfp4_moe_on_gpt_oss) {
    // gpt-oss-20b: expert matrices (3-D) MXFP4, attention, embeddings and output Q8_0, the rest F32
    for (const auto& [t, v] : census(load("openai/gpt-oss-20b"), "mxfp4_moe"))
        EXPECT_TRUE(t == dtype::mxfp4 || t == dtype::q8_0 || t == dtype::f32) << name(t);
}

} // namespace
} // namespace llmplan

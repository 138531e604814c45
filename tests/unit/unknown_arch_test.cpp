// A model_type no table knows still gets an answer (src/model/unknown_arch.cpp): exact weights from
// its tensors, the KV cache from the standard config keys, marked low confidence; a config-only model
// is estimated as a standard decoder, marked low confidence with the guessed parts named; exit 2 only
// for what cannot be read (no layer count), naming the key.
//
// Fixture: tests/data/safetensors/minicpm3-4b-test-model.safetensors and minicpm3-4b-config.json,
// both from ollama/ollama convert/testdata/minicpm3-4b/ @ 4b8460d1a774 (the config is openbmb/MiniCPM3-4B's
// own, model_type "minicpm3", which llmplan's architecture table does not have; the safetensors file
// is a tiny synthetic one with MiniCPM3's real tensor names, tests/data/safetensors/README.md).
#include "cli_run.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace {

using namespace llmplan;
namespace fs = std::filesystem;

const std::string data = LLMPLAN_TEST_DATA;

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

/// A model folder in the temp directory: config.json (text given) and maybe the fixture's safetensors.
struct model_dir {
    fs::path path;
    model_dir(const std::string& name, const std::string& config, bool with_weights)
        : path(fs::temp_directory_path() / name) {
        fs::remove_all(path);
        fs::create_directories(path);
        std::ofstream(path / "config.json") << config;
        if (with_weights)
            fs::copy_file(data + "/safetensors/minicpm3-4b-test-model.safetensors", path / "model.safetensors");
    }
    ~model_dir() { fs::remove_all(path); }
};

const std::string minicpm3_config = read(data + "/safetensors/minicpm3-4b-config.json");

bool mentions(const std::vector<std::string>& lines, const std::string& word) {
    for (const auto& l : lines)
        if (l.find(word) != std::string::npos) return true;
    return false;
}

// With the tensors read, the weights are their exact sum whatever the architecture: the file is
// 403,544 bytes, 8 of them the header length and 1,536 the header, so 402,000 bytes of tensor data
// (15 F32 tensors: 10 of [100, 100] and 5 of [100] = 100,000 + 500 floats).
TEST(unknown_arch, tensors_give_exact_weights_for_an_unknown_model_type) {
    for (const std::string& type : {std::string("minicpm3"), std::string("renamed_family")}) {
        model_dir d("llmplan_unknown_" + type,
                    replaced(minicpm3_config, "\"model_type\": \"minicpm3\"", "\"model_type\": \"" + type + "\""),
                    true);
        auto m = load_model(d.path.string());
        ASSERT_TRUE(m.has_value()) << m.error().message;
        EXPECT_EQ(m->arch, type);
        EXPECT_EQ(m->source, weights_source::tensors);
        EXPECT_EQ(weights_bytes(*m), 402'000u);
        EXPECT_EQ(count_params(*m).total, 100'500u);
        // Low confidence: the weights are read, the cache is not the family's own reading.
        EXPECT_TRUE(m->low_confidence());
        EXPECT_TRUE(m->guessed_weights.empty());
        EXPECT_TRUE(mentions(m->guessed_cache, "standard keys"));
        EXPECT_TRUE(mentions(m->guessed_cache, type));
    }
}

// Config only: a standard decoder from the standard keys, low confidence, the guesses named. The KV
// cache by hand, from num_hidden_layers 62, num_key_value_heads 40 and head_dim = hidden_size 2560 /
// 40 heads = 64: 62 x 2 (K and V) x 40 x 64 x 2 bytes (bf16) = 634,880 bytes a token.
TEST(unknown_arch, config_only_is_a_standard_decoder_marked_low_confidence) {
    model_dir d("llmplan_unknown_config_only", minicpm3_config, false);
    auto m = load_model(d.path.string());
    ASSERT_TRUE(m.has_value()) << m.error().message;
    EXPECT_EQ(m->source, weights_source::formula);
    EXPECT_TRUE(m->low_confidence());
    EXPECT_TRUE(mentions(m->guessed_weights, "standard decoder"));
    EXPECT_TRUE(mentions(m->guessed_weights, "tie_word_embeddings")); // the key it lacks, named
    EXPECT_TRUE(mentions(m->guessed_weights, "kv_lora_rank"));        // what it could not lay out, named
    EXPECT_EQ(m->n_layer, 62u);
    EXPECT_EQ(m->typical_layer().n_head_kv, 40u);
    EXPECT_EQ(m->typical_layer().head_dim_k, 64u);
    inference_params p;
    p.engine = engine_kind::transformers;
    auto e   = estimate_inference(*m, p);
    ASSERT_TRUE(e.has_value()) << e.error().message;
    EXPECT_EQ(e->kv_bytes_per_token, 634'880u);

    // The document says so: "confidence": "low" and the guesses in "guessed".
    const auto r = test::run_cli("inspect " + d.path.string() + " --json");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("\"confidence\": \"low\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"guessed\""), std::string::npos);
    const auto known = test::run_cli("inspect Qwen/Qwen2.5-7B-Instruct --json");
    EXPECT_EQ(known.status, 0);
    EXPECT_EQ(known.out.find("\"confidence\""), std::string::npos); // only a guessed model says so
    EXPECT_EQ(known.out.find("\"guessed\""), std::string::npos);
}

// A sliding_window with no layer_types applies to every layer (MistralConfig), and is said to be a guess.
TEST(unknown_arch, sliding_window_without_layer_types_is_every_layer) {
    model_dir d("llmplan_unknown_swa", replaced(minicpm3_config, "\"use_cache\": true", "\"sliding_window\": 4096"),
                false);
    auto m = load_model(d.path.string());
    ASSERT_TRUE(m.has_value()) << m.error().message;
    for (const auto& l : m->layers)
        EXPECT_EQ(l.n_swa, 4096u);
    EXPECT_TRUE(mentions(m->guessed_cache, "sliding_window 4096"));
}

// What cannot be read: no layer count (exit 2, naming the key); an unknown family's feed-forward width
// without its tensors (exit 2, naming intermediate_size; with the tensors the weights are exact).
TEST(unknown_arch, no_layer_count_is_refused_naming_the_key) {
    model_dir d("llmplan_unknown_no_layers", replaced(minicpm3_config, "\"num_hidden_layers\": 62,", ""), false);
    auto m = load_model(d.path.string());
    ASSERT_FALSE(m.has_value());
    EXPECT_EQ(m.error().code, error_code::missing_field);
    EXPECT_NE(m.error().message.find("num_hidden_layers"), std::string::npos) << m.error().message;
    test::expect_refused("inspect " + d.path.string(), "num_hidden_layers");

    const std::string no_ff = replaced(minicpm3_config, "\"intermediate_size\": 6400,", "");
    model_dir c("llmplan_unknown_no_ff", no_ff, false);
    auto n = load_model(c.path.string());
    ASSERT_FALSE(n.has_value());
    EXPECT_NE(n.error().message.find("intermediate_size"), std::string::npos) << n.error().message;
    test::expect_refused("estimate " + c.path.string(), "intermediate_size");
    model_dir w("llmplan_unknown_no_ff_weights", no_ff, true);
    auto t = load_model(w.path.string());
    ASSERT_TRUE(t.has_value()) << t.error().message;
    EXPECT_EQ(weights_bytes(*t), 402'000u);
}

} // namespace

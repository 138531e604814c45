// load_model: every way a user names a model reaches the same description.
#include "llmplan/hf_config.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

const std::string data = LLMPLAN_TEST_DATA;
const std::string repo = LLMPLAN_SOURCE_DIR;

TEST(load, gguf_file_gives_exact_tensor_bytes) {
    auto m = load_model(data + "/gguf/llama-2-tiny-random.gguf");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(m->source, weights_source::tensors);
    // 12 tensors; their sizes add up to 1,026,144 bytes (hand sum over the header, gguf_test.cpp).
    EXPECT_EQ(weights_bytes(*m), 1'026'144u);
    EXPECT_EQ(m->file_bytes, 1'750'560u); // the file's size (tests/data/gguf/README.md)
    inference_params p;
    p.engine = engine_kind::llama_cpp;
    p.device = device_kind::cpu;
    auto e   = estimate_inference(*m, p);
    ASSERT_TRUE(e.has_value()) << e.error().what();
    EXPECT_EQ(e->devices.front().parts.weights, 1'026'144u);
    EXPECT_EQ(e->disk_bytes, 1'750'560u);
}

TEST(load, vocab_only_gguf_sizes_weights_from_the_architecture) {
    // ggml-vocab-falcon.gguf carries Falcon-7B's numbers (32 blocks, width 4544, 71 heads, MQA).
    auto m = load_model(data + "/gguf/ggml-vocab-falcon.gguf");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(m->source, weights_source::formula);
    EXPECT_EQ(m->n_layer, 32u);
    EXPECT_EQ(m->typical_layer().n_head_kv, 1u);
    // Falcon-7B's published size is 7.22 B parameters.
    EXPECT_NEAR(static_cast<double>(count_params(*m).total), 7.22e9, 0.01e9);
}

TEST(load, gguf_tokenizer_merges_are_counted) {
    // GPT-2's BPE has 50,000 merges (its merges.txt) over a 50,257-token vocabulary; SentencePiece
    // (Llama-2) has none. llama.cpp's tokenizer memory grows with both (engine_llamacpp.cpp).
    auto gpt2 = load_model(data + "/gguf/ggml-vocab-gpt-2.gguf");
    ASSERT_TRUE(gpt2.has_value()) << gpt2.error().what();
    EXPECT_EQ(gpt2->n_merges, 50'000u);
    EXPECT_EQ(load_model(data + "/gguf/ggml-vocab-llama.gguf")->n_merges, 0u);
}

TEST(load, folder_with_only_an_index_reads_its_total_size) {
    auto m = load_model(repo + "/data/models/Qwen--Qwen3-4B");
    ASSERT_TRUE(m.has_value()) << m.error().what();
    EXPECT_EQ(m->file_bytes, 8'044'936'192u);     // metadata.total_size of the index
    EXPECT_EQ(weights_bytes(*m), 8'044'936'192u); // formula at bf16 agrees with the checkpoint
}

TEST(load, bad_inputs_are_errors_not_crashes) {
    EXPECT_EQ(load_model("").error().code, error_code::bad_value);
    EXPECT_EQ(load_model(data + "/safetensors").error().code, error_code::file_not_found); // no config.json
    auto bad = load_model(data + "/truth/README.md");                                      // not JSON
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().code, error_code::bad_json);
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {
// Fuzzer finding (fuzz_hf_config, 2026-12-02): a number too large for a double made nlohmann throw
// out_of_range rather than parse_error, which escaped parse_hf_config.
TEST(hf_config, number_overflow_is_an_error_not_a_crash) {
    auto r = parse_hf_config(R"({"model_type": "llama", "rms_norm_eps": 1e222222222222222222222222})", "x.json");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, error_code::bad_json);
    EXPECT_EQ(parse_hf_config("[1, 2]", "x.json").error().code, error_code::bad_json);
}
} // namespace
} // namespace llmplan

// Pre-quantized checkpoints sized from their quantization_config, as their files are.
#include "llmplan/hf_config.h"
#include "llmplan/load.h"
#include "llmplan/quant.h"
#include "llmplan/weights.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using namespace llmplan;
constexpr double gib = 1024.0 * 1024.0 * 1024.0;

double weights_gib(const char* id) {
    auto m = load_model(id);
    EXPECT_TRUE(m.has_value()) << id;
    return m ? static_cast<double>(weights_bytes(*m)) / gib : 0;
}

// OpenAI's gpt-oss model card (checkpoint sizes table): 120b 60.8 GiB, 20b 12.8 GiB, MXFP4 experts.
TEST(quant_checkpoint, gpt_oss_mxfp4_checkpoints_match_the_model_card) {
    EXPECT_NEAR(weights_gib("openai/gpt-oss-120b"), 60.8, 0.608);
    EXPECT_NEAR(weights_gib("openai/gpt-oss-20b"), 12.8, 0.128);
}

// llama.cpp keeps the MXFP4 experts as they are: unsloth/gpt-oss-20b-GGUF Q4_K_M is 11.6 GB, below
// ggml-org/gpt-oss-20b-GGUF's MXFP4 file of 12.1 GB (Hub file listings).
TEST(quant_checkpoint, gpt_oss_gguf_conversions_keep_the_mxfp4_experts) {
    auto m = load_model("openai/gpt-oss-20b");
    ASSERT_TRUE(m.has_value());
    auto q4 = estimate_weights(*m, *parse_weight_choice("q4_k_m"));
    ASSERT_TRUE(q4.has_value());
    EXPECT_LT(q4->bytes, 12'100'000'000ull);
    EXPECT_NEAR(static_cast<double>(q4->bytes), 11.6e9, 0.05 * 11.6e9);
}

model_desc with_quant(const std::string& qc) {
    const std::string cfg = R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "torch_dtype": "float16", "quantization_config": )" +
                            qc + "}";
    auto m = parse_hf_config(cfg, "config.json");
    EXPECT_TRUE(m.has_value());
    return m ? *m : model_desc{};
}

// GPTQ (AutoGPTQ QuantLinear): qweight in x out x bits / 8, qzeros groups x out x bits / 8, scales
// groups x out x 2, g_idx in x 4. A 4096 x 4096 matrix at group 128 (32 groups), by hand:
//   int4: 8,388,608 + 65,536 + 262,144 + 16,384 = 8,732,672;  int8: 16,777,216 + 131,072 + 262,144 + 16,384.
TEST(quant_checkpoint, gptq_int8_is_sized_as_int8) {
    const auto q4 = with_quant(R"({"quant_method": "gptq", "bits": 4, "group_size": 128})").quant;
    const auto q8 = with_quant(R"({"quant_method": "gptq", "bits": 8, "group_size": 128})").quant;
    EXPECT_EQ(checkpoint_matrix_bytes(q4, 4096, 4096, 1), 8'732'672ull);
    EXPECT_EQ(checkpoint_matrix_bytes(q8, 4096, 4096, 1), 17'186'816ull);
    const auto m4 = with_quant(R"({"quant_method": "gptq", "bits": 4, "group_size": 128})");
    const auto m8 = with_quant(R"({"quant_method": "gptq", "bits": 8, "group_size": 128})");
    EXPECT_GT(weights_bytes(m8), weights_bytes(m4) * 3 / 2); // the int8 matrices are twice the int4 ones
    auto e8 = estimate_weights(m8, {});
    ASSERT_TRUE(e8.has_value());
    EXPECT_EQ(e8->bytes, weights_bytes(m8)); // estimate and inspect agree
}

// DeepSeek-V3 / Qwen3-FP8 (weight_block_size [128, 128]): e4m3 weights + one f32 scale_inv per block.
TEST(quant_checkpoint, fp8_block_scales_are_one_f32_per_block) {
    const auto q = with_quant(R"({"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]})").quant;
    EXPECT_EQ(q.block_out, 128u);
    // 2048 x 7168: 14,680,064 bytes + 16 x 56 blocks x 4
    EXPECT_EQ(checkpoint_matrix_bytes(q, 2048, 7168, 1), 14'680'064ull + 16 * 56 * 4);
}

// compressed-tensors W4A16 (llm-compressor pack-quantized, group 128, symmetric): int32-packed 4-bit,
// a 16-bit scale per group, the weight_shape int64[2].
TEST(quant_checkpoint, compressed_tensors_int4_groups) {
    const auto m = with_quant(R"({"quant_method": "compressed-tensors", "format": "pack-quantized",
        "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "int",
        "strategy": "group", "group_size": 128, "symmetric": true}}}, "ignore": ["lm_head"]})");
    EXPECT_EQ(m.quant.bits, 4u);
    EXPECT_EQ(m.quant.group_size, 128u);
    EXPECT_FALSE(m.quant.is_float);
    EXPECT_EQ(checkpoint_matrix_bytes(m.quant, 4096, 4096, 1), 8'388'608ull + 32 * 4096 * 2 + 16);
    EXPECT_EQ(to_string(resolve_weight_choice(m, {})), "int4");
}

// gpt-oss leaves attention out of MXFP4 (modules_to_not_convert); every other method quantizes it.
TEST(quant_checkpoint, only_the_quantized_modules) {
    auto m = load_model("openai/gpt-oss-20b");
    ASSERT_TRUE(m.has_value());
    for (const auto& t : m->tensors) {
        if (t.role == tensor_role::attn_q && !t.is_bias) EXPECT_FALSE(checkpoint_quantizes(*m, t));
        if (t.role == tensor_role::ffn_down_exps && !t.is_bias) EXPECT_EQ(t.type, dtype::mxfp4);
    }
}

} // namespace

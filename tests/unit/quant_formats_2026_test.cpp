// The 2026 checkpoint formats at their stored bytes (src/model/quant_formats.cpp): ModelOpt NVFP4 /
// FP8 / MIXED_PRECISION (inline or in hf_quant_config.json), a quantization_config under
// text_config (Kimi-K2.5), compressed-tensors NVFP4, MLX `quantization` blocks, --weights nvfp4 / mxfp4.
// Fixtures: tests/data/models/README.md ("2026 quantized checkpoints").
#include "cli_run.h"
#include "llmplan/hf_config.h"
#include "llmplan/load.h"
#include "llmplan/quant.h"
#include "llmplan/weights.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace {

using namespace llmplan;
namespace fs = std::filesystem;

const std::string data = LLMPLAN_TEST_DATA;

model_desc load_ok(const std::string& spec) {
    auto m = load_model(spec);
    EXPECT_TRUE(m.has_value()) << spec << ": " << (m ? "" : m.error().message);
    return m ? *m : model_desc{};
}

/// A Llama-3-8B-shaped config (4096 wide, 32 layers, 32/8 heads, MLP 14336, vocab 128256) with `extra`
/// keys appended.
model_desc llama_with(const std::string& extra, const char* dtype = "bfloat16") {
    const std::string cfg = std::string(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "tie_word_embeddings": false, "torch_dtype": ")") +
                            dtype + "\"" + extra + "}";
    auto m = parse_hf_config(cfg, "config.json");
    EXPECT_TRUE(m.has_value()) << (m ? "" : m.error().message);
    return m ? *m : model_desc{};
}

std::uint64_t sum_bytes(const model_desc& m) {
    return weights_bytes(m);
}

// ---- one matrix, by hand -------------------------------------------------------------------------

// ModelOpt NVFP4 (vLLM modelopt.py ModelOptNvFp4LinearMethod.create_weights): weight uint8
// [out, in / 2], weight_scale e4m3 [out, in / 16], weight_scale_2 and input_scale f32 scalars.
// 2048 x 7168: 2048 x 3584 + 2048 x 448 + 2 x 4 = 7,340,032 + 917,504 + 8. W4A16_NVFP4 has no input_scale.
TEST(quant_formats_2026, nvfp4_matrix_by_hand) {
    quant_desc q;
    q.method     = quant_method::modelopt;
    q.algo       = "NVFP4";
    q.group_size = 16;
    q.bits       = 4;
    EXPECT_EQ(checkpoint_matrix_bytes(q, 2048, 7168, 1), 7'340'032ull + 917'504 + 8);
    EXPECT_EQ(checkpoint_storage_type(q), dtype::u8);
    q.algo = "W4A16_NVFP4";
    EXPECT_EQ(checkpoint_matrix_bytes(q, 2048, 7168, 1), 7'340'032ull + 917'504 + 4);
    // FP8 (ModelOptFp8LinearMethod): e4m3 [out, in] + weight_scale + input_scale f32.
    q.algo = "FP8";
    q.bits = 8;
    EXPECT_EQ(checkpoint_matrix_bytes(q, 2048, 7168, 3), 3 * (2048ull * 7168 + 8));
    EXPECT_EQ(checkpoint_storage_type(q), dtype::f8_e4m3);
}

// compressed-tensors nvfp4-pack-quantized (vLLM compressed_tensors_w4a4_nvfp4.py): weight_packed
// uint8 [out, in / 2], weight_scale e4m3 [out, in / 16], weight_global_scale + input_global_scale f32.
TEST(quant_formats_2026, compressed_tensors_nvfp4_by_hand) {
    const auto m = llama_with(R"(, "quantization_config": {"quant_method": "compressed-tensors",
        "format": "nvfp4-pack-quantized", "config_groups": {"group_0": {"targets": ["Linear"],
        "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16}}}})");
    EXPECT_EQ(m.quant.group_size, 16u); // tensor_group: groups of 16 under a per-tensor global scale
    EXPECT_EQ(checkpoint_matrix_bytes(m.quant, 2048, 7168, 1), 7'340'032ull + 917'504 + 8);
    EXPECT_EQ(to_string(resolve_weight_choice(m, {})), "nvfp4");
}

// MLX affine (mlx.core.quantize, mode "affine"): uint32 words [out, in * bits / 32] plus a scale and
// a bias per 64 in the weights' dtype. 4096 x 4096 at 4 bits: 8,388,608 + 2 x 262,144 groups x 2 bytes.
// mxfp4: no bias, a uint8 e8m0 scale per 32 (+ 524,288); nvfp4: a uint8 e4m3 scale per 16 (+ 1,048,576).
TEST(quant_formats_2026, mlx_matrix_by_hand) {
    auto m = llama_with(R"(, "quantization": {"group_size": 64, "bits": 4})", "float16");
    EXPECT_EQ(m.quant.method, quant_method::mlx);
    EXPECT_EQ(m.quant.algo, "affine");
    EXPECT_EQ(checkpoint_matrix_bytes(m.quant, 4096, 4096, 1), 8'388'608ull + 2 * 262'144 * 2);
    auto q = m.quant;
    q.algo = "mxfp4", q.group_size = 32;
    EXPECT_EQ(checkpoint_matrix_bytes(q, 4096, 4096, 1), 8'388'608ull + 524'288);
    q.algo = "nvfp4", q.group_size = 16;
    EXPECT_EQ(checkpoint_matrix_bytes(q, 4096, 4096, 1), 8'388'608ull + 1'048'576);
    // 8 bits, group 32: one byte a weight + 2 x 4096 x 128 x 2.
    auto m8 = llama_with(R"(, "quantization": {"group_size": 32, "bits": 8})", "float16");
    EXPECT_EQ(checkpoint_matrix_bytes(m8.quant, 4096, 4096, 1), 16'777'216ull + 2 * 524'288 * 2);
}

// A whole MLX 4-bit model (mlx-lm quantizes every Linear and Embedding whose width 64 divides:
// the token embeddings and lm_head too; norms stay f16). By hand, q(o, i) = o i / 2 + 2 x o (i / 64) x 2:
//   2 q(128256, 4096) + 32 x (q(4096,4096) x 2 + q(1024,4096) x 2 + q(14336,4096) x 2 + q(4096,14336))
//   + (2 x 32 + 1) norms x 4096 x 2 = 4,517,404,672 bytes.
TEST(quant_formats_2026, mlx_4bit_llama_model_by_hand) {
    const auto m = llama_with(R"(, "quantization": {"group_size": 64, "bits": 4},
        "quantization_config": {"group_size": 64, "bits": 4})",
                              "float16");
    EXPECT_EQ(m.quant.method, quant_method::mlx); // mlx-lm's copy in quantization_config has no quant_method
    EXPECT_EQ(sum_bytes(m), 4'517'404'672ull);
    EXPECT_EQ(m.weights_type_name(), "mlx-4bit");
    // A per-module override: layer 0's down_proj at 8 bits, group 64: + 4096 x 14336 / 2 bytes more.
    const auto mixed = llama_with(R"(, "quantization": {"group_size": 64, "bits": 4,
        "model.layers.0.mlp.down_proj": {"group_size": 64, "bits": 8}})",
                                  "float16");
    EXPECT_EQ(sum_bytes(mixed), 4'517'404'672ull + 4096ull * 14336 / 2);
    // false keeps a module unquantized (f16): down_proj of layer 0 at 2 bytes a weight.
    const auto kept = llama_with(R"(, "quantization": {"group_size": 64, "bits": 4,
        "model.layers.0.mlp.down_proj": false})",
                                 "float16");
    EXPECT_EQ(sum_bytes(kept), 4'517'404'672ull - (4096ull * 14336 / 2 + 2 * 4096 * 224 * 2) + 4096ull * 14336 * 2);
}

// ---- ModelOpt MIXED_PRECISION and hf_quant_config.json beside config.json -------------------------

struct temp_dir {
    fs::path path;
    explicit temp_dir(const std::string& name) : path(fs::temp_directory_path() / name) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~temp_dir() { fs::remove_all(path); }
    void write(const std::string& file, const std::string& text) const { std::ofstream(path / file) << text; }
};

// Only the modules quantized_layers names are quantized, each in its own algorithm; the rest stay
// bf16. Layer 0: q_proj FP8 (4096 x 4096 + 8), down_proj NVFP4 (4096 x 14336 / 2 + 4096 x 896 + 8).
TEST(quant_formats_2026, modelopt_mixed_precision_from_hf_quant_config) {
    temp_dir d("llmplan_modelopt_mixed");
    const auto plain = llama_with("");
    d.write("config.json", R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "tie_word_embeddings": false, "torch_dtype": "bfloat16"})");
    d.write("hf_quant_config.json", R"({"producer": {"name": "modelopt"}, "quantization": {
        "quant_algo": "MIXED_PRECISION", "kv_cache_quant_algo": "FP8", "quantized_layers": {
        "model.layers.0.self_attn.q_proj": {"quant_algo": "FP8"},
        "model.layers.0.mlp.down_proj": {"quant_algo": "NVFP4", "group_size": 16}}}})");
    const auto m = load_ok(d.path.string());
    EXPECT_EQ(m.quant.method, quant_method::modelopt);
    EXPECT_EQ(m.weights_type_name(), "nvfp4+fp8"); // its algorithms, in the order of the modules named
    const std::uint64_t q_fp8   = 4096ull * 4096 + 8;
    const std::uint64_t d_nvfp4 = 4096ull * 7168 + 4096ull * 896 + 8;
    EXPECT_EQ(sum_bytes(m), sum_bytes(plain) - 4096ull * 4096 * 2 - 4096ull * 14336 * 2 + q_fp8 + d_nvfp4);
}

// nvidia/DeepSeek-V3.1-NVFP4: config.json has no quantization_config; hf_quant_config.json says
// NVFP4 (group 16) for every Linear but lm_head, the MLA projections q_a, q_b, kv_a, kv_b of every
// layer (o_proj is quantized) and the MTP layer 61. Sized as bf16 before: 671,026,419,200 x 2 bytes
// = 1249.88 GiB. By hand (the 61 layers llmplan counts):
//   NVFP4: 61 o_proj [7168, 16384], 3 dense layers' MLPs (18432), 58 x (256 + 1 shared) x 3 expert
//   matrices [2048, 7168]: 44,788 matrices, 373,959,391,136 bytes; bf16: 12,420,721,664 bytes.
TEST(quant_formats_2026, deepseek_v31_nvfp4_from_its_hf_quant_config) {
    const auto m = load_ok(data + "/models/nvidia--DeepSeek-V3.1-NVFP4");
    EXPECT_EQ(m.quant.method, quant_method::modelopt);
    EXPECT_EQ(m.quant.algo, "NVFP4");
    EXPECT_EQ(m.weights_type_name(), "nvfp4");
    auto w = estimate_weights(m, {});
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->quantized_bytes, 373'959'391'136ull);
    EXPECT_EQ(w->unquantized_bytes, 12'420'721'664ull);
    EXPECT_EQ(w->bytes, weights_bytes(m));
    EXPECT_NEAR(static_cast<double>(w->bytes) / (1ull << 30), 359.84, 0.01);
    std::uint64_t n_matrices = 0; // quantized matrices, experts counted one by one
    for (const auto& t : m.tensors)
        if (checkpoint_quantizes(m, t)) {
            n_matrices += t.n_elements() / (t.shape[t.shape.size() - 2] * t.shape.back());
            if (t.role == tensor_role::attn_q_a || t.role == tensor_role::attn_kv_b) ADD_FAILURE() << t.name;
        }
    EXPECT_EQ(n_matrices, 44'788u);
    // The published size: the Hub's safetensors count for nvidia/DeepSeek-V3.1-NVFP4 is
    // 393,632,819,968 elements (AlexsJones/llmfit llmfit-core/data/hf_models.json @ 026ac571bab4,
    // parameters_raw). The Hub counts a uint8 byte of two e2m1 values and an e4m3 scale as one
    // element each, a bf16 tensor by its elements, and the f32 scalars weight_scale_2 / input_scale
    // as none; the checkpoint also holds the bf16 MTP layer 61 (exclude_modules "model.layers.61*"):
    // a MoE decoder layer, embed_tokens and shared_head.head [129280, 7168], eh_proj [7168, 14336]
    // and three norms, 13,463,426,304 elements (the same layer in FP8 with its 128 x 128 block scales
    // makes deepseek-ai/DeepSeek-V3-0324's 684,531,386,000 exactly).
    const std::uint64_t mtp_elements = 13'463'426'304ull;
    EXPECT_EQ(w->quantized_bytes - 8 * n_matrices + w->unquantized_bytes / 2 + mtp_elements, 393'632'819'968ull);
}

// ---- a quantization_config under text_config -------------------------------------------------------

// moonshotai/Kimi-K2.5 (catalog): compressed-tensors int4, group 32, symmetric, under text_config;
// ignore: lm_head, self_attn, shared_experts and the dense MLP (layer 0), so only the 60 x 384 routed
// experts are int4: each [2048, 7168] or [7168, 2048] matrix 7,340,032 + 2048 x 224 x 2 + 16 bytes.
// The rest, 11,722,208,768 parameters, bf16. Total 594,206,411,776 bytes (553.4 GiB), sized as bf16
// (1,912 GiB) before. Published: "Native INT4 (compressed-tensors, group-quantized 4-bit) -> ~595 GB on
// disk" (vllm-project/recipes pull request #533, Kimi-K2.7-Code, the same architecture as Kimi-K2.5
// per its deployment guide); the vision tower (about 0.4 B parameters) is not in llmplan's figure.
TEST(quant_formats_2026, kimi_k25_int4_under_text_config) {
    const auto m = load_ok("moonshotai/Kimi-K2.5");
    EXPECT_EQ(m.quant.method, quant_method::compressed_tensors);
    EXPECT_EQ(m.quant.bits, 4u);
    EXPECT_EQ(m.quant.group_size, 32u);
    EXPECT_EQ(checkpoint_matrix_bytes(m.quant, 2048, 7168, 1), 7'340'032ull + 917'504 + 16);
    EXPECT_EQ(weights_bytes(m), 594'206'411'776ull);
    EXPECT_NEAR(static_cast<double>(weights_bytes(m)) / 1e9, 595.0, 595.0 * 0.01);
    for (const auto& t : m.tensors) {
        if (t.role == tensor_role::ffn_down_exps) EXPECT_EQ(t.type, dtype::i32) << t.name;
        if (t.role == tensor_role::ffn_down_shexp || t.role == tensor_role::attn_kv_b ||
            t.role == tensor_role::ffn_down)
            EXPECT_FALSE(checkpoint_quantizes(m, t)) << t.name;
    }
}

// nvidia/Kimi-K2.5-NVFP4's config.json (ai-dynamo/aiconfigurator): quant_method "modelopt",
// quant_algo NVFP4 at the wrapper's root, ignore = lm_head, every layer's self_attn*, the vision
// tower and projector. So the dense MLP of layer 0, the shared experts and the routed experts are
// NVFP4 (the MoE router is no Linear): by hand 572,470,752,696 bytes NVFP4 + 17,366,871,040 bf16.
TEST(quant_formats_2026, kimi_k25_nvfp4_modelopt_inline) {
    const auto m = load_ok(data + "/models/nvidia--Kimi-K2.5-NVFP4");
    EXPECT_EQ(m.quant.method, quant_method::modelopt);
    auto w = estimate_weights(m, {});
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->quantized_bytes, 572'470'752'696ull);
    EXPECT_EQ(w->unquantized_bytes, 17'366'871'040ull);
    EXPECT_EQ(to_string(resolve_weight_choice(m, {})), "nvfp4");
}

// ---- --weights nvfp4 / mxfp4 -----------------------------------------------------------------------

TEST(quant_formats_2026, weights_nvfp4_and_mxfp4_are_choices) {
    auto nv = parse_weight_choice("nvfp4");
    auto mx = parse_weight_choice("MXFP4");
    ASSERT_TRUE(nv.has_value());
    ASSERT_TRUE(mx.has_value());
    EXPECT_EQ(nv->format, weight_format::nvfp4);
    EXPECT_EQ(mx->format, weight_format::mxfp4);
    // llama.cpp loads MXFP4 as its mxfp4_moe file type (experts MXFP4, other matrices Q8_0).
    const auto on_llama = weights_for_engine(*mx, true);
    EXPECT_EQ(on_llama.format, weight_format::gguf);
    EXPECT_EQ(on_llama.gguf_ftype, "mxfp4_moe");
    EXPECT_EQ(weights_for_engine(*nv, false).format, weight_format::nvfp4);

    // The Llama-3-8B shape: every block matrix NVFP4 (out x in x 9 / 16 + 8 bytes) or MXFP4 (17 bytes per 32);
    // embeddings, lm_head and norms bf16.
    const auto m          = llama_with("");
    const std::uint64_t o = 2ull * 128256 * 4096 * 2 + (2 * 32 + 1) * 4096 * 2;
    auto nvw              = estimate_weights(m, *nv);
    auto mxw              = estimate_weights(m, *mx);
    ASSERT_TRUE(nvw && mxw);
    const std::uint64_t per_layer_w = 2 * 4096ull * 4096 + 2 * 1024ull * 4096 + 3 * 14336ull * 4096;
    EXPECT_EQ(nvw->bytes, o + 32 * (per_layer_w / 2 + per_layer_w / 16 + 7 * 8));
    EXPECT_EQ(mxw->bytes, o + 32 * (per_layer_w / 32 * 17));
}

TEST(quant_formats_2026, nvfp4_runs_on_vllm_not_llama_cpp) {
    const auto ok = test::run_cli("estimate Qwen/Qwen2.5-7B-Instruct --engine vllm --weights nvfp4 --json");
    EXPECT_EQ(ok.status, 0);
    EXPECT_NE(ok.out.find("\"weights\""), std::string::npos);
    test::expect_refused("estimate Qwen/Qwen2.5-7B-Instruct --engine llama.cpp --weights nvfp4", "--weights");
    // MXFP4 on llama.cpp is its mxfp4_moe file type.
    const auto mx = test::run_cli("estimate Qwen/Qwen2.5-7B-Instruct --engine llama.cpp --weights mxfp4 --json");
    EXPECT_EQ(mx.status, 0);
    EXPECT_NE(mx.out.find("mxfp4_moe"), std::string::npos);
}

} // namespace

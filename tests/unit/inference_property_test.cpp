// Properties of the inference estimate over every catalog model, and hand-checkable values.
#include "llmplan/fit.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "unit/infer_fixture.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

std::int64_t peak(const model_desc& m, inference_params p) {
    auto e = estimate_inference(m, p);
    EXPECT_TRUE(e.has_value()) << m.id << ": " << (e ? "" : e.error().what());
    std::int64_t t = 0;
    for (const auto& d : e->devices)
        t += d.total_bytes();
    return t;
}

TEST(inference_property, more_context_or_sequences_never_needs_less) {
    for (const auto& entry : catalog()) {
        const auto m = *load_catalog_model(entry);
        // Encoder-only models are not generated from; encoder-decoders' inference is refused (t5_family_test).
        if (m.is_encoder || m.is_encoder_decoder()) continue;
        for (auto engine : {engine_kind::transformers, engine_kind::llama_cpp, engine_kind::vllm}) {
            inference_params p;
            p.engine          = engine;
            p.device          = device_kind::cuda;
            std::int64_t last = 0;
            for (std::uint64_t ctx = 512; ctx <= 32768; ctx *= 4) {
                p.ctx                = ctx;
                const std::int64_t t = peak(m, p);
                EXPECT_GE(t, last) << m.id << " ctx " << ctx;
                last = t;
            }
            p.batch = 4;
            EXPECT_GE(peak(m, p), last) << m.id;
        }
    }
}

TEST(inference_property, parts_add_up_and_quantized_weights_are_smaller) {
    const auto m = *load_model("meta-llama/Llama-3.1-8B");
    inference_params p;
    auto e = *estimate_inference(m, p);
    for (const auto& d : e.devices)
        EXPECT_EQ(d.total_bytes(), d.parts.allocated() + d.parts.overhead);
    std::uint64_t last = ~0ull;
    for (const char* w : {"f32", "bf16", "int8", "nf4"}) {
        p.weights    = *parse_weight_choice(w);
        const auto b = estimate_inference(m, p)->weights.bytes;
        EXPECT_LT(b, last) << w;
        last = b;
    }
}

// Hand check: Llama-3.1-8B KV in f16 = 32 layers x 8 KV heads x 128 x (K + V) x 2 bytes = 131,072
// bytes per token; llama.cpp at ctx 8192 holds 8192 cells -> exactly 1 GiB.
TEST(inference_property, llamacpp_kv_by_hand) {
    const auto m = *load_model("meta-llama/Llama-3.1-8B");
    inference_params p;
    p.engine = engine_kind::llama_cpp;
    p.device = device_kind::cpu;
    p.ctx    = 8192;
    auto e   = *estimate_inference(m, p);
    EXPECT_EQ(e.kv_bytes_per_token, 131'072u);
    EXPECT_EQ(e.devices.front().parts.kv_cache, 1ull << 30);
    // q8_0 rows: 34 bytes per 32 elements.
    p.kv_type = dtype::q8_0;
    EXPECT_EQ(estimate_inference(m, p)->devices.front().parts.kv_cache, (1ull << 30) / 2 * 34 / 32);
}

// A tied output matrix stays in host memory as the token embedding; with the output layer on the GPU
// llama.cpp's loader puts a second copy of it there (TENSOR_DUPLICATED across buffer types), so the
// buffers sum to the weights plus the embedding; with a layer left on the CPU the head stays there.
TEST(inference_property, llamacpp_tied_output_is_copied_to_the_gpu) {
    const auto m = *load_model("Qwen/Qwen2.5-0.5B");
    ASSERT_TRUE(m.tied_embd);
    inference_params p;
    p.engine  = engine_kind::llama_cpp;
    p.device  = device_kind::cuda;
    p.weights = *parse_weight_choice("q8_0");
    auto sum  = [](const inference_estimate& e) {
        std::uint64_t s = 0;
        for (const auto& d : e.devices)
            s += d.parts.weights;
        return s;
    };
    const auto all = *estimate_inference(m, p);
    EXPECT_EQ(sum(all), all.weights.bytes + all.weights.token_embd_bytes);
    p.gpu_layers       = static_cast<std::int64_t>(m.n_layer) - 1;
    const auto partial = *estimate_inference(m, p);
    EXPECT_EQ(sum(partial), partial.weights.bytes);
}

TEST(inference_property, bad_options_are_errors) {
    const auto m = *load_model("meta-llama/Llama-3.1-8B");
    inference_params p;
    p.ctx = 0;
    EXPECT_EQ(estimate_inference(m, p).error().code, error_code::invalid_params);
    p.ctx        = 4096;
    p.gpu_layers = 33; // 32 layers
    EXPECT_EQ(estimate_inference(m, p).error().code, error_code::invalid_params);
    p.gpu_layers = -1;
    p.weights    = *parse_weight_choice("q4_k_m"); // a GGUF type on transformers
    EXPECT_EQ(estimate_inference(m, p).error().code, error_code::invalid_params);
}

TEST(fit, budget_answers_are_consistent) {
    const auto m = *load_model("Qwen/Qwen2.5-7B-Instruct");
    auto p       = test::infer_params(engine_kind::llama_cpp, "q4_k_m");
    const auto a = fit_in_memory(m, p, 8ull << 30);
    EXPECT_TRUE(a.fits_as_asked);
    ASSERT_GT(a.max_ctx, 4096u);
    p.ctx = a.max_ctx; // the answer fits, one step more does not
    EXPECT_TRUE(fit_in_memory(m, p, 8ull << 30).fits_as_asked);
    p.ctx = a.max_ctx + 256;
    EXPECT_FALSE(fit_in_memory(m, p, 8ull << 30).fits_as_asked || a.max_ctx == m.n_ctx_train);
}

} // namespace
} // namespace llmplan

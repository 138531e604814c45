// Model descriptions for the training tests: a llama-like decoder of chosen dims.
#pragma once

#include "llmplan/estimate.h"
#include "llmplan/model_desc.h"
#include "model/arch_tensors.h"

#include <gtest/gtest.h>
#include <string>
#include <string_view>

namespace llmplan::test {

struct llama_dims {
    std::uint32_t n_layer   = 2;
    std::uint64_t n_embd    = 64;
    std::uint32_t n_head    = 4;
    std::uint32_t n_head_kv = 2;
    std::uint64_t n_ff      = 128;
    std::uint64_t n_vocab   = 100;
    bool tied               = false;
    bool fused_qkv          = false; ///< one attn_qkv tensor with a bias (Qwen-1's c_attn)
};

/// A 7B llama's shapes (Llama-2-7B's and Qwen-7B's config.json: hidden 4096, 32 layers, 32 heads of 128,
/// FFN 11008 (Qwen-1's intermediate_size 22016 halved per w1/w2), multi-head attention), with `vocab` tokens.
inline llama_dims seven_b_dims(std::uint64_t vocab) {
    llama_dims d;
    d.n_layer   = 32;
    d.n_embd    = 4096;
    d.n_head    = 32;
    d.n_head_kv = 32;
    d.n_ff      = 11008;
    d.n_vocab   = vocab;
    return d;
}

/// The description of a llama-like model with these dims; its tensors come from the library's
/// generator (src/model/arch/tensors.cpp), the same one config.json models go through.
inline model_desc make_llama(const llama_dims& d, std::string arch = "llama") {
    model_desc m;
    m.id            = arch + "-test";
    m.arch          = std::move(arch);
    m.n_layer       = d.n_layer;
    m.n_embd        = d.n_embd;
    m.n_vocab       = d.n_vocab;
    m.tied_embd     = d.tied;
    m.fused_qkv     = d.fused_qkv;
    m.attn_qkv_bias = d.fused_qkv;
    m.torch_dtype   = dtype::bf16;
    layer_desc l;
    l.attn       = d.n_head_kv == d.n_head ? attn_kind::mha : attn_kind::gqa;
    l.n_head     = d.n_head;
    l.n_head_kv  = d.n_head_kv;
    l.head_dim_k = l.head_dim_v = static_cast<std::uint32_t>(d.n_embd / d.n_head);
    l.n_ff                      = d.n_ff;
    m.layers.assign(d.n_layer, l);
    generate_tensors(m);
    return m;
}

/// End to end on the tiny llama: the QLoRA run `p` (NF4 base) notes `phrase` among its assumptions, and its bf16
/// LoRA twin does not (a mechanism of bitsandbytes' 4-bit path only).
inline void expect_noted_for_4bit_only(training_params p, std::string_view phrase) {
    const model_desc m = make_llama({});
    const auto nf4     = estimate_training(m, p);
    ASSERT_TRUE(nf4);
    p.method        = train_method::lora;
    const auto bf16 = estimate_training(m, p);
    ASSERT_TRUE(bf16);
    bool noted = false;
    for (const auto& s : nf4->assumptions)
        noted = noted || s.find(phrase) != std::string::npos;
    EXPECT_TRUE(noted) << phrase;
    for (const auto& s : bf16->assumptions)
        EXPECT_EQ(s.find(phrase), std::string::npos) << s;
}

} // namespace llmplan::test

// Per-engine memory models, called by estimate_inference after the weights are known.
#pragma once

#include "llmplan/inference.h"

namespace llmplan {

result<inference_estimate> estimate_llamacpp(const model_desc& m, const inference_params& p, const weights_estimate& w);
result<inference_estimate> estimate_transformers(const model_desc& m, const inference_params& p,
                                                 const weights_estimate& w);
result<inference_estimate> estimate_vllm(const model_desc& m, const inference_params& p, const weights_estimate& w);
result<inference_estimate> estimate_sglang(const model_desc& m, const inference_params& p, const weights_estimate& w);
result<inference_estimate> estimate_mlx(const model_desc& m, const inference_params& p, const weights_estimate& w);

/// SGLang's --mem-fraction-static when not given, for `device_bytes` of GPU memory (0 = unknown),
/// `tp` GPUs and release v (engine_sglang.cpp).
double sglang_static_fraction(const model_desc& m, std::uint64_t device_bytes, std::uint32_t tp, engine_version v);
/// Rows mlx-lm's KV cache holds for `tokens`: grown in steps of 256, capped at a sliding window.
std::uint64_t mlx_kv_cells(std::uint64_t tokens, std::uint32_t window);

/// Per-token widths of a decoder layer's transient tensors, shared by the engines' activation models:
/// the widest MLP (dense n_ff of any layer; an MoE layer's routed experts n_ff_expert x top-k or its
/// shared expert), q (n_head x head_dim_k) and k + v (n_head_kv x (head_dim_k + head_dim_v)).
struct layer_widths {
    std::uint64_t n_ff = 0;
    std::uint64_t q    = 0;
    std::uint64_t kv   = 0;
};
layer_widths peak_layer_widths(const model_desc& m);

/// Activation bytes per token of one decoder layer's forward pass without autograd, with the
/// attention heads and FFN width split over `tp` ranks (see engine_transformers.cpp for the terms).
std::uint64_t layer_activation_bytes_per_token(const model_desc& m, std::uint64_t act_bytes, std::uint32_t tp);

} // namespace llmplan

// Per-engine memory models, called by estimate_inference after the weights are known.
#pragma once

#include "llmplan/inference.h"

namespace llmplan {

result<inference_estimate> estimate_llamacpp(const model_desc& m, const inference_params& p, const weights_estimate& w);
result<inference_estimate> estimate_transformers(const model_desc& m, const inference_params& p,
                                                 const weights_estimate& w);
result<inference_estimate> estimate_vllm(const model_desc& m, const inference_params& p, const weights_estimate& w);

/// Activation bytes per token of one decoder layer's forward pass without autograd, with the
/// attention heads and FFN width split over `tp` ranks (see engine_transformers.cpp for the terms).
std::uint64_t layer_activation_bytes_per_token(const model_desc& m, std::uint64_t act_bytes, std::uint32_t tp);

} // namespace llmplan

// Inference options for the tests: one engine, weight format and context, every other option at its
// default (llmplan/inference.h).
#pragma once

#include "llmplan/inference.h"
#include "llmplan/weights.h"

#include <cstdint>
#include <string_view>

namespace llmplan::test {

/// `engine` with `weights` ("q4_k_m", "bf16") at `ctx` tokens a sequence (the default: 4096).
inline inference_params infer_params(engine_kind engine, std::string_view weights,
                                     std::uint64_t ctx = inference_params{}.ctx) {
    inference_params p;
    p.engine  = engine;
    p.weights = *parse_weight_choice(weights);
    p.ctx     = ctx;
    return p;
}

} // namespace llmplan::test

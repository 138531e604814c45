// A vLLM serving instance as the serving tests step it: the estimate at a 2048-token context on the row's
// memory, then the step shape of `tp` GPUs (src/serve/step_model.cpp, make_instance_shape).
#pragma once

#include "catalog_fixtures.h"
#include "llmplan/serving.h"
#include "llmplan/weights.h"

#include <gtest/gtest.h>

namespace llmplan::test {

inline instance_shape vllm_instance_shape(const model_desc& m, const device_spec& d, std::uint32_t tp,
                                          const char* weights = nullptr) {
    inference_params p;
    p.engine              = engine_kind::vllm;
    p.ctx                 = 2048;
    p.device_memory_bytes = d.memory_bytes.value_or(0);
    if (weights) {
        const auto w = parse_weight_choice(weights);
        EXPECT_TRUE(w.has_value()) << weights;
        if (w) p.weights = *w;
    }
    const auto e = estimate_inference(m, p);
    EXPECT_TRUE(e.has_value());
    return e ? make_instance_shape(m, *e, p, d, serving_engine::vllm, tp, 1) : instance_shape{};
}

} // namespace llmplan::test

// Reverse questions: given a memory budget per device, the longest context, the most concurrent
// sequences and the best precision that fit.
#pragma once

#include "llmplan/inference.h"

#include <string>

namespace llmplan {

struct fit_answer {
    std::uint64_t budget_bytes = 0;
    bool fits_as_asked         = false;
    std::uint64_t max_ctx      = 0; ///< longest ctx (tokens per sequence) at the asked batch; 0 = none
    std::uint64_t max_batch    = 0; ///< most sequences at the asked ctx; 0 = none
    std::string best_weights;       ///< the highest-precision weights that fit at the asked ctx and batch
};

/// What must fit one device's memory: on a GPU placement the largest accelerator device (the host
/// side of a llama.cpp GPU run lives in RAM), on a CPU the largest device; every device when the
/// estimate put nothing on an accelerator. Never negative.
std::int64_t memory_need(const inference_estimate& e, device_kind placed);

/// Each answer is the largest value whose every device's total_bytes is within the budget
/// (estimates only grow with ctx and batch, so a binary search finds it).
fit_answer fit_in_memory(const model_desc& m, const inference_params& p, std::uint64_t budget_bytes);

} // namespace llmplan

// Plan: which hardware runs a model, how fast, at what cost. A pure function of the model, the
// inference options and a list of candidate devices (../shared/cli-contract.md, "llmplan plan").
#pragma once

#include "llmplan/hardware.h"
#include "llmplan/inference.h"
#include "llmplan/speed.h" // decode and prefill speed (moved from here; callers keep compiling)

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmplan {

/// Owned hardware: purchase price spread over 3 years of round-the-clock use (no power, no host).
inline constexpr double amortization_hours = 3.0 * 8760.0;

struct plan_candidate {
    std::string hardware;
    std::string kind; ///< "local" | "gpu" | "apple" | "cpu" | "cloud"
    unsigned count              = 1;
    bool fits                   = false;
    std::int64_t headroom_bytes = 0; ///< device memory - per-device total (negative: short by)
    double decode_tokens_per_s  = 0;
    double prefill_tokens_per_s = 0;
    std::optional<double> cost_per_hour_usd;
    std::optional<double> cost_per_million_tokens_usd;
    std::vector<std::string> reasons;
    std::vector<std::pair<std::string, std::string>> launch; ///< engine -> command line
};

struct plan_recommendation {
    std::string hardware;
    unsigned count = 1;
    std::vector<std::string> why;
};

struct plan_result {
    std::vector<plan_candidate> candidates; ///< fitting cheapest first, then the rest
    std::optional<plan_recommendation> recommendation;
};

/// Evaluate every candidate (GPU rows get the fewest of 1, 2, 4, 8 that fits) and sort them.
plan_result make_plan(const model_desc& m, const inference_params& p,
                      const std::vector<const device_spec*>& candidates);

} // namespace llmplan

// Plan: which hardware runs a model, how fast, at what cost. A pure function of the model, the
// inference options and a list of candidate devices (../shared/cli-contract.md, "llmplan plan").
#pragma once

#include "llmplan/hardware.h"
#include "llmplan/inference.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llmplan {

/// Share of peak memory bandwidth decode reaches: ../shared/hardware/README.md, "expect roughly
/// 60-85% of peak memory bandwidth"; 0.6 (GPUs, Apple) takes the low end; CPUs 0.5 (lower still:
/// llama.cpp CPU decode is often compute-bound on the dequantization).
inline constexpr double decode_efficiency_gpu = 0.6;
inline constexpr double decode_efficiency_cpu = 0.5;
/// Share of peak dense FLOP/s prefill reaches (same README: large GEMMs reach well below peak; the
/// measured MAMF column is about 60-75% of the dense peak, and attention and small GEMMs lower it).
inline constexpr double prefill_efficiency = 0.5;
/// Owned hardware: purchase price spread over 3 years of round-the-clock use (no power, no host).
inline constexpr double amortization_hours = 3.0 * 8760.0;

/// What a training plan adds to a candidate (make_train_plan, train_plan.h); empty for inference.
struct train_figures {
    double train_tokens_per_s     = 0; ///< all GPUs (all nodes) together
    double step_seconds           = 0; ///< one optimizer step: one micro-batch on every GPU
    std::uint64_t tokens_per_step = 0; ///< seq x micro-batch x GPUs
    double run_hours              = 0; ///< the whole run of train_tokens
    std::optional<double> run_cost_usd;
    std::uint64_t train_tokens = 0;
    unsigned nodes             = 1; ///< machines (cloud instances, or nodes of 8 GPUs)
    unsigned gpus_per_node     = 1;
    unsigned zero_stage        = 0;
    bool offload_optimizer     = false;
    bool grad_checkpointing    = false;
    bool comm_bound            = false; ///< multi-node ZeRO-3 step set by the inter-node all-gathers
    std::int64_t host_bytes    = 0;     ///< host RAM the offloaded optimizer needs (0: none)
};

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
    std::optional<train_figures> training;                   ///< --task train only
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

/// Bytes read from memory per decode step: weights (MoE: the routed experts' share scaled by
/// n_expert_used / n_expert) plus the KV cache of `batch` sequences at `ctx` tokens.
std::uint64_t decode_bytes_per_step(const model_desc& m, const inference_estimate& e, const inference_params& p);

/// Roofline decode tokens/s (all sequences of the batch) on `count` devices of `bandwidth`.
double decode_tokens_per_s(std::uint64_t bytes_per_step, std::uint64_t batch, double bandwidth_bytes_per_s,
                           double efficiency, unsigned parallel_devices);
/// Compute-bound prefill tokens/s: efficiency x FLOP/s / (2 x active parameters).
double prefill_tokens_per_s(std::uint64_t active_params, double flops, unsigned parallel_devices);

} // namespace llmplan

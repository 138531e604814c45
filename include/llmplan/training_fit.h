// Reverse questions for training: given a memory budget per GPU, the longest sequence, the largest
// micro-batch, the most capable method/precision/optimizer/ZeRO stage that fit, and the cheapest
// change (gradient checkpointing, 8-bit AdamW, a ZeRO stage, offload) that makes the asked setup fit.
#pragma once

#include "llmplan/estimate.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llmplan {

struct training_fit_answer {
    std::uint64_t budget_bytes    = 0;
    bool fits_as_asked            = false;
    std::uint64_t max_seq         = 0; ///< longest --seq (a multiple of 256) at the asked micro-batch; 0 = none
    std::uint64_t max_micro_batch = 0; ///< largest --micro-batch at the asked seq; 0 = none
    std::string best_setup; ///< first that fits, most capable first ("full, bf16, adamw-8bit, ZeRO 2"); empty = none
    training_params best_params; ///< the workload best_setup names
    std::string best_args;       ///< the options that turn the asked workload into best_setup ("--method lora ...")
    /// The cheapest options to add to the asked workload so that it fits ("--grad-checkpointing on"):
    /// "" when it fits as asked, nullopt when no such change fits.
    std::optional<std::string> fix_args;
};

/// The largest device need of a training estimate: the busiest GPU's total_bytes less the
/// allocator's reclaimable reserve (training_estimate::reclaimable_bytes).
std::int64_t training_memory_need(const training_estimate& e);

/// Each answer is the largest value whose training_memory_need is within the budget (memory only
/// grows with seq and micro-batch, so a binary search finds it). The setups are tried from full
/// fine-tuning in mixed precision down to QLoRA; within each, the changes that cost least come
/// first (ZeRO 1/2 on several GPUs, 8-bit AdamW, gradient checkpointing, ZeRO 3, the optimizer
/// offloaded: training_fit.cpp says why in that order).
training_fit_answer fit_training(const model_desc& m, const training_params& p, std::uint64_t budget_bytes);

} // namespace llmplan

// One serving instance of a hardware row at a tensor-parallel size: the KV pool the engine sizes, its
// step shape and its defaults, or why it cannot run there (src/serve/planner.cpp searches over them).
#pragma once

#include "llmplan/serving.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan::detail {

struct tp_option {
    std::uint32_t tp = 1;
    instance_shape shape;
    std::uint64_t kv_capacity  = 0;
    std::uint64_t default_seqs = 256, batched_tokens = 8192;
    double gpu_memory_utilization = 0.9;
};

/// The engine the question names (--engine), or the one its inference options imply.
serving_engine engine_of(const serving_context& c);
/// The context the engine is configured for: one request's prompt + output, or --ctx when given and larger.
std::uint64_t serving_ctx(const serving_context& c);

/// Most slots the plan gives llama-server (a bound of the search, not a fitted value: 64 slots of one
/// batch already take a 24 GB card's KV at a few thousand tokens each).
inline constexpr std::uint64_t llama_server_max_slots = 64;

/// Why a row serves nothing when a rate the step model needs is missing (a person's words: plan's text,
/// JSON's `serving_unavailable`, the page).
inline constexpr std::string_view serving_rates_unknown = "its memory bandwidth or matmul rate is not in the table";

/// The instance of `tp` GPUs of row `d`, or nothing with `why` set in a person's words: the weights
/// against the GPU's memory, the KV cache against one request, heads that do not split, a missing rate.
std::optional<tp_option> prepare_instance(const serving_context& c, const device_spec& d, std::uint32_t tp,
                                          std::string& why);

} // namespace llmplan::detail

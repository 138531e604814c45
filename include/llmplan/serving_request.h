// The serving-at-load question as `plan` takes it (../shared/cli-contract.md, "Serving at load"); the
// model that answers it is in serving.h. Kept apart so that the request types (request.h) do not
// depend on the model's tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace llmplan {

/// The engines whose serving the step model prices (one row of efficiencies each).
enum class serving_engine : std::uint8_t {
    vllm,     ///< vLLM (V1 engine): CUDA graphs for decode, FlashAttention/FlashInfer, chunked prefill
    sglang,   ///< SGLang: the same mechanism (radix KV pool, chunked prefill, CUDA graphs)
    trtllm,   ///< TensorRT-LLM (in-flight batching, compiled engines): fitted on its own rows, not vLLM's
    llamacpp, ///< llama.cpp's server: --parallel slots sharing one context, unified batch
};
std::string_view name(serving_engine e);

/// The serving options of `plan` (the contract's names). `on` when --concurrency or --request-rate was given.
struct serving_request {
    bool on                  = false;
    std::uint64_t input_len  = 1000;    ///< mean prompt tokens a request (contract default)
    std::uint64_t output_len = 256;     ///< mean generated tokens a request (contract default)
    std::optional<double> concurrency;  ///< closed loop: requests held by the server at every moment
    std::optional<double> request_rate; ///< open loop: requests a second (Poisson); +infinity = all at once
    std::optional<double> ttft_ms;      ///< target for the time to first token at slo_percentile
    std::optional<double> tpot_ms;      ///< target for the time per output token at slo_percentile
    double slo_percentile         = 99; ///< contract default
    std::uint32_t tensor_parallel = 0;  ///< 0: the plan chooses
    /// --engine as named: SGLang and TensorRT-LLM have their own step efficiencies; their memory is
    /// planned as vLLM's (a KV pool sized from a fraction of the GPU). Unset: from the estimate's engine.
    std::optional<serving_engine> engine;
};

} // namespace llmplan

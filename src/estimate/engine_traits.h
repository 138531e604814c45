// THE engine table: one row per inference engine with the facts that decide what it can run and how
// its memory is budgeted, so that estimators, the planner and the option checks read a row instead
// of comparing engine names. Each fact says where in the engine's code it comes from.
#pragma once

#include "llmplan/dtype.h"
#include "llmplan/engine_version.h"
#include "llmplan/inference.h"

#include <string_view>

namespace llmplan::detail {

struct engine_traits {
    engine_kind kind;
    std::string_view name; ///< as typed in --engine and printed
    bool on_cpu, on_cuda, on_metal;
    /// Takes --gpu-memory-utilization of each GPU up front and fills the rest with a KV block pool
    /// (vLLM: vllm/worker/gpu_worker.py determine_available_memory); others allocate what they use.
    bool kv_pool;
    /// Runs GGUF files and GGUF quant types (llama.cpp's own format); the others load torch tensors.
    bool runs_gguf;
    /// Spans nodes: vLLM by pipeline stages across nodes (--pipeline-parallel), llama.cpp by a layer
    /// split over its RPC backend; transformers' device_map stays in one process on one node.
    bool spans_nodes;
    /// Models --pipeline-parallel (vLLM's pipeline_parallel_size); the others split layers by --gpus.
    bool pipeline_stages;
    /// Pads the KV cache to a block (vLLM block_size 16 tokens; llama.cpp n_ctx to 256 cells with
    /// flash attention, llama-context.cpp); transformers' DynamicCache grows token by token.
    bool pads_kv;
    /// How its launch line is built (launch.cpp): a llama-server/ollama line, a `vllm serve` line
    /// (CUDA only), or none (transformers is a library called from the user's own script).
    enum class launch_kind : std::uint8_t { llama_server, vllm_serve, python_pipeline, none } launch;
    /// KV cache element types it offers (--kv-type), as printed. llama.cpp: --cache-type-k/v
    /// (common/arg.cpp kv_cache_types); vLLM: --kv-cache-dtype auto/fp8; transformers: the model's
    /// dtype, or an int8 cache with per-token scales (Qwen-1's use_cache_quantization, quanto's
    /// QuantizedCache) whose closest storage is q8_0 (block of 32, one f16 scale).
    std::string_view kv_types;
    /// The KV type without --kv-type: llama.cpp f16 (common_params cache_type_k); vLLM "auto" and
    /// transformers take the weights' compute dtype.
    bool kv_default_f16;
};

const engine_traits& traits_of(engine_kind e);
/// The engine named (as --engine takes it), or nullptr.
const engine_traits* engine_by_name(std::string_view name);
bool runs_on(const engine_traits& t, device_kind d);
/// `type` is one of t.kv_types.
bool offers_kv_type(const engine_traits& t, dtype type);

} // namespace llmplan::detail

// Inference memory: weights + KV cache + compute buffers + runtime overhead, per device, per engine.
#pragma once

#include "llmplan/accuracy.h"
#include "llmplan/engine_version.h"
#include "llmplan/estimate.h"
#include "llmplan/weights.h"

#include <memory>
#include <optional>

namespace llmplan {

struct inference_params {
    engine_kind engine = engine_kind::transformers;
    engine_version version; ///< the engine's release; unknown = the current one (default_engine_version)
    device_kind device = device_kind::cuda;
    std::uint32_t gpus = 1;
    weight_choice weights;
    std::uint64_t ctx    = 4096;  ///< tokens per sequence (prompt + generated)
    std::uint64_t prompt = 0;     ///< tokens in one prefill pass; 0 = ctx
    std::uint64_t batch  = 1;     ///< sequences held at once
    std::optional<dtype> kv_type; ///< K and V element type; default: f16 (llama.cpp) or the compute dtype
    // llama.cpp
    std::uint64_t n_batch   = 2048;
    std::uint64_t n_ubatch  = 512;
    bool flash_attn         = false;
    std::int64_t gpu_layers = -1; ///< -1: all layers on the GPU when the device is a GPU
    /// --n-cpu-moe N: the routed experts of the first N layers stay in host RAM (llama.cpp
    /// common/arg.cpp: an override of `blk\.(0..N-1)\.ffn_(up|down|gate)_exps` to the CPU buffer);
    /// --cpu-moe is N = every layer. The attention, norms, router and shared experts stay on the GPU.
    std::uint32_t cpu_moe_layers = 0;
    bool mmap                    = true;
    // vLLM
    /// --gpu-memory-utilization; unset = the release's default (0.9, 0.92 from vLLM 0.21): read it
    /// through gpu_memory_utilization(p)
    std::optional<double> gpu_memory_utilization;
    std::uint64_t max_num_seqs           = 0; ///< 0 = the release's default for the device (vllm_defaults)
    std::uint64_t max_num_batched_tokens = 0; ///< 0 = the release's default for the device
    std::uint64_t device_memory_bytes    = 0; ///< each GPU's memory; 0 = unknown
    /// vLLM --pipeline-parallel-size: `gpus` = tensor parallel x this; each stage holds a contiguous
    /// run of layers (how vLLM spans nodes: TP inside a node, PP across nodes).
    std::uint32_t pipeline_parallel = 1;
    // Every other resident of the device, in one budget (residents.cpp):
    std::shared_ptr<const model_desc> draft;   ///< --draft MODEL: speculative decoding's draft, same engine and device
    std::optional<std::uint64_t> mmproj_bytes; ///< --mmproj FILE: a llama.cpp projector GGUF's tensor bytes
    std::uint32_t image_size    = 0;           ///< --image-size: pixels per side of one image (VLM encoders)
    std::uint64_t reserve_bytes = 0;           ///< --reserve SIZE: memory other processes hold on each device
};

struct inference_estimate {
    std::vector<device_breakdown> devices;
    weights_estimate weights;
    dtype kv_type                    = dtype::f16;
    std::uint64_t kv_bytes_per_token = 0; ///< all layers, one sequence, full-attention layers
    /// The constant state of every linear-attention / state-space layer for one sequence, as this
    /// engine stores it (part of kv_cache; it does not grow with the context).
    std::uint64_t state_bytes_per_sequence = 0;
    std::uint64_t disk_bytes               = 0;
    // vLLM: the KV pool in tokens and the longest --max-model-len that starts
    std::uint64_t vllm_kv_capacity_tokens = 0;
    std::uint64_t vllm_max_model_len      = 0;
    /// vLLM: the scheduler limits the estimate used (the user's or the release's defaults)
    std::uint64_t vllm_max_num_seqs           = 0;
    std::uint64_t vllm_max_num_batched_tokens = 0;
    /// vLLM: memory outside gpu_memory_utilization's budget (CUDA context before the start-up
    /// snapshot, CUDA graphs captured after the pool): what the GPU needs beyond total_bytes
    std::uint64_t vllm_outside_budget_bytes = 0;
    /// vLLM 0.21+: its estimate of the CUDA graphs, taken out of the KV pool (the compute part)
    std::uint64_t vllm_cuda_graph_bytes = 0;
    /// SGLang (its pool is read through the vllm_* fields above, the same quantities): the
    /// --mem-fraction-static the estimate used (engine_sglang.cpp)
    double sglang_mem_fraction_static = 0;
    std::string engine_release; ///< "vllm@0.14.0": the release the estimate models
    std::string engine_range;   ///< the behaviour row it fell in, e.g. "vllm 0.8+ (V1 engine)"
    /// How close this kind of estimate (engine x device x weight class) came to measured runs.
    std::string weight_class;
    std::optional<accuracy_row> accuracy;
    std::vector<std::string> notes;
};

/// The fraction of each GPU vLLM takes: --gpu-memory-utilization, or the default of the release
/// (engine_versions.cpp).
double gpu_memory_utilization(const inference_params& p);

/// vLLM's tensor-parallel rule (vllm/config: "Total number of attention heads must be divisible by
/// tensor parallel size"; QKVParallelLinear: KV heads divisible by tp, or tp a multiple of them, the
/// KV heads then replicated). Every attention layer must pass.
bool tensor_parallel_divides_heads(const model_desc& m, std::uint32_t tp);
/// The largest tensor-parallel size <= gpus that divides `gpus` and passes the rule above (1 always does).
std::uint32_t largest_tensor_parallel(const model_desc& m, std::uint32_t gpus);

/// Check the options against the model and the engine (exit-2 errors in the CLI).
status validate(const model_desc& m, const inference_params& p);

result<inference_estimate> estimate_inference(const model_desc& m, const inference_params& p);

/// A --mmproj file's weight bytes: the sum of the GGUF's tensor sizes (errors name the file).
result<std::uint64_t> projector_file_bytes(const std::string& path);

/// Add the other residents to e's devices: the draft model, the projector, the reserve (residents.cpp).
status add_residents(const model_desc& m, const inference_params& p, inference_estimate& e);

/// The constant state of one linear-attention layer for one sequence, as engine `e` stores it, on
/// one of `shards` tensor-parallel ranks (0 for layers with KV; kv_cache.cpp).
std::uint64_t state_layer_bytes(const layer_desc& l, engine_kind e, dtype act, std::uint32_t shards = 1);

/// KV cache bytes of one layer for `cells` token slots (K and V rows in their dtypes).
std::uint64_t kv_layer_bytes(const model_desc& m, const layer_desc& l, engine_kind e, dtype k, dtype v,
                             std::uint64_t cells);

} // namespace llmplan

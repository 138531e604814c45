// Engine versions: which release of vLLM, transformers, llama.cpp, SGLang or mlx-lm an estimate is for, and what
// each range of releases does differently with memory (the table in src/estimate/engine_versions.cpp,
// every row with its source).
#pragma once

#include "llmplan/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llmplan {

enum class engine_kind : std::uint8_t { llama_cpp, vllm, transformers, sglang, mlx };
std::string_view engine_name(engine_kind e);

/// A release: major.minor.patch for vLLM and transformers. llama.cpp has two eras: build numbers
/// bNNNN (kept in major, `semver` false) until Aug 2026, then semantic versions from v0.3.0
/// (`semver` true), each after every build (key() orders the era first).
struct engine_version {
    std::uint32_t major = 0, minor = 0, patch = 0;
    bool semver = false; ///< llama.cpp only: a vMAJOR.MINOR.PATCH release, later than every bNNNN build
    [[nodiscard]] bool known() const { return major || minor || patch || semver; }
    /// Builds are below 10^9 (at most 9 digits parsed), MAJOR.MINOR.PATCH parts at most 0xffff, so
    /// the era bit 63 sits above every build number and every semantic version.
    [[nodiscard]] std::uint64_t key() const {
        return (std::uint64_t{semver} << 63) | (std::uint64_t{major} << 32) | (std::uint64_t{minor} << 16) | patch;
    }
};

/// "vllm@0.11", "transformers@4.38.2", "llama.cpp@b6000", "llama.cpp@0.3.0" or "llama.cpp@v0.3.0"
/// (the engine must be `e`); a bare version ("0.11", "b6000") is taken for `e`.
result<engine_version> parse_engine_version(std::string_view text, engine_kind e);
std::string to_string(engine_kind e, const engine_version& v);

/// What a range of releases does that changes memory (engine_versions.cpp says where each comes from).
struct engine_behaviour {
    std::string_view range;  ///< "vllm 0.8+" as printed in notes
    std::string_view source; ///< the code or log the row was read from
    // transformers
    bool prompt_logits = false; ///< generate() computes logits (and an f32 copy) for every prompt position
    /// transformers 5+: from_pretrained's dtype defaults to "auto" (the checkpoint's dtype); before,
    /// weights loaded in float32 unless torch_dtype was given (launch lines pass it then)
    bool dtype_auto_default = false;
    // vLLM
    bool v1_engine = false; ///< V1: profile at max_num_batched_tokens, sampler warm-up, non-torch since init
    /// --gpu-memory-utilization without the flag (CacheConfig.gpu_memory_utilization)
    double gpu_memory_utilization = 0.9;
    /// The start-up profile estimates the CUDA graphs' memory and takes it out of the KV pool
    /// (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on by default); before, graphs were captured after the
    /// pool, outside the budget
    bool cuda_graphs_in_budget = false;
    /// `vllm serve`'s max_num_batched_tokens on GPUs of 70 GiB and more (EngineArgs batch defaults)
    std::uint32_t large_gpu_batched_tokens = 8192;
    // llama.cpp
    bool cpu_repack = false; ///< ggml-cpu keeps a repacked copy of q4_0/iq4_nl matrices (CPU_REPACK buffer)
    // SGLang
    /// --mem-fraction-static without the flag: from the GPU's memory (reserved = activations of the
    /// chunked prefill + CUDA graphs, at least 10 GiB above 60 GiB; v0.5.3+), else a table by TP size
    bool sglang_fraction_from_gpu_memory = false;
};

/// The release assumed when none is given: the current one of each engine.
engine_version default_engine_version(engine_kind e);
/// The behaviour of the row whose range holds `v` (the default release when `v` is unknown).
const engine_behaviour& behaviour_of(engine_kind e, engine_version v);

} // namespace llmplan

// llmplan check LOGFILE: read an engine's own start-up log (llama.cpp, vLLM, transformers), recover
// the model and the workload from it, and set llmplan's estimate beside the engine's figures, part
// by part. The log is the user's proof; the difference is where llmplan is wrong (or the log odd).
#pragma once

#include "llmplan/error.h"
#include "llmplan/inference.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

/// The longest log `check` reads: a start-up log is kilobytes, a long server log megabytes; more
/// cannot be one and is refused before it is held.
inline constexpr std::size_t max_log_bytes = std::size_t{64} << 20;

/// One figure the engine printed, in the contract's part names (weights, kv_cache, compute,
/// activations, overhead) on one device ("cpu", "cuda:0", "metal").
struct engine_figure {
    std::string part;
    std::string device;
    std::uint64_t bytes = 0;
    std::size_t line    = 0; ///< 1-based line of the log it came from
};

/// What a log says, as far as it says it. Absent facts stay empty / nullopt.
struct log_facts {
    engine_kind engine = engine_kind::llama_cpp;
    std::string model_name; ///< vLLM model='..', llama.cpp general.name, transformers from_pretrained("..")
    // llama.cpp
    std::string file_type;                   ///< "Q4_K - Medium" as printed
    std::optional<std::string> gguf_ftype;   ///< the llama-quantize name of it ("q4_k_m") when known
    std::optional<std::uint64_t> model_size; ///< "model size = 5.162 GiB": tensor data of the file
    std::optional<std::uint64_t> n_ctx, n_batch, n_ubatch;
    std::optional<bool> flash_attn;
    std::optional<dtype> type_k, type_v;
    std::optional<std::int64_t> gpu_layers; ///< "offloaded N/M layers to GPU"
    std::uint32_t gpu_devices = 0;          ///< distinct GPUs that hold a buffer
    bool metal                = false;
    // vLLM
    std::optional<std::uint64_t> max_model_len;
    std::optional<double> gpu_memory_utilization;
    std::optional<std::uint32_t> tensor_parallel;
    std::optional<std::uint64_t> total_gpu_memory;
    std::optional<std::uint64_t> kv_tokens; ///< "GPU KV cache size: N tokens", or GPU blocks x 16
    std::optional<dtype> kv_cache_dtype;
    /// The release the log names ("vLLM API server version 0.27.1", "LLM engine (v0.7.4) with config");
    /// at least 0.21 when it prints the CUDA graph profiling lines of 0.21+ ("Estimated CUDA graph
    /// memory", "CUDA graph memory profiling is enabled (default since v0.21.0)").
    std::optional<engine_version> version;
    std::vector<engine_figure> figures;
    std::vector<std::string> notes; ///< lines understood only in part
};

/// Parse a log. Errors (exit 2) when no line of any engine's format is recognised.
result<log_facts> parse_engine_log(std::string_view text, std::string_view path);

/// One row of the comparison: a part on a device, the engine's figure and llmplan's.
struct check_row {
    std::string part;
    std::string device;
    std::optional<std::uint64_t> engine_bytes;
    std::int64_t llmplan_bytes = 0;
    /// (llmplan - engine) / engine, when the engine printed the figure and it is not zero.
    [[nodiscard]] std::optional<double> difference() const;
};

struct check_report {
    log_facts facts;
    inference_params params; ///< the workload recovered from the log
    inference_estimate estimate;
    std::vector<check_row> rows;
    std::vector<std::string> notes;
};

/// The model a log names: a catalog id, or a path / display name whose last part matches a catalog
/// name in letters and digits. Errors ask for --model.
result<model_desc> model_from_log(const log_facts& f);
/// The inference options the log implies (engine, ctx, batch sizes, KV type, layers on the GPU ...).
inference_params params_from_log(const log_facts& f, const model_desc& m);
/// Estimate m under the log's workload and compare with the engine's figures.
result<check_report> check_against_log(const log_facts& f, const model_desc& m);

/// The comparison for people: one row per part and device, the engine's figure, llmplan's, the difference.
std::string check_to_text(const model_desc& m, const check_report& r);
/// {"engine", "model", "log": {...recovered facts}, "estimate": {...as estimate}, "rows": [{"part",
/// "device", "engine_bytes", "llmplan_bytes", "difference"}], "notes"}.
nlohmann::json check_to_json(const model_desc& m, const check_report& r);

} // namespace llmplan

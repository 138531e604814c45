// Reverse plan: what runs on one machine. For each model and each precision its engine runs, does
// it fit at the asked context; the largest models that fit per precision; and, for a chosen model,
// the longest context and the most concurrent sequences (JSON: report.h, fit_hardware_to_json; the contract has no
// "llmplan fit" section yet).
#pragma once

#include "llmplan/fit.h"
#include "llmplan/hardware.h"
#include "llmplan/inference.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

struct fit_hardware_options {
    std::uint64_t ctx   = 4096;       ///< tokens per sequence
    std::uint64_t batch = 1;          ///< sequences held at once
    std::uint32_t gpus  = 0;          ///< accelerators to spread a model over; 0 = the machine's own count
    std::size_t top     = 5;          ///< largest fitting models listed per precision
    std::optional<model_desc> chosen; ///< --model: longest context and most sequences for it
};

/// One model at one precision on the machine.
struct fit_model_row {
    std::string model;        ///< model id
    std::uint64_t params = 0; ///< total parameters (all experts)
    std::string weights;      ///< "bf16", "q4_k_m" ...
    bool fits                   = false;
    std::uint64_t need_bytes    = 0; ///< largest per-device total of the estimate
    std::int64_t headroom_bytes = 0; ///< budget - need (negative: short by)
    std::string error;               ///< the estimate could not be made (precision not producible ...)
};

struct fit_precision_summary {
    std::string weights;
    std::vector<std::string> largest; ///< ids of the largest models that fit, by parameters, largest first
};

struct fit_chosen_answer {
    std::string weights;
    fit_answer answer; ///< fits_as_asked, max_ctx (at --batch), max_batch (at --ctx)
    std::string error;
};

struct fit_hardware_result {
    std::string hardware;
    std::string kind;   ///< the catalog kind ("gpu", "apple", "cpu", "laptop", "cloud", "local")
    std::string engine; ///< "vllm" for CUDA GPUs, "llama.cpp" for Apple and CPU machines
    std::string device; ///< "cuda" | "metal" | "cpu"
    std::uint32_t gpus         = 0;
    std::uint64_t memory_bytes = 0; ///< memory per device (RAM for a CPU machine)
    std::uint64_t budget_bytes = 0; ///< what a model may use per device (vLLM: memory x gpu_memory_utilization)
    std::uint64_t ctx = 0, batch = 0;
    std::vector<std::string> precisions;
    std::vector<fit_model_row> rows; ///< models x precisions, in the order given
    std::vector<fit_precision_summary> largest;
    std::string chosen_model;
    std::vector<fit_chosen_answer> chosen; ///< one per precision when a model was chosen
    std::vector<std::string> notes;
};

/// Every model of `models` at each precision on `d`. Errors: no known memory (invalid_params),
/// a zero ctx or batch (invalid_params).
result<fit_hardware_result> fit_hardware(const device_spec& d, const std::vector<model_desc>& models,
                                         const fit_hardware_options& o);

/// The same for a machine named in `catalog`; unknown names -> error_code::unknown_name with the
/// closest names.
result<fit_hardware_result> fit_named_hardware(std::string_view name, const hardware_catalog& catalog,
                                               const std::vector<model_desc>& models, const fit_hardware_options& o);

} // namespace llmplan

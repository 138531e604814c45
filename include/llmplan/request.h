// Requests: one value type per question, with every option, parsed from name/value pairs through
// the option table (options.h). The CLI and the web API both build requests here, so the same
// options give the same request and the same errors.
#pragma once

#include "llmplan/error.h"
#include "llmplan/fit_hardware.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "llmplan/options.h"
#include "llmplan/plan.h"
#include "llmplan/serving_request.h"
#include "llmplan/train_plan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace llmplan {

/// How the model (and hardware files) may be named. The web API never reads a path the caller
/// gave: only catalog ids and hub names.
enum class task_kind : std::uint8_t { infer, train };

struct inspect_request {
    std::string model;
};

struct models_request {
    std::string filter;
};

struct estimate_request {
    std::string model;
    task_kind task = task_kind::infer;
    std::optional<engine_kind> engine; ///< unset: llama.cpp for GGUF (file or type), else transformers
    inference_params infer;            ///< engine filled in when the model is known (resolve_engine)
    std::string engine_version;        ///< --engine-version as given; read once the engine is known
    training_params train;
    std::optional<std::uint64_t> memory_bytes; ///< --memory: the reverse questions (fit.h)
    std::vector<option_id> given;              ///< the options named, to check them against the engine
    std::string draft;                         ///< --draft MODEL: loaded with the model (infer.draft)
    std::string mmproj;                        ///< --mmproj FILE: its tensors sized (infer.mmproj_bytes)
};

struct plan_request {
    estimate_request estimate;
    plan_options plan;
    std::vector<std::string> hardware; ///< only these rows (and this machine); empty: the catalog
    std::string hardware_file;
    std::string from; ///< the model the user runs now
    std::size_t top            = 15;
    std::uint64_t train_tokens = default_train_tokens;
    serving_request serving; ///< --concurrency / --request-rate (serving at load)
};

struct fit_request {
    std::string hardware; ///< catalog name; empty: this machine
    std::string model;    ///< optional: longest context and most sequences for it
    std::string hardware_file;
    std::uint64_t ctx = 4096, batch = 1;
    std::uint32_t gpus = 0; ///< 0: the machine's count
    std::size_t top    = 5;
};

struct hardware_request {
    enum class mode : std::uint8_t { local, list, show, check };
    mode what = mode::local;
    std::string filter; ///< list: words every name must contain
    std::string name;   ///< show
    std::string hardware_file;
    bool probe = false; ///< local: measure the bandwidth again (bandwidth_cache_mode::refresh)
};

/// `check`: an engine's log, as text (the CLI reads the file; the library reads no path for it).
struct check_request {
    std::string log;      ///< the log's bytes
    std::string log_name; ///< for messages: the file's path, "stdin", or what the caller names it
    std::string model;    ///< --model: when the log names no model llmplan knows
    std::string weights;  ///< --weights: when the log's file type is no standard one
};

using request_body = std::variant<inspect_request, models_request, estimate_request, plan_request, fit_request,
                                  hardware_request, check_request>;

struct request {
    command_kind command = command_kind::inspect;
    load_options sources;
    request_body body;
};

using option_values = std::vector<std::pair<std::string, std::string>>;

/// Parse `options` (names without dashes, as options.h; a flag's value "1"; a repeated list option
/// adds to the list) into a request for `command`. Errors (invalid_params), each naming its option:
/// an unknown option, one that does not apply to the command, task or engine, a value not in the
/// option's set, a non-number, NaN or infinity, a number out of range, a missing MODEL, a path where
/// `sources` refuses paths.
result<request> parse_request(command_kind command, const option_values& options, const load_options& sources = {});

/// "llama.cpp for a GGUF file or a GGUF type asked of any model, else transformers".
engine_kind default_engine(bool model_from_gguf, const weight_choice& weights);

} // namespace llmplan

// Documents: one library call per request (run) returns the answer as typed values; it is
// rendered to the contract's JSON or to the text tables only at the edge (to_json, to_text).
#pragma once

#include "llmplan/check.h"
#include "llmplan/fit.h"
#include "llmplan/fit_hardware.h"
#include "llmplan/hardware.h"
#include "llmplan/inference.h"
#include "llmplan/load.h"
#include "llmplan/plan.h"
#include "llmplan/request.h"
#include "llmplan/resolve.h"
#include "llmplan/serving.h"
#include "llmplan/training_fit.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace llmplan {

struct inspect_document {
    model_desc model;
    std::optional<model_resolution> resolved; ///< what a name as people type it was read as
};

struct models_document {
    struct row {
        catalog_entry entry;
        model_desc model;
    };
    std::vector<row> rows;
};

struct estimate_document {
    model_desc model;
    task_kind task = task_kind::infer;
    inference_params infer; ///< resolved: the engine chosen
    std::optional<inference_estimate> inference;
    training_params train;
    std::optional<training_estimate> training;
    std::optional<fit_answer> fit;                ///< --memory
    std::optional<training_fit_answer> train_fit; ///< --memory with --task train
    std::optional<model_resolution> resolved;     ///< what a name as people type it was read as
};

struct plan_document {
    estimate_document estimate;
    plan_result plan;
    std::uint64_t train_tokens = 0; ///< --task train
    std::size_t top            = 15;
    /// --from: the model run now, its plan on this machine and the recommended row, and the comparison.
    struct from_side {
        estimate_document estimate;
        plan_result plan;
        plan_comparison comparison;
    };
    std::optional<from_side> from;
    /// Serving at load: one answer per candidate (same order), empty where it cannot be computed;
    /// the whole vector is empty when the question is not asked.
    std::vector<std::optional<serving_figures>> serving;
    serving_request serving_question;
    /// Per candidate with no serving answer: why (a person's words; "" where it has one).
    std::vector<std::string> serving_why;
};

struct fit_document {
    fit_hardware_result result;
};

struct hardware_document {
    hardware_request::mode what = hardware_request::mode::local;
    local_machine machine;  ///< local
    device_spec local;      ///< local: this machine as a catalog row
    std::string cache_file; ///< local: where the measured bandwidth is cached
    std::vector<device_spec> rows;
    std::size_t catalog_size = 0;
    std::size_t ranked       = 0; ///< check: rows the planner ranks (hardware_catalog::candidates)
};

struct check_document {
    model_desc model;
    check_report report;
};

using document = std::variant<inspect_document, models_document, estimate_document, plan_document, fit_document,
                              hardware_document, check_document>;

/// Answer a request. Errors: everything the user can fix (unreadable model, bad options, unknown
/// hardware), each naming what was wrong.
result<document> run(const request& r);

/// The contract's JSON (../shared/cli-contract.md), as `llmplan ... --json` prints it: indented one
/// space, ending in a newline. The web API serves exactly these bytes.
std::string to_json(const document& d);
/// The text tables `llmplan ...` prints without --json.
std::string to_text(const document& d);

} // namespace llmplan

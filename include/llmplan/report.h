// The only serializer of results: the CLI's --json and the web API print exactly these documents.
#pragma once

#include "llmplan/fit.h"
#include "llmplan/fit_hardware.h"
#include "llmplan/hardware.h"
#include "llmplan/inference.h"
#include "llmplan/model_desc.h"
#include "llmplan/plan.h"
#include "llmplan/training_fit.h"

#include <nlohmann/json.hpp>

namespace llmplan {

/// The contract's "model" object (../shared/cli-contract.md, inspect), plus extra fields.
nlohmann::json model_to_json(const model_desc& m);

/// The contract's estimate document: model, workload (every option resolved), devices, disk_bytes.
nlohmann::json inference_to_json(const model_desc& m, const inference_params& p, const inference_estimate& e);
nlohmann::json training_to_json(const model_desc& m, const training_params& p, const training_estimate& e);
nlohmann::json fit_to_json(const fit_answer& a);
/// --memory with --task train: {"budget_bytes", "fits", "max_seq", "max_micro_batch", "best_setup",
/// "best_setup_args", "fit_with_args"}.
nlohmann::json training_fit_to_json(const training_fit_answer& a);
/// One device's {"device", "total_bytes", "parts"} object.
nlohmann::json device_to_json(const device_breakdown& d);

/// The contract's plan document (../shared/cli-contract.md, "llmplan plan"): {"estimate", "candidates",
/// "recommendation"}; `estimate` is the estimate document already built (inference_to_json, plus "fit").
nlohmann::json plan_to_json(nlohmann::json estimate, const plan_result& p);
/// plan --from: the two models' memory and, per hardware row, fit, decode and first-token time.
nlohmann::json comparison_to_json(const plan_comparison& c);
/// The same document for a training plan (make_train_plan): every contract field, plus per candidate
/// train_tokens_per_s, step_seconds, tokens_per_step, run_hours, run_cost_usd, nodes, zero_stage, ...
/// and at the top "train_tokens" and "constants" (the speed assumptions, train_plan.h).
nlohmann::json train_plan_to_json(nlohmann::json estimate, const plan_result& p, std::uint64_t train_tokens);

/// `llmplan fit --json`: the machine, its budget, every model x precision row, the largest that fit
/// per precision and, with --model, the chosen model's longest context and most sequences.
nlohmann::json fit_hardware_to_json(const fit_hardware_result& r);

/// `llmplan hardware list|show --json`: one catalog row with every figure and its sources.
nlohmann::json device_spec_to_json(const device_spec& d);
/// `llmplan hardware --json`: this machine as detected, and as the catalog row plans use (`as_row`).
nlohmann::json local_machine_to_json(const local_machine& m, const device_spec& as_row);

} // namespace llmplan

// The only serializer of results: the CLI's --json and the web API print exactly these documents.
#pragma once

#include "llmplan/fit.h"
#include "llmplan/inference.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json.hpp>

namespace llmplan {

/// The contract's "model" object (../shared/cli-contract.md, inspect), plus extra fields.
nlohmann::json model_to_json(const model_desc& m);

/// The contract's estimate document: model, workload (every option resolved), devices, disk_bytes.
nlohmann::json inference_to_json(const model_desc& m, const inference_params& p, const inference_estimate& e);
nlohmann::json training_to_json(const model_desc& m, const training_params& p, const training_estimate& e);
nlohmann::json fit_to_json(const fit_answer& a);
/// One device's {"device", "total_bytes", "parts"} object.
nlohmann::json device_to_json(const device_breakdown& d);

} // namespace llmplan

// Human-readable reports for the CLI (the JSON in report.h is the machine interface).
#pragma once

#include "llmplan/fit.h"
#include "llmplan/inference.h"
#include "llmplan/model_desc.h"
#include "llmplan/training_fit.h"

#include <string>

namespace llmplan {

/// "URL (hub) at commit SHA" for a model read from a Hub or a local Hub cache; "" otherwise.
std::string origin_to_text(const model_desc& m);
std::string model_to_text(const model_desc& m);
std::string inference_to_text(const model_desc& m, const inference_params& p, const inference_estimate& e);
std::string fit_to_text(const fit_answer& a);
std::string training_to_text(const model_desc& m, const training_params& p, const training_estimate& e);
std::string training_fit_to_text(const training_fit_answer& a);

/// "7.62 GB (7.10 GiB)"-style size for people.
std::string human_bytes(std::int64_t bytes);

} // namespace llmplan

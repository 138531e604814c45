// Serving at load rendered: the contract's `serving` object and the table a person reads.
#pragma once

#include "llmplan/document.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace llmplan::detail {

/// The contract's `serving` object (null when it cannot be computed).
nlohmann::json serving_to_json(const std::optional<serving_figures>& f);
/// Add `serving` to every candidate of a plan's JSON, and the deployment chosen (`serving_choice`).
void add_serving_json(nlohmann::json& plan, const plan_document& d);
/// The serving table (empty when the question was not asked).
std::string serving_text(const plan_document& d);

} // namespace llmplan::detail

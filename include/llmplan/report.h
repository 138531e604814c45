// The only serializer of results: the CLI's --json and the web API print exactly these documents.
#pragma once

#include "llmplan/model_desc.h"

#include <nlohmann/json.hpp>

namespace llmplan {

/// The contract's "model" object (../shared/cli-contract.md, inspect), plus extra fields.
nlohmann::json model_to_json(const model_desc& m);

} // namespace llmplan

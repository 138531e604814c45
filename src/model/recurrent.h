// Linear-attention / state-space layers of hybrid models, read from config.json (recurrent.cpp).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace llmplan::detail {

/// Mark the linear-attention layers of `m` (layer_types, else full_attention_interval) and give
/// each its constant per-sequence state from the config's linear_* sizes. A config without them is
/// left as it is. Errors name the field: a layer_types list of the wrong length or with an unknown
/// kind, a zero size.
status read_recurrent(model_desc& m, const nlohmann::json& cfg, std::string_view path);

} // namespace llmplan::detail

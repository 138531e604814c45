// quantization_config of a config.json -> quant_desc (src/model/quant_checkpoint.cpp).
#pragma once

#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>

namespace llmplan::detail {

/// The root config's quantization_config (absent: method none).
quant_desc parse_quant(const nlohmann::json& root);

} // namespace llmplan::detail

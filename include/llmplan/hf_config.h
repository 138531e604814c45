// Hugging Face config.json -> model_desc (architecture from the config; tensors generated from it).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace llmplan {

/// Parse config.json text. `path` names the file in error messages.
result<model_desc> parse_hf_config(std::string_view text, std::string_view path);
/// The same from an already parsed JSON object.
result<model_desc> model_from_hf_json(const nlohmann::json& root, std::string_view path);

} // namespace llmplan

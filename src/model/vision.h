// vision_config -> model_desc::vision (src/model/vision.cpp).
#pragma once

#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>

namespace llmplan::detail {

/// Fill m.vision from the root config's vision_config, or Qwen-VL's "visual" (absent or unreadable:
/// left empty). Call after the language model's n_embd is known.
void read_vision(model_desc& m, const nlohmann::json& root);

} // namespace llmplan::detail

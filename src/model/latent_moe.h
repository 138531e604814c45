// LatentMoE (Nemotron 3 Super / Ultra), applied to the generated tensors (latent_moe.cpp).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace llmplan::detail {

/// When the config sets moe_latent_size (a positive width), narrow every routed expert of the model's
/// MoE layers to that width and add the two projections around them. Other configs are left as they
/// are. A value that is not a positive size below n_embd's order names the field.
status apply_latent_moe(model_desc& m, const nlohmann::json& cfg, std::string_view path);

} // namespace llmplan::detail

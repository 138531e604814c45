// State-space (Mamba / Mamba2) models and hybrids, read from config.json (state_space.cpp).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string_view>

namespace llmplan::detail {

/// True for the model_types whose layers are laid out by read_state_space (mamba, mamba2, jamba,
/// granitemoehybrid, nemotron_h, falcon_h1): their configs may lack attention heads or an MLP width.
bool is_state_space_family(std::string_view model_type);

/// The layer count a family states by its list of layer types instead of num_hidden_layers
/// (Nemotron 3 Ultra's layers_block_type); nullopt for other families or without the list.
std::optional<std::uint64_t> layer_count_from_types(const nlohmann::json& cfg, std::string_view model_type);

/// Lay out a state-space family's layers (which are Mamba / Mamba2 mixers, which attention, which
/// MLP or MoE), give each mixer its state sizes and fill the MoE description. Other families are
/// left as they are. Errors name the field (a layer pattern of the wrong length or with an unknown
/// letter, a zero or inconsistent size).
status read_state_space(model_desc& m, const nlohmann::json& cfg, std::string_view model_type, std::string_view path);

} // namespace llmplan::detail

// A model_type the architecture table does not know: read as a standard decoder from the config's
// standard keys, with what was guessed written down (model_desc::guessed_weights, guessed_cache).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"
#include "model/arch_table.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan::detail {

/// The row a standard decoder gets (Llama's block: RMSNorm, rotary positions, a gated MLP, no
/// biases unless the config says), experts when the config counts them. Each assumption goes into
/// m.guessed_weights / m.guessed_cache in plain words.
arch_row unknown_arch_row(const nlohmann::json& cfg, std::string_view model_type, model_desc& m);

/// After the common reader: a sliding_window without layer_types applies to every layer (as
/// Mistral's), and the cache's reading is written down.
void finish_unknown_arch(model_desc& m, const nlohmann::json& cfg);

/// An unknown family whose weights only its tensors can size (formula_needs set) and whose tensors
/// were not read: the error naming the missing key.
status check_weights_known(const model_desc& m);

/// The checkpoint's tensors replaced the generated ones: the weights are no longer guessed.
void weights_read_from_tensors(model_desc& m);

} // namespace llmplan::detail

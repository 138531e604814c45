// Gemma 3n and Gemma 4 language models: what their blocks add to a Gemma 3 block (src/model/gemma_ple.cpp).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace llmplan::detail {

enum class gemma_generation : std::uint8_t { none, gemma3n, gemma4 };

/// Per-layer facts and family weights of a gemma3n_text / gemma4_text config (cfg = the text config):
/// per-layer embeddings, KV shared across the last layers, Gemma 4's global heads (global_head_dim,
/// K=V, num_global_key_value_heads), its MoE block and double-wide MLPs, Gemma 3n's AltUp and Laurel
/// blocks and per-layer intermediate sizes. Call after the layers and their sliding windows are set,
/// before the tensors are generated. A bad value names its key.
status read_gemma_layers(model_desc& m, const nlohmann::json& cfg, gemma_generation gen, std::string_view path);

/// Gemma 3n's intermediate_size may be a list, one width per layer; the reader takes the first here
/// and read_gemma_layers the rest. Returns the first entry of such a list (0 when it is not a list).
std::uint64_t gemma_first_ff(const nlohmann::json& cfg);

} // namespace llmplan::detail

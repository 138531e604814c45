// Multi-token-prediction (MTP) layers that checkpoints ship beside the language model (mtp.cpp).
#pragma once

#include "llmplan/model_desc.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>

namespace llmplan::detail {

/// Parameters of one Qwen3.5 / Qwen3-Next MTP block, counted as the Hub's safetensors total counts
/// them: one full-attention decoder layer shaped like the model's own (its attention, MLP or experts
/// and two norms), the fc projection [n_embd, 2 n_embd] and three norms. 0 when the model has no
/// full-attention layer to copy the shape from.
std::uint64_t mtp_block_params(const model_desc& m);

/// A config with mtp_num_hidden_layers > 0 gets a note saying how many parameters those layers hold
/// in the checkpoint and which engines load them; they are not part of the counted weights.
void read_mtp(model_desc& m, const nlohmann::json& cfg);

} // namespace llmplan::detail

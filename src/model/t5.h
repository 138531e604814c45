// T5-family encoder-decoders (model_type "t5", "mt5") read from config.json (t5.cpp).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace llmplan::detail {

/// Lay out the two stacks of a T5Config: `m.layers` holds num_layers copies of the base layer on
/// entry; on return the encoder's layers (num_layers) are followed by the decoder's
/// (num_decoder_layers, default num_layers), each with cross-attention. Reads feed_forward_proj
/// (plain or gated FFN), relative_attention_num_buckets and dropout_rate. Errors name the field.
status read_t5_stacks(model_desc& m, const nlohmann::json& cfg, std::string_view path);

} // namespace llmplan::detail

// quantization_config of a config.json -> quant_desc (src/model/quant_checkpoint.cpp), and the 2026
// formats read beside it (src/model/quant_formats.cpp: ModelOpt, MLX).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan::detail {

/// The config's quantization_config (at the root, else under text_config), or its MLX
/// `quantization` block (absent: method none).
quant_desc parse_quant(const nlohmann::json& root);

/// ModelOpt: an hf_quant_config.json object ({"quantization": {...}}) or a config.json
/// quantization_config with quant_method "modelopt".
void read_modelopt(const nlohmann::json& cfg, quant_desc& q);
/// An MLX `quantization` block ({"group_size": 64, "bits": 4[, "mode": ...][, per-module entries]}).
void read_mlx(const nlohmann::json& block, quant_desc& q);
/// Stored bytes of one [out, in] matrix in q's ModelOpt / MLX layout.
std::uint64_t modelopt_matrix_bytes(const quant_desc& q, std::uint64_t out, std::uint64_t in);
std::uint64_t mlx_matrix_bytes(const quant_desc& q, std::uint64_t out, std::uint64_t in);
/// ModelOpt / MLX: the layout tensor t is stored in (q with the module's own algo, bits and group),
/// or nothing when the checkpoint keeps t in torch_dtype.
std::optional<quant_desc> tensor_layout(const model_desc& m, const tensor_desc& t);
/// The weights type a user names a ModelOpt checkpoint by ("nvfp4", "fp8", "nvfp4+fp8" ...).
std::string modelopt_type_name(const quant_desc& q);

/// ModelOpt's hf_quant_config.json beside a config.json that has no quantization_config of its own:
/// the model's matrices get that layout. `path` names the file in errors.
status apply_hf_quant_config(model_desc& m, std::string_view text, std::string_view path);

} // namespace llmplan::detail

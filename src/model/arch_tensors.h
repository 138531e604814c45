// Family code beyond the table: MoE / MLA layouts and the tensor list an architecture implies.
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"
#include "model/arch_table.h"

#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace llmplan {

/// MoE shape (experts, shared experts, which layers are sparse) and MLA dims, from the config.
status fill_moe(model_desc& m, const nlohmann::json& cfg, const detail::arch_row& row, std::string_view path);

namespace detail {
/// DeepSeek Sparse Attention (model/arch/dsa_indexer.cpp): the lightning indexer's sizes
/// (index_n_heads, index_head_dim, index_topk) and which MLA layers carry one (indexer_types:
/// "full" or "shared"). A config without them is left as it is; errors name the field.
status read_dsa_indexer(model_desc& m, const nlohmann::json& cfg, std::string_view path);
/// Per-layer lists (model/arch/hybrid_attention.cpp): moe_layer_freq as a 0/1 list of MoE layers, and
/// hybrid_layer_pattern's sliding layers with their own heads, head sizes, window and sinks (MiMo-V2).
status read_hybrid_attention(model_desc& m, const nlohmann::json& cfg, std::string_view path);
/// DeepSeek-V4's compressed attention (model/arch/compressed_attention.cpp): compress_ratios per layer,
/// the sliding window, the compressor and indexer, hyper-connections and hash-routed layers, as layer
/// fields and extra weights. A config without compress_ratios is left as it is; errors name the field.
status read_compressed_attention(model_desc& m, const nlohmann::json& cfg, std::string_view path);
/// Its checkpoint's bytes (expert_dtype "fp4": routed experts in FP4 inside an FP8 checkpoint; ue8m0
/// block scales of one byte), after the checkpoint quantization is applied.
void apply_dsv4_checkpoint(model_desc& m, const nlohmann::json& cfg);
} // namespace detail

/// Replace m.tensors by the weight tensors the description implies (GGUF-style names, [out, in]
/// shapes, m.torch_dtype), as the family's modeling code creates them.
void generate_tensors(model_desc& m);

} // namespace llmplan

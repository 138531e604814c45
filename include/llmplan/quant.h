// Pre-quantized checkpoints (config.json quantization_config): which tensors each method stores
// quantized and how many bytes each takes, scales and zero points included, so that `inspect`,
// `estimate` and GGUF conversions size such a checkpoint as its files are.
#pragma once

#include "llmplan/model_desc.h"

#include <cstdint>

namespace llmplan {

/// A checkpoint whose config names a quantization method llmplan knows the layout of.
bool is_prequantized(const model_desc& m);
/// Whether the checkpoint stores tensor t quantized: gpt-oss MXFP4 the routed experts only; every
/// other method the blocks' linear matrices (lm_head, the MoE router, embeddings, norms and biases
/// stay in torch_dtype), minus the modules its config leaves out.
bool checkpoint_quantizes(const model_desc& m, const tensor_desc& t);
/// Stored bytes of `n_mat` quantized [out, in] matrices in q's layout, scales and zeros included.
std::uint64_t checkpoint_matrix_bytes(const quant_desc& q, std::uint64_t out, std::uint64_t in, std::uint64_t n_mat);
/// The element type the quantized matrices are reported in (mxfp4, f8_e4m3, packed i32, u8/i8).
dtype checkpoint_storage_type(const quant_desc& q);
/// Give every tensor of m that the checkpoint quantizes its stored type and exact bytes.
void apply_checkpoint_quant(model_desc& m);

} // namespace llmplan

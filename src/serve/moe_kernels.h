// The fused-MoE kernel a serving engine runs for the routed experts' weight format, and what it costs a
// step beyond the experts' bytes at the engine's bandwidth (src/serve/moe_kernels.cpp gives the code
// each row stands for and the rows it was fitted on).
#pragma once

#include "llmplan/inference.h"
#include "llmplan/model_desc.h"
#include "llmplan/serving_request.h"

#include <cstdint>
#include <string>

namespace llmplan::detail {

/// The routed experts' weights as the engine's fused-MoE kernel sees them.
enum class moe_weights : std::uint8_t {
    sixteen_bit, ///< BF16/FP16 experts
    fp8_channel, ///< FP8 with one scale per tensor or per output channel
    fp8_block,   ///< FP8 with a scale per 128 x 128 block (DeepSeek-V3/R1, Kimi-K2 FP8, Qwen3 -FP8 checkpoints)
    int4,        ///< 4-bit integers with group scales, 16-bit activations (GPTQ, AWQ, compressed-tensors W4A16)
    mxfp4,       ///< OCP MXFP4 (gpt-oss)
    other,       ///< NVFP4, bitsandbytes, GGUF, INT8 ...
};

/// The experts' format of `m` loaded with `p.weights`.
moe_weights moe_weights_of(const model_desc& m, const inference_params& p);

/// What the experts' kernel adds to a step: a fixed time per MoE layer (its chain of launches), and the
/// share of the engine's bandwidth its reads of the experts' weights reach.
struct moe_kernel_cost {
    double per_moe_layer_s        = 0;
    double expert_bandwidth_share = 1.0;
};
moe_kernel_cost moe_kernel_cost_of(serving_engine e, moe_weights w);

/// Share of the step model's rate for the routed experts' matmuls (the engine's expert_matmul_share of
/// its matmul share, doubled with FP8 weights) that the experts' kernel for their format reaches on a
/// GPU of architecture `architecture` (the device table's column): 1 where nothing is known.
double moe_prefill_matmul_share(serving_engine e, moe_weights w, const std::string& architecture);

} // namespace llmplan::detail

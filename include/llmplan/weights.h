// Weight bytes at a chosen precision: exact from the tensors when a file was read, else from the
// tensors the architecture implies, each tensor stored the way its format really stores it.
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

/// The precision asked for with --weights.
enum class weight_format : std::uint8_t {
    native, ///< as the checkpoint is (its tensors, or torch_dtype / quantization_config)
    f32,
    f16,
    bf16,
    fp8,       ///< FP8 e4m3 weights with one f32 scale per output channel (vLLM/compressed-tensors)
    int8,      ///< bitsandbytes LLM.int8(): int8 rows + one f32 scale (SCB) per row
    int4,      ///< plain 4-bit with group-wise f16 scales (group 128), as GPTQ without zeros
    nf4,       ///< bitsandbytes NF4: 4-bit, blocks of 64, double-quantized absmax scales
    gptq_int8, ///< GPTQ 8-bit: packed int32 qweight + f16 scales + packed zeros per group + g_idx
    gptq_int4,
    awq,  ///< AWQ 4-bit, group 128, f16 scales + packed zeros
    gguf, ///< a llama.cpp file type (q4_k_m ...) through llama-quantize's per-tensor recipe
    /// NVFP4 as NVIDIA ModelOpt stores it: e2m1 pairs in uint8, an e4m3 scale per 16, two f32
    /// per-matrix scales (vLLM, SGLang, TensorRT-LLM; tensor cores on Blackwell)
    nvfp4,
    /// OCP MXFP4: e2m1 pairs + an e8m0 scale per 32 (17 bytes per 32). llama.cpp takes it as its
    /// MXFP4_MOE file type (experts MXFP4, other matrices Q8_0).
    mxfp4,
};

struct weight_choice {
    weight_format format = weight_format::native;
    std::string gguf_ftype; ///< for format == gguf: "q4_k_m", "q8_0", "iq2_xxs" ...
};

/// Parse a --weights value (f32 f16 bf16 fp8 int8 int4 nf4 mxfp4 nvfp4 gptq-int8 gptq-int4 awq, or any
/// GGUF type name).
result<weight_choice> parse_weight_choice(std::string_view s);
/// The choice as an engine loads it: llama.cpp reads MXFP4 as its mxfp4_moe file type.
weight_choice weights_for_engine(const weight_choice& c, bool runs_gguf);
std::string to_string(const weight_choice& c);

/// The choice `asked` stands for on m: "native" becomes the checkpoint's own quantization (a GPTQ
/// checkpoint is gptq-int4 or -int8, ...), or stays native for a 16/32-bit checkpoint.
weight_choice resolve_weight_choice(const model_desc& m, const weight_choice& asked);
/// Formats that store the linear matrices quantized (everything but native and f32/f16/bf16).
bool is_quantized(weight_format f);
/// The matrices quantized formats quantize: the blocks' linear weights; lm_head, the MoE router,
/// biases and 1-D tensors stay 16-bit.
bool is_quantizable_matrix(const tensor_desc& t);

struct weights_estimate {
    std::uint64_t bytes             = 0;           ///< stored bytes of every weight tensor
    std::uint64_t quantized_bytes   = 0;           ///< bytes of tensors stored in the quantized format
    std::uint64_t unquantized_bytes = 0;           ///< bytes of tensors kept in 16/32-bit (norms, embeddings ...)
    dtype compute_dtype             = dtype::bf16; ///< activations / KV default dtype
    bool exact_from_file            = false;
    std::vector<std::uint64_t> layer_bytes; ///< bytes of each block's tensors (for layer splits)
    /// The routed experts' share of layer_bytes (MoE; llama.cpp --n-cpu-moe keeps these on the CPU)
    std::vector<std::uint64_t> layer_expert_bytes;
    std::uint64_t token_embd_bytes = 0; ///< input embeddings (llama.cpp keeps them on the CPU)
    /// Gemma 3n / 4 per-layer embeddings: an input tensor too (llama.cpp src/llama-arch.cpp:
    /// LLM_TENSOR_PER_LAYER_TOKEN_EMBD is LLM_TENSOR_LAYER_INPUT), kept in host memory, read by row
    std::uint64_t per_layer_embd_bytes = 0;
    std::uint64_t repackable_bytes     = 0; ///< block matrices in a type ggml-cpu repacks (q4_0, iq4_nl)
    std::string how;                        ///< one line: what rule produced the bytes
};

/// Bytes of the weights of m stored as c. Errors when c cannot be produced from m (e.g. NF4 of a GGUF).
result<weights_estimate> estimate_weights(const model_desc& m, const weight_choice& c);

} // namespace llmplan

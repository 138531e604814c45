// THE engine table: one row per inference engine with the facts that decide what it can run and how
// its memory and speed are budgeted, so that estimators, the planner, the option checks and the
// reports read a named column instead of comparing engine names. Each fact says where in the
// engine's code it comes from. What stays a switch on engine_kind is one dispatch point per formula
// that genuinely differs (which engine estimator runs; how a recurrent state is stored; how a log's
// fields map to parameters).
#pragma once

#include "llmplan/dtype.h"
#include "llmplan/engine_version.h"
#include "llmplan/inference.h"
#include "llmplan/options.h"

#include <string_view>
#include <vector>

namespace llmplan::detail {

struct engine_traits {
    engine_kind kind;
    std::string_view name;    ///< as typed in --engine and printed
    std::string_view display; ///< as prose names it ("vLLM")
    bool on_cpu, on_cuda, on_metal;

    // --- memory ---
    /// Takes --gpu-memory-utilization of each GPU up front and fills the rest with a KV block pool
    /// (vLLM: vllm/worker/gpu_worker.py determine_available_memory); others allocate what they use,
    /// so a draft model or vision tower is its own allocation on top rather than out of the pool.
    bool kv_pool;
    /// Runs GGUF files and GGUF quant types (llama.cpp's own format); the others load torch tensors.
    /// A plan's smaller weights for it are the GGUF ladder; for the others, torch formats.
    bool runs_gguf;
    /// Pads the KV cache to a block (vLLM block_size 16 tokens; llama.cpp n_ctx to 256 cells with
    /// flash attention, llama-context.cpp); transformers' DynamicCache grows token by token.
    bool pads_kv;
    /// KV cache element types it offers (--kv-type), as printed. llama.cpp: --cache-type-k/v
    /// (common/arg.cpp kv_cache_types); vLLM: --kv-cache-dtype auto/fp8; transformers: the model's
    /// dtype, or an int8 cache with per-token scales (Qwen-1's use_cache_quantization, quanto's
    /// QuantizedCache) whose closest storage is q8_0 (block of 32, one f16 scale).
    std::string_view kv_types;
    /// The KV type without --kv-type: llama.cpp f16 (common_params cache_type_k); vLLM "auto" and
    /// transformers take the weights' compute dtype.
    bool kv_default_f16;
    /// The smaller KV types a plan offers when the cache does not fit, in the order tried: llama.cpp
    /// q8_0 then q4_0; vLLM fp8 (--kv-cache-dtype fp8); none for transformers (its quantized caches
    /// are opt-in libraries, not a launch flag).
    std::string_view smaller_kv_types;
    /// Refuses a quantized V cache without flash attention (llama-context.cpp: "V cache quantization
    /// requires flash_attn"): a plan that quantizes the cache turns -fa on.
    bool quantized_v_needs_flash_attn;
    /// How an MLA layer (DeepSeek-V2/V3) is cached: llama.cpp's deepseek2 keeps K = latent + rope
    /// and V = latent; vLLM's MLA backend one latent + rope row; transformers' DeepSeek modelling
    /// code decompresses K and V of every head.
    enum class mla_kind : std::uint8_t { latent_k_and_v, latent_one_row, per_head } mla;
    /// A state-space layer's conv state keeps the whole kernel of past inputs (transformers'
    /// MambaCache conv_states (batch, channels, d_conv)); llama.cpp and vLLM keep d_conv - 1.
    bool conv_state_whole_kernel;
    /// A VLM's vision projector is its own GGUF loaded with --mmproj (llama.cpp's mtmd); the others
    /// load the vision tower with the checkpoint and size it from vision_config (--image-size).
    bool projector_file;
    /// Can keep part of the model in RAM beside a GPU: layers past -ngl, or the routed experts of
    /// the first N layers (--n-cpu-moe, -ot exps=CPU) (llama.cpp); the others hold it all on GPUs.
    bool offloads_to_host;
    /// bitsandbytes quantizes a 16-bit checkpoint as it loads on a GPU (from_pretrained with
    /// BitsAndBytesConfig: LLM.int8(), NF4; transformers docs "bitsandbytes").
    bool quantizes_on_load;

    // --- parallelism ---
    /// Spans nodes: vLLM by pipeline stages across nodes (--pipeline-parallel), llama.cpp by a layer
    /// split over its RPC backend; transformers' device_map stays in one process on one node.
    bool spans_nodes;
    /// Models --pipeline-parallel (vLLM's pipeline_parallel_size); the others split layers by --gpus.
    bool pipeline_stages;
    /// Splits every layer's heads over the GPUs of a stage (vLLM tensor_parallel_size: the heads must
    /// divide; each GPU reads 1/N of the weights per token); the others give each GPU whole layers.
    bool tensor_parallel;

    // --- kernels (speed and what a chip must support) ---
    /// Computes with ggml's own kernels (llama.cpp): every weight type dequantized in its own CUDA /
    /// Metal / CPU kernels, so no bitsandbytes, FlashAttention-2 or bf16/FP8/FP4 tensor cores are
    /// needed; cuBLAS GEMMs with FP16 accumulation for f16 weights (ggml-cuda CUBLAS_COMPUTE_16F);
    /// attention fused only with -fa, else KQ materialized per head. The others run PyTorch kernels
    /// and libraries that need the chip's features.
    bool ggml_kernels;
    /// Ships Hopper/Blackwell kernels (FlashAttention-3, CUTLASS 3 wgmma: vLLM); the others' prefill
    /// runs Ampere-style kernels there (prefill_share_no_wgmma).
    bool hopper_kernels;
    /// Dequantizes int4/int8 weights in its GEMM kernels (vLLM's Marlin/AWQ/GPTQ): decode can be
    /// bound by unpacking at the chip's ALU rate (quantized_matvec_flops_per_weight) rather than the
    /// bandwidth.
    bool dequant_alu_bound;
    /// Runs each layer's ops from Python, eagerly (transformers' generate): a per-layer host time is
    /// a floor under each decode step (transformers_layer_seconds).
    bool python_per_layer;

    // --- the front door ---
    /// The options that configure this engine alone (the option table's engine column); `any` when
    /// it has none of its own.
    engine_scope own_options;
    /// How its launch line is built (launch.cpp): a llama-server/ollama line, a `vllm serve` line
    /// (CUDA only), a `python -m sglang.launch_server` line (CUDA only), `mlx_lm.generate` /
    /// `mlx_lm.server` lines (Metal), or a transformers Python one-liner.
    enum class launch_kind : std::uint8_t {
        llama_server,
        vllm_serve,
        python_pipeline,
        sglang_server,
        mlx_lm,
        none
    } launch;
    /// The release assumed without --engine-version: the newest found in public sources (Dec 2026:
    /// vLLM 0.30, transformers 5.15.1, SGLang 0.5.19, mlx-lm 0.32.0, llama.cpp v0.3.0; until Dec 2026 vLLM 0.14,
    /// transformers 4.57, llama.cpp b7200). Each row's source is beside it in engine_traits.cpp.
    engine_version current;
    /// Versions are build numbers, printed and parsed as bNNNN (llama.cpp's release tags until Aug 2026,
    /// then vMAJOR.MINOR.PATCH from v0.3.0, ordered after every build); the others are MAJOR.MINOR[.PATCH].
    bool build_numbers;
};

const engine_traits& traits_of(engine_kind e);
/// The engine named (as --engine takes it), or nullptr.
const engine_traits* engine_by_name(std::string_view name);
bool runs_on(const engine_traits& t, device_kind d);
/// The space-separated words of a column (kv_types, smaller_kv_types), in order.
std::vector<std::string_view> words_of(std::string_view list);
/// `type` is one of t.kv_types.
bool offers_kv_type(const engine_traits& t, dtype type);
/// The engine that runs `asked` on `device`: itself, or llama.cpp where it does not run (the plan
/// runs vLLM's and transformers' requests on llama.cpp off the devices they support).
engine_kind engine_on(engine_kind asked, device_kind device);

} // namespace llmplan::detail

// Speed: how long one decode step takes, per engine, and the tokens/s that follow.
//
// llama.cpp and vLLM: the bytes a step reads (weights, MoE: the routed experts only, + KV cache at
// its depth) over the share of peak bandwidth the engine's kernels reach on that memory
// (decode_bandwidth_efficiency), plus a fixed overhead per layer / per step (decode_overhead) that
// dominates small models on fast GPUs. Prefill: FLOPs over the engine's share of the chip's matmul
// rate, attention growing with the prompt (prefill_tokens_per_s); a llama.cpp layer split over N GPUs
// overlaps the prompt's micro-batches (llamacpp_pipeline_speedup). The constants are fitted on
// ../shared/speed_truth (llama.cpp on 13 NVIDIA cards and 15 Apple chips; vLLM on A100) with
// bench/speed_mech_fit.py; speed.cpp gives each value with its data.
//
// Hugging Face
// transformers (eager `generate`, batch 1 on CUDA) is not bandwidth bound for most models: Python
// dispatches every layer's kernels one after another, so a step costs a fixed host time per layer
// unless the GPU work is longer. Its constants are fitted on tests/data/truth/qwen25_speed_benchmark.json
// (Qwen2.5 0.5B-72B, BF16 / GPTQ-Int8 / GPTQ-Int4 / AWQ, A100 80GB, transformers 4.46 + flash-attn 2.5.8):
// four parameters, least squares on log(predicted / measured) tokens/s over the 102 single-GPU cases,
// Nelder-Mead, bench/speed_fit.py. Result, with llmplan's own byte counts: 102 of 102 within 25%,
// median error 3.4%, p90 11.9%, worst 19.7% (bench/accuracy_speed.md, tests/unit/speed_accuracy_test.cpp).
// A fifth parameter, a fixed host time per token (sampling, the generate loop), fitted to under 1 ms
// and barely moved the errors (worst 20%), so it is left out.
#pragma once

#include "llmplan/hardware.h"
#include "llmplan/inference.h"

#include <cstdint>
#include <string_view>

namespace llmplan {

/// The memory a chip decodes from: what share of its peak bandwidth an engine's kernels reach.
enum class memory_class : std::uint8_t {
    hbm,   ///< HBM (datacenter GPUs: A100, H100, MI300X ...)
    gddr,  ///< GDDR6/6X/7 (GeForce, RTX workstation, L40S, A40 ...)
    apple, ///< Apple silicon unified LPDDR (Metal)
    lpddr, ///< other unified LPDDR iGPUs (Strix Halo)
    dram,  ///< a CPU's DDR channels
};
/// From gpus.csv's memory_type ("HBM3", "GDDR6X", "LPDDR"); a blank type on a datacenter part with
/// more than 1.2 TB/s is HBM (no GDDR datacenter card reaches that: L40S 864 GB/s). CPU runs: dram.
memory_class memory_class_of(const device_spec& d, device_kind where);

/// Share of the peak memory bandwidth one decode step reaches, by engine and memory (table in speed.cpp
/// with the source of each value).
double decode_bandwidth_efficiency(engine_kind e, memory_class m);
/// Fixed time of one decode step that does not shrink with the bytes read: kernel launches and syncs
/// per layer (llama.cpp) and per step (vLLM's scheduler and sampler). Table in speed.cpp.
struct step_overhead {
    double per_layer_s = 0;
    double per_step_s  = 0;
};
step_overhead decode_overhead(engine_kind e, device_kind d);

/// Shares of the old single constants, kept for the transformers fit (bench/speed_fit.py used 0.6 for
/// A100 HBM) and for CPU rows: decode_bandwidth_efficiency gives these for those cases.
inline constexpr double decode_efficiency_gpu = 0.6;
inline constexpr double decode_efficiency_cpu = 0.5;

/// What a chip brings to one decode or prefill: peaks of one device, and the shares reached.
struct chip_rates {
    double bandwidth_bytes_per_s = 0; ///< peak memory bandwidth; 0 = unknown
    double efficiency            = decode_efficiency_gpu;
    double fp32_flops            = 0; ///< vector (non-tensor) peak; 0 = unknown
    double matmul_flops          = 0; ///< the tensor rate prefill runs at (prefill_peak_flops); 0 = unknown
    std::string_view architecture;    ///< "Hopper", "Ampere" ... (prefill kernels by generation)
    double compute_capability = 0;    ///< CUDA compute capability (9.0 Hopper, 12.0 GeForce Blackwell); 0 = unknown
    memory_class memory       = memory_class::gddr; ///< the memory decoded from (memory_class_of)
    unsigned apple_generation = 0; ///< Apple M-series generation of a Metal chip (1 = M1 ...); 0 = other or unknown
};
/// The M-series generation of an Apple chip from its catalog names ("Apple M2 Ultra", "Mac Studio M4
/// Max (14-core), 36GB": 2, 4); 0 when no name carries one.
unsigned apple_generation_of(const device_spec& d);
/// Share of its F16 prompt rate llama.cpp's Metal GEMM reaches on quantized weights, by Apple GPU
/// generation (table in speed_prefill.cpp with its data): M1/M2 and unknown 0.89, M3 on 0.965.
double metal_quantized_gemm_share(unsigned apple_generation);
/// Share of its rated tensor peak a CUDA GPU's clock holds under a full matmul load within its board
/// power (accelerator_tdp_w): 1 when the power suffices or the architecture's need is not known
/// (src/plan/speed.cpp, tensor_power_table). chip_of scales matmul_flops by it.
double power_limited_tensor_share(const device_spec& d);
/// The chip of device `d` as engine `e` runs on it where the model lives (`where`).
chip_rates chip_of(const device_spec& d, engine_kind e, device_kind where);
// --- Hugging Face transformers, eager generate on CUDA ---------------------------------------------
// Step time = max(host, GPU): kernels are launched asynchronously, so the host's dispatch and the
// GPU's work overlap and the longer one sets the pace.
//   host = n_layer x (transformers_layer_seconds [+ transformers_quant_layer_seconds])
//        + MoE layers x n_expert x transformers_moe_expert_seconds (the Python loop over experts)
//   GPU  = 16-bit weight bytes / (decode_efficiency_gpu x bandwidth)
//        + quantized weights (elements) / transformers_dequant_weights_per_s
//        + attention bytes / (transformers_attention_efficiency x bandwidth)
// All four constants fitted together on tests/data/truth/qwen25_speed_benchmark.json (see the top of
// this file). Rounded fitted values; they hold for an A100 host and carry to other GPUs unscaled.

/// Host time per decoder layer per step: Python module calls and kernel launches of one layer.
/// Fitted: 0.863 ms (the batch-1 BF16 and GPTQ-Int4 rows at input 1 are all host bound: 0.81-0.90 ms
/// a layer for 24 to 64 layers).
inline constexpr double transformers_layer_seconds = 0.863e-3;
/// Extra host time per layer when the linear modules dequantize in their own Python forward (AutoGPTQ
/// 0.6 Int8 and AutoAWQ 0.2.6 GEMM modules; GPTQ-Int4 runs AutoGPTQ 0.7.1's ExLlama-v2 kernel and shows
/// none). Applied to every quantized format but gptq-int4: only GPTQ and AWQ are measured.
/// Fitted: 0.266 ms.
inline constexpr double transformers_quant_layer_seconds = 0.266e-3;
/// Quantized matrix-vector kernels at batch 1 are bound by the unpack-scale-multiply work per weight,
/// not by the bytes (72B GPTQ-Int4: 41.5 GB read in 90 ms, 23% of the A100's bandwidth).
/// Fitted: 9.76e11 weights/s (set by the GPU-bound 72B rows; the smaller models are host bound at
/// short context, so this constant rests on few cases).
inline constexpr double transformers_dequant_weights_per_s = 9.76e11;
/// Decode attention (flash-attn with one query token) reads K and V once per query head, not per KV
/// head, at a small share of the bandwidth: few thread blocks (one per head) stream the whole context.
/// Fitted: 0.146 (per-query-head reads; the same fit with one read per KV head is worse: 97% within
/// 25%, worst 34%).
inline constexpr double transformers_attention_efficiency = 0.146;

/// Host time per expert per MoE layer per step: transformers' sparse MoE blocks (MixtralSparseMoeBlock,
/// Qwen2MoeSparseMoeBlock, transformers 4.38-4.46) loop in Python over every one of the layer's n_expert
/// experts; each turn runs torch.where on the routing mask, whose data-dependent shape makes the host
/// wait for the GPU, and the experts a token picked run their MLP (three linears, an activation, an
/// index_add). Dispatch therefore grows with n_expert x MoE layers, not with the bytes read: Qwen2-57B-A14B
/// (28 layers x 64 experts) makes 4.8-5.5 tokens/s on A100 where its 14B active weights would allow ~40.
/// Fitted on ../shared/speed_truth/qwen2_speed_tables.json (transformers 4.38.2): the 57B-A14B rows at
/// input 1 and 6144 leave (step - 28 x transformers_layer_seconds) / (28 x 64) = 87 us (GPTQ-Int4, one
/// GPU: 5.55 and 5.44 tokens/s) to 104 us (BF16, two GPUs: 4.76 and 4.90); 95 us, their middle.
/// Newer releases loop over the experts hit only (expert_hit = mask.sum(...).nonzero()): this then
/// over-counts, erring slow, not fast.
inline constexpr double transformers_moe_expert_seconds = 95e-6;
/// Host time of the MoE dispatch loop in one transformers decode step: MoE layers x n_expert x
/// transformers_moe_expert_seconds (0 for a dense model).
double transformers_moe_host_seconds(const model_desc& m);

/// Where one decode step's time goes (seconds).
struct decode_step_time {
    double host_s      = 0; ///< host dispatch (transformers); 0 for engines modelled as GPU bound
    double weights_s   = 0; ///< reading (and dequantizing) the weights
    double attention_s = 0; ///< reading the KV cache
    double seconds     = 0; ///< the step
};

/// Bytes of weights read per decode step (MoE: the routed experts' share scaled by n_expert_used /
/// n_expert).
std::uint64_t decode_weight_bytes_per_step(const model_desc& m, const inference_estimate& e);
/// Bytes read from memory per decode step: weights plus the KV cache of `batch` sequences at `ctx` tokens.
std::uint64_t decode_bytes_per_step(const model_desc& m, const inference_estimate& e, const inference_params& p);

/// One decode step of p.batch sequences with `context` tokens already cached, on `parallel_devices`
/// devices of `bandwidth_bytes_per_s` each (tensor parallel: each reads 1/N). `efficiency` is the
/// roofline share of bandwidth (decode_efficiency_gpu or _cpu). transformers on CUDA follows the model
/// above; other engines and devices the roofline.
decode_step_time decode_step(const model_desc& m, const inference_estimate& e, const inference_params& p,
                             double bandwidth_bytes_per_s, double efficiency, unsigned parallel_devices,
                             std::uint64_t context);
/// The same with the chip's compute (quantized matrix-vector kernels bound by their unpacking work)
/// and the engine's fixed step overhead (decode_overhead).
decode_step_time decode_step(const model_desc& m, const inference_estimate& e, const inference_params& p,
                             const chip_rates& chip, unsigned parallel_devices, std::uint64_t context);

/// Decode tokens/s (all sequences of the batch) at the context p.ctx: what make_plan reports.
double decode_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                           double bandwidth_bytes_per_s, double efficiency, unsigned parallel_devices);

/// Roofline decode tokens/s (all sequences of the batch) on `count` devices of `bandwidth`.
double decode_tokens_per_s(std::uint64_t bytes_per_step, std::uint64_t batch, double bandwidth_bytes_per_s,
                           double efficiency, unsigned parallel_devices);
/// Prefill tokens/s of a `prompt`-token prompt after `cached` tokens already in the cache: 2 FLOPs
/// per active parameter per token at the engine's share of the chip's matmul rate
/// (prefill_matmul_efficiency), plus attention over the tokens before each one (the cached ones and
/// half the prompt on average; 4 x heads x head_dim FLOPs per token attended and layer) at a lower
/// share (prefill_attention_slowdown). A 512-token prompt after 32k tokens of context attends to
/// 64x the tokens of one into an empty cache. 0 when the chip's compute rate is unknown.
double prefill_tokens_per_s(const model_desc& m, const inference_params& p, const chip_rates& chip,
                            unsigned parallel_devices, std::uint64_t prompt, std::uint64_t cached = 0);

/// llama.cpp with every layer on N > 1 GPUs split by layer (-sm layer, llama-bench's default):
/// pipeline parallelism. llama-context.cpp turns it on when there is more than one device, every
/// layer is offloaded, the split mode is layer and the KV cache is offloaded; the scheduler then keeps
/// GGML_SCHED_MAX_COPIES = 4 copies of the graph's inputs (ggml-backend.cpp), so up to 4 micro-batches
/// of n_ubatch tokens are in flight, each on the GPU holding its current layers. A prompt of
/// U = ceil(prompt / n_ubatch) micro-batches then takes T (the first one passes every GPU in turn:
/// one GPU's time for the whole model) plus (U - 1) x T / (min(N, 4) x llamacpp_pipeline_overlap)
/// for the rest; the speedup over one GPU is U x T over that. One micro-batch (pp512) gains nothing.
/// Returns 1 for one GPU.
double llamacpp_pipeline_speedup(std::uint64_t prompt, std::uint64_t n_ubatch, unsigned gpus);
/// Micro-batches in flight at once in ggml's scheduler with pipeline parallelism (GGML_SCHED_MAX_COPIES).
inline constexpr unsigned llamacpp_sched_max_copies = 4;
/// Share of the ideal overlap the micro-batches after the first reach: GPUs working at once contend
/// for the host thread that launches every GPU's kernels and for the copies of activations between
/// GPUs (ggml-cuda enables peer access only for batches of at most GGML_CUDA_PEER_MAX_BATCH_SIZE =
/// 128 tokens, so 512-token micro-batches cross through host memory). Fitted (least squares on log
/// speedup, grid 0.600-1.000) on xiongjiedai_llama3.json: the 112 Llama-3 8B prefill rows on 2, 4, 6
/// and 8 GPUs against the same GPU's one-GPU row (RTX 3090/4090, A100 PCIe/SXM, H100 PCIe, A40,
/// A6000, L40S, RTX 4000/5000/6000 Ada; the F16 rows of the two machines the source flags as
/// stalled left out): 0.75, median error -1%; 4 GPUs: pp512 +0%, pp1024 +2%, pp4096 -2%, pp8192 -5%
/// of the measured speedups 1.0, 1.5, 2.45, 2.8.
inline constexpr double llamacpp_pipeline_overlap = 0.75;
/// llama.cpp decode with the layers split over N GPUs of one node (-sm layer): layers run in turn, so
/// a token reads the same bytes as on one GPU, plus N - 1 hand-overs where the next GPU waits for the
/// previous one and ggml's scheduler copies the layer boundary's activations across
/// (ggml_backend_sched_compute_splits, ggml/src/ggml-backend.cpp: an input copy and an event wait per
/// split). Fitted on xiongjiedai_llama3.json (May 2024 builds): the step of Llama-3 8B/70B F16 and
/// Q4_K_M on 2-8 GPUs against the same GPU's one-GPU row, divided by N - 1, 136 pairs on RTX 3090/4090,
/// A100 PCIe, H100 PCIe, A40, A6000, L40S, RTX 4000/5000/6000 Ada (the A100 SXM machine the source
/// flags as stalled left out): median 0.225 ms (2 GPUs 0.32, 4 GPUs 0.23, 6-8 GPUs 0.09-0.12).
inline constexpr double llamacpp_layer_split_hop_s = 0.225e-3;

/// llama.cpp with offloaded layers (-ngl below n_layer): layers run in turn, so a step reads the GPU
/// devices' weights and KV at the GPU's share of its bandwidth, then the CPU device's at
/// decode_efficiency_cpu x host_bw (the CPU-resident input embedding reads one row a token); MoE
/// weights at their routed share on both sides; plus llama.cpp's per-layer overhead. The KV cache is
/// read to `depth` tokens of the p.ctx allocated (0: all of it).
double offload_decode_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                                   const chip_rates& gpu, double host_bw, std::uint64_t depth = 0);

/// PCIe 4.0 x16: 32 GB/s a direction (PCI-SIG), about 25 GB/s reached by host-to-device copies of
/// pinned memory (80%, as CUDA's bandwidthTest shows on such links).
inline constexpr double pcie_copy_bytes_per_s = 25e9;
/// llama.cpp prefill with weights in RAM (-ngl below n_layer, --n-cpu-moe): for a batch of 32 tokens
/// or more the scheduler copies each CPU-resident weight to the GPU and multiplies there
/// (ggml_backend_sched offload_op), once per ubatch: the copy of those bytes over PCIe adds to each
/// ubatch of min(n_ubatch, prompt) tokens. (ik_llama.cpp PR 841: gpt-oss-20b with every expert in RAM
/// on an RTX 4080 prefills 2215 tokens/s, where 12 GB of experts over PCIe at 2048-token batches
/// allows at most ~4300.)
double offload_prefill_tokens_per_s(double gpu_prefill_tokens_per_s, const inference_estimate& e,
                                    const inference_params& p, std::uint64_t prompt);

/// Tokens/s of one generate call timed as a whole, the way benchmarks such as Qwen's speed tables do
/// (output tokens / (prefill + decode) seconds): prefill of `prompt` tokens, then `output` decode steps
/// taken at the average context prompt + output / 2. `d` gives bandwidth and FLOP/s (one device;
/// layer splits run in turn). 0 when the row lacks bandwidth.
double generation_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                               const device_spec& d, std::uint64_t prompt, std::uint64_t output);

} // namespace llmplan

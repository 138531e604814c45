// Training plan: for each candidate, the cheapest way to train a model on it (GPUs, ZeRO stage,
// gradient checkpointing, optimizer offload, nodes), the time per step and for the whole run, the
// cost, and the launch lines. A pure function of the model, the training options, the candidate
// devices and the number of tokens to train on (`llmplan plan MODEL --task train`).
#pragma once

#include "llmplan/estimate.h"
#include "llmplan/hardware.h"
#include "llmplan/plan.h"

#include <cstdint>
#include <vector>

namespace llmplan {

// ---- speed --------------------------------------------------------------------------------------
// A micro-step on one device takes the longest of the host's time to issue its kernels (CUDA launches
// asynchronously), the device's matmuls and the collectives across nodes or PCIe, plus a QLoRA base's
// dequantization and the offloaded optimizer step: max(host, compute, comm) + dequant + offload.
// bench/train_speed.py checks it against the published step times (bench/accuracy_train.md, "Speed").

/// Model FLOPs utilisation of training, as a share of the dense BF16 peak, counting the attention
/// FLOPs (train_attention_flops_per_token) with the matmuls: the median achieved by the 14 published
/// runs of >= 4096 tokens a micro-step that are neither QLoRA nor multi-node (the device's work there
/// is several times the host's): truth/qwen1_readme_profiling.json (LoRA and full, 1.8B-72B, 4096 and 8192
/// tokens, A100: 10 runs) and truth/torchtune_readme_memory.json (Llama-3.1 8B/70B, 2 x 2048 tokens,
/// A6000, 4090, 8 x A100: 4 runs), on the basis train_device_flops uses (the A100's MAMF / 0.80).
/// The runs range 0.33 (Qwen-1.8B LoRA at 4096: its 2048-wide matmuls run below the big models') to
/// 1.04 (torchtune's full 8B on an A6000, above the card's peak, so its tokens/s count otherwise than
/// ours); 0.517 is their median (Llama 3 405B pre-training: 0.38-0.43, arXiv 2407.21783 Table 4).
inline constexpr double train_mfu_of_dense_peak = 0.52;
/// Measured matmul FLOP/s (MAMF, gpus.csv measured_bf16_matmul_tflops, [STAS]) as a share of the
/// dense peak: H100 SXM 794.5/989 = 0.80, A100 PCIe 252.9/312 = 0.81, A100 SXM 271.2/312 = 0.87.
/// 0.80 is the low end, used to turn a dense peak into an achievable matmul rate.
inline constexpr double mamf_share_of_dense_peak = 0.80;
/// Training throughput as a share of the MAMF: the MFU above re-based on the achievable matmul
/// rate (0.52 / 0.80 = 0.65; on an H100: 0.65 x 794.5 = 516 TFLOP/s = 52% of 989).
inline constexpr double train_share_of_mamf = train_mfu_of_dense_peak / mamf_share_of_dense_peak;

/// Host time without gradient checkpointing, as a share of the trainer's per-layer figure (measured
/// with it): the kernels issued are a forward, a backward of about twice as many, and with
/// checkpointing one more forward: 3 of 4.
inline constexpr double host_share_without_recompute = 3.0 / 4.0;

/// Dequantizing a quantized base (QLoRA): every pass over a layer (forward, backward, the recomputed
/// forward) turns its 4-bit weights into 16-bit ones in memory before the matmul reads them. Qwen-1's
/// Q-LoRA rows exceed its LoRA rows by about the same time at every length, host-bound (256 tokens)
/// or device-bound (8192), so it is added to the step, not hidden under the host's issuing. Fitted as
/// bytes moved per quantized parameter per pass at the memory bandwidth: Qwen-1's Q-LoRA rows take longer than its LoRA
/// rows at the same length by a median 0.3 / 1.5 / 3.55 s/it for 1.8B / 7B / 14B (truth/qwen1_readme_profiling.json,
/// differences over the 6 lengths), i.e. 37 / 29 / 35 ms a micro-step per 1e9 quantized parameters
/// (1.21e9 / 6.46e9 / 12.6e9 in the decoder layers): 31 ms x 2039 GB/s (A100) = 63 bytes over 3 passes.
/// The ideal is 4.5 (read 0.5, write 2, the matmul reads 2): auto-gptq's kernels move ~4.7 times that.
/// torchtune's NF4 on a 4090 (QLoRA 1697 ms vs LoRA 1329 ms a micro-step, torchtune_readme_memory.json)
/// gives 46 over 3 passes (15 a pass).
inline constexpr double dequant_bytes_per_param_per_pass = 21.0;

/// CPU rows have no FLOP/s column: the cores estimate of plan.h (cpu_core_clock_hz x
/// cpu_core_flops_per_cycle) with the same MFU, which is optimistic for PyTorch on a CPU; the point
/// is the order of magnitude against a GPU.

// ---- multi-node ---------------------------------------------------------------------------------
/// Nodes hold plan.h's gpus_per_node GPUs; plan_options::max_nodes caps how many a plan spans.
/// Inter-node bandwidth per GPU: 400 Gb/s (DGX H100: one 400 Gb/s ConnectX-7 per GPU; AWS
/// p5.48xlarge: 3200 Gbps EFA over 8 GPUs; Llama 3's clusters: 400 Gbps between GPUs).
inline constexpr double inter_node_bytes_per_s_per_gpu = 400e9 / 8.0;
/// Share of that line rate the collectives reach (NCCL bus bandwidth on InfiniBand/RoCE is
/// typically ~80% of line rate): the communication-efficiency factor across nodes, and for consumer
/// cards talking over PCIe (offload_pcie_bytes_per_s) inside one machine. Datacenter GPUs in one
/// node are taken to be on NVLink, where the MFU above already includes the collectives.
inline constexpr double inter_node_link_efficiency = 0.8;
/// ZeRO-3 moves the 16-bit weights through every GPU's link 3 times a step (all-gather forward,
/// all-gather backward, reduce-scatter gradients: 1.5x DDP's all-reduce, ZeRO paper sec. 7); with
/// frozen weights (LoRA) only the 2 all-gathers. Overlapped with compute: a step takes the longer.
inline constexpr double zero3_weight_passes_full = 3.0;
inline constexpr double zero3_weight_passes_lora = 2.0;

// ---- optimizer offload --------------------------------------------------------------------------
/// ZeRO-Offload's step on the CPU is memory-bound: Adam reads fp32 param, grad, m, v (16 bytes) and
/// writes param, m, v (12 bytes) per parameter ...
inline constexpr double offload_adam_bytes_per_param = 28.0;
/// ... at the host's DRAM bandwidth, 100 GB/s when the table has none (2-4 DDR5 channels) ...
inline constexpr double offload_host_bytes_per_s_default = 100e9;
/// ... and each GPU sends 16-bit gradients down and gets 16-bit parameters back over PCIe
/// (Gen4 x16: 32 GB/s raw, ~25 GB/s achieved). Not overlapped with compute.
inline constexpr double offload_pcie_bytes_per_s = 25e9;

// ---- the run ------------------------------------------------------------------------------------
/// Tokens trained on when --train-tokens is not given: 100 M tokens, a typical fine-tuning run
/// (e.g. 50k examples of 2k tokens, or 1-3 epochs over a 30-100 M-token instruction set).
inline constexpr std::uint64_t default_train_tokens = 100'000'000;

/// Training FLOP/s one device sustains: train_share_of_mamf x MAMF when measured, else
/// train_mfu_of_dense_peak x the dense FP16/BF16 peak (FP32 peak if no FP16 figure); CPU rows:
/// the cores estimate above. 0 when nothing is known.
double train_device_flops(const device_spec& d);

/// Seconds of compute for one step of `tokens_per_device` tokens on each device.
double train_compute_seconds(double flops_per_token, std::uint64_t tokens_per_device, double device_flops);

/// Attention's own FLOPs per trained token (estimate_training counts only the weight matmuls): per
/// attention layer, QK^T and PV take 2 x n_head x (head_dim_k + head_dim_v) x context FLOPs forward,
/// the context being seq / 2 on average under the causal mask (FlashAttention skips masked blocks),
/// at most the sliding window; backward twice the forward, plus one forward with recomputation (the
/// 12 x layers x d x seq of PaLM's MFU, arXiv 2204.02311 App. B, halved for the mask).
double train_attention_flops_per_token(const model_desc& m, std::uint64_t seq, bool recompute);

/// Host seconds to issue one micro-step: layers x the trainer's host_s_per_layer (x 3/4 without
/// recomputation). 0 for an unknown trainer.
double train_host_seconds(const model_desc& m, const training_params& p, bool recompute);

/// Device seconds a micro-step spends dequantizing a QLoRA base (0 for other methods or an unknown
/// bandwidth): the decoder layers' parameters (all but the embeddings and an untied lm_head) x
/// dequant_bytes_per_param_per_pass x passes (2, 3 with recomputation) / memory bandwidth.
double train_dequant_seconds(const model_desc& m, const training_params& p, bool recompute, double memory_bytes_per_s);

/// Plan training of `m` with options `p` (its gpus / zero_stage are searched, not taken) on every
/// candidate; `train_tokens` sizes the run; `cost` prices owned hardware (power at full draw). Fitting candidates come
/// cheapest per token first.
plan_result make_train_plan(const model_desc& m, const training_params& p,
                            const std::vector<const device_spec*>& candidates,
                            std::uint64_t train_tokens = default_train_tokens, const plan_options& cost = {});

} // namespace llmplan

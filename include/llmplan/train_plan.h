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
/// Model FLOPs utilisation of training, as a share of the dense BF16 peak: "The Llama 3 Herd of
/// Models" (arXiv 2407.21783, Table 4) reports 38-43% BF16 MFU for Llama 3 405B on 8K-16K H100s;
/// FSDP/DeepSpeed fine-tuning of Llama-style models is commonly reported in the 35-50% band.
/// 0.40 is the middle of Meta's range.
inline constexpr double train_mfu_of_dense_peak = 0.40;
/// Measured matmul FLOP/s (MAMF, gpus.csv measured_bf16_matmul_tflops, [STAS]) as a share of the
/// dense peak: H100 SXM 794.5/989 = 0.80, A100 PCIe 252.9/312 = 0.81, A100 SXM 271.2/312 = 0.87.
/// 0.80 is the low end, used to turn a dense peak into an achievable matmul rate.
inline constexpr double mamf_share_of_dense_peak = 0.80;
/// Training throughput as a share of the MAMF: the MFU above re-based on the achievable matmul
/// rate (0.40 / 0.80 = 0.5; on an H100: 0.5 x 794.5 = 397 TFLOP/s = 40% of 989).
inline constexpr double train_share_of_mamf = train_mfu_of_dense_peak / mamf_share_of_dense_peak;

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

/// Plan training of `m` with options `p` (its gpus / zero_stage are searched, not taken) on every
/// candidate; `train_tokens` sizes the run; `cost` prices owned hardware (power at full draw). Fitting candidates come
/// cheapest per token first.
plan_result make_train_plan(const model_desc& m, const training_params& p,
                            const std::vector<const device_spec*>& candidates,
                            std::uint64_t train_tokens = default_train_tokens, const plan_options& cost = {});

} // namespace llmplan

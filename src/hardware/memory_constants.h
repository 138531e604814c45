// The fitted and measured constants behind hardware.h's memory rules (memory as the device exposes
// it, the macOS GPU wired limit): internal to the library; hardware.h declares the rules.
#pragma once

#include <cstdint>

namespace llmplan {

/// DRAM comes in binary sizes: a card sold as "24 GB" carries 24 GiB of chips (nvidia-smi reports
/// 24576 MiB on an RTX 3090, 15360 MiB = 16 GiB x 15/16 on a T4, 81920 MiB on an A100 80GB).
inline constexpr std::uint64_t vendor_gb_bytes = 1ull << 30;

/// Inline ECC on GDDR (T4, A10, A10G, A40, L4, L40, L40S: datacenter GDDR cards ship with ECC on)
/// stores the check bits in the same DRAM and hides 1/16 of it: T4 16 GiB -> 15360 MiB; L40S 48 GiB
/// -> 46080 MiB before the driver's own share (45776 MiB in SkyPilot's AWS catalog). HBM carries ECC
/// in extra dies and loses nothing.
inline constexpr double inline_ecc_share = 1.0 / 16.0;

/// What the CUDA driver keeps of the rest (page tables, firmware, context): fitted through two
/// measured totals: an RTX 3090 (24576 MiB in nvidia-smi) shows vLLM 23.58 GiB (vLLM issue #10517,
/// ../shared/truth/vllm_issue_logs.json), 430 MiB less; an A100-SXM4-80GB (81920 MiB) gives torch
/// total_memory 85,056,798,720 bytes, 803 MiB less. Reserve = 272 MiB + 0.65% of the memory; it
/// predicts 79.21 GiB for an 80 GB card (vLLM PR #10511 logs 79.22 GiB on one).
inline constexpr std::uint64_t cuda_reserve_fixed_bytes = 272ull << 20;
inline constexpr double cuda_reserve_share              = (803.0 - 430.0) / (81920.0 - 24576.0);

/// Where nvidia-smi's total is known (memory_driver_mib), CUDA sees at most that less the RTX 3090's gap
/// (24576 MiB in nvidia-smi, 23.58 GiB in vLLM: 430 MiB): a B200 sold as 192 GB shows 184320 MiB.
inline constexpr std::uint64_t smi_to_cuda_gap_bytes = 430ull << 20;

/// macOS wired-limit shares (apple_gpu_wired_limit_bytes in hardware.h gives the measurements).
inline constexpr double apple_wired_share_small            = 2.0 / 3.0;
inline constexpr double apple_wired_share_large            = 3.0 / 4.0;
inline constexpr std::uint64_t apple_wired_small_max_bytes = 36ull << 30;
/// RAM a raised limit leaves to macOS and the apps a person keeps open: about 4 GB is wired at idle
/// (omlx #1533: 4 of 64 GB on an idle M2 Max; the kernel's own cap there was 58 of 64 GB), and a
/// desktop session with a browser takes as much again.
inline constexpr std::uint64_t apple_os_reserve_bytes = 8ull << 30;

} // namespace llmplan

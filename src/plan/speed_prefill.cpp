// Prefill speed and what a chip offers an engine: FLOPs over the matmul rate an engine reaches, with
// attention at a fraction of it and a board held to its power; the chip's rates and memory class
// (src/plan/speed.h gives the model; decode is speed.cpp).
#include "detail/checked_number.h"
#include "detail/strings.h"
#include "estimate/engine_traits.h"
#include "llmplan/weights.h"
#include "plan/detail.h"
#include "plan/speed.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>

namespace llmplan {
namespace {

// --- prefill --------------------------------------------------------------------------------------
// Share of the chip's matmul rate (chip_rates::matmul_flops) the prompt's GEMMs reach.
//   llama.cpp CUDA (xiongjiedai_llama3.json, pp512, 26 cases): llama.cpp multiplies in FP16 with FP16
//     accumulation (cuBLAS CUBLAS_COMPUTE_16F, and its own MMQ kernels), so the rate is the FP16-acc
//     column (GeForce: twice the FP32-acc figure) held to the board's power (power_limited_tensor_share:
//     the L40S and RTX 6000 Ada reach 0.71 and 0.61 of it). Reached at pp512, one GPU, 19 Q4_K_M and
//     9 F16 cases (bench/prefill_power_fit.py): Q4_K_M 0.32-0.52 (median 0.38; one A40 70B row 0.20),
//     F16 0.41-0.62 (median 0.49; without the A100 SXM and L40S 8B F16 rows the source flags as far
//     below the same GPU at Q4_K_M): 0.38 for quantized weights (dequantized per tile), 0.49 for F16.
//   Hopper/Blackwell datacenter parts: llama.cpp and transformers' eager kernels use Ampere-style
//     mma.sync, not the wgmma instructions the dense peak assumes: H100 PCIe reaches 0.17 (Q4_K_M) and
//     0.23 (F16) of 756 TFLOPS, half the others' share: x0.5 (FlashAttention-3 paper, Shah et al. 2024:
//     FA2's mma.sync kernels reach 35% of H100's peak).
//   llama.cpp Metal (llamacpp_apple_silicon_4167.json pp512): the FP32 ALU rate (Apple GPUs have no
//     separate FP16 tensor rate); M2 Ultra 76-core 1402 tokens/s F16 = 19 TFLOPS of 27.2: 0.65.
//     Quantized weights reach a share of that (metal_dequant_table). The full-GPU chips alone reach
//     0.71-0.81 at F16 (M2 Ultra 76-core 0.71, M1 Max 32-core 0.79, M4 Pro 20-core 0.79), but the
//     catalog names each chip by its full GPU and the table's smaller bins (M2 Ultra 60-core, M1 Max
//     24-core ...) are asked on that row: 0.65 sits between them until the bins have rows of their own.
//   vLLM and transformers: BF16 GEMMs in cuBLAS/CUTLASS at FP32 accumulate, the fp16_bf16 column;
//     0.5 of it (a 7B at 8k-128k prompts on A100, qwen25_speed_tables.json, with the decode above).
//   CPU: 0.5 of the cores' FP32 FMA peak (detail::cpu_peak_flops), as before (no CPU prefill in the dev data).
constexpr double prefill_share_llamacpp_quantized = 0.38;
constexpr double prefill_share_llamacpp_f16       = 0.49;
constexpr double prefill_share_metal              = 0.65;
constexpr double prefill_share_dense_engines      = 0.5;
constexpr double prefill_share_cpu                = 0.5;
constexpr double prefill_share_no_wgmma           = 0.5;
/// Attention over the prompt runs at a fraction of the GEMM share. With flash attention (-fa, vLLM,
/// transformers' flash-attn) the kernels are fused: 1/1.5, an assumption (no dev data with -fa).
/// Metal: M2 Ultra 8B drops 8% from pp512 to pp8192, M3 Max 27%: 1/2.
/// llama.cpp on a GPU without flash attention: the QK^T and PV products run at the GEMM share, and the
/// F32 score matrix they pass between them is streamed through memory by separate kernels (KQ written;
/// scale, mask and soft-max each read and write it; KQV reads it: 7 passes of 4 bytes = 28 bytes a
/// pair of query and cached token, per head and layer), at the GPU's bandwidth. Fitted with
/// bench/prefill_attention_fit.py on the step from pp512 to pp8192 in xiongjiedai_llama3.json
/// (Llama-3 8B F16 and Q4_K_M, one GPU): 28.0 bytes (median of 18 GPU x weight rows; 23-32 on A100,
/// H100 PCIe, A40, A6000, L40S, RTX 3080-4090, RTX 6000 Ada, 0.7 to 2 TB/s), where a FLOP-only
/// slowdown fitted on the RTX 4090 (4.5) read A40 pp8192 66% fast.
constexpr double prefill_attention_slowdown_unfused = 1.0;
constexpr double llamacpp_unfused_score_bytes       = 28.0;
constexpr double prefill_attention_slowdown_fused   = 1.5;
constexpr double prefill_attention_slowdown_metal   = 2.0;

/// llama.cpp's Metal prompt GEMM (kernel_mul_mm, ggml/src/ggml-metal/ggml-metal.metal; the same
/// template since llama.cpp's first Metal matrix-matrix kernel, 2023) loads each 64 x 32 tile of the
/// weights through its type's dequantize_func into threadgroup memory, then multiplies it with
/// simdgroup_multiply_accumulate. For F16 weights that function is a plain load; for quantized ones it
/// unpacks blocks and applies their scales with ordinary ALU instructions, which on Apple's GPUs share
/// the issue slots of the multiply-accumulate. From the M3 (Apple GPU family 9: Apple tech talk "Explore
/// GPU advancements in M3 and A17 Pro", 2023-11, FP32, FP16 and integer instructions issued in
/// parallel) the unpacking overlaps the matrix work, and the loss shrinks. The share of the F16 rate
/// reached, read as the ratio of a chip's quantized to its F16 pp512 in the same run (the GPU-core bin,
/// clock and build cancel), on ../shared/speed_truth/llamacpp_apple_silicon_4167.json (Llama-2-7B, 22
/// chips with an F16 row):
///   M1 and M2 (families 7 and 8), 13 chips: Q4_0 0.88-0.94, Q8_0 0.89-0.92, median 0.89.
///   M3 and M4 (family 9), 9 chips: Q4_0 0.95-0.98, Q8_0 0.96-0.98, median 0.965.
/// The K-quants (several scales a 256-weight super-block) unpack more: xiongjiedai_llama3.json (Llama-3
/// 8B and 70B, Q4_K_M against F16, pp512) reads M1 Max 0.79, M2 Ultra 0.85 (8B) and 0.80 (70B), M3 Max
/// 0.90. They take the same row: on those machines the F16 rate itself is planned 8-26% slow
/// (prefill_share_metal is held at the share every GPU-core bin of a chip reaches, see above), and a
/// separate K-quant share of 0.80 / 0.90 moved their answers from -1..+9% to -13..-26% (dev median
/// 9.6% -> 9.9%) for one more row within 25%. A chip of unknown generation takes the M1/M2 share
/// (the lower rate).
struct metal_dequant_row {
    unsigned first_generation; // this row holds from this Apple M generation on
    double share;              // of the F16 rate, for quantized weights
};
constexpr std::array<metal_dequant_row, 2> metal_dequant_table{
    {{0, 0.89}, {3, 0.965}}
};

/// llama.cpp's quantized prompt GEMMs on CUDA are also held by the SM's instruction issue, not only
/// by the tensor peak: every tile is unpacked (4- to 8-bit blocks to int8 or FP16) and staged through
/// shared memory by ordinary instructions before the tensor cores see it (the int8 MMQ kernels, the
/// default for quantized weights since ggml-org/llama.cpp PR 8075, 2024-06-23; before it a dequantize
/// kernel ahead of FP16 cuBLAS). That work scales with SMs x clock, which the datacenter parts do not
/// double where they double the tensor rate per SM (A100: 108 SMs at 1.41 GHz, 312 TFLOPS; RTX 4090:
/// 128 SMs at 2.52 GHz, 330 TFLOPS FP16-accumulate), so on them the quantized rate stops well below
/// prefill_share_llamacpp_quantized of the peak. The cap: llamacpp_quantized_flops_per_sm_cycle x SMs x
/// clock, SMs x clock read from the FP32 peak over the FP32 lanes of one SM (fp32_lanes_per_sm).
/// Fitted (least squares on log error over the pp512 rows of the quantized single-GPU CUDA cases) on
/// llamacpp_cuda_scoreboard_15013.json (2025 builds, Llama-2-7B Q4_0: A100 SXM 429-468, H100
/// SXM 511-580, RTX 3060/3090/4090/5070 Ti/5080/5090/A6000 438-654 FLOPs an SM-cycle) and
/// xiongjiedai_llama3.json (May 2024 builds, Llama-3 8B/70B Q4_K_M: A100 PCIe/SXM 627-758, H100 PCIe
/// 655-718; the GeForce and Ada workstation cards far below their cap, held by the tensor share or
/// their power): 600. It binds on A100, H100 and B200 (a cap of 92, 120-157 and ~190 TFLOPS) and on no
/// GeForce or RTX workstation card (RTX 4090 194 against the 125 its share gives); F16 weights (cuBLAS,
/// no unpacking) are not capped.
constexpr double llamacpp_quantized_flops_per_sm_cycle = 600.0;

/// FP32 lanes of one SM, by CUDA compute capability (CUDA C++ Programming Guide, "Throughput of Native
/// Arithmetic Instructions", 32-bit floating-point add, multiply, multiply-add results per clock cycle
/// per multiprocessor: 6.0 64, 6.1-6.2 128, 7.x 64, 8.0 64, 8.6 and later 128). 0 = unknown.
double fp32_lanes_per_sm(double cc) {
    if (cc < 6.0) return 0;
    if (cc < 6.05) return 64; // 6.0 (P100)
    if (cc < 7.0) return 128; // 6.1, 6.2
    if (cc < 8.05) return 64; // 7.x (V100, T4), 8.0 (A100)
    return 128;               // 8.6, 8.7, 8.9, 9.0, 10.x, 12.x
}

/// Under a prompt's back-to-back GEMMs a board runs at its power limit, and GPU Boost lowers the
/// clock (and, down to its floor, the voltage) until the board draws no more than its TDP; the
/// vendor's tensor peak assumes the rated boost clock. Near the voltage floor a clock costs power in
/// proportion (P = C V^2 f), so the clock reached, and the tensor rate, is the rated one times
/// TDP / (the watts the rated peak takes) when that is below 1. The watts the rated peak takes: watts
/// per dense FP16 tensor TFLOPS (the full tensor rate, fp16_fp16acc, which the FP32-accumulate figure
/// of a GeForce card halves) of an architecture's SMs, by CUDA compute capability.
///   Ada (8.9, TSMC 4N): 1.36 W/TFLOPS, fitted (bench/prefill_power_fit.py, the model's own prefill
///     on the single-GPU CUDA pp512-pp8192 cases of xiongjiedai_llama3.json). The same AD102 SM reaches
///     at pp512, as a share of its rated peak: RTX 4080 (320 W / 195 TFLOPS = 1.64 W/TFLOPS) F16 0.60,
///     RTX 4090 (450 W / 330.3 = 1.36) 0.46, RTX 6000 Ada (300 W / 364 = 0.82) 0.29; Q4_K_M 0.44,
///     0.35, 0.26 and L40S (350 W / 362 = 0.97) 0.27. Against the 4090 the 6000 Ada reaches 0.645
///     (F16) and 0.74 (Q4_K_M) for 0.61 of its watts per TFLOPS, the L40S 0.77 for 0.71.
///   Other architectures: not pinned by the dev data, no limit (blank). GA102 (8.6): the RTX A6000
///     and A40 (300 W / 155 and 150 TFLOPS) reach 0.86-0.93 of the RTX 3090's (350 W / 142) share per
///     peak; a GA102 row at 2.2 W/TFLOPS would fit no better (99 vs 100 of the 114 cases).
///     A100 (8.0): the 300 W PCIe card matches the 400 W SXM in llama.cpp prefill (5981 vs 5948
///     tokens/s, 8B Q4_K_M pp512); Hopper: one card in the data.
/// Left as it is: the RTX 4080, above its need, still reaches 1.3x the 4090's F16 share per peak. The
/// fit spans 0.82-1.64 W/TFLOPS; the L4 (72 W / 121 TFLOPS = 0.60) gets 0.44 by extrapolation. chip_of
/// holds every CUDA engine's matmul rate to it: vLLM's and transformers' fuller GEMMs draw more power
/// than llama.cpp's at a 0.4-0.5 share, so for them it is, if anything, too mild.
struct tensor_power_row {
    double compute_capability;
    double watts_per_tflops;
};
constexpr std::array<tensor_power_row, 1> tensor_power_table{{{8.9, 1.36}}};

bool contains(std::string_view text, std::string_view word) {
    std::string t(text);
    for (auto& c : t)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return t.find(word) != std::string::npos;
}

bool lacks_wgmma_kernels(engine_kind e, const chip_rates& chip) {
    if (detail::traits_of(e).hopper_kernels) return false; // FlashAttention-3 / CUTLASS 3 kernels on Hopper
    // Only the datacenter parts' rated peak needs wgmma / tcgen05 (compute capability 9.0 Hopper,
    // 10.x Blackwell B200/GB200). GeForce and RTX PRO Blackwell (12.x) have neither: their rated
    // tensor peak is the mma.sync rate llama.cpp's kernels use (triton-lang/triton PR 6680, 2025-05-02:
    // "RTX 5000 series cards are sm120, but use updated versions of mma.sync instead of tcgen05";
    // thu-ml/SageAttention issue 291, 2025-10-30: ptxas "Instruction 'wgmma.fence' not supported on
    // .target 'sm_120'"). llamacpp_cuda_scoreboard_15013.json: RTX 5090
    // pp512 of Llama-2-7B Q4_0 14,073 tokens/s, above the 4090's 11,993, where halving its peak
    // predicted 5,820.
    if (chip.compute_capability > 0) return chip.compute_capability >= 9.0 && chip.compute_capability < 12.0;
    return contains(chip.architecture, "HOPPER") || contains(chip.architecture, "BLACKWELL");
}

} // namespace

memory_class memory_class_of(const device_spec& d, device_kind where) {
    if (where == device_kind::cpu) return memory_class::dram;
    if (d.kind == hardware_kind::apple || contains(d.gpu_link, "APPLE") || contains(d.gpu_model, "APPLE") ||
        contains(d.name, "APPLE") || contains(d.name, "MAC"))
        return memory_class::apple;
    if (contains(d.memory_type, "HBM")) return memory_class::hbm;
    if (contains(d.memory_type, "GDDR")) return memory_class::gddr;
    if (contains(d.memory_type, "LPDDR") || d.unified_memory) return memory_class::lpddr;
    const bool datacenter =
        d.form.rfind("datacenter", 0) == 0 || d.form.rfind("cloud", 0) == 0 || d.kind == hardware_kind::cloud;
    if (datacenter && d.memory_bandwidth_bytes_per_s && *d.memory_bandwidth_bytes_per_s > 1'200'000'000'000ull)
        return memory_class::hbm;
    return memory_class::gddr;
}

unsigned apple_generation_of(const device_spec& d) {
    // The first "M<digits>" word after the word APPLE or MAC in a name ("Apple M2 Ultra", "MacBook Pro
    // 14\" M4, 16GB", "Mac Studio M4 Max (14-core), 36GB").
    for (const std::string_view name :
         {std::string_view(d.gpu_model), std::string_view(d.gpu_link), std::string_view(d.name)}) {
        const std::string t = detail::lower(name);
        const auto at       = std::min(t.find("apple"), t.find("mac"));
        if (at == std::string::npos) continue;
        for (std::size_t i = at; i + 1 < t.size(); ++i) {
            const bool word_start = i == 0 || t[i - 1] == ' ';
            if (t[i] != 'm' || !word_start || !std::isdigit(static_cast<unsigned char>(t[i + 1]))) continue;
            unsigned g = 0;
            for (std::size_t j = i + 1; j < t.size() && std::isdigit(static_cast<unsigned char>(t[j])); ++j)
                g = g * 10 + static_cast<unsigned>(t[j] - '0');
            return g;
        }
    }
    return 0;
}

double metal_quantized_gemm_share(unsigned apple_generation) {
    double share = 1.0;
    for (const auto& r : metal_dequant_table)
        if (apple_generation >= r.first_generation) share = r.share;
    return share;
}

double power_limited_tensor_share(const device_spec& d) {
    if (!d.compute_capability || !d.accelerator_tdp_w) return 1.0;
    const auto peak = d.fp16_fp16acc_flops ? d.fp16_fp16acc_flops : d.fp16_flops;
    if (!peak || *peak <= 0) return 1.0;
    for (const auto& r : tensor_power_table) {
        if (std::abs(*d.compute_capability - r.compute_capability) > 1e-6) continue;
        const double needed_w = r.watts_per_tflops * *peak / 1e12;
        return std::min(1.0, *d.accelerator_tdp_w / needed_w);
    }
    return 1.0;
}

double prefill_tokens_per_s(const model_desc& m, const inference_params& p, const chip_rates& chip,
                            unsigned parallel_devices, std::uint64_t prompt, std::uint64_t cached) {
    if (chip.matmul_flops <= 0) return 0;
    const auto active = static_cast<double>(count_params(m).active);
    if (active <= 0) return 0;
    const weight_format f = resolve_weight_choice(m, p.weights).format;
    // 16- or 32-bit matrices: the checkpoint's own, or a GGUF that is not quantized.
    const bool f16 =
        f == weight_format::native ? !m.from_gguf || m.quant.method == quant_method::none : !is_quantized(f);
    double share              = prefill_share_dense_engines;
    double slowdown           = prefill_attention_slowdown_fused;
    bool unfused              = false; // llama.cpp's score matrix through memory (llamacpp_unfused_score_bytes)
    bool quantized_ggml_cuda  = false; // llama.cpp's quantized GEMMs on CUDA (llamacpp_quantized_flops_per_sm_cycle)
    double gemm_share_of_rate = 1.0;   // llama.cpp's quantized GEMMs on Metal (metal_dequant_table)
    if (p.device == device_kind::cpu) {
        share = prefill_share_cpu;
    } else if (p.device == device_kind::metal) {
        share    = prefill_share_metal;
        slowdown = prefill_attention_slowdown_metal;
        // llama.cpp's Metal GEMM unpacks quantized tiles (metal_dequant_table); attention (F16 K/V) does not.
        // Apple's GPUs only: a unified-memory iGPU of another vendor placed like a Mac runs Vulkan or HIP.
        if (detail::traits_of(p.engine).ggml_kernels && !f16 && chip.memory == memory_class::apple)
            gemm_share_of_rate = metal_quantized_gemm_share(chip.apple_generation);
    } else if (detail::traits_of(p.engine).ggml_kernels) { // the prefill_share_llamacpp_* fits
        share               = f16 ? prefill_share_llamacpp_f16 : prefill_share_llamacpp_quantized;
        quantized_ggml_cuda = !f16 && p.device == device_kind::cuda;
        slowdown            = p.flash_attn ? prefill_attention_slowdown_fused : prefill_attention_slowdown_unfused;
        unfused             = !p.flash_attn;
    }
    if (p.device == device_kind::cuda && lacks_wgmma_kernels(p.engine, chip)) share *= prefill_share_no_wgmma;
    // Attention: each token attends to the tokens before it (those cached before the prompt and
    // prompt / 2 on average; a sliding-window layer to at most its window): QK^T and PV, 2 FLOPs each
    // per head dimension.
    double attention = 0, pairs = 0; // FLOPs, and (query, cached token, head) pairs over the layers
    const std::uint64_t mean = cached + prompt / 2;
    for (const auto& l : m.layers) {
        if (!l.has_kv() || l.attn_linear) continue;
        const std::uint64_t seen = l.n_swa ? std::min<std::uint64_t>(mean, l.n_swa) : mean;
        attention += 2.0 * static_cast<double>(l.n_head) * static_cast<double>(l.head_dim_k + l.head_dim_v) *
                     static_cast<double>(seen);
        pairs += static_cast<double>(l.n_head) * static_cast<double>(seen);
    }
    const double devices = std::max(1u, parallel_devices);
    const double rate    = share * chip.matmul_flops * devices;
    // llama.cpp's quantized GEMMs on CUDA, held by the SMs' unpacking work
    // (llamacpp_quantized_flops_per_sm_cycle); attention (FP16 K/V, flash or cuBLAS) is not.
    double gemm_rate   = rate * gemm_share_of_rate;
    const double lanes = fp32_lanes_per_sm(chip.compute_capability);
    if (quantized_ggml_cuda && lanes > 0 && chip.fp32_flops > 0)
        gemm_rate = std::min(rate, llamacpp_quantized_flops_per_sm_cycle * chip.fp32_flops / (2.0 * lanes) * devices);
    double seconds = 2.0 * active / gemm_rate + attention * slowdown / rate;
    if (unfused && chip.bandwidth_bytes_per_s > 0)
        seconds += pairs * llamacpp_unfused_score_bytes / (chip.bandwidth_bytes_per_s * devices);
    // transformers' eager forward over a prompt dispatches every layer's modules from Python as a
    // decode step does (transformers_layer_seconds, fitted on decode): a short prompt's forward cannot
    // take less than that host time. transformers_optimum_quant_speed.json (optimum-benchmark,
    // transformers on A100 80GB, 64-token prompts, batch 1): Llama-3.1-8B BF16 prefills 2407 tokens/s,
    // 26.6 ms a forward, where its FLOPs take 6.6 ms and 32 layers x 0.863 ms of host time are 27.6 ms.
    if (detail::traits_of(p.engine).python_per_layer && p.device == device_kind::cuda && prompt > 0) {
        const double per_layer =
            transformers_layer_seconds +
            (is_quantized(f) && f != weight_format::gptq_int4 ? transformers_quant_layer_seconds : 0.0);
        const double host = static_cast<double>(m.n_layer) * per_layer + transformers_moe_host_seconds(m);
        seconds           = std::max(seconds, host / static_cast<double>(prompt));
    }
    return seconds > 0 ? 1.0 / seconds : 0;
}

double llamacpp_pipeline_speedup(std::uint64_t prompt, std::uint64_t n_ubatch, unsigned gpus) {
    if (gpus < 2 || prompt == 0 || n_ubatch == 0) return 1.0;
    const double ubatches  = static_cast<double>((prompt + n_ubatch - 1) / n_ubatch);
    const double in_flight = static_cast<double>(std::min(gpus, llamacpp_sched_max_copies));
    // In units of one micro-batch's time through the whole model on one GPU.
    const double pipelined = 1.0 + (ubatches - 1.0) / (in_flight * llamacpp_pipeline_overlap);
    return std::max(1.0, ubatches / pipelined);
}

chip_rates chip_of(const device_spec& d, engine_kind e, device_kind where) {
    chip_rates c;
    c.memory             = memory_class_of(d, where);
    c.efficiency         = decode_bandwidth_efficiency(e, c.memory);
    c.architecture       = d.architecture;
    c.compute_capability = d.compute_capability.value_or(0);
    if (where == device_kind::cpu) {
        const auto bw =
            d.host_memory_bandwidth_bytes_per_s ? d.host_memory_bandwidth_bytes_per_s : d.memory_bandwidth_bytes_per_s;
        c.bandwidth_bytes_per_s = bw ? static_cast<double>(*bw) : 0.0;
        c.fp32_flops            = detail::cpu_peak_flops(d);
        c.matmul_flops          = c.fp32_flops;
        return c;
    }
    c.bandwidth_bytes_per_s = d.memory_bandwidth_bytes_per_s ? static_cast<double>(*d.memory_bandwidth_bytes_per_s) : 0;
    c.fp32_flops            = d.fp32_flops.value_or(0);
    if (where == device_kind::metal) { // no separate FP16 matrix rate on Apple GPUs
        c.matmul_flops     = d.fp32_flops ? *d.fp32_flops : d.fp16_flops.value_or(0);
        c.apple_generation = apple_generation_of(d);
    } else if (detail::traits_of(e).ggml_kernels) // FP16 accumulate (see prefill_share_llamacpp_*)
        c.matmul_flops = d.fp16_fp16acc_flops ? *d.fp16_fp16acc_flops
                         : d.fp16_flops       ? *d.fp16_flops
                                              : d.fp32_flops.value_or(0);
    else
        c.matmul_flops = d.fp16_flops ? *d.fp16_flops : d.fp32_flops.value_or(0);
    if (where == device_kind::cuda) c.matmul_flops *= power_limited_tensor_share(d);
    return c;
}

double offload_prefill_tokens_per_s(double gpu_prefill_tokens_per_s, const inference_estimate& e,
                                    const inference_params& p, std::uint64_t prompt) {
    constexpr std::uint64_t offload_min_batch = 32; // ggml-cuda's op-offload threshold (engine_llamacpp.cpp)
    const std::uint64_t ubatch                = std::min(p.n_ubatch, std::max<std::uint64_t>(1, prompt));
    if (gpu_prefill_tokens_per_s <= 0 || ubatch < offload_min_batch) return gpu_prefill_tokens_per_s;
    double host = 0;
    for (const auto& dev : e.devices)
        if (dev.kind == device_kind::cpu)
            host +=
                std::max(0.0, static_cast<double>(dev.parts.weights) - static_cast<double>(e.weights.token_embd_bytes));
    const double copy_s_per_token = host / pcie_copy_bytes_per_s / static_cast<double>(ubatch);
    return 1.0 / (1.0 / gpu_prefill_tokens_per_s + copy_s_per_token);
}

} // namespace llmplan

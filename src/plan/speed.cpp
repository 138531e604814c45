// Decode speed: bytes over the bandwidth an engine reaches plus a fixed step overhead for llama.cpp
// and vLLM, a host-or-GPU-bound step for Hugging Face transformers (src/plan/speed.h gives the model;
// prefill and the chip's rates are speed_prefill.cpp).
#include "plan/speed.h"

#include "detail/checked_number.h"
#include "estimate/engine_traits.h"
#include "llmplan/weights.h"
#include "plan/detail.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>

namespace llmplan {
namespace {

// --- decode: share of peak bandwidth, by engine and memory ------------------------------------------
// Fitted (bench/speed_mech_fit.py, least squares on log tokens/s) together with the per-layer
// overheads below on the batch-1 decode (tg) cases of ../shared/speed_truth:
//   llama.cpp CUDA: xiongjiedai_llama3.json, Llama-3 8B/70B F16 and Q4_K_M, one GPU, 166 cases on
//     A100 PCIe/SXM, H100 PCIe (HBM) and RTX 3080/3090/4080/4090, A40, A6000, RTX 6000 Ada, L40S (GDDR):
//     HBM 0.565, GDDR 0.913, median error 6.7%. llama.cpp's matrix-vector kernels (one block a row)
//     do not keep enough loads in flight to saturate an HBM part's 2-3 TB/s; GDDR parts they nearly do.
//   llama.cpp Metal: llamacpp_apple_silicon_4167.json + the Macs of xiongjiedai_llama3.json, 79 cases
//     on M1-M4 (base to Ultra): 0.945 of Apple's stated bandwidth, median error 5.5%.
//   vLLM: qwen25_speed_tables.json / qwen2_speed_tables.json, BF16 Qwen 0.5B-14B on A100 80GB at input
//     1: 7B 84 and 14B 46 tokens/s fix the slope (bytes) and the intercept (per_step_s below): 0.80.
//     vLLM on GDDR: not measured here; taken as llama.cpp's GDDR share (both stream whole rows).
//   transformers: decode_efficiency_gpu (0.6), the value bench/speed_fit.py fitted its other constants with.
//   CPU (DDR): decode_efficiency_cpu (0.5): llama.cpp CPU decode is partly bound by dequantization,
//     ../shared/hardware/README.md puts sustained DRAM reads at 70-90% of peak before that.
//   llama.cpp on unified LPDDR iGPUs (lpddr): llmtracker_strix_halo.json, Llama-2-7B Q4_0 tg128 on the
//     Radeon 8060S (Ryzen AI Max+ 395, 256 GB/s LPDDR5X-8000): 52.22 (Vulkan), 52.73 (Vulkan + FA) and
//     50.88 tokens/s (HIP + FA) leave, after the 32 x 0.088 ms step overhead below, 3.82 GB of weights
//     in 16.3-16.9 ms: 0.89-0.92 of the bandwidth; 0.91, the GDDR share again (the same
//     matrix-vector kernels; the iGPU is not starved by sharing the memory with the CPU). vLLM on
//     such an iGPU: not measured; taken as llama.cpp's, as for GDDR.
struct efficiency_row {
    engine_kind engine;
    memory_class memory;
    double share;
};
// SGLang: vLLM's shares (no SGLang decode rows in shared/speed_truth; bench/score_speed.py scores
//   published SGLang rows as vLLM: "both continuous-batching servers with CUDA graphs").
// mlx-lm: llama.cpp's Apple share (no mlx-lm rows in shared/speed_truth to fit; score_speed.py's
//   MLX_AS_LLAMACPP: both stream the quantized weights once a token through Metal kernels at batch 1).
constexpr std::array<efficiency_row, 18> decode_efficiency_table{
    {
     {engine_kind::llama_cpp, memory_class::hbm, 0.565},
     {engine_kind::llama_cpp, memory_class::gddr, 0.913},
     {engine_kind::llama_cpp, memory_class::apple, 0.945},
     {engine_kind::llama_cpp, memory_class::lpddr, 0.91},
     {engine_kind::llama_cpp, memory_class::dram, decode_efficiency_cpu},
     {engine_kind::vllm, memory_class::hbm, 0.80},
     {engine_kind::vllm, memory_class::gddr, 0.913},
     {engine_kind::vllm, memory_class::apple, 0.945},
     {engine_kind::vllm, memory_class::lpddr, 0.91},
     {engine_kind::vllm, memory_class::dram, decode_efficiency_cpu},
     {engine_kind::transformers, memory_class::hbm, decode_efficiency_gpu},
     {engine_kind::transformers, memory_class::gddr, decode_efficiency_gpu},
     {engine_kind::transformers, memory_class::apple, decode_efficiency_gpu},
     {engine_kind::transformers, memory_class::lpddr, decode_efficiency_gpu},
     {engine_kind::transformers, memory_class::dram, decode_efficiency_cpu},
     {engine_kind::sglang, memory_class::hbm, 0.80},
     {engine_kind::sglang, memory_class::gddr, 0.913},
     {engine_kind::mlx, memory_class::apple, 0.945},
     }
};

// --- decode: fixed overhead of a step -----------------------------------------------------------------
// llama.cpp runs a graph of ~15 kernels a layer; each launch and the syncs between them cost time the
// bytes do not explain. Fitted with the shares above: CUDA 0.088 ms a layer (8B: 2.8 ms of a 7.6 ms
// step on an RTX 4090), Metal 0.233 ms a layer (7B: 7.5 ms of M2 Ultra's 10.6 ms at Q4_0; the same
// 0.2-0.25 ms holds from the M1 to the M4 Max). CPU: the thread barriers between ops, far below a
// CPU's weight-read time; 0.
// vLLM (CUDA graphs: no per-layer launches) pays its Python scheduler, sampler and detokenizer once
// a step: the intercept of the A100 BF16 rows above, 3.0 ms (0.5B 311 tokens/s = 3.2 ms a step for
// 1 GB of weights). transformers: its own host model (transformers_layer_seconds).
struct overhead_row {
    engine_kind engine;
    device_kind device;
    step_overhead overhead;
};
// SGLang: vLLM's step overhead (its scheduler, sampler and detokenizer are Python too; not measured).
constexpr std::array<overhead_row, 7> decode_overhead_table{
    {
     {engine_kind::llama_cpp, device_kind::cuda, {0.088e-3, 0}},
     {engine_kind::llama_cpp, device_kind::metal, {0.233e-3, 0}},
     {engine_kind::llama_cpp, device_kind::cpu, {0, 0}},
     {engine_kind::vllm, device_kind::cuda, {0, 3.0e-3}},
     {engine_kind::vllm, device_kind::metal, {0, 3.0e-3}},
     {engine_kind::vllm, device_kind::cpu, {0, 3.0e-3}},
     {engine_kind::sglang, device_kind::cuda, {0, 3.0e-3}},
     }
};

/// llama.cpp decode attention without flash attention: K.q and V.softmax are ggml_mul_mat calls that
/// broadcast each KV head over its group of query heads, so every cached K and V row is streamed once
/// per query head (n_head / n_head_kv times a KV head's bytes). What those extra reads cost, as a
/// multiple of the per-query-head bytes at the weights' bandwidth share, fitted on the growth of
/// the step from tg512 to tg8192 (average context 256 -> 4096) in xiongjiedai_llama3.json (Llama-3 8B
/// GQA 4 and 70B GQA 8, F16 and Q4_K_M, one GPU): CUDA 0.64 (median of 27; 0.6-0.7 on A100, H100,
/// A40, A6000, L40S, RTX 4090 for both model sizes: part of the repeated rows come from L2), Metal 1.8
/// (median of 11, M1 Max to M2 Ultra: the softmax and scale passes over the scores add to it). Against
/// the KV head's bytes the same growth is 2.3-3.0x for the 8B and 4.2-5.7x for the 70B: it follows
/// the group size, not a constant. With flash attention (-fa) each KV row is read once.
constexpr double llamacpp_unfused_attention_cuda  = 0.64;
constexpr double llamacpp_unfused_attention_metal = 1.8;

/// vLLM's GPTQ/AWQ/int4/int8 matrix-vector kernels at batch 1 unpack, scale and multiply each weight:
/// about 10 vector FLOPs a weight. A100 (19.5 TFLOPS FP32): 2.0e12 weights/s, what the Qwen2.5 7B-32B
/// AWQ and GPTQ-Int4 rows at input 1 leave after the 3 ms step (14B AWQ: 92.7 tokens/s, 14.7e9 weights
/// in 7.8 ms), where their bytes alone would take 4.5 ms.
constexpr double quantized_matvec_flops_per_weight = 10.0;
/// ...and none of them finishes faster than a fixed floor: at batch 1 a small matrix splits into too
/// few tiles to keep every SM's load pipeline busy (Marlin, vLLM's GPTQ/AWQ kernel on Ampere and
/// later, stripes 128 x 128 tiles over the SMs: Qwen2.5-0.5B's 896 x 896 attention output is 49 tiles
/// for 108 SMs). vLLM runs four such GEMMs a layer (q/k/v merged, output, gate/up merged, down).
/// Fitted on qwen25_speed_tables.json (vLLM 0.6.3, A100, input 1): GPTQ-Int4/AWQ 0.5B, 1.5B and 3B
/// take 3.8, 4.6 and 5.9 ms a step where bytes and unpacking alone give 3.3, 3.7 and 4.5 ms (the
/// 3 ms step overhead included); a 10 us floor per GEMM brings them to 4.1, 4.5 and 5.4 ms. From 7B
/// up every GEMM is above the floor (7B-32B Int4/AWQ at input 1: -11% to -1%).
constexpr double quantized_gemm_floor_s = 10e-6;

/// Share of the weights one token reads: 1, or for MoE the routed experts scaled to n_expert_used.
double moe_read_share(const model_desc& m) {
    if (!m.is_moe() || m.moe.n_expert_used == 0) return 1.0;
    std::uint64_t expert = 0, all = 0;
    for (const auto& t : m.tensors) {
        all += t.bytes;
        if (is_expert(t.role)) expert += t.bytes;
    }
    if (all == 0) return 1.0;
    const double f    = static_cast<double>(expert) / static_cast<double>(all);
    const double used = static_cast<double>(m.moe.n_expert_used) / static_cast<double>(m.moe.n_expert);
    return 1.0 - f + f * used;
}

/// Elements of the quantized matrices one token multiplies (MoE: routed experts scaled as above).
double quantized_elements_per_step(const model_desc& m) {
    double all = 0, expert = 0;
    for (const auto& t : m.tensors) {
        if (!is_quantizable_matrix(t)) continue;
        const auto n = static_cast<double>(t.n_elements());
        all += n;
        if (is_expert(t.role)) expert += n;
    }
    if (m.is_moe() && m.moe.n_expert > 0 && m.moe.n_expert_used > 0)
        all -= expert * (1.0 - static_cast<double>(m.moe.n_expert_used) / static_cast<double>(m.moe.n_expert));
    return all;
}

/// Which of vLLM's merged GEMMs a matrix belongs to (q/k/v -> 0, attention output -> 1, gate/up -> 2,
/// down -> 3); every other matrix is its own GEMM (-1).
int merged_gemm(tensor_role r) {
    switch (r) {
    case tensor_role::attn_q:
    case tensor_role::attn_k:
    case tensor_role::attn_v:
    case tensor_role::attn_qkv:
        return 0;
    case tensor_role::attn_output:
        return 1;
    case tensor_role::ffn_gate:
    case tensor_role::ffn_up:
        return 2;
    case tensor_role::ffn_down:
        return 3;
    default:
        return -1;
    }
}

/// Seconds of the quantized matrix-vector kernels of one decode step: each GEMM's unpacking work at
/// `weights_per_s` (quantized_matvec_flops_per_weight a weight), but at least quantized_gemm_floor_s.
/// Routed experts: scaled to n_expert_used and never floored (one fused kernel per layer).
double quantized_gemm_seconds(const model_desc& m, double weights_per_s) {
    const double used = m.is_moe() && m.moe.n_expert > 0 && m.moe.n_expert_used > 0
                            ? static_cast<double>(m.moe.n_expert_used) / static_cast<double>(m.moe.n_expert)
                            : 1.0;
    std::vector<double> merged(4 * std::max<std::size_t>(1, m.layers.size()), 0.0);
    double seconds = 0;
    for (const auto& t : m.tensors) {
        if (!is_quantizable_matrix(t)) continue;
        const double work = static_cast<double>(t.n_elements()) / weights_per_s;
        const int g       = merged_gemm(t.role);
        if (is_expert(t.role))
            seconds += work * used;
        else if (g >= 0 && t.layer >= 0 && static_cast<std::size_t>(t.layer) < m.layers.size())
            merged[static_cast<std::size_t>(t.layer) * 4 + static_cast<std::size_t>(g)] += work;
        else
            seconds += std::max(quantized_gemm_floor_s, work);
    }
    for (const double w : merged)
        if (w > 0) seconds += std::max(quantized_gemm_floor_s, w);
    return seconds;
}

/// Bytes decode attention reads with one K and V row per query head (not per KV head) for each cached
/// token; sliding-window layers read at most their window.
double attention_bytes_per_query_head(const model_desc& m, dtype kv, std::uint64_t context) {
    double bytes = 0;
    for (const auto& l : m.layers) {
        if (!l.has_kv() || l.attn_linear) continue;
        const std::uint64_t tokens = l.n_swa ? std::min<std::uint64_t>(context, l.n_swa) : context;
        const std::uint64_t row    = static_cast<std::uint64_t>(l.n_head) * (l.head_dim_k + l.head_dim_v);
        bytes += static_cast<double>(tensor_bytes_ceil(kv, row)) * static_cast<double>(tokens);
    }
    return bytes;
}

} // namespace

double transformers_moe_host_seconds(const model_desc& m) {
    if (!m.is_moe()) return 0;
    std::uint64_t moe_layers = 0;
    for (const auto& l : m.layers)
        moe_layers += l.is_moe ? 1 : 0;
    if (moe_layers == 0) moe_layers = m.n_layer; // layer list without the flag: every layer routed
    return static_cast<double>(moe_layers) * static_cast<double>(m.moe.n_expert) * transformers_moe_expert_seconds;
}

std::uint64_t decode_weight_bytes_per_step(const model_desc& m, const inference_estimate& e) {
    return detail::saturate<std::uint64_t>(static_cast<double>(e.weights.bytes) * moe_read_share(m),
                                           detail::rounding::toward_zero);
}

std::uint64_t decode_bytes_per_step(const model_desc& m, const inference_estimate& e, const inference_params& p) {
    const double kv =
        static_cast<double>(e.kv_bytes_per_token) * static_cast<double>(p.ctx) * static_cast<double>(p.batch);
    return decode_weight_bytes_per_step(m, e) + detail::saturate<std::uint64_t>(kv, detail::rounding::toward_zero);
}

decode_step_time decode_step(const model_desc& m, const inference_estimate& e, const inference_params& p,
                             double bandwidth_bytes_per_s, double efficiency, unsigned parallel_devices,
                             std::uint64_t context) {
    chip_rates chip;
    chip.bandwidth_bytes_per_s = bandwidth_bytes_per_s;
    chip.efficiency            = efficiency;
    return decode_step(m, e, p, chip, parallel_devices, context);
}

decode_step_time decode_step(const model_desc& m, const inference_estimate& e, const inference_params& p,
                             const chip_rates& chip, unsigned parallel_devices, std::uint64_t context) {
    decode_step_time t;
    if (chip.bandwidth_bytes_per_s <= 0) return t;
    const unsigned n        = std::max(1u, parallel_devices);
    const double bw         = chip.bandwidth_bytes_per_s * n;
    const double batch      = static_cast<double>(std::max<std::uint64_t>(1, p.batch));
    const double efficiency = chip.efficiency;

    const auto& engine = detail::traits_of(p.engine);
    // transformers on CUDA has its own fitted step below; every other engine and device reads at the
    // bandwidth roofline.
    if (!engine.python_per_layer || p.device != device_kind::cuda) {
        // Every weight (MoE: the routed experts' share) and every cached K/V row read once per step.
        t.weights_s           = static_cast<double>(decode_weight_bytes_per_step(m, e)) / (efficiency * bw);
        const weight_format f = resolve_weight_choice(m, p.weights).format;
        if (engine.dequant_alu_bound && is_quantized(f) && f != weight_format::fp8 && chip.fp32_flops > 0) {
            // Unpacking bound when the chip's ALUs are slower than its memory for these kernels, and
            // never below each GEMM's floor; the 16-bit rest (embeddings, output head) at the bandwidth.
            const double per_s = chip.fp32_flops * n / quantized_matvec_flops_per_weight;
            const bool untied  = std::any_of(m.tensors.begin(), m.tensors.end(),
                                             [](const tensor_desc& x) { return x.role == tensor_role::output; });
            // An untied input embedding is read one row a token; a tied one is the output head, read whole.
            const double dense_bytes =
                static_cast<double>(e.weights.unquantized_bytes) -
                (untied ? static_cast<double>(std::min(e.weights.token_embd_bytes, e.weights.unquantized_bytes)) : 0.0);
            const double unpack = dense_bytes / (efficiency * bw) + quantized_gemm_seconds(m, per_s);
            t.weights_s         = std::max(t.weights_s, unpack);
        }
        t.attention_s =
            static_cast<double>(e.kv_bytes_per_token) * static_cast<double>(context) * batch / (efficiency * bw);
        // A unified-memory GPU that is not Apple's (Strix Halo's Radeon 8060S) is placed as a Mac is (its
        // memory is the system's: src/plan/plan.cpp) but llama.cpp runs it with its Vulkan or HIP
        // backend, whose launches and kernels are a discrete GPU's, not Metal's: it pays their step
        // overhead. llmtracker_strix_halo.json: Llama-2-7B Q4_0 tg128 50.9-52.7 tokens/s, 19.2 ms a
        // token, where Metal's 0.233 ms a layer (7.5 ms) would leave 11.7 ms for 3.83 GB of weights:
        // 327 GB/s, above the 256 GB/s the memory has.
        const bool apple_metal    = p.device == device_kind::metal && chip.memory != memory_class::lpddr;
        const device_kind kernels = p.device == device_kind::metal && !apple_metal ? device_kind::cuda : p.device;
        if (engine.ggml_kernels && !p.flash_attn && kernels != device_kind::cpu) {
            const double share =
                kernels == device_kind::metal ? llamacpp_unfused_attention_metal : llamacpp_unfused_attention_cuda;
            t.attention_s = std::max(t.attention_s, share * attention_bytes_per_query_head(m, e.kv_type, context) *
                                                        batch / (efficiency * bw));
        }
        const step_overhead o = decode_overhead(p.engine, kernels);
        t.host_s              = static_cast<double>(m.n_layer) * o.per_layer_s + o.per_step_s;
        t.seconds             = t.weights_s + t.attention_s + t.host_s;
        // transformers off CUDA (CPU, Apple MPS) runs the same Python per layer: its host time is a
        // floor here too (not fitted off CUDA; the CUDA figure is the lower bound we know).
        if (engine.python_per_layer) {
            t.host_s  = static_cast<double>(m.n_layer) * transformers_layer_seconds + transformers_moe_host_seconds(m);
            t.seconds = std::max(t.weights_s + t.attention_s, t.host_s);
        }
        return t;
    }

    const weight_format f = resolve_weight_choice(m, p.weights).format;
    const bool quantized  = is_quantized(f);
    const double share    = moe_read_share(m);
    // A checkpoint read with its tensors has no quantized/unquantized split: bytes roofline for it.
    if (quantized && e.weights.quantized_bytes > 0) {
        t.weights_s = static_cast<double>(e.weights.unquantized_bytes) * share / (efficiency * bw) +
                      quantized_elements_per_step(m) / (transformers_dequant_weights_per_s * n);
    } else {
        t.weights_s = static_cast<double>(e.weights.bytes) * share / (efficiency * bw);
    }
    t.attention_s =
        attention_bytes_per_query_head(m, e.kv_type, context) * batch / (transformers_attention_efficiency * bw);
    const double per_layer = transformers_layer_seconds +
                             (quantized && f != weight_format::gptq_int4 ? transformers_quant_layer_seconds : 0.0);
    t.host_s  = static_cast<double>(m.n_layer) * per_layer + transformers_moe_host_seconds(m);
    t.seconds = std::max(t.host_s, t.weights_s + t.attention_s);
    return t;
}

double decode_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                           double bandwidth_bytes_per_s, double efficiency, unsigned parallel_devices) {
    const auto t = decode_step(m, e, p, bandwidth_bytes_per_s, efficiency, parallel_devices, p.ctx);
    if (t.seconds <= 0) return 0;
    return static_cast<double>(std::max<std::uint64_t>(1, p.batch)) / t.seconds;
}

double decode_tokens_per_s(std::uint64_t bytes_per_step, std::uint64_t batch, double bandwidth_bytes_per_s,
                           double efficiency, unsigned parallel_devices) {
    if (bytes_per_step == 0 || bandwidth_bytes_per_s <= 0) return 0;
    // Each step makes one token per sequence; tensor parallel devices each read 1/N of the bytes.
    return static_cast<double>(batch) * efficiency * bandwidth_bytes_per_s * parallel_devices /
           static_cast<double>(bytes_per_step);
}

double decode_bandwidth_efficiency(engine_kind e, memory_class m) {
    for (const auto& r : decode_efficiency_table)
        if (r.engine == e && r.memory == m) return r.share;
    return decode_efficiency_gpu;
}

step_overhead decode_overhead(engine_kind e, device_kind d) {
    for (const auto& r : decode_overhead_table)
        if (r.engine == e && r.device == d) return r.overhead;
    return {};
}

double generation_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                               const device_spec& d, std::uint64_t prompt, std::uint64_t output) {
    const chip_rates chip = chip_of(d, p.engine, p.device);
    if (chip.bandwidth_bytes_per_s <= 0 || output == 0) return 0;
    const auto step        = decode_step(m, e, p, chip, 1, prompt + output / 2);
    const double prefill   = prompt > 0 ? prefill_tokens_per_s(m, p, chip, 1, prompt) : 0.0;
    const double prefill_s = prefill > 0 ? static_cast<double>(prompt) / prefill : 0.0;
    const double seconds   = prefill_s + static_cast<double>(output) * step.seconds;
    return seconds > 0
               ? static_cast<double>(output) * static_cast<double>(std::max<std::uint64_t>(1, p.batch)) / seconds
               : 0;
}

double offload_decode_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                                   const chip_rates& gpu, double host_bw, std::uint64_t depth) {
    // Share of the allocated cache a step reads: its depth over the context allocated.
    const double kv_read =
        depth == 0 || p.ctx == 0 ? 1.0 : std::min(1.0, static_cast<double>(depth) / static_cast<double>(p.ctx));
    // A token reads only its routed experts (n_expert_used of n_expert), wherever they live; every
    // other weight is read whole. Which experts sit in RAM: those of the layers left on the CPU
    // (-ngl) and of the first cpu_moe_layers layers (--n-cpu-moe).
    const double used             = m.is_moe() && m.moe.n_expert > 0 && m.moe.n_expert_used > 0
                                        ? static_cast<double>(m.moe.n_expert_used) / static_cast<double>(m.moe.n_expert)
                                        : 1.0;
    const auto& ex                = e.weights.layer_expert_bytes;
    const std::uint32_t on_gpu    = p.gpu_layers < 0 ? m.n_layer : static_cast<std::uint32_t>(p.gpu_layers);
    const std::uint32_t first_gpu = m.n_layer - std::min(on_gpu, m.n_layer);
    double host_experts = 0, all_experts = 0;
    for (std::uint32_t i = 0; i < ex.size(); ++i) {
        all_experts += static_cast<double>(ex[i]);
        if (i < first_gpu || i < p.cpu_moe_layers) host_experts += static_cast<double>(ex[i]);
    }
    double host_w = 0, gpu_w = 0, host_kv = 0, gpu_kv = 0;
    for (const auto& dev : e.devices) {
        if (dev.kind == device_kind::cpu) {
            // the CPU-resident input embedding reads one row a token
            host_w +=
                std::max(0.0, static_cast<double>(dev.parts.weights) - static_cast<double>(e.weights.token_embd_bytes));
            host_kv += static_cast<double>(dev.parts.kv_cache);
        } else {
            gpu_w += static_cast<double>(dev.parts.weights);
            gpu_kv += static_cast<double>(dev.parts.kv_cache);
        }
    }
    const double gpu_experts = std::max(0.0, all_experts - host_experts);
    const double host_read   = std::max(0.0, host_w - host_experts) + host_experts * used + host_kv * kv_read;
    const double gpu_read    = std::max(0.0, gpu_w - gpu_experts) + gpu_experts * used + gpu_kv * kv_read;
    const double host_s      = host_read / (decode_efficiency_cpu * host_bw);
    const double gpu_s    = gpu.bandwidth_bytes_per_s > 0 ? gpu_read / (gpu.efficiency * gpu.bandwidth_bytes_per_s) : 0;
    const step_overhead o = decode_overhead(p.engine, device_kind::cuda);
    const double step     = gpu_s + host_s + static_cast<double>(m.n_layer) * o.per_layer_s + o.per_step_s;
    return step > 0 ? static_cast<double>(p.batch) / step : 0;
}

} // namespace llmplan

// Decode and prefill speed: a bandwidth roofline for llama.cpp and vLLM, a host-or-GPU-bound step for
// Hugging Face transformers (include/llmplan/speed.h gives the model and where each constant comes from).
#include "llmplan/speed.h"

#include <algorithm>

namespace llmplan {
namespace {

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

std::uint64_t decode_weight_bytes_per_step(const model_desc& m, const inference_estimate& e) {
    return static_cast<std::uint64_t>(static_cast<double>(e.weights.bytes) * moe_read_share(m));
}

std::uint64_t decode_bytes_per_step(const model_desc& m, const inference_estimate& e, const inference_params& p) {
    const double kv =
        static_cast<double>(e.kv_bytes_per_token) * static_cast<double>(p.ctx) * static_cast<double>(p.batch);
    return decode_weight_bytes_per_step(m, e) + static_cast<std::uint64_t>(kv);
}

decode_step_time decode_step(const model_desc& m, const inference_estimate& e, const inference_params& p,
                             double bandwidth_bytes_per_s, double efficiency, unsigned parallel_devices,
                             std::uint64_t context) {
    decode_step_time t;
    if (bandwidth_bytes_per_s <= 0) return t;
    const double bw    = bandwidth_bytes_per_s * std::max(1u, parallel_devices);
    const double batch = static_cast<double>(std::max<std::uint64_t>(1, p.batch));

    if (p.engine != engine_kind::transformers || p.device != device_kind::cuda) {
        // Roofline: every weight and every cached K/V row read once per step.
        t.weights_s = static_cast<double>(decode_weight_bytes_per_step(m, e)) / (efficiency * bw);
        t.attention_s =
            static_cast<double>(e.kv_bytes_per_token) * static_cast<double>(context) * batch / (efficiency * bw);
        t.seconds = t.weights_s + t.attention_s;
        // transformers off CUDA (CPU, Apple MPS) runs the same Python per layer: its host time is a
        // floor here too (not fitted off CUDA; the CUDA figure is the lower bound we know).
        if (p.engine == engine_kind::transformers) {
            t.host_s  = static_cast<double>(m.n_layer) * transformers_layer_seconds;
            t.seconds = std::max(t.seconds, t.host_s);
        }
        return t;
    }

    const weight_format f = resolve_weight_choice(m, p.weights).format;
    const bool quantized  = is_quantized(f);
    const double share    = moe_read_share(m);
    // A checkpoint read with its tensors has no quantized/unquantized split: bytes roofline for it.
    if (quantized && e.weights.quantized_bytes > 0) {
        t.weights_s =
            static_cast<double>(e.weights.unquantized_bytes) * share / (efficiency * bw) +
            quantized_elements_per_step(m) / (transformers_dequant_weights_per_s * std::max(1u, parallel_devices));
    } else {
        t.weights_s = static_cast<double>(e.weights.bytes) * share / (efficiency * bw);
    }
    t.attention_s =
        attention_bytes_per_query_head(m, e.kv_type, context) * batch / (transformers_attention_efficiency * bw);
    const double per_layer = transformers_layer_seconds +
                             (quantized && f != weight_format::gptq_int4 ? transformers_quant_layer_seconds : 0.0);
    t.host_s  = static_cast<double>(m.n_layer) * per_layer;
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

double prefill_tokens_per_s(std::uint64_t active_params, double flops, unsigned parallel_devices) {
    if (active_params == 0 || flops <= 0) return 0;
    // A forward pass costs 2 FLOPs per active parameter per token (multiply + add).
    return prefill_efficiency * flops * parallel_devices / (2.0 * static_cast<double>(active_params));
}

double generation_tokens_per_s(const model_desc& m, const inference_estimate& e, const inference_params& p,
                               const device_spec& d, std::uint64_t prompt, std::uint64_t output) {
    if (!d.memory_bandwidth_bytes_per_s || output == 0) return 0;
    const double efficiency = d.kind == hardware_kind::cpu ? decode_efficiency_cpu : decode_efficiency_gpu;
    const auto step =
        decode_step(m, e, p, static_cast<double>(*d.memory_bandwidth_bytes_per_s), efficiency, 1, prompt + output / 2);
    const double flops     = d.fp16_flops ? *d.fp16_flops : d.fp32_flops.value_or(0);
    const double prefill   = prefill_tokens_per_s(count_params(m).active, flops, 1);
    const double prefill_s = prefill > 0 ? static_cast<double>(prompt) / prefill : 0.0;
    const double seconds   = prefill_s + static_cast<double>(output) * step.seconds;
    return seconds > 0
               ? static_cast<double>(output) * static_cast<double>(std::max<std::uint64_t>(1, p.batch)) / seconds
               : 0;
}

double offload_decode_tokens_per_s(const inference_estimate& e, const inference_params& p, double gpu_bw,
                                   double host_bw) {
    double gpu_s = 0, host_s = 0;
    for (const auto& dev : e.devices) {
        if (dev.kind == device_kind::cpu) {
            const double w = static_cast<double>(dev.parts.weights) - static_cast<double>(e.weights.token_embd_bytes);
            host_s += (std::max(0.0, w) + static_cast<double>(dev.parts.kv_cache)) / (decode_efficiency_cpu * host_bw);
        } else {
            gpu_s += static_cast<double>(dev.parts.weights + dev.parts.kv_cache) / (decode_efficiency_gpu * gpu_bw);
        }
    }
    const double step = gpu_s + host_s;
    return step > 0 ? static_cast<double>(p.batch) / step : 0;
}

} // namespace llmplan

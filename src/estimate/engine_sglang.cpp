// SGLang (sgl-project/sglang): python -m sglang.launch_server sizes its memory in two steps.
//  1. --mem-fraction-static (the share of the memory free before the model loads that weights and the
//     KV pool may take) defaults, since v0.5.3, to (GPU memory - reserved) / GPU memory, where
//     `reserved` (MiB) covers what is allocated outside that share: the activations of one chunked
//     prefill and the CUDA graphs (v0.5.19 python/sglang/srt/arg_groups/memory_hook.py
//     handle_gpu_memory_settings and reserve_for_graph_mb, commit 031ed82d, 2026; the same rule in
//     server_args.py _handle_gpu_memory_settings since PR 10975, 2025-09-27). Before v0.5.3 it was a
//     table by tensor-parallel size (engine_versions.cpp).
//  2. The KV pool takes what the share leaves after the weights: rest = free_after_load -
//     free_before_load x (1 - fraction) (model_runner_kv_cache_mixin.py _profile_available_bytes, in
//     v0.5.16+ mem_cache/kv_cache_configurator.py), that is fraction x free_before_load - weights; the
//     token-to-KV pool holds rest / cell_size tokens of one token each (page size 1, RadixAttention).
// So what the GPU holds at its peak is the CUDA context, fraction x (memory - context), and the
// activations and CUDA graphs the reserve was made for.
#include "detail/size_units.h"
#include "estimate/engine_traits.h"
#include "estimate/engines.h"
#include "estimate/runtime.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace llmplan {
namespace {

using detail::mib_bytes;

/// The defaults that depend on the GPU's memory (memory_hook.py handle_gpu_memory_settings, v0.5.19):
/// chunked_prefill_size and the decode CUDA graphs' largest batch (cuda_graph_config decode max_bs).
struct sglang_gpu_defaults {
    std::uint64_t chunked_prefill;
    std::uint64_t decode_graph_bs;
};

sglang_gpu_defaults gpu_defaults(std::uint64_t gpu_mib, std::uint32_t tp) {
    if (gpu_mib == 0) return {4096, 160};                          // "Fallback defaults when gpu_mem is None"
    if (gpu_mib < 20 * 1024) return {2048, 8};                     // T4, 4080
    if (gpu_mib < 35 * 1024) return {4096, tp < 4 ? 48u : 160u};   // A10, 4090, 5090
    if (gpu_mib < 60 * 1024) return {4096, tp < 4 ? 32u : 160u};   // A100-40GB, L40
    if (gpu_mib < 160 * 1024) return {8192, tp < 4 ? 256u : 512u}; // H100, A100-80GB, H20, H200
    return {16384, 512};                                           // B200, MI300
}

/// How many token counts the prefill (piecewise) CUDA graphs are captured at, up to max_tokens
/// (cuda_graph_hook.py generate_prefill_cuda_graph_batch_sizes, as server_args.py
/// _generate_piecewise_cuda_graph_tokens): 4..32 step 4, 48..256 step 16, 288..512 step 32,
/// 576..1024 step 64, 1280..4096 step 256, 4608.. step 512.
std::uint64_t prefill_graph_sizes(std::uint64_t max_tokens) {
    struct run {
        std::uint64_t from, to, step;
    };
    constexpr run runs[] = {
        {4,    32,             4  },
        {48,   256,            16 },
        {288,  512,            32 },
        {576,  1024,           64 },
        {1280, 4096,           256},
        {4608, UINT64_MAX / 2, 512}
    };
    std::uint64_t n = 0;
    for (const auto& r : runs)
        for (std::uint64_t s = r.from; s <= r.to && s <= max_tokens; s += r.step)
            ++n;
    return n;
}

} // namespace

double sglang_static_fraction(const model_desc& m, std::uint64_t device_bytes, std::uint32_t tp, engine_version v) {
    const bool mla = m.mla.kv_lora_rank > 0;
    if (!behaviour_of(engine_kind::sglang, v).sglang_fraction_from_gpu_memory || device_bytes == 0) {
        if (device_bytes == 0 && behaviour_of(engine_kind::sglang, v).sglang_fraction_from_gpu_memory)
            return 0.95; // memory_hook.py: "if gpu_mem is not None else 0.95"
        // server_args.py v0.4.x: by tensor-parallel size
        return tp >= 16 ? 0.79 : tp >= 8 ? 0.81 : tp >= 4 ? 0.85 : tp >= 2 ? 0.87 : 0.88;
    }
    const std::uint64_t gpu_mib = device_bytes / mib_bytes;
    const sglang_gpu_defaults d = gpu_defaults(gpu_mib, tp);
    // reserved (MiB): 512 of constant metadata, 1.5 a token of the chunked prefill (at least 2048
    // tokens), tp x pp / 8 GiB for large parallel sizes, 2 a decode graph batch entry, and the
    // prefill graphs: 8 a captured size (non-torch memory), or 1.5 GiB with an MLA backend
    // (reserve_for_graph_mb: "MLA backend overhead is much higher than expected with fa3").
    double reserved = 512.0 + static_cast<double>(std::max<std::uint64_t>(d.chunked_prefill, 2048)) * 1.5 +
                      static_cast<double>(tp) / 8.0 * 1024.0 + static_cast<double>(d.decode_graph_bs) * 2.0;
    reserved += mla ? 1.5 * 1024.0 : static_cast<double>(prefill_graph_sizes(d.chunked_prefill)) * 8.0;
    if (gpu_mib > 60 * 1024) reserved = std::max(reserved, 10.0 * 1024.0); // at least 10 GiB on large GPUs
    const double g = static_cast<double>(gpu_mib);
    return std::round((g - reserved) / g * 1000.0) / 1000.0; // round(..., 3)
}

result<inference_estimate> estimate_sglang(const model_desc& m, const inference_params& p, const weights_estimate& w) {
    inference_estimate r;
    r.weights              = w;
    const dtype act        = w.compute_dtype == dtype::f32 ? dtype::bf16 : w.compute_dtype;
    const dtype kv         = p.kv_type.value_or(act);
    r.kv_type              = kv;
    const std::uint32_t tp = std::max<std::uint32_t>(1, p.gpus);
    const auto a           = info(act).bytes_per_block;

    std::uint64_t kv_per_token  = 0; // per GPU: heads split over the tensor-parallel ranks
    std::uint64_t state_per_seq = 0;
    for (const auto& l : m.layers) {
        r.kv_bytes_per_token += kv_layer_bytes(m, l, engine_kind::sglang, kv, kv, 1);
        r.state_bytes_per_sequence += state_layer_bytes(l, engine_kind::sglang, act);
        layer_desc s = l;
        s.n_head_kv  = std::max<std::uint32_t>(1, s.n_head_kv / tp); // KV heads replicate when fewer than ranks
        kv_per_token += kv_layer_bytes(m, s, engine_kind::sglang, kv, kv, 1);
        state_per_seq += state_layer_bytes(s, engine_kind::sglang, act, tp);
    }

    const std::uint64_t gpu_mib = p.device_memory_bytes / mib_bytes;
    const sglang_gpu_defaults d = gpu_defaults(gpu_mib, tp);
    const double fraction       = sglang_static_fraction(m, p.device_memory_bytes, tp, p.version);
    const bool mla              = m.mla.kv_lora_rank > 0;
    // One chunked prefill's activations (one layer alive at a time; logits only for the last token of
    // each request: logits_processor.py prunes to the last positions in extend mode).
    const std::uint64_t activation = d.chunked_prefill * layer_activation_bytes_per_token(m, a, tp);
    // The CUDA graphs, as SGLang budgets them: 2 MiB a decode batch entry, and the prefill graphs'
    // non-torch memory (8 MiB a captured size; 1.5 GiB with MLA) (reserve_for_graph_mb).
    const std::uint64_t graphs = d.decode_graph_bs * 2 * mib_bytes +
                                 (mla ? 1536 * mib_bytes : prefill_graph_sizes(d.chunked_prefill) * 8 * mib_bytes);
    const std::uint64_t context = detail::torch_cuda_context_bytes;

    const std::uint64_t per_gpu_weights = w.bytes / tp;
    std::uint64_t capacity              = 0;
    std::uint64_t max_reqs              = 0;
    for (std::uint32_t g = 0; g < tp; ++g) {
        device_breakdown dev{"cuda:" + std::to_string(g), device_kind::cuda, {}, {}};
        dev.parts.weights     = per_gpu_weights;
        dev.parts.activations = activation;
        dev.parts.compute     = graphs;
        dev.parts.overhead    = static_cast<std::int64_t>(context);
        if (p.device_memory_bytes) {
            // fraction x the memory free before the model loads (the CUDA context already taken).
            const double before =
                static_cast<double>(p.device_memory_bytes > context ? p.device_memory_bytes - context : 0);
            const auto share           = static_cast<std::int64_t>(fraction * before);
            const std::int64_t pool    = share - static_cast<std::int64_t>(per_gpu_weights);
            const std::int64_t kv_room = pool - static_cast<std::int64_t>(state_per_seq * p.batch);
            const std::uint64_t tokens =
                kv_room > 0 && kv_per_token ? static_cast<std::uint64_t>(kv_room) / kv_per_token : 0;
            dev.parts.kv_cache      = pool > 0 ? static_cast<std::uint64_t>(pool) : 0;
            const std::uint64_t cap = kv_per_token ? tokens : kv_room >= 0 ? std::max(p.ctx, m.n_ctx_train) : 0;
            capacity                = g == 0 ? cap : std::min(capacity, cap);
            // The request's own sequences must fit in the pool: when they do not, the device needs
            // their KV beyond the default share, and SGLang a larger --mem-fraction-static.
            const std::uint64_t needed = (kv_per_token * p.ctx + state_per_seq) * p.batch;
            if (dev.parts.kv_cache < needed) {
                dev.parts.kv_cache = needed;
                const double raise =
                    before > 0 ? std::ceil(static_cast<double>(per_gpu_weights + needed) / before * 1000.0) / 1000.0
                               : 1.0;
                dev.notes.push_back(fmt::format(
                    "at --mem-fraction-static {:.3f} the KV pool holds {} tokens, fewer than ctx x batch ({}): "
                    "SGLang needs --mem-fraction-static {:.3f} or more{}",
                    fraction, cap, p.ctx * p.batch, raise,
                    pool <= 0 ? " (at the default it stops at start-up: \"Not enough memory. Please try to increase "
                                "--mem-fraction-static.\")"
                              : ""));
            }
        } else {
            dev.parts.kv_cache = (kv_per_token * p.ctx + state_per_seq) * p.batch;
            dev.notes.push_back("device memory unknown (--device-memory): kv_cache is what ctx x batch needs, "
                                "not SGLang's whole pool");
        }
        r.devices.push_back(std::move(dev));
    }
    if (p.device_memory_bytes) {
        r.vllm_kv_capacity_tokens = capacity;
        r.vllm_max_model_len      = std::min(capacity, m.n_ctx_train ? m.n_ctx_train : capacity);
        // --max-running-requests without the flag: the pool's tokens / context length x 512, held
        // between 2048 and 4096 (kv_cache_configurator.py resolve_max_num_reqs, v0.5.19).
        const std::uint64_t ctx = std::max<std::uint64_t>(1, p.ctx);
        max_reqs                = std::clamp<std::uint64_t>(capacity / ctx * 512, 2048, 4096);
        r.vllm_max_num_seqs     = max_reqs;
    }
    r.vllm_max_num_batched_tokens = d.chunked_prefill;
    r.sglang_mem_fraction_static  = fraction;
    r.notes.push_back(
        fmt::format("SGLang: --mem-fraction-static {:.3f} (weights and the KV pool), --chunked-prefill-size "
                    "{}, CUDA graphs up to batch {}{}",
                    fraction, d.chunked_prefill, d.decode_graph_bs,
                    p.device_memory_bytes ? "" : " (GPU memory unknown: SGLang's fallbacks)"));
    if (p.device_memory_bytes)
        r.notes.push_back(
            fmt::format("SGLang's KV pool holds {} tokens a GPU; --max-running-requests {}", capacity, max_reqs));
    if (p.device_memory_bytes && capacity && p.ctx > capacity)
        r.notes.push_back(fmt::format("the KV pool ({} tokens) is smaller than --ctx {}: SGLang caps a request there",
                                      capacity, p.ctx));
    return r;
}

} // namespace llmplan

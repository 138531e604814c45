// vLLM: it measures weights and a profiling forward pass, then gives every byte left of
// gpu_memory_utilization x total to KV blocks. So total per GPU = utilization x memory, and the
// question is how many tokens the pool holds (source: vLLM's worker memory profiling log lines,
// tests/data/truth/vllm_issue_logs.json).
#include "estimate/engines.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

constexpr std::uint64_t mib = 1ull << 20;
/// vLLM's "non_torch_memory": CUDA context, cuBLAS/NCCL buffers outside torch's allocator. Logged
/// as 0.35 GiB on an RTX 3090 (vllm issue 10517) and 1.79 GiB on an 80 GB GPU (PR 10511); we take
/// the single-GPU CUDA context figure, 450 MiB, and say that it varies.
constexpr std::uint64_t non_torch_bytes = 450 * mib;
/// vLLM's KV block: 16 tokens (CacheConfig.block_size default).
constexpr std::uint64_t block_tokens = 16;
/// Without chunked prefill (vLLM V0, max_model_len <= 32k), the profiling batch is
/// max_num_batched_tokens = max(max_model_len, 2048) tokens (SchedulerConfig).
constexpr std::uint64_t min_batched_tokens = 2048;

} // namespace

result<inference_estimate> estimate_vllm(const model_desc& m, const inference_params& p, const weights_estimate& w) {
    inference_estimate r;
    r.weights       = w;
    const dtype act = w.compute_dtype == dtype::f32 ? dtype::bf16 : w.compute_dtype;
    const dtype kv  = p.kv_type.value_or(act);
    r.kv_type       = kv;
    const auto tp   = std::max<std::uint32_t>(1, p.gpus);
    const auto a    = info(act).bytes_per_block;

    std::uint64_t kv_per_token = 0; // per GPU: heads are split over the tensor-parallel ranks
    for (const auto& l : m.layers) {
        layer_desc s = l;
        s.n_head_kv  = std::max<std::uint32_t>(1, l.n_head_kv / tp); // KV heads replicate when fewer than ranks
        kv_per_token += kv_layer_bytes(m, s, engine_kind::vllm, kv, kv, 1);
        r.kv_bytes_per_token += kv_layer_bytes(m, l, engine_kind::vllm, kv, kv, 1);
    }
    const std::uint64_t tokens = std::max(p.ctx, min_batched_tokens);
    const std::uint64_t seqs   = std::min(p.max_num_seqs, tokens);
    // Profiling pass: one layer's activations for all tokens, plus the sampler's logits for every
    // sequence (compute dtype, then f32).
    const std::uint64_t activation =
        tokens * layer_activation_bytes_per_token(m, a, tp) + seqs * m.n_vocab / tp * (a + 4);

    const std::uint64_t weights = w.bytes / tp;
    for (std::uint32_t g = 0; g < tp; ++g) {
        device_breakdown d{"cuda:" + std::to_string(g), device_kind::cuda, {}, {}};
        d.parts.weights     = weights;
        d.parts.activations = activation;
        d.parts.overhead    = static_cast<std::int64_t>(non_torch_bytes);
        if (p.device_memory_bytes) {
            const auto budget =
                static_cast<std::int64_t>(p.gpu_memory_utilization * static_cast<double>(p.device_memory_bytes));
            const std::int64_t pool = budget - d.parts.allocated() - d.parts.overhead;
            const std::uint64_t blocks =
                pool > 0 ? static_cast<std::uint64_t>(pool) / (kv_per_token * block_tokens) : 0;
            d.parts.kv_cache          = pool > 0 ? static_cast<std::uint64_t>(pool) : 0;
            r.vllm_kv_capacity_tokens = blocks * block_tokens;
            r.vllm_max_model_len =
                std::min(r.vllm_kv_capacity_tokens, m.n_ctx_train ? m.n_ctx_train : r.vllm_kv_capacity_tokens);
            if (pool <= 0) d.notes.push_back("no memory left for KV blocks: vLLM stops at start-up");
        } else {
            // Unknown device memory: the pool the requested sequences need.
            d.parts.kv_cache = kv_per_token * p.ctx * p.batch;
            d.notes.push_back("device memory unknown (--device-memory): kv_cache is what ctx x batch needs, "
                              "not vLLM's whole pool");
        }
        r.devices.push_back(std::move(d));
    }
    if (r.vllm_kv_capacity_tokens && p.ctx > r.vllm_kv_capacity_tokens)
        r.notes.push_back(fmt::format("vLLM will refuse to start: max seq len {} is larger than the KV cache "
                                      "({} tokens); use --max-model-len {} or more memory",
                                      p.ctx, r.vllm_kv_capacity_tokens, r.vllm_max_model_len));
    return r;
}

} // namespace llmplan

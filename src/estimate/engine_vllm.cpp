// vLLM: it measures weights and a profiling forward pass, then gives every byte left of
// gpu_memory_utilization x total to KV blocks. So total per GPU = utilization x memory, and the
// question is how many tokens the pool holds (source: vLLM's worker memory profiling log lines,
// tests/data/truth/vllm_issue_logs.json). What the profiling pass costs depends on the release
// (engine_versions.cpp): V0 runs the whole context at once, V1 (0.8+) max_num_batched_tokens.
#include "detail/checked_number.h"
#include "detail/size_units.h"
#include "estimate/engines.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

using detail::gib_bytes;
using detail::mib_bytes;
/// V0's "non_torch_memory": CUDA context, cuBLAS/NCCL buffers outside torch's allocator. Logged
/// as 0.35 GiB on an RTX 3090 (vllm issue 10517) and 1.79 GiB on an 80 GB GPU (PR 10511); we take
/// the single-GPU CUDA context figure, 450 MiB, and say that it varies.
constexpr std::uint64_t v0_non_torch_bytes = 450 * mib_bytes;
/// V1 takes its memory snapshot in init_device, after the CUDA context exists, so non-torch memory
/// is only what grows after it: cuBLAS workspaces (0.13-0.14 GiB logged at TP 1 for five models on
/// H100, vLLM 0.11) and, with more than one rank, NCCL communicators and the custom all-reduce IPC
/// buffers (0.54-0.55 GiB logged at TP 2 for Llama-3.3-70B and Qwen3-32B, same runs).
constexpr std::uint64_t v1_non_torch_bytes    = 135 * mib_bytes;
constexpr std::uint64_t v1_non_torch_tp_bytes = 560 * mib_bytes;
/// What the GPU holds outside V1's budget: the CUDA context created before the snapshot
/// (PyTorch 2.x, 0.4-0.6 GiB in nvidia-smi) and CUDA graphs captured after the pool, which logged
/// -0.9 to +1.0 GiB in the same runs (the capture can free cached blocks); we take the context.
constexpr std::uint64_t v1_outside_budget_bytes = 512 * mib_bytes;
/// vLLM 0.21+ takes its estimate of the CUDA graphs' memory out of the KV pool (engine_versions.cpp).
/// Logged "Estimated CUDA graph memory": 0.17 GiB (TP 4 on RTX 3090s, 0.92 -> 0.9129 equivalent,
/// noonghunna/club-3090 issue 127), 0.36 GiB (TP 2, vLLM 0.27.1, gpustack/runner PR 251) and 0.65 GiB
/// (8 x RTX 3090, 0.95 -> 0.9225 equivalent of 23.57 GiB, wtdcode/vllm-backport issue 15); we take
/// the middle one, 0.36 GiB. It varies with the captured batch sizes and the model (2.43 GiB logged
/// on a GB10 pair, MiaAI-Lab PR 25).
constexpr std::uint64_t cuda_graph_estimate_bytes = 369 * mib_bytes; // 0.36 GiB
/// vLLM's KV block: 16 tokens (CacheConfig.block_size default).
constexpr std::uint64_t block_tokens = 16;
/// V0 without chunked prefill (max_model_len <= 32k): the profiling batch is
/// max_num_batched_tokens = max(max_model_len, 2048) tokens (SchedulerConfig).
constexpr std::uint64_t min_batched_tokens = 2048;
/// V0's max_num_seqs default (SchedulerConfig).
constexpr std::uint64_t v0_max_num_seqs = 256;
/// V1's serving defaults (EngineArgs.get_batch_defaults, usage context OPENAI_API_SERVER, as for
/// `vllm serve`): GPUs of 70 GiB and more (H100, H200, MI300X) get 8192 batched tokens (16384 from
/// 0.28: the release row's large_gpu_batched_tokens) and 1024 sequences, smaller ones (and unknown
/// memory) 2048 and 256. A100-80GB is excluded by name; llmplan cannot
/// tell it from an H100 by its memory, so it takes the larger profile (the smaller KV pool).
constexpr std::uint64_t large_gpu_bytes = 70 * gib_bytes;
constexpr std::uint64_t v1_tokens_small = 2048;
constexpr std::uint64_t v1_seqs_large   = 1024;
constexpr std::uint64_t v1_seqs_small   = 256;
/// V1's sampler warm-up (_dummy_sampler_run with top-k and top-p set): per element of the
/// rows x vocabulary logits it holds the logits in the compute dtype, their f32 copy, the sorted
/// values (f32) and int64 indices, the softmax and cumsum of the sorted values (f32 each), the top-p
/// mask (bool), the values scattered back (f32), the probabilities and the exponential noise (f32
/// each): a + 37 bytes. Logged "torch peak memory increase" / (1024 x vocab) is 38.4-39.6 bytes for
/// Llama-3.1-8B, Qwen3-0.6B, Qwen3-32B, gpt-oss-20b/120b and Llama-3.3-70B TP 2 (bf16, H100, 0.11).
constexpr std::uint64_t sampler_bytes_beyond_logits = 37;

/// The profiling forward's peak a token, in elements: the residual stream, the layer's input and the
/// output of its last projection (3 x n_embd) beside the larger of the attention transients
/// (q/k/v projection + attention output) and the MLP's (gate_up output 2 x n_ff + SiluAndMul's
/// n_ff); the two phases of a layer are not alive together (vllm/model_executor/models/llama.py).
/// Llama-3.1-8B: (3 x 14336 + 3 x 4096) x 2 bytes = 110.6 KB a token; the logs give 110 KB a token
/// between 20000 and 29000 profiled tokens (peak_torch_memory 17.06 / 17.98 GiB, vLLM 0.6.3 on an
/// RTX 3090, truth/vllm_issue_logs.json, issue 10517).
std::uint64_t forward_peak_per_token(const model_desc& m, std::uint64_t act_bytes, std::uint32_t tp) {
    const layer_widths w = peak_layer_widths(m);
    return (3 * m.n_embd + std::max(2 * w.q + w.kv, 3 * w.n_ff) / tp) * act_bytes;
}

} // namespace

result<inference_estimate> estimate_vllm(const model_desc& m, const inference_params& p, const weights_estimate& w) {
    inference_estimate r;
    r.weights              = w;
    const dtype act        = w.compute_dtype == dtype::f32 ? dtype::bf16 : w.compute_dtype;
    const dtype kv         = p.kv_type.value_or(act);
    r.kv_type              = kv;
    const std::uint32_t pp = std::max<std::uint32_t>(1, p.pipeline_parallel);
    const std::uint32_t tp = std::max<std::uint32_t>(1, p.gpus / pp);
    const auto a           = info(act).bytes_per_block;

    for (const auto& l : m.layers) {
        r.kv_bytes_per_token += kv_layer_bytes(m, l, engine_kind::vllm, kv, kv, 1);
        r.state_bytes_per_sequence += state_layer_bytes(l, engine_kind::vllm, act);
    }
    const engine_behaviour& rel   = behaviour_of(engine_kind::vllm, p.version);
    const bool v1                 = rel.v1_engine;
    const bool large_gpu          = p.device_memory_bytes >= large_gpu_bytes; // unknown: the common default
    const std::uint64_t tokens    = p.max_num_batched_tokens ? p.max_num_batched_tokens
                                    : v1 ? (large_gpu ? std::uint64_t{rel.large_gpu_batched_tokens} : v1_tokens_small)
                                         : std::max(p.ctx, min_batched_tokens);
    const std::uint64_t max_seqs  = p.max_num_seqs ? p.max_num_seqs
                                    : v1           ? (large_gpu ? v1_seqs_large : v1_seqs_small)
                                                   : v0_max_num_seqs;
    const std::uint64_t seqs      = std::min(max_seqs, tokens);
    r.vllm_max_num_seqs           = max_seqs;
    r.vllm_max_num_batched_tokens = tokens;
    // Profiling pass: one layer's activations for all tokens; the sampler's logits for every
    // sequence are gathered whole on every rank and sampled with top-k/top-p after the forward has
    // freed its transients, in V0 as in V1 (V0's profile_run sets top_p 0.99, top_k vocab - 1).
    // V0, Llama-3-8B at 8192 tokens: 1.26 GiB at TP 1 and TP 2 alike, the sampler's 256 x vocab x 39
    // bytes (1.19 GiB), not the forward (truth/vllm_issue_logs.json, Dec 2024 main).
    const std::uint64_t forward    = tokens * forward_peak_per_token(m, a, tp);
    const std::uint64_t activation = std::max(forward, seqs * m.n_vocab * (a + sampler_bytes_beyond_logits));
    const std::uint64_t non_torch  = !v1 ? v0_non_torch_bytes : p.gpus > 1 ? v1_non_torch_tp_bytes : v1_non_torch_bytes;
    // 0.21+: the CUDA graphs' estimate comes out of the budget, as compute (the graphs' private pool
    // of intermediate buffers), beside non-torch memory (overhead), which vLLM logs apart from it.
    const std::uint64_t graphs = rel.cuda_graphs_in_budget ? cuda_graph_estimate_bytes : 0;
    const double utilization   = gpu_memory_utilization(p);
    if (v1) r.vllm_outside_budget_bytes = v1_outside_budget_bytes;
    r.vllm_cuda_graph_bytes = graphs;

    std::uint64_t in_layers = 0;
    for (auto b : w.layer_bytes)
        in_layers += b;
    const std::uint64_t outside = w.bytes > in_layers ? w.bytes - in_layers : 0; // embeddings, head, norms
    // vLLM's get_pp_indices: n_layer / pp layers a stage; the remainder goes one each to the stages
    // before the last (the last also holds the head). The embedding lives on the first stage, the
    // head on the last: half of `outside` each.
    std::vector<std::uint32_t> stage_layers(pp, m.n_layer / pp);
    for (std::uint32_t i = 2; i < m.n_layer % pp + 2 && i <= pp; ++i)
        ++stage_layers[pp - i];
    std::uint64_t pool_tokens = 0;
    std::uint32_t first       = 0;
    for (std::uint32_t stage = 0; stage < pp; first += stage_layers[stage], ++stage) {
        const std::uint32_t count   = stage_layers[stage];
        std::uint64_t stage_weights = pp == 1 ? outside : (stage == 0 || stage + 1 == pp ? outside / 2 : 0);
        std::uint64_t kv_per_token  = 0; // per GPU: heads are split over the tensor-parallel ranks
        std::uint64_t state_per_seq = 0; // linear-attention layers: one state slot per running sequence
        for (std::uint32_t il = first; il < first + count && il < m.layers.size(); ++il) {
            if (il < w.layer_bytes.size()) stage_weights += w.layer_bytes[il];
            layer_desc s = m.layers[il];
            s.n_head_kv  = std::max<std::uint32_t>(1, s.n_head_kv / tp); // KV heads replicate when fewer than ranks
            kv_per_token += kv_layer_bytes(m, s, engine_kind::vllm, kv, kv, 1);
            state_per_seq += state_layer_bytes(s, engine_kind::vllm, act, tp);
        }
        if (w.layer_bytes.empty()) stage_weights = w.bytes / pp;
        for (std::uint32_t g = 0; g < tp; ++g) {
            device_breakdown d{"cuda:" + std::to_string(stage * tp + g), device_kind::cuda, {}, {}};
            d.parts.weights     = stage_weights / tp;
            d.parts.activations = activation;
            d.parts.compute     = graphs; // the CUDA graphs' pool holds the captured batches' buffers
            d.parts.overhead    = static_cast<std::int64_t>(non_torch);
            if (p.device_memory_bytes) {
                const auto budget = detail::saturate<std::int64_t>(
                    utilization * static_cast<double>(p.device_memory_bytes), detail::rounding::toward_zero);
                const std::int64_t pool = budget - d.parts.allocated() - d.parts.overhead;
                // The batch's linear-attention states come out of the same pool before its KV blocks.
                const std::int64_t kv_pool = pool - static_cast<std::int64_t>(state_per_seq * p.batch);
                const std::uint64_t blocks = kv_pool > 0 && kv_per_token
                                                 ? static_cast<std::uint64_t>(kv_pool) / (kv_per_token * block_tokens)
                                                 : 0;
                d.parts.kv_cache           = pool > 0 ? static_cast<std::uint64_t>(pool) : 0;
                // The engine's capacity is the smallest of every GPU's (each stage must hold every token).
                // A model without attention (Mamba) needs no KV blocks: any context fits once the states do.
                const std::uint64_t unbounded = std::max(p.ctx, m.n_ctx_train);
                const std::uint64_t cap       = kv_per_token ? blocks * block_tokens : kv_pool >= 0 ? unbounded : 0;
                pool_tokens                   = stage == 0 && g == 0 ? cap : std::min(pool_tokens, cap);
                if (pool <= 0) d.notes.push_back("no memory left for KV blocks: vLLM stops at start-up");
            } else {
                // Unknown device memory: the pool the requested sequences need.
                d.parts.kv_cache = (kv_per_token * p.ctx + state_per_seq) * p.batch;
                d.notes.push_back("device memory unknown (--device-memory): kv_cache is what ctx x batch needs, "
                                  "not vLLM's whole pool");
            }
            r.devices.push_back(std::move(d));
        }
    }
    if (p.device_memory_bytes) {
        r.vllm_kv_capacity_tokens = pool_tokens;
        r.vllm_max_model_len      = std::min(pool_tokens, m.n_ctx_train ? m.n_ctx_train : pool_tokens);
    }
    r.notes.push_back(fmt::format("vLLM profiles {} tokens and samples {} sequences at start-up{}", tokens, seqs,
                                  v1 ? " (--max-num-batched-tokens, --max-num-seqs)" : ""));
    if (v1)
        r.notes.push_back(fmt::format("beyond gpu_memory_utilization's budget the GPU also holds about {} MiB "
                                      "(CUDA context{})",
                                      r.vllm_outside_budget_bytes / mib_bytes, graphs ? "" : ", CUDA graphs"));
    if (graphs)
        r.notes.push_back(fmt::format(
            "{} takes its estimate of the CUDA graphs (about {} MiB, logged as "
            "\"Estimated CUDA graph memory\") out of the KV pool, inside "
            "gpu_memory_utilization {}",
            to_string(engine_kind::vllm, p.version.known() ? p.version : default_engine_version(engine_kind::vllm)),
            graphs / mib_bytes, utilization));
    if (r.vllm_kv_capacity_tokens && p.ctx > r.vllm_kv_capacity_tokens)
        r.notes.push_back(fmt::format("vLLM will refuse to start: max seq len {} is larger than the KV cache "
                                      "({} tokens); use --max-model-len {} or more memory",
                                      p.ctx, r.vllm_kv_capacity_tokens, r.vllm_max_model_len));
    return r;
}

} // namespace llmplan

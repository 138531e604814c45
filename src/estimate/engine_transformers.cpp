// Hugging Face transformers generate(): torch.cuda.max_memory_allocated = weights + the larger of
// (prefill: KV of the prompt + one layer's transient activations + logits) and (end of decoding:
// KV of the whole context + the cache's growth copy + one token's logits).
#include "estimate/engines.h"
#include "estimate/runtime.h"

#include <algorithm>

namespace llmplan {
namespace {

/// The runtime outside torch's allocator (CUDA context and libraries): shared with training.
constexpr std::uint64_t cuda_runtime_bytes = detail::torch_cuda_context_bytes;
// Remote-code models marked legacy_cache in the architecture table (Qwen-1) predate two things
// transformers >= 4.45 does for models in the library: computing only the last position's logits in
// generate() (logits_to_keep = 1), and DynamicCache, which grows one layer at a time. Their tuple
// cache builds every layer's grown K/V while generate() still holds the previous tuple, so the
// whole cache exists twice at each step: Qwen-7B-Chat at 8193 tokens peaks at weights + 2.05 x its
// KV size (tests/data/truth/qwen1_readme_profiling.json).

} // namespace

// Transient activations of one decoder layer per token (no autograd, one layer alive at a time):
// the residual stream and its normed copy and the attention output (4 e), q and the attention
// output before o_proj (2 q widths), k and v (flash/SDPA kernels keep no t x t scores), and the
// gated MLP's act(gate), up output and their product alive together (3 n_ff at the peak of down_proj).
layer_widths peak_layer_widths(const model_desc& m) {
    const auto& l = m.typical_layer();
    layer_widths w;
    w.n_ff = l.n_ff;
    if (m.is_moe()) w.n_ff = std::max<std::uint64_t>(m.moe.n_ff_expert * m.moe.n_expert_used, m.moe.n_ff_shexp);
    for (const auto& x : m.layers)
        w.n_ff = std::max<std::uint64_t>(w.n_ff, x.n_ff);
    w.q  = std::uint64_t{l.n_head} * l.head_dim_k;
    w.kv = std::uint64_t{l.n_head_kv} * (l.head_dim_k + l.head_dim_v);
    return w;
}

std::uint64_t layer_activation_bytes_per_token(const model_desc& m, std::uint64_t act_bytes, std::uint32_t tp) {
    const layer_widths w = peak_layer_widths(m);
    return (4 * m.n_embd + (2 * w.q + w.kv + 3 * w.n_ff) / tp) * act_bytes;
}

result<inference_estimate> estimate_transformers(const model_desc& m, const inference_params& p,
                                                 const weights_estimate& w) {
    inference_estimate r;
    r.weights                  = w;
    const dtype act            = w.compute_dtype;
    const dtype kv             = p.kv_type.value_or(act);
    r.kv_type                  = kv;
    const std::uint64_t a      = info(act).bytes_per_block; // bytes per activation element
    const std::uint64_t b      = p.batch;
    const std::uint64_t prompt = p.prompt ? std::min(p.prompt, p.ctx) : p.ctx;

    // KV: every layer keeps every token (DynamicCache), except sliding layers of models whose cache
    // is a HybridCache / sliding cache in transformers (Gemma-2/3, gpt-oss): capped at the window.
    auto kv_at = [&](std::uint64_t tokens) {
        std::uint64_t s = 0;
        for (const auto& l : m.layers) {
            const std::uint64_t cells = l.n_swa ? std::min<std::uint64_t>(tokens, l.n_swa) : tokens;
            s += (kv_layer_bytes(m, l, engine_kind::transformers, kv, kv, cells) +
                  state_layer_bytes(l, engine_kind::transformers, act)) *
                 b; // linear layers: constant state
        }
        return s;
    };
    for (const auto& l : m.layers) {
        r.kv_bytes_per_token += kv_layer_bytes(m, l, engine_kind::transformers, kv, kv, 1);
        r.state_bytes_per_sequence += state_layer_bytes(l, engine_kind::transformers, act);
    }
    const std::uint64_t kv_full   = kv_at(p.ctx);
    const std::uint64_t kv_prompt = kv_at(prompt);
    // torch.cat in DynamicCache.update allocates the grown K (or V) of a layer before freeing the old one.
    const std::uint64_t kv_growth = m.legacy_cache ? kv_full : m.n_layer ? kv_full / m.n_layer / 2 : 0;

    const std::uint64_t per_token = layer_activation_bytes_per_token(m, a, 1);
    // One layer's transients, then the head: the logits (compute dtype, then upcast to f32 for
    // sampling: LogitsProcessor works in f32) next to the last hidden states, after the layers'
    // transients are freed. The peak is the larger of the two.
    auto layers_at = [&](std::uint64_t tokens) { return b * tokens * per_token; };
    auto head_at   = [&](std::uint64_t tokens, std::uint64_t logit_rows) {
        return b * logit_rows * m.n_vocab * (a + 4) + b * tokens * m.n_embd * a;
    };
    auto act_at = [&](std::uint64_t tokens, std::uint64_t logit_rows) {
        return std::max(layers_at(tokens), head_at(tokens, logit_rows));
    };
    // Logits of every prompt position: remote-code models with a legacy cache, and every model
    // before transformers 4.45 (engine_versions.cpp); else only the last position's.
    const bool all_logits = m.legacy_cache || behaviour_of(engine_kind::transformers, p.version).prompt_logits;
    const std::uint64_t prefill_logits = all_logits ? prompt : 1;
    std::uint64_t prefill              = kv_prompt + act_at(prompt, prefill_logits);
    std::uint64_t decode               = kv_full + kv_growth + act_at(1, 1);
    // The part of each phase that is the logits (on the last device only) and the part that is
    // one layer's transient activations (on every device, each running its own layers).
    const std::uint64_t prefill_layers = layers_at(prompt);
    const std::uint64_t decode_layers  = layers_at(1);

    // Quantized kernels' extra buffers: AutoAWQ dequantizes the whole matrix to f16 when
    // batch x tokens >= 1024 (WQLinear_GEMM); AutoGPTQ's exllama kernels keep a dequantization scratch
    // of the largest matrix. Both cost one f16 copy of the largest quantized linear layer.
    std::uint64_t largest = 0;
    for (const auto& t : m.tensors)
        if (is_linear(t.role) && !t.is_bias && t.role != tensor_role::output && t.shape.size() == 2)
            largest = std::max(largest, t.n_elements());
    const weight_format f = resolve_weight_choice(m, p.weights).format;
    const bool gptq       = f == weight_format::gptq_int4 || f == weight_format::gptq_int8;
    const bool awq        = f == weight_format::awq;
    if (gptq) prefill += largest * 2, decode += largest * 2;
    if (awq && b * prompt >= 1024) prefill += largest * 2;

    // Loading an AWQ checkpoint of a model with tied embeddings holds one more f16 copy of the
    // embedding matrix for a moment: Qwen2.5-0.5B/1.5B/3B-AWQ peak at a 1-token prompt exceeds the
    // GPTQ-Int4 run by about that matrix, and the excess vanishes once prefill needs more
    // (tests/data/truth/qwen25_speed_benchmark.json). The peak is the larger of load and run.
    const std::uint64_t load_extra = awq && m.tied_embd ? w.token_embd_bytes : 0;
    if (load_extra > std::max(prefill - kv_prompt, decode - kv_full) && load_extra + kv_prompt > decode)
        prefill = kv_prompt + load_extra;

    const std::uint32_t gpus = p.device == device_kind::cpu ? 1 : std::max<std::uint32_t>(1, p.gpus);
    // device_map="auto" spreads the layers (and their KV) evenly; each device sees its share.
    for (std::uint32_t g = 0; g < gpus; ++g) {
        device_breakdown d{p.device == device_kind::cpu ? "cpu" : "cuda:" + std::to_string(g), p.device, {}, {}};
        if (p.device == device_kind::metal) d.device = "metal";
        d.parts.weights = w.bytes / gpus;
        // Each device's peak holds its own layer's transient activations (device_map runs the layers
        // one device after another, each allocating on its own); the logits live on the last one.
        const bool last = g == gpus - 1;
        if (prefill >= decode) {
            const std::uint64_t rest = prefill - kv_prompt;
            d.parts.kv_cache         = kv_prompt / gpus;
            d.parts.activations      = last ? rest : rest - act_at(prompt, prefill_logits) + prefill_layers;
        } else {
            const std::uint64_t rest = decode - kv_full - kv_growth;
            d.parts.kv_cache         = (kv_full + kv_growth) / gpus;
            d.parts.activations      = last ? rest : rest - act_at(1, 1) + decode_layers;
        }
        d.parts.overhead = p.device == device_kind::cpu ? 0 : static_cast<std::int64_t>(cuda_runtime_bytes);
        d.notes.push_back(prefill >= decode ? "peak during prefill of the prompt" : "peak at the end of decoding");
        r.devices.push_back(std::move(d));
    }
    return r;
}

} // namespace llmplan

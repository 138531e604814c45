// mlx-lm (ml-explore/mlx-lm, release 0.32.0, Aug 2026) on Apple silicon: mlx_lm.generate / mlx_lm.server
// hold the weights as MLX arrays (a quantized checkpoint keeps its packed codes with a scale and a
// bias per group of 64 in the model's dtype: the weights estimate reads config.json's
// `quantization` block, src/model/quant_formats.cpp), and a KV cache per layer that grows in steps
// of 256 tokens (mlx_lm/models/cache.py KVCache: step = 256, each growth allocates
// ceil(new tokens / 256) x 256 more rows). Sliding-window layers keep a RotatingKVCache capped at the
// window; --kv-bits 8 / 4 keep a QuantizedKVCache (group 64, a scale and a bias per group in the keys'
// dtype: 8.5 and 4.5 bits an element, the bytes of q8_0 / q4_0). The prompt is run in chunks of
// prefill_step_size = 2048 tokens (mlx_lm/generate.py generate_step). What mlx_lm.generate reports as
// "Peak memory" is MLX's allocator peak (mx.get_peak_memory), the figure total_bytes stands for.
#include "estimate/engines.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

/// mlx_lm/models/cache.py: KVCache.step and RotatingKVCache.step.
constexpr std::uint64_t kv_step_tokens = 256;
/// mlx_lm/generate.py generate_step(prefill_step_size=2048): the prompt runs in chunks of this many tokens.
constexpr std::uint64_t prefill_step_tokens = 2048;

} // namespace

std::uint64_t mlx_kv_cells(std::uint64_t tokens, std::uint32_t window) {
    const std::uint64_t grown = (tokens + kv_step_tokens - 1) / kv_step_tokens * kv_step_tokens;
    return window ? std::min<std::uint64_t>(grown, window) : grown;
}

result<inference_estimate> estimate_mlx(const model_desc& m, const inference_params& p, const weights_estimate& w) {
    inference_estimate r;
    r.weights = w;
    // MLX computes in the scales' dtype (bf16 or f16) for quantized models, else the model's own;
    // f32 checkpoints stay f32.
    const dtype act            = w.compute_dtype;
    const dtype kv             = p.kv_type.value_or(act);
    r.kv_type                  = kv;
    const std::uint64_t a      = info(act).bytes_per_block;
    const std::uint64_t prompt = p.prompt ? std::min(p.prompt, p.ctx) : p.ctx;

    std::uint64_t kv_bytes = 0;
    for (const auto& l : m.layers) {
        r.kv_bytes_per_token += kv_layer_bytes(m, l, engine_kind::mlx, kv, kv, 1);
        r.state_bytes_per_sequence += state_layer_bytes(l, engine_kind::mlx, act);
        kv_bytes += kv_layer_bytes(m, l, engine_kind::mlx, kv, kv, mlx_kv_cells(p.ctx, l.n_swa)) +
                    state_layer_bytes(l, engine_kind::mlx, act);
    }
    kv_bytes *= p.batch;

    // Prefill: one chunk of at most 2048 tokens alive at a time, one layer at a time; the last chunk
    // also runs the LM head over all its positions before generate_step keeps the last one.
    const std::uint64_t chunk = std::min(prompt, prefill_step_tokens);
    const std::uint64_t last  = prompt % prefill_step_tokens ? prompt % prefill_step_tokens : chunk;
    const std::uint64_t layer = chunk * layer_activation_bytes_per_token(m, a, 1);
    const std::uint64_t head  = last * m.n_vocab * a;

    device_breakdown d{"metal", device_kind::metal, {}, {}};
    d.parts.weights     = w.bytes;
    d.parts.kv_cache    = kv_bytes;
    d.parts.activations = std::max(layer, head) * p.batch;
    r.devices.push_back(std::move(d));
    r.notes.push_back(fmt::format("mlx-lm grows each layer's KV cache in steps of {} tokens and runs the prompt in "
                                  "chunks of {} tokens",
                                  kv_step_tokens, prefill_step_tokens));
    r.notes.push_back("the GPU may use up to macOS's wired limit (recommendedMaxWorkingSetSize), which mlx_lm "
                      "raises to at most that with mx.set_wired_limit");
    return r;
}

} // namespace llmplan

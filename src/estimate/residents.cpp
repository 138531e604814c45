// Every other resident of a device, in the same budget as the model:
//   draft  - speculative decoding's draft model (llama.cpp -md, vLLM --speculative-config, transformers
//            assistant_model): its own weights, its own KV cache for the same tokens, its own compute.
//            vLLM sizes one pool for both: the draft's weights come out of gpu_memory_utilization x memory
//            and every pooled token holds both models' KV rows (vllm/v1/spec_decode, kv_cache_utils.py).
//   projector - llama.cpp's --mmproj GGUF (clip loads its tensors on the GPU backend, tools/mtmd/clip.cpp),
//            or a VLM's vision tower in transformers / vLLM (loaded with the model, vision_config), plus
//            the encoder's activations for one image: N patches x (6 h + 2 ff) x 2 bytes (the block's
//            input, q, k, v, output and the MLP's intermediate, 16-bit; SDPA keeps no N x N scores).
//   reserved - memory other processes already hold (--reserve): not the engine's, still not free.
#include "estimate/engine_traits.h"
#include "llmplan/gguf.h"
#include "llmplan/inference.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

/// The device the model's accelerator share lives on: the first GPU, else the first device.
device_breakdown* main_device(inference_estimate& e) {
    for (auto& d : e.devices)
        if (d.kind != device_kind::cpu) return &d;
    return e.devices.empty() ? nullptr : &e.devices.front();
}

std::uint64_t kv_per_token(const model_desc& m, engine_kind engine, dtype kv) {
    std::uint64_t b = 0;
    for (const auto& l : m.layers)
        b += kv_layer_bytes(m, l, engine, kv, kv, 1);
    return b;
}

/// vLLM: a fixed budget; what a new resident takes comes out of the KV pool. `per_token` of the
/// draft's KV joins each pooled token. Returns false when the pool is not sized from known memory.
bool take_from_vllm_pool(const model_desc& m, const inference_params& p, inference_estimate& e, device_breakdown& d,
                         std::uint64_t bytes, std::uint64_t draft_per_token) {
    if (!detail::traits_of(p.engine).kv_pool || p.device_memory_bytes == 0) return false;
    const std::uint64_t main_per_token = std::max<std::uint64_t>(1, kv_per_token(m, p.engine, e.kv_type) / p.gpus);
    const std::uint64_t pool           = d.parts.kv_cache > bytes ? d.parts.kv_cache - bytes : 0;
    const std::uint64_t tokens         = pool / (main_per_token + draft_per_token);
    d.parts.kv_cache                   = tokens * main_per_token;
    for (auto& other : e.devices)
        if (&other != &d && other.kind == d.kind) other.parts.kv_cache = d.parts.kv_cache;
    e.vllm_kv_capacity_tokens = std::min(e.vllm_kv_capacity_tokens, tokens);
    e.vllm_max_model_len      = std::min(e.vllm_max_model_len, tokens);
    return true;
}

status add_draft(const model_desc& m, const inference_params& p, inference_estimate& e, device_breakdown& d) {
    const model_desc& dm = *p.draft;
    if (dm.n_vocab != m.n_vocab)
        e.notes.push_back(fmt::format("draft vocabulary {} differs from the model's {}: engines need a shared "
                                      "tokenizer for speculative decoding",
                                      dm.n_vocab, m.n_vocab));
    weight_choice w;
    // A GGUF type asked of a checkpoint applies to its draft too (both converted the same way).
    if (p.weights.format == weight_format::gguf && !dm.from_gguf) w = p.weights;
    auto dw = estimate_weights(dm, w);
    if (!dw) return dw.error();
    const std::uint64_t shards  = detail::traits_of(p.engine).tensor_parallel ? p.gpus / p.pipeline_parallel : 1;
    const std::uint64_t per_tok = kv_per_token(dm, p.engine, e.kv_type) / std::max<std::uint64_t>(1, shards);
    const std::uint64_t weights = dw->bytes / std::max<std::uint64_t>(1, shards);
    if (take_from_vllm_pool(m, p, e, d, weights, per_tok)) {
        d.parts.draft += weights + e.vllm_kv_capacity_tokens * per_tok;
        d.notes.push_back(
            fmt::format("draft {}: weights and its KV rows for the pool's {} tokens, out of the same pool", dm.id,
                        e.vllm_kv_capacity_tokens));
        return ok();
    }
    if (!detail::traits_of(p.engine).kv_pool) {
        // The draft's own context: the engine's estimate of it alone, on this device, less the runtime
        // (one CUDA context / process for both).
        inference_params dp = p;
        dp.draft.reset();
        dp.mmproj_bytes.reset();
        dp.reserve_bytes = 0;
        dp.gpus          = 1;
        dp.weights       = w;
        dp.gpu_layers    = -1;
        auto de          = estimate_inference(dm, dp);
        if (!de) return de.error();
        for (const auto& dd : de->devices)
            if (dd.kind == d.kind || de->devices.size() == 1) {
                d.parts.draft += static_cast<std::uint64_t>(std::max<std::int64_t>(0, dd.parts.allocated()));
                break;
            }
        d.notes.push_back(fmt::format("draft {}: its weights, KV cache and compute at the same context", dm.id));
        return ok();
    }
    d.parts.draft += weights + per_tok * p.ctx * p.batch;
    d.notes.push_back(fmt::format("draft {}: weights + KV for ctx x batch", dm.id));
    return ok();
}

void add_projector(const model_desc& m, const inference_params& p, inference_estimate& e, device_breakdown& d) {
    if (p.mmproj_bytes) {
        d.parts.projector += *p.mmproj_bytes;
        d.notes.push_back("projector: the --mmproj file's tensors; clip's compute buffer for an image is not counted");
        return;
    }
    const auto& v = m.vision;
    if (v.n_layer == 0 || detail::traits_of(p.engine).projector_file) return;
    const std::uint64_t shards  = detail::traits_of(p.engine).tensor_parallel ? p.gpus / p.pipeline_parallel : 1;
    const dtype wt              = m.torch_dtype == dtype::f32 ? dtype::f32 : dtype::bf16;
    const std::uint64_t weights = tensor_bytes_ceil(wt, v.n_params) / std::max<std::uint64_t>(1, shards);
    const std::uint32_t side    = p.image_size ? p.image_size : v.image_size ? v.image_size : 448;
    const std::uint64_t n       = v.patch ? std::uint64_t{side / v.patch} * (side / v.patch) : 0;
    const std::uint64_t act     = n * (6 * v.n_embd + 2 * v.n_ff) * 2;
    take_from_vllm_pool(m, p, e, d, weights + act, 0); // vLLM: out of the pool; else on top
    d.parts.projector += weights + act;
    d.notes.push_back(fmt::format("projector: vision tower ({:.2f} B params) + one {}x{} image's encoder activations",
                                  static_cast<double>(v.n_params) / 1e9, side, side));
}

} // namespace

result<std::uint64_t> projector_file_bytes(const std::string& path) {
    auto g = read_gguf_file(path);
    if (!g) return g.error();
    std::uint64_t bytes = 0;
    for (const auto& t : g->tensors)
        bytes += t.desc.bytes;
    if (bytes == 0) return make_error(error_code::bad_value, "the projector GGUF holds no tensors", path);
    return bytes;
}

status add_residents(const model_desc& m, const inference_params& p, inference_estimate& e) {
    if (p.image_size > 16384)
        return make_error(error_code::invalid_params,
                          fmt::format("{} pixels a side; expected at most 16384", p.image_size), "--image-size");
    device_breakdown* d = main_device(e);
    if (d == nullptr) return ok();
    if (p.draft) {
        if (auto s = add_draft(m, p, e, *d); !s) return s;
    }
    add_projector(m, p, e, *d);
    if (p.reserve_bytes) {
        bool gpu = false;
        for (auto& x : e.devices)
            if (x.kind != device_kind::cpu) x.parts.reserved += p.reserve_bytes, gpu = true;
        if (!gpu) d->parts.reserved += p.reserve_bytes;
    }
    return ok();
}

} // namespace llmplan

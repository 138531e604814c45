// estimate_inference: validate the options, size the weights, hand over to the engine's model.
#include "estimate/engine_traits.h"
#include "estimate/engines.h"

#include <fmt/format.h>

namespace llmplan {
namespace {
/// Contexts up to 2^31 tokens (llama.cpp's n_ctx is a uint32 and engines index tokens with int32).
constexpr std::uint64_t max_ctx = 1ull << 31;
} // namespace

bool tensor_parallel_divides_heads(const model_desc& m, std::uint32_t tp) {
    if (tp <= 1) return true;
    for (const auto& l : m.layers) {
        if (l.n_head == 0) continue; // no attention (recurrent / linear layers)
        if (l.n_head % tp != 0) return false;
        const std::uint32_t kv = l.n_head_kv ? l.n_head_kv : l.n_head;
        if (tp >= kv ? tp % kv != 0 : kv % tp != 0) return false;
    }
    return true;
}

std::uint32_t largest_tensor_parallel(const model_desc& m, std::uint32_t gpus) {
    for (std::uint32_t tp = std::max<std::uint32_t>(1, gpus); tp > 1; --tp)
        if (gpus % tp == 0 && tensor_parallel_divides_heads(m, tp)) return tp;
    return 1;
}

status validate(const model_desc& m, const inference_params& p) {
    auto bad = [](std::string msg, std::string opt) {
        return make_error(error_code::invalid_params, std::move(msg), std::move(opt));
    };
    // The engines' KV-cache models cover one causal stack; an encoder-decoder also runs its encoder
    // over the source once and keeps each decoder layer's cross-attention k/v over that source,
    // which none of them is sized for yet: no figure rather than a wrong one.
    if (m.is_encoder_decoder())
        return make_error(error_code::unsupported_arch,
                          fmt::format("inference of encoder-decoder models ({}: {} encoder + {} decoder layers with "
                                      "cross-attention) is not supported: the KV-cache models cover decoder-only "
                                      "stacks; expected --task train, or inspect",
                                      m.arch, m.n_layer_enc, m.n_layer - m.n_layer_enc),
                          "--task infer");
    if (p.ctx == 0 || p.ctx > max_ctx) return bad(fmt::format("{} tokens; expected 1 to 2^31", p.ctx), "--ctx");
    if (p.batch == 0 || p.batch > max_ctx)
        return bad(fmt::format("{} sequences; expected at least 1", p.batch), "--batch");
    if (p.ctx * p.batch > max_ctx) return bad("ctx x batch exceeds 2^31 tokens", "--batch");
    if (p.prompt > p.ctx)
        return bad(fmt::format("prompt of {} tokens is longer than ctx {}", p.prompt, p.ctx), "--prompt");
    if (p.gpus == 0 || p.gpus > 1024) return bad("expected 1 to 1024 GPUs", "--gpus");
    if (p.pipeline_parallel == 0 || p.gpus % p.pipeline_parallel != 0)
        return bad(fmt::format("{} GPUs cannot form {} pipeline stages; expected --gpus a multiple of it", p.gpus,
                               p.pipeline_parallel),
                   "--pipeline-parallel");
    const auto& engine = detail::traits_of(p.engine);
    if (p.pipeline_parallel > 1 && !engine.pipeline_stages)
        return bad("pipeline stages are modelled for vLLM; llama.cpp and transformers split layers with --gpus",
                   "--pipeline-parallel");
    if (engine.tensor_parallel && p.pipeline_parallel > 0 && p.gpus % p.pipeline_parallel == 0 &&
        !tensor_parallel_divides_heads(m, p.gpus / p.pipeline_parallel)) {
        std::string sizes;
        for (std::uint32_t tp = 1; tp <= std::max<std::uint32_t>(8, p.gpus / p.pipeline_parallel); ++tp)
            if (tensor_parallel_divides_heads(m, tp)) sizes += (sizes.empty() ? "" : ", ") + std::to_string(tp);
        return bad(fmt::format("vLLM splits the attention heads over {} GPUs (tensor parallel), and {} heads ({} KV) "
                               "do not divide; tensor-parallel sizes that do: {} (more GPUs: --pipeline-parallel)",
                               p.gpus / p.pipeline_parallel, m.typical_layer().n_head, m.typical_layer().n_head_kv,
                               sizes),
                   "--gpus");
    }
    if (p.pipeline_parallel > m.n_layer)
        return bad(fmt::format("{} pipeline stages for {} layers", p.pipeline_parallel, m.n_layer),
                   "--pipeline-parallel");
    if (p.n_batch == 0 || p.n_ubatch == 0) return bad("expected a positive batch size", "--n-batch/--ubatch");
    if (p.gpu_layers > static_cast<std::int64_t>(m.n_layer))
        return bad(fmt::format("{} GPU layers asked; the model has {} layers", p.gpu_layers, m.n_layer),
                   "--gpu-layers");
    if (p.cpu_moe_layers > 0 && !m.is_moe())
        return bad("the model has no routed experts to keep in RAM", "--n-cpu-moe/--cpu-moe");
    if (p.cpu_moe_layers > 0 && !engine.offloads_to_host)
        return bad("experts in RAM are a llama.cpp option", "--n-cpu-moe/--cpu-moe");
    if (p.gpu_memory_utilization && !(*p.gpu_memory_utilization > 0 && *p.gpu_memory_utilization <= 1))
        return bad("expected a fraction in (0, 1]", "--gpu-memory-utilization");
    const bool gguf_weights = p.weights.format == weight_format::gguf;
    if (gguf_weights && !engine.runs_gguf)
        return bad(fmt::format("GGUF type {} runs on llama.cpp, not {}", p.weights.gguf_ftype, engine_name(p.engine)),
                   "--weights");
    if (engine.runs_gguf && (p.weights.format == weight_format::nvfp4 || p.weights.format == weight_format::mxfp4))
        return bad(fmt::format("{} weights run on vLLM or transformers; llama.cpp's 4-bit float file type is "
                               "mxfp4_moe",
                               to_string(p.weights)),
                   "--weights");
    if (m.from_gguf && !engine.runs_gguf)
        return bad(fmt::format("a GGUF file runs on llama.cpp, not {}", engine_name(p.engine)), "--engine");
    if (!detail::runs_on(engine, p.device)) {
        std::string where;
        for (auto d : {device_kind::cpu, device_kind::cuda, device_kind::metal})
            if (detail::runs_on(engine, d)) where += fmt::format("{}{}", where.empty() ? "" : " or ", to_string(d));
        return bad(
            fmt::format("{} does not run on {}; it runs on --device {}", engine.display, to_string(p.device), where),
            "--device");
    }
    if (p.kv_type && !detail::offers_kv_type(engine, *p.kv_type))
        return bad(fmt::format("{} has no {} KV cache; expected {}", engine.name, name(*p.kv_type), engine.kv_types),
                   "--kv-type");
    return ok();
}

result<inference_estimate> estimate_inference(const model_desc& m, const inference_params& p) {
    if (auto s = validate(m, p); !s) return s.error();
    auto w = estimate_weights(m, p.weights);
    if (!w) return w.error();
    result<inference_estimate> r = p.engine == engine_kind::llama_cpp ? estimate_llamacpp(m, p, *w)
                                   : p.engine == engine_kind::vllm    ? estimate_vllm(m, p, *w)
                                   : p.engine == engine_kind::sglang  ? estimate_sglang(m, p, *w)
                                   : p.engine == engine_kind::mlx     ? estimate_mlx(m, p, *w)
                                                                      : estimate_transformers(m, p, *w);
    if (!r) return r;
    r->engine_release = to_string(p.engine, p.version.known() ? p.version : default_engine_version(p.engine));
    if (p.version.key() > default_engine_version(p.engine).key())
        r->notes.push_back(fmt::format("{} is newer than the newest release llmplan knows ({}): it is estimated "
                                       "with that release's rules ({})",
                                       to_string(p.engine, p.version),
                                       to_string(p.engine, default_engine_version(p.engine)),
                                       behaviour_of(p.engine, p.version).range));
    r->engine_range = behaviour_of(p.engine, p.version).range;
    r->weight_class = weight_class(w->bytes, count_params(m).total);
    r->accuracy     = measured_accuracy(p.engine, p.device, r->weight_class);
    if (auto s = add_residents(m, p, *r); !s) return s.error();
    // On disk: the files when we read them; else the weights as the asked format stores them.
    r->disk_bytes = m.file_bytes && p.weights.format == weight_format::native ? m.file_bytes : w->bytes;
    return r;
}

} // namespace llmplan

namespace llmplan {

double gpu_memory_utilization(const inference_params& p) {
    if (p.gpu_memory_utilization) return *p.gpu_memory_utilization;
    // Another engine's estimate reports the current vLLM release's default (its version is not vLLM's).
    return behaviour_of(engine_kind::vllm, p.engine == engine_kind::vllm ? p.version : engine_version{})
        .gpu_memory_utilization;
}

} // namespace llmplan

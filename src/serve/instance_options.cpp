// One serving instance of a hardware row at a tensor-parallel size (src/serve/instance_options.h): the KV
// pool vLLM, SGLang or llama-server sizes for it, its step shape, and why it cannot run where it cannot.
#include "serve/instance_options.h"

#include "estimate/engines.h"
#include "hardware/personal_memory.h"
#include "llmplan/units.h"
#include "plan/detail.h"
#include "serve/step_table.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace llmplan::detail {
namespace {

/// llama-server's slots when --parallel is not given (ggml-org/llama.cpp tools/server/server.cpp, as
/// read 2026-12-06: common/arg.cpp sets n_parallel = -1 for the server, and n_parallel < 0 is "auto",
/// 4 slots sharing one unified KV cache; an explicit --parallel N splits -c into N slots of -c / N).
constexpr std::uint64_t llama_server_auto_slots = 4;
std::string no_room(const inference_estimate& e, const device_spec& d, std::uint32_t tp) {
    std::uint64_t weights = 0;
    for (const auto& dev : e.devices)
        if (dev.kind != device_kind::cpu) weights = std::max<std::uint64_t>(weights, dev.parts.weights);
    return fmt::format("does not fit at tensor parallel {}: the weights take {} a GPU of its {}", tp,
                       gib_text(static_cast<double>(weights)),
                       gib_text(static_cast<double>(d.memory_bytes.value_or(0))));
}

std::string kv_short(std::uint64_t kv_tokens, std::uint64_t need, std::uint32_t tp) {
    return fmt::format("at tensor parallel {}, the KV cache holds {} tokens, and one request needs {}", tp, kv_tokens,
                       need);
}

/// llama.cpp: the KV cells the GPUs hold beyond everything else at one sequence's context (the cache
/// llama-server allocates is -c cells shared by its --parallel slots; `-c` is the plan's to choose).
std::optional<tp_option> prepare_llamacpp(const serving_context& c, const device_spec& d, inference_params p,
                                          std::uint32_t tp, std::string& why) {
    const model_desc& m = *c.model;
    p.engine            = engine_kind::llama_cpp;
    p.device            = detail::is_apple_silicon(d) ? device_kind::metal : device_kind::cuda;
    auto e              = estimate_inference(m, p);
    if (!e) {
        why = e.error().message;
        return std::nullopt;
    }
    if (e->kv_bytes_per_token == 0) {
        why = "the model keeps no KV cache llama-server could share between users";
        return std::nullopt;
    }
    std::int64_t free = 0;
    for (const auto& dev : e->devices) {
        if (dev.kind == device_kind::cpu) continue;
        free += static_cast<std::int64_t>(*d.memory_bytes) -
                (dev.total_bytes() - static_cast<std::int64_t>(dev.parts.kv_cache));
    }
    const std::uint64_t need = c.request.input_len + c.request.output_len;
    if (free <= 0) {
        why = no_room(*e, d, tp);
        return std::nullopt;
    }
    tp_option o;
    o.tp          = tp;
    o.kv_capacity = static_cast<std::uint64_t>(free) / e->kv_bytes_per_token;
    if (o.kv_capacity < need) {
        why = kv_short(o.kv_capacity, need, tp);
        return std::nullopt;
    }
    const std::uint64_t fit = std::min(o.kv_capacity / need, llama_server_max_slots);
    // Slots for the load asked: one a user in flight where memory allows, else llama-server's own 4.
    const std::uint64_t want =
        c.request.concurrency ? static_cast<std::uint64_t>(std::ceil(*c.request.concurrency)) : llama_server_auto_slots;
    o.default_seqs           = std::max<std::uint64_t>(1, std::min(fit, want));
    o.batched_tokens         = p.n_batch; // llama-server -b: the tokens one llama_decode call takes
    o.gpu_memory_utilization = 1.0;
    o.shape                  = make_instance_shape(m, *e, c.infer, d, serving_engine::llamacpp, tp, 1);
    if (o.shape.bandwidth <= 0 || o.shape.matmul_rate <= 0) {
        why = serving_rates_unknown;
        return std::nullopt;
    }
    return o;
}

} // namespace

serving_engine engine_of(const serving_context& c) {
    if (c.request.engine) return *c.request.engine;
    return c.infer.engine == engine_kind::llama_cpp ? serving_engine::llamacpp : serving_engine::vllm;
}

std::uint64_t serving_ctx(const serving_context& c) {
    const std::uint64_t need = c.request.input_len + c.request.output_len;
    return c.ctx_given ? std::max(c.infer.ctx, need) : need;
}

std::optional<tp_option> prepare_instance(const serving_context& c, const device_spec& d, std::uint32_t tp,
                                          std::string& why) {
    const model_desc& m = *c.model;
    if (!tensor_parallel_divides_heads(m, tp)) {
        why = fmt::format("{} GPUs (tensor parallel) do not split the model's attention heads evenly", tp);
        return std::nullopt;
    }
    inference_params p     = c.infer;
    const std::uint32_t pp = std::max(1u, p.pipeline_parallel);
    p.gpus                 = tp * pp;
    p.batch                = 1;
    p.ctx                  = serving_ctx(c);
    p.prompt               = 0;
    if (!d.memory_bytes) {
        why = "its memory size is not in the table";
        return std::nullopt;
    }
    p.device_memory_bytes = *d.memory_bytes;
    if (engine_of(c) == serving_engine::llamacpp) {
        if (pp == 1) return prepare_llamacpp(c, d, p, tp, why);
        why = "llama-server has no pipeline parallel";
        return std::nullopt;
    }
    p.engine = engine_kind::vllm; // the KV pool as vLLM sizes it at --gpu-memory-utilization
    p.device = device_kind::cuda;
    auto e   = estimate_inference(m, p);
    if (!e) {
        why = e.error().message;
        return std::nullopt;
    }
    const std::uint64_t need = c.request.input_len + c.request.output_len;
    tp_option o;
    o.tp          = tp;
    o.kv_capacity = e->vllm_kv_capacity_tokens;
    if (o.kv_capacity == 0) {
        why = no_room(*e, d, tp);
        return std::nullopt;
    }
    if (o.kv_capacity < need) {
        why = kv_short(o.kv_capacity, need, tp);
        return std::nullopt;
    }
    o.default_seqs   = e->vllm_max_num_seqs ? e->vllm_max_num_seqs : 256;
    o.batched_tokens = e->vllm_max_num_batched_tokens ? e->vllm_max_num_batched_tokens : 8192;
    if (engine_of(c) == serving_engine::sglang) {
        inference_params q = p;
        q.engine           = engine_kind::sglang;
        if (const auto g = estimate_inference(m, q)) {
            // SGLang's step budget: its --chunked-prefill-size default.
            if (g->vllm_max_num_batched_tokens) o.batched_tokens = g->vllm_max_num_batched_tokens;
            // Its KV pool at the --mem-fraction-static it computes for this GPU and tensor parallel
            // (engine_sglang.cpp; 0.83 of an 80 GB H100 at tensor parallel 1, not vLLM's 0.92), unless the
            // question gave a memory fraction.
            if (!c.infer.gpu_memory_utilization && g->vllm_kv_capacity_tokens)
                o.kv_capacity = g->vllm_kv_capacity_tokens;
        }
        if (o.kv_capacity < need) {
            why = kv_short(o.kv_capacity, need, tp);
            return std::nullopt;
        }
    }
    o.gpu_memory_utilization = gpu_memory_utilization(p);
    o.shape                  = make_instance_shape(m, *e, c.infer, d, engine_of(c), tp, pp);
    // Both rates are needed: a step without the matmul rate would price prefill at nothing.
    if (o.shape.bandwidth <= 0 || o.shape.matmul_rate <= 0) {
        why = serving_rates_unknown;
        return std::nullopt;
    }
    return o;
}

} // namespace llmplan::detail

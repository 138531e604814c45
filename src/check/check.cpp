// check: the workload a log implies, llmplan's estimate of it, and the rows that set the two side by side.
#include "llmplan/check.h"

#include "detail/strings.h"
#include "estimate/engine_traits.h"
#include "estimate/gguf_recipe.h"
#include "llmplan/load.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace llmplan {
namespace {

std::string alnum_lower(std::string_view s) {
    std::string r;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c)))
            r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

std::uint64_t part_of(const memory_parts& p, std::string_view part) {
    if (part == "weights") return p.weights;
    if (part == "kv_cache") return p.kv_cache;
    if (part == "compute") return p.compute;
    if (part == "activations") return p.activations;
    if (part == "overhead") return p.overhead > 0 ? static_cast<std::uint64_t>(p.overhead) : 0;
    return 0;
}

bool llama_kv_ok(dtype d) {
    return d == dtype::f32 || d == dtype::f16 || d == dtype::bf16 || d == dtype::q8_0 || d == dtype::q4_0;
}

} // namespace

std::optional<double> check_row::difference() const {
    if (!engine_bytes || *engine_bytes == 0) return std::nullopt;
    return (static_cast<double>(llmplan_bytes) - static_cast<double>(*engine_bytes)) /
           static_cast<double>(*engine_bytes);
}

result<model_desc> model_from_log(const log_facts& f) {
    if (f.model_name.empty())
        return make_error(error_code::missing_field, "the log does not name its model; pass --model MODEL", "LOGFILE");
    if (const auto* e = find_in_catalog(f.model_name)) return load_catalog_model(*e);
    // A path or a display name: match its last components against the catalog's names, letters and
    // digits only ("Qwen3 30B A3B" and ".../Qwen3-30B-A3B" both name Qwen/Qwen3-30B-A3B).
    std::string_view tail = f.model_name;
    while (!tail.empty() && tail.back() == '/')
        tail.remove_suffix(1);
    if (const auto slash = tail.find_last_of('/'); slash != std::string_view::npos) tail = tail.substr(slash + 1);
    // Exact first; else the longest catalog name the logged one ends with ("Meta Llama 3.1 70B Instruct").
    const std::string want        = alnum_lower(tail);
    const catalog_entry* best     = nullptr;
    std::size_t best_len          = 0;
    constexpr std::size_t min_len = 8; // shorter names ("gpt2") would match too much by their ending
    for (const auto& e : catalog()) {
        const auto slash       = e.id.find('/');
        const std::string name = alnum_lower(slash == std::string::npos ? e.id : e.id.substr(slash + 1));
        if (want.empty() || name.empty()) continue;
        if (name == want) return load_catalog_model(e);
        if (name.size() >= min_len && name.size() > best_len && want.size() > name.size() &&
            want.compare(want.size() - name.size(), name.size(), name) == 0)
            best = &e, best_len = name.size();
    }
    if (best) return load_catalog_model(*best);
    return make_error(
        error_code::unknown_name,
        fmt::format("the log names \"{}\", which is not in the catalog; pass --model MODEL", f.model_name), "LOGFILE");
}

/// Each engine's log prints different fields: the one per-engine mapping from a log to parameters
/// (transformers prints none of them: its defaults stand).
inference_params params_from_log(const log_facts& f, const model_desc& m) {
    inference_params p;
    p.engine = f.engine;
    if (f.engine == engine_kind::llama_cpp) {
        p.device = f.metal ? device_kind::metal : f.gpu_devices > 0 ? device_kind::cuda : device_kind::cpu;
        p.gpus   = std::max<std::uint32_t>(1, f.gpu_devices);
        if (!m.from_gguf && f.gguf_ftype && gguf_ftype_from_name(*f.gguf_ftype))
            p.weights = weight_choice{weight_format::gguf, *f.gguf_ftype};
        if (f.n_ctx) p.ctx = *f.n_ctx;
        if (f.n_batch) p.n_batch = *f.n_batch;
        if (f.n_ubatch) p.n_ubatch = *f.n_ubatch;
        if (f.flash_attn) p.flash_attn = *f.flash_attn;
        if (f.type_k && llama_kv_ok(*f.type_k) && (!f.type_v || *f.type_v == *f.type_k)) p.kv_type = *f.type_k;
        // llama.cpp counts the output layer too ("offloaded 33/33" for 32 blocks).
        if (f.gpu_layers && p.device != device_kind::cpu)
            p.gpu_layers = *f.gpu_layers >= static_cast<std::int64_t>(m.n_layer) ? -1 : *f.gpu_layers;
        p.n_ubatch = std::min(p.n_ubatch, p.n_batch);
    } else if (f.engine == engine_kind::vllm) {
        p.device = device_kind::cuda;
        p.gpus   = f.tensor_parallel.value_or(1);
        p.ctx    = f.max_model_len.value_or(m.n_ctx_train ? m.n_ctx_train : 4096);
        if (f.gpu_memory_utilization) p.gpu_memory_utilization = *f.gpu_memory_utilization;
        // The release the log names; a log that neither names one nor prints 0.21's CUDA graph
        // profiling lines came from an earlier release: 0.14, the one llmplan modelled until 0.21
        // (engine_traits.cpp), so older logs are read as before.
        p.version = f.version.value_or(engine_version{0, 14, 0});
        if (f.total_gpu_memory) p.device_memory_bytes = *f.total_gpu_memory;
        if (f.kv_cache_dtype) p.kv_type = *f.kv_cache_dtype;
    }
    return p;
}

result<check_report> check_against_log(const log_facts& f, const model_desc& m) {
    check_report r;
    r.facts            = f;
    r.notes            = f.notes; // lines whose values were not taken, first
    r.params           = params_from_log(f, m);
    const auto& engine = detail::traits_of(f.engine);
    if (engine.runs_gguf && !m.from_gguf && r.params.weights.format != weight_format::gguf)
        r.notes.push_back(fmt::format("file type \"{}\" is not a llama-quantize type llmplan knows: weights at the "
                                      "checkpoint's own precision (pass --weights TYPE)",
                                      f.file_type));
    if (f.type_k && !llama_kv_ok(*f.type_k))
        r.notes.push_back(fmt::format("K cache type {} is not modelled: f16 assumed", name(*f.type_k)));
    auto e = estimate_inference(m, r.params);
    if (!e) return e.error();
    r.estimate  = std::move(*e);
    auto device = [&](const std::string& d) -> const device_breakdown* {
        for (const auto& b : r.estimate.devices)
            if (b.device == d) return &b;
        return nullptr;
    };
    for (const auto& fig : f.figures) {
        const auto* d = device(fig.device);
        // vLLM 0.21+'s CUDA graph estimate is llmplan's compute part; it is set beside the log's own.
        const std::uint64_t mine = fig.part == "cuda_graphs" ? r.estimate.vllm_cuda_graph_bytes
                                   : d                       ? part_of(d->parts, fig.part)
                                                             : 0;
        check_row row{fig.part, fig.device, fig.bytes, static_cast<std::int64_t>(mine)};
        r.rows.push_back(std::move(row));
    }
    // The parts llmplan counts that the engine did not print (its overhead, for one).
    for (const auto& d : r.estimate.devices)
        for (std::string_view part : {"weights", "kv_cache", "compute", "activations", "overhead"}) {
            const auto v     = part_of(d.parts, part);
            const bool shown = std::any_of(r.rows.begin(), r.rows.end(),
                                           [&](const auto& x) { return x.part == part && x.device == d.device; });
            if (v && !shown)
                r.rows.push_back({std::string(part), d.device, std::nullopt, static_cast<std::int64_t>(v)});
        }
    if (engine.kv_pool && f.kv_tokens)
        r.notes.push_back(fmt::format("KV cache: the engine holds {} tokens, llmplan {}", *f.kv_tokens,
                                      r.estimate.vllm_kv_capacity_tokens));
    if (engine.kv_pool && !f.total_gpu_memory)
        r.notes.push_back("the log does not print the GPU's memory: the KV pool is what the context needs");
    return r;
}

} // namespace llmplan

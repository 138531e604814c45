// fit_hardware: every model at each precision on one machine, largest that fit, and the reverse
// questions for a chosen model (through fit_in_memory).
#include "llmplan/fit_hardware.h"

#include "detail/checked_number.h"
#include "estimate/engine_traits.h"
#include "hardware/personal_memory.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

/// llama.cpp GGUF types a CPU or Apple machine runs: full half precision, the 8-bit reference and
/// the 4-bit type most downloads use (llama.cpp's quantize README lists q4_k_m as "recommended").
constexpr const char* gguf_precisions[] = {"f16", "q8_0", "q4_k_m"};
/// vLLM on a CUDA GPU: the checkpoint dtype, FP8 weights (compressed-tensors / --quantization fp8)
/// and 4-bit AWQ (the common pre-quantized 4-bit checkpoint format vLLM serves).
constexpr const char* gpu_precisions[] = {"bf16", "fp8", "awq"};

} // namespace

result<fit_hardware_result> fit_hardware(const device_spec& d, const std::vector<model_desc>& models,
                                         const fit_hardware_options& o) {
    if (o.ctx == 0 || o.batch == 0)
        return make_error(error_code::invalid_params, "ctx and batch must be at least 1", d.name);
    fit_hardware_result r;
    r.hardware = d.name;
    r.kind     = std::string(to_string(d.kind));
    r.ctx      = o.ctx;
    r.batch    = o.batch;

    inference_params p;
    p.ctx   = o.ctx;
    p.batch = o.batch;
    if (d.has_accelerator()) {
        // Memory per accelerator; a model spreads over --gpus of them (default: all the machine has).
        p.device       = detail::is_apple_silicon(d) ? device_kind::metal : device_kind::cuda;
        p.engine       = d.unified_memory ? engine_kind::llama_cpp : engine_kind::vllm;
        p.gpus         = o.gpus ? o.gpus : std::max(1u, d.gpu_count);
        r.memory_bytes = *d.memory_bytes;
        if (d.unified_memory) r.notes.push_back("unified memory: the share the GPU may use (memory_bytes)");
    } else if (d.host_memory_bytes) {
        p.device       = device_kind::cpu;
        p.engine       = engine_kind::llama_cpp;
        p.gpus         = 1;
        r.memory_bytes = *d.host_memory_bytes;
        r.notes.push_back("no GPU: the model runs from system RAM on the CPU");
        if (detail::is_personal_machine(d)) r.notes.push_back(detail::personal_ram_note(d, *d.host_memory_bytes));
        if (d.host_memory_is_platform_max)
            r.notes.push_back("RAM: the most this CPU's platform takes, not what a given machine has");
    } else {
        return make_error(error_code::invalid_params, "no memory figure: neither GPU memory nor RAM is known", d.name);
    }
    if (o.gpus > 1 && p.device != device_kind::cuda)
        r.notes.push_back(fmt::format("--gpus {} ignored: {} has one memory pool", o.gpus, d.name));
    if (p.device != device_kind::cuda) p.gpus = 1;
    r.gpus   = p.gpus;
    r.engine = std::string(engine_name(p.engine));
    r.device = p.device == device_kind::cuda ? "cuda" : p.device == device_kind::metal ? "metal" : "cpu";
    // vLLM takes gpu_memory_utilization of each GPU up front; the model must fit in that share.
    const bool pool     = detail::traits_of(p.engine).kv_pool;
    const double usable = pool ? gpu_memory_utilization(p) : 1.0;
    r.budget_bytes =
        detail::saturate<std::uint64_t>(usable * static_cast<double>(r.memory_bytes), detail::rounding::toward_zero);
    // A laptop's or desktop's RAM: the OS, the desktop and a browser keep their share.
    if (p.device == device_kind::cpu && detail::is_personal_machine(d))
        r.budget_bytes = detail::personal_model_ram_bytes(d, r.memory_bytes);
    if (pool)
        r.notes.push_back(
            fmt::format("vLLM budget: {} x gpu_memory_utilization {}", r.memory_bytes, gpu_memory_utilization(p)));

    if (detail::traits_of(p.engine).runs_gguf)
        r.precisions.assign(std::begin(gguf_precisions), std::end(gguf_precisions));
    else
        r.precisions.assign(std::begin(gpu_precisions), std::end(gpu_precisions));

    std::vector<inference_params> per_precision;
    for (const auto& w : r.precisions) {
        auto q    = p;
        q.weights = *parse_weight_choice(w); // names from the lists above always parse
        per_precision.push_back(q);
    }

    for (const auto& m : models) {
        const auto params = count_params(m).total;
        for (std::size_t i = 0; i < r.precisions.size(); ++i) {
            fit_model_row row;
            row.model   = m.id;
            row.params  = params;
            row.weights = r.precisions[i];
            auto e      = estimate_inference(m, per_precision[i]);
            if (!e) {
                row.error = e.error().what();
            } else {
                row.need_bytes = static_cast<std::uint64_t>(memory_need(*e, p.device));
                row.fits       = row.need_bytes <= r.budget_bytes;
                row.headroom_bytes =
                    static_cast<std::int64_t>(r.budget_bytes) - static_cast<std::int64_t>(row.need_bytes);
            }
            r.rows.push_back(std::move(row));
        }
    }

    for (const auto& w : r.precisions) {
        std::vector<const fit_model_row*> fitting;
        for (const auto& row : r.rows)
            if (row.weights == w && row.fits) fitting.push_back(&row);
        std::stable_sort(fitting.begin(), fitting.end(),
                         [](const fit_model_row* a, const fit_model_row* b) { return a->params > b->params; });
        fit_precision_summary s{w, {}};
        for (std::size_t i = 0; i < fitting.size() && i < o.top; ++i)
            s.largest.push_back(fitting[i]->model);
        r.largest.push_back(std::move(s));
    }

    if (o.chosen) {
        r.chosen_model = o.chosen->id;
        for (std::size_t i = 0; i < r.precisions.size(); ++i) {
            fit_chosen_answer a;
            a.weights = r.precisions[i];
            if (auto e = estimate_inference(*o.chosen, per_precision[i]); !e)
                a.error = e.error().what();
            else
                a.answer = fit_in_memory(*o.chosen, per_precision[i], r.budget_bytes);
            r.chosen.push_back(std::move(a));
        }
    }
    return r;
}

result<fit_hardware_result> fit_named_hardware(std::string_view name, const hardware_catalog& catalog,
                                               const std::vector<model_desc>& models, const fit_hardware_options& o) {
    auto d = catalog.lookup(name);
    if (!d) return d.error();
    return fit_hardware(**d, models, o);
}

} // namespace llmplan

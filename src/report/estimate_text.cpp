#include "estimate/counters.h"
#include "estimate/engine_traits.h"
#include "report/text_report.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

std::string devices_table(const std::vector<device_breakdown>& ds) {
    std::string s = fmt::format("{:<10} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n", "device", "weights",
                                "kv_cache", "compute", "activation", "grad+optim", "adapters", "overhead", "TOTAL");
    for (const auto& d : ds) {
        const auto& p = d.parts;
        s += fmt::format(
            "{:<10} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n", d.device,
            human_bytes(static_cast<std::int64_t>(p.weights)), human_bytes(static_cast<std::int64_t>(p.kv_cache)),
            human_bytes(static_cast<std::int64_t>(p.compute)), human_bytes(static_cast<std::int64_t>(p.activations)),
            human_bytes(static_cast<std::int64_t>(p.gradients + p.optimizer + p.master_weights)),
            human_bytes(static_cast<std::int64_t>(p.adapters)), human_bytes(p.overhead), human_bytes(p.total()));
        if (p.draft || p.projector || p.reserved)
            s += fmt::format("{:<10} + draft {}, projector {}, reserved {} (in TOTAL)\n", "",
                             human_bytes(static_cast<std::int64_t>(p.draft)),
                             human_bytes(static_cast<std::int64_t>(p.projector)),
                             human_bytes(static_cast<std::int64_t>(p.reserved)));
        for (const auto& n : d.notes)
            s += fmt::format("{:<10} note: {}\n", "", n);
    }
    return s;
}

} // namespace

std::string inference_to_text(const model_desc& m, const inference_params& p, const inference_estimate& e) {
    const auto c  = count_params(m);
    std::string s = fmt::format("{} ({:.2f} B params) on {} ({}), weights {}, ctx {} x {} sequence(s), KV {}\n\n", m.id,
                                static_cast<double>(c.total) / 1e9, engine_name(p.engine),
                                p.device == device_kind::cpu ? "cpu" : fmt::format("{} GPU(s)", p.gpus),
                                to_string(p.weights), p.ctx, p.batch, name(e.kv_type));
    if (m.low_confidence()) // a model_type no table knows: say so before the figures
        s += "LOW CONFIDENCE: parts of this model were guessed (see `llmplan inspect`): " +
             (m.guessed_weights.empty() ? m.guessed_cache.front() : m.guessed_weights.front()) + "\n\n";
    s += devices_table(e.devices);
    s += fmt::format("\nweights   {} ({})\n", human_bytes(static_cast<std::int64_t>(e.weights.bytes)), e.weights.how);
    s += fmt::format("KV cache  {} per token of context (all layers)\n",
                     human_bytes(static_cast<std::int64_t>(e.kv_bytes_per_token)));
    // DeepSeek-V4's fixed part is its window rows and compressor states, not a recurrent state.
    const bool compressed =
        std::any_of(m.layers.begin(), m.layers.end(), [](const layer_desc& l) { return l.compressed.ratio > 0; });
    if (e.state_bytes_per_sequence)
        s += fmt::format("state     {} per sequence ({}, in kv_cache; constant in context)\n",
                         human_bytes(static_cast<std::int64_t>(e.state_bytes_per_sequence)),
                         compressed ? "the last tokens' uncompressed rows and the compressors' states"
                                    : "recurrent state of the linear-attention / state-space layers");
    s += fmt::format("on disk   {}\n", human_bytes(static_cast<std::int64_t>(e.disk_bytes)));
    if (detail::traits_of(p.engine).kv_pool && e.vllm_kv_capacity_tokens)
        s += fmt::format("vLLM pool {} tokens; largest --max-model-len that starts: {}\n", e.vllm_kv_capacity_tokens,
                         e.vllm_max_model_len);
    s += fmt::format("engine    {} ({})\n", e.engine_release, e.engine_range);
    if (e.accuracy)
        s += fmt::format("accuracy  {} {} {} estimates vs {} measured values: median error {:.1f}%, 90% within "
                         "{:.1f}%, {:.0f}% within tolerance, {:.0f}% more than 10% under\n",
                         e.accuracy->engine, e.accuracy->device, e.weight_class, e.accuracy->cases,
                         100 * e.accuracy->median_abs_error, 100 * e.accuracy->p90_abs_error,
                         100 * e.accuracy->within_tolerance, 100 * e.accuracy->under_10pct_share);
    else
        s += fmt::format("accuracy  no measured run of this kind ({} {}) to compare with\n", engine_name(p.engine),
                         e.weight_class);
    for (const auto& n : e.notes)
        s += "note      " + n + "\n";
    if (const auto from = origin_to_text(m); !from.empty()) s += "read from " + from + "\n";
    return s;
}

std::string training_to_text(const model_desc& m, const training_params& p, const training_estimate& e) {
    std::string s = fmt::format(
        "{}: training, {} trainable params{}, seq {} x micro-batch {}, {} GPU(s)\n\n", m.id, e.trainable_params,
        e.lora_params ? fmt::format(" (LoRA rank {}: {} params)", p.lora_rank, e.lora_params) : "", p.seq,
        p.micro_batch, p.gpus);
    s += devices_table(e.devices);
    s += fmt::format("\ncompute   {:.3g} FLOPs per token trained\n", e.flops_per_token);
    // Every GPU of a training run is alike: one sentence, for the first, on which tool prints which number.
    for (const auto& d : e.devices) {
        const auto counters = detail::training_counters(d, p);
        if (!counters) continue;
        const auto& c = *counters;
        s += fmt::format("counters  per GPU at the peak, PyTorch's max_memory_allocated prints {}, its "
                         "max_memory_reserved {} (plus the blocks its allocator keeps cached), nvidia-smi {} (plus "
                         "the CUDA context and libraries outside PyTorch)\n",
                         human_bytes(static_cast<std::int64_t>(c.torch_allocated)),
                         human_bytes(static_cast<std::int64_t>(c.torch_reserved)),
                         human_bytes(static_cast<std::int64_t>(c.device_used)));
        break;
    }
    if (e.band) s += "band      " + e.band->text + "\n";
    for (const auto& a : e.assumptions)
        s += "assumed   " + a + "\n";
    if (!e.launch_config_json.empty()) s += "\nDeepSpeed config:\n" + e.launch_config_json + "\n";
    return s;
}

} // namespace llmplan

namespace llmplan {
std::string training_fit_to_text(const training_fit_answer& a) {
    std::string s = fmt::format("\nin {} per GPU: {}\n", human_bytes(static_cast<std::int64_t>(a.budget_bytes)),
                                a.fits_as_asked ? "fits as asked" : "does NOT fit as asked");
    s += fmt::format("  longest --seq at this micro-batch     {}\n",
                     a.max_seq ? std::to_string(a.max_seq) + " tokens" : "none");
    s += fmt::format("  largest --micro-batch at this seq     {}\n",
                     a.max_micro_batch ? std::to_string(a.max_micro_batch) : "none");
    s += fmt::format("  most capable setup that fits          {}{}\n", a.best_setup.empty() ? "none" : a.best_setup,
                     a.best_args.empty() ? "" : " (" + a.best_args + ")");
    if (!a.fits_as_asked)
        s += fmt::format("  cheapest change that fits as asked    {}\n", a.fix_args ? *a.fix_args : "none");
    return s;
}

std::string fit_to_text(const fit_answer& a) {
    std::string s = fmt::format("\nin {} per device: {}\n", human_bytes(static_cast<std::int64_t>(a.budget_bytes)),
                                a.fits_as_asked ? "fits as asked" : "does NOT fit as asked");
    s += fmt::format("  longest context at this batch    {}\n",
                     a.max_ctx ? std::to_string(a.max_ctx) + " tokens" : "none");
    s += fmt::format("  most sequences at this context   {}\n", a.max_batch ? std::to_string(a.max_batch) : "none");
    s += fmt::format("  best precision at these settings {}\n", a.best_weights.empty() ? "none" : a.best_weights);
    return s;
}
} // namespace llmplan

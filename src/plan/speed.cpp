// Roofline speed: decode streams the weights and the KV cache once per step; prefill is compute-bound.
#include "llmplan/plan.h"

namespace llmplan {

std::uint64_t decode_bytes_per_step(const model_desc& m, const inference_estimate& e, const inference_params& p) {
    double weights = static_cast<double>(e.weights.bytes);
    if (m.is_moe() && m.moe.n_expert_used > 0) {
        // Share of the routed experts in the tensors, scaled down to the experts one token uses.
        std::uint64_t expert = 0, all = 0;
        for (const auto& t : m.tensors) {
            all += t.bytes;
            if (is_expert(t.role)) expert += t.bytes;
        }
        if (all > 0) {
            const double f    = static_cast<double>(expert) / static_cast<double>(all);
            const double used = static_cast<double>(m.moe.n_expert_used) / static_cast<double>(m.moe.n_expert);
            weights *= 1.0 - f + f * used;
        }
    }
    const double kv =
        static_cast<double>(e.kv_bytes_per_token) * static_cast<double>(p.ctx) * static_cast<double>(p.batch);
    return static_cast<std::uint64_t>(weights + kv);
}

double decode_tokens_per_s(std::uint64_t bytes_per_step, std::uint64_t batch, double bandwidth_bytes_per_s,
                           double efficiency, unsigned parallel_devices) {
    if (bytes_per_step == 0 || bandwidth_bytes_per_s <= 0) return 0;
    // Each step makes one token per sequence; tensor parallel devices each read 1/N of the bytes.
    return static_cast<double>(batch) * efficiency * bandwidth_bytes_per_s * parallel_devices /
           static_cast<double>(bytes_per_step);
}

double prefill_tokens_per_s(std::uint64_t active_params, double flops, unsigned parallel_devices) {
    if (active_params == 0 || flops <= 0) return 0;
    // A forward pass costs 2 FLOPs per active parameter per token (multiply + add).
    return prefill_efficiency * flops * parallel_devices / (2.0 * static_cast<double>(active_params));
}

} // namespace llmplan

// compare_plans: the same workload with two models, side by side (plan.h, plan_comparison).
#include "llmplan/plan.h"

#include <algorithm>

namespace llmplan {
namespace {

plan_comparison::side side_of(const model_desc& m, const inference_estimate& e) {
    plan_comparison::side s;
    s.model         = m.id;
    s.weights_bytes = e.weights.bytes;
    for (const auto& d : e.devices) {
        s.largest_device_bytes = std::max(s.largest_device_bytes, d.total_bytes());
        s.kv_cache_bytes += d.parts.kv_cache;
    }
    return s;
}

} // namespace

plan_comparison compare_plans(const model_desc& from_model, const inference_estimate& from_estimate,
                              const plan_result& from_plan, const model_desc& to_model,
                              const inference_estimate& to_estimate, const plan_result& to_plan) {
    plan_comparison c;
    c.from = side_of(from_model, from_estimate);
    c.to   = side_of(to_model, to_estimate);
    for (const auto& a : from_plan.candidates)
        for (const auto& b : to_plan.candidates)
            if (a.hardware == b.hardware)
                c.rows.push_back(
                    {a.hardware, a.fits, b.fits, a.decode_tokens_per_s, b.decode_tokens_per_s, a.ttft_s, b.ttft_s});
    return c;
}

} // namespace llmplan

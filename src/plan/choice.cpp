// CPU or GPU: the article's question, answered from the plan's candidates.
#include "plan/detail.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan::detail {

/// A CPU when one that fits is fast enough for each request (and answers the prompt in time), else a GPU, with the
/// figures that decided it.
std::optional<cpu_or_gpu_answer> cpu_or_gpu(const std::vector<plan_candidate>& cands, const plan_options& o) {
    const plan_candidate *cpu = nullptr, *cpu_fast = nullptr, *gpu = nullptr;
    for (const auto& c : cands) {
        if (!c.fits) continue;
        if (c.runs_on == device_kind::cpu) {
            // A CPU row without a price cannot be weighed against a GPU (and the unpriced rows are the
            // big server and Apple parts): the answer rests on CPUs one can price, and this machine.
            if (!c.cost_per_hour_usd && c.kind != candidate_kind::local) continue;
            if (!cpu || c.decode_tokens_per_s > cpu->decode_tokens_per_s) cpu = &c;
            if (!cpu_fast && c.meets_speed) cpu_fast = &c;
        } else if (!gpu && c.meets_speed) {
            gpu = &c;
        }
    }
    if (!cpu && !gpu) return std::nullopt;
    auto cost = [](const plan_candidate* c) {
        return c->cost_per_million_tokens_usd
                   ? fmt::format("${:.3f} per million tokens", *c->cost_per_million_tokens_usd)
                   : std::string("no price known");
    };
    cpu_or_gpu_answer a;
    if (cpu_fast) {
        a.choice = "cpu";
        a.why.push_back(fmt::format("a CPU is enough: {} decodes {:.1f} tokens/s, {:.1f} wanted per request, and "
                                    "answers the prompt in {:.1f} s",
                                    cpu_fast->hardware, cpu_fast->decode_tokens_per_s, o.min_tokens_per_s,
                                    cpu_fast->ttft_s));
        if (gpu)
            a.why.push_back(
                fmt::format("a GPU ({}) {} {:.0f} tokens/s at {}; the CPU costs {}", gpu->hardware,
                            gpu->decode_tokens_per_s > cpu_fast->decode_tokens_per_s ? "is faster:" : "gives",
                            gpu->decode_tokens_per_s, cost(gpu), cost(cpu_fast)));
        a.why.push_back("more concurrent requests or longer prompts would move the choice to a GPU: try --batch and "
                        "--prompt");
        return a;
    }
    a.choice = "gpu";
    if (!cpu) {
        a.why.push_back("no CPU machine in the list holds it in RAM");
    } else {
        // The verdicts as data (plan_candidate::findings), rendered here: rewording a reason's text
        // cannot change this answer.
        for (const auto& r : cpu->findings)
            if (r.code == reason_code::slow || r.code == reason_code::slow_first_token)
                a.why.push_back(
                    fmt::format("on the fastest CPU that holds it ({}): {}", cpu->hardware, reason_text(r)));
    }
    if (gpu)
        a.why.push_back(fmt::format("{} x {} decodes {:.0f} tokens/s and answers the prompt in {:.1f} s, at {}",
                                    gpu->count, gpu->hardware, gpu->decode_tokens_per_s, gpu->ttft_s, cost(gpu)));
    else
        a.why.push_back("no candidate reaches the wanted speed; the fastest that fits is listed first among GPUs");
    return a;
}

} // namespace llmplan::detail

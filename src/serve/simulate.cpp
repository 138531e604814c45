// The engine's scheduler stepped over time (include/llmplan/serving.h, simulate).
//
// The policy is vLLM V1's (vllm/v1/core/sched/scheduler.py, Scheduler.schedule, commit 00024d31 of
// vllm-project/vllm as stored in the public index, 2026; the same loop since v0.8): each step has a
// token budget of max_num_batched_tokens; RUNNING requests are scheduled first, in order, each taking
// the tokens it still needs (one for a decoding request, the rest of its prompt for a partial prefill,
// cut to the budget: chunked prefill); when the KV pool cannot hold a running request's new tokens the
// last request of the running list is preempted (recomputed later from the front of the waiting queue);
// then WAITING requests are admitted in arrival order while the budget lasts, fewer than max_num_seqs
// run, and the pool holds their prompt. SGLang's scheduler follows the same shape (running decodes,
// then new prefills up to --chunked-prefill-size, --max-running-requests).
//
// Requests of one run have the same prompt and output length (the contract's means), unless
// sim_config::length_spread draws each request's lengths around them. Decoding requests are kept as
// cohorts by the step they finish in, so a step costs O(log cohorts), not O(requests).
#include "detail/checked_number.h"
#include "llmplan/serving.h"
#include "serve/step_table.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <vector>

namespace llmplan {
namespace {

/// splitmix64: a fixed, portable generator (std's distributions differ between libraries; seeded runs
/// must give the same figures everywhere).
struct rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z               = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z               = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } // [0, 1)
    double exponential(double rate) { return -std::log1p(-uniform()) / rate; }
};

/// The p-th percentile, interpolated between the two nearest ranks. Selects (nth_element) rather than
/// sorts: the value at rank lo, then the smallest of the ranks above it is the value at lo + 1.
double percentile(std::vector<double>& v, double p) {
    if (v.empty()) return 0;
    const double k = (static_cast<double>(v.size()) - 1) * std::clamp(p, 0.0, 100.0) / 100.0;
    const auto lo  = std::min(detail::saturate<std::size_t>(k, detail::rounding::down), v.size() - 1);
    const auto nth = v.begin() + static_cast<std::ptrdiff_t>(lo);
    std::nth_element(v.begin(), nth, v.end());
    const double at_lo = *nth;
    const double at_hi = lo + 1 < v.size() ? *std::min_element(nth + 1, v.end()) : at_lo;
    return at_lo + (at_hi - at_lo) * (k - static_cast<double>(lo));
}

latency_stats stats_of(std::vector<double> v, double slo) {
    latency_stats s;
    if (v.empty()) return s;
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean   = sum / static_cast<double>(v.size());
    s.p50    = percentile(v, 50);
    s.p99    = percentile(v, 99);
    s.at_slo = percentile(v, slo);
    return s;
}

struct prefilling {
    std::uint32_t id;
    std::uint64_t prompt; ///< tokens to compute: the prompt, or prompt + generated after a preemption
    std::uint64_t done;
};

} // namespace

sim_result simulate(const instance_shape& shape, const sim_config& c) {
    sim_result r;
    const std::uint64_t I = std::max<std::uint64_t>(1, c.input_len);
    const std::uint64_t O = std::max<std::uint64_t>(1, c.output_len);
    const std::uint64_t S = std::max<std::uint64_t>(1, c.max_num_seqs);
    // vLLM refuses max_num_batched_tokens < max_num_seqs; the budget holds every decode at least.
    const std::uint64_t M   = std::max<std::uint64_t>(c.max_num_batched_tokens, 1);
    const std::uint64_t cap = c.kv_capacity_tokens ? c.kv_capacity_tokens : std::numeric_limits<std::uint64_t>::max();
    const double spread     = std::isfinite(c.length_spread) ? std::clamp(c.length_spread, 0.0, 0.9) : 0.0;
    // the longest prompt a request may draw (lengths are drawn within +-spread of the means)
    const auto I_max = detail::saturate<std::uint64_t>(std::ceil(static_cast<double>(I) * (1 + spread)));
    if (cap < I_max + 1) return r; // not even one request fits: the caller says so

    const bool closed    = c.concurrency > 0;
    const bool burst     = !closed && std::isinf(c.request_rate);
    const auto in_flight = closed ? detail::saturate<std::uint64_t>(std::max(1.0, c.concurrency)) : 0;
    // Closed loop: as the serving benchmarks run one (InferenceMAX's scripts, the "InferenceX" records
    // aiconfigurator's measured rows come from: `benchmark_serving.py --max-concurrency $CONC --num-prompts
    // $(( $CONC * 10 )) --request-rate inf --ignore-eos`, e.g. SemiAnalysisAI/InferenceMAX
    // benchmarks/*_slurm.sh, 2025), closed_loop_rounds x N requests, the first N sent together, every
    // one counted: the first wave's queue of N prompts is part of the mean TTFT and the run's throughput.
    std::uint64_t total = 0;
    if (closed) {
        total = in_flight * std::max<std::uint64_t>(1, c.closed_loop_rounds);
    } else {
        total = std::max<std::uint32_t>(1, c.requests);
    }
    if (total > 4'000'000) total = 4'000'000; // memory bound on the records (a burst of millions)

    std::vector<double> arrival(total, 0.0), first(total, -1.0), finish(total, -1.0);
    std::vector<std::uint32_t> generated(total, 0);
    // each request's prompt and output lengths: the means, or drawn uniformly within +-spread of them
    std::vector<std::uint32_t> in_len, out_len;
    if (spread > 0) {
        in_len.resize(total);
        out_len.resize(total);
    }
    rng g{c.seed};
    auto draw = [&](std::uint64_t mean) {
        const double x = static_cast<double>(mean) * (1 + spread * (2 * g.uniform() - 1));
        return static_cast<std::uint32_t>(std::clamp(std::round(x), 1.0, 4e9));
    };
    auto in_of            = [&](std::uint32_t id) -> std::uint64_t { return spread > 0 ? in_len[id] : I; };
    auto out_of           = [&](std::uint32_t id) -> std::uint64_t { return spread > 0 ? out_len[id] : O; };
    std::uint64_t next_id = 0; // requests created so far
    std::deque<std::uint32_t> waiting;
    auto create = [&](double at) {
        if (next_id >= total) return;
        arrival[next_id] = at;
        if (spread > 0) {
            in_len[next_id]  = draw(I);
            out_len[next_id] = draw(O);
        }
        waiting.push_back(static_cast<std::uint32_t>(next_id));
        ++next_id;
    };
    std::vector<double> open_arrivals;
    if (closed) {
        for (std::uint64_t i = 0; i < std::min(in_flight, total); ++i)
            create(0.0);
    } else {
        open_arrivals.resize(total);
        double t = 0;
        for (std::uint64_t i = 0; i < total; ++i) {
            if (!burst && i > 0) t += g.exponential(c.request_rate);
            open_arrivals[i] = t;
        }
    }
    std::uint64_t open_next = 0;

    std::vector<prefilling> pre;                             // running, prompt not yet computed (admission order)
    std::map<std::uint64_t, std::vector<std::uint32_t>> dec; // decoding, by the step they finish in
    std::uint64_t n_dec = 0, sum_ctx = 0, pre_reserved = 0;  // decoders, their contexts, prompts reserved
    // step: every step; dstep: the decode rounds (the same in vLLM's policy, where every step decodes;
    // under prefill-first a prefill-only step does not advance the decoders). Cohorts are keyed by the
    // decode round they finish in.
    std::uint64_t step = 0, dstep = 0, completed = 0;
    double now = 0, busy = 0, weighted_running = 0, compute_time = 0;
    std::uint64_t kv_limited = 0, seqs_limited = 0, steps_with_waiting = 0;
    double last_arrival_queue = -1;
    // Work bound: no run may loop for ever (an offered load the pool can never hold).
    const std::uint64_t max_steps = 20'000'000;

    auto ctx_of      = [&](std::uint32_t id) { return in_of(id) + generated[id]; };
    auto preempt_one = [&]() -> bool {
        if (!pre.empty()) {
            const auto p = pre.back();
            pre.pop_back();
            pre_reserved -= p.prompt;
            waiting.push_front(p.id);
            return true;
        }
        if (dec.empty()) return false;
        auto it       = std::prev(dec.end());
        const auto id = it->second.back();
        it->second.pop_back();
        if (it->second.empty()) dec.erase(it);
        --n_dec;
        sum_ctx -= ctx_of(id);
        waiting.push_front(id); // recomputed: its prompt and the tokens generated so far
        return true;
    };

    while (completed < total && step < max_steps) {
        if (!closed) {
            while (open_next < total && open_arrivals[open_next] <= now) {
                create(open_arrivals[open_next]);
                ++open_next;
                if (open_next == total) last_arrival_queue = static_cast<double>(waiting.size());
            }
        }
        if (pre.empty() && n_dec == 0 && waiting.empty()) {
            if (!closed && open_next < total) {
                now = open_arrivals[open_next];
                continue;
            }
            break;
        }
        // Steps with decoders only and nothing to admit change nothing but the contexts: run them in a
        // tight loop up to the next finish, arrival or full pool (the same arithmetic as the full step).
        if (pre.empty() && waiting.empty() && n_dec > 0 && n_dec <= M) {
            const std::uint64_t until = dec.begin()->first; // the round the first cohort finishes in
            const std::uint64_t from  = dstep;
            // The step is affine in the summed context for a fixed number of decoders (decode_step_line):
            // evaluated inline, not through the whole step model.
            const auto line = detail::decode_step_line(shape, static_cast<double>(n_dec));
            const double next_arrival =
                closed || open_next >= total ? std::numeric_limits<double>::infinity() : open_arrivals[open_next];
            const double running = static_cast<double>(n_dec);
            while (dstep < until && sum_ctx + pre_reserved + n_dec <= cap && next_arrival > now) {
                const double ctx     = static_cast<double>(sum_ctx);
                const double mem     = line.mem_a + line.mem_b * ctx;
                const double cmp     = line.cmp_a + line.cmp_b * ctx;
                const double seconds = std::max(mem, cmp) + line.fixed_s;
                if (!(seconds > 0) || !std::isfinite(seconds)) return sim_result{};
                now += seconds;
                busy += seconds;
                weighted_running += seconds * running;
                if (cmp > mem) compute_time += seconds;
                sum_ctx += n_dec;
                ++step;
                ++dstep;
            }
            if (dstep < until && dstep != from) continue; // an arrival or a full pool: a full step next
        }
        // Prefill first (SGLang): a step that can start or continue a prompt runs prompts only.
        const bool prefill_only =
            c.prefill_first && (!pre.empty() || (!waiting.empty() && pre.size() + n_dec < S &&
                                                 sum_ctx + pre_reserved + ctx_of(waiting.front()) <= cap));
        // 1. running: every decoder takes one token (the pool must hold it: preempt the newest if not).
        // The tokens each decoder has made follow from the step it finishes in: O - (f - step + 1).
        if (!prefill_only && n_dec > 0 && sum_ctx + pre_reserved + n_dec > cap)
            for (auto& [f, ids] : dec)
                for (const auto id : ids)
                    generated[id] =
                        static_cast<std::uint32_t>(out_of(id) - std::min<std::uint64_t>(out_of(id), f - dstep + 1));
        while (!prefill_only && n_dec > 0 && sum_ctx + pre_reserved + n_dec > cap)
            if (!preempt_one()) break;
        const std::uint64_t decoding = prefill_only ? 0 : n_dec;
        std::uint64_t budget         = M > decoding ? M - decoding : 0;
        const double decode_context  = prefill_only ? 0.0 : static_cast<double>(sum_ctx);
        double prefill_tokens = 0, prefill_pairs = 0;
        // 2. running: the partial prefills, in order, cut to the budget
        for (auto& p : pre) {
            if (budget == 0) break;
            const std::uint64_t chunk = std::min(p.prompt - p.done, budget);
            budget -= chunk;
            prefill_tokens += static_cast<double>(chunk);
            prefill_pairs += static_cast<double>(chunk) * static_cast<double>(p.done) +
                             static_cast<double>(chunk) * static_cast<double>(chunk + 1) / 2.0;
            p.done += chunk;
        }
        // 3. waiting, in arrival order
        const bool had_waiting = !waiting.empty();
        bool by_kv = false, by_seqs = false;
        while (!waiting.empty() && budget > 0) {
            if (pre.size() + n_dec >= S) {
                by_seqs = true;
                break;
            }
            const auto id            = waiting.front();
            const std::uint64_t need = ctx_of(id);
            if (sum_ctx + pre_reserved + need > cap) {
                by_kv = true;
                break;
            }
            waiting.pop_front();
            const std::uint64_t chunk = std::min(need, budget);
            budget -= chunk;
            prefill_tokens += static_cast<double>(chunk);
            prefill_pairs += static_cast<double>(chunk) * static_cast<double>(chunk + 1) / 2.0;
            pre.push_back({id, need, chunk});
            pre_reserved += need;
        }
        if (had_waiting) {
            ++steps_with_waiting;
            kv_limited += by_kv;
            seqs_limited += by_seqs;
        }
        if (decoding == 0 && prefill_tokens == 0) { // nothing schedulable (cannot happen with cap >= I_max + 1)
            break;
        }
        // 4. the step
        step_load load{static_cast<double>(decoding), decode_context, prefill_tokens, prefill_pairs};
        const auto t = step_seconds(shape, load);
        if (!(t.seconds > 0) || !std::isfinite(t.seconds)) return sim_result{};
        now += t.seconds;
        busy += t.seconds;
        weighted_running += t.seconds * static_cast<double>(decoding + pre.size());
        if (t.compute_s > t.memory_s) compute_time += t.seconds;
        // 5. decoders produced a token each
        sum_ctx += decoding;
        // prompts completed: their first (or next, after a preemption) token
        for (std::size_t i = 0; i < pre.size();) {
            if (pre[i].done < pre[i].prompt) {
                ++i;
                continue;
            }
            const auto id = pre[i].id;
            pre_reserved -= pre[i].prompt;
            pre.erase(pre.begin() + static_cast<std::ptrdiff_t>(i));
            if (first[id] < 0) first[id] = now;
            generated[id] += 1;
            const std::uint64_t left = out_of(id) - std::min<std::uint64_t>(out_of(id), generated[id]);
            if (left == 0) { // its first token was its last
                finish[id]    = now;
                generated[id] = static_cast<std::uint32_t>(out_of(id));
                ++completed;
                if (closed) create(now);
                continue;
            }
            // the round it makes its last token in: this step's round was spent (vLLM's policy: the
            // decoders decoded in it) or is still to come (a prefill-only step)
            dec[dstep + left - (prefill_only ? 1 : 0)].push_back(id);
            ++n_dec;
            sum_ctx += ctx_of(id);
        }
        // 6. requests that produced their last token
        while (!prefill_only && !dec.empty() && dec.begin()->first <= dstep) {
            for (const auto id : dec.begin()->second) {
                finish[id]    = now;
                generated[id] = static_cast<std::uint32_t>(out_of(id));
                sum_ctx -= ctx_of(id); // context at the end: prompt + every output token
                --n_dec;
                ++completed;
                if (closed) create(now);
            }
            dec.erase(dec.begin());
        }
        ++step;
        if (!prefill_only) ++dstep;
    }
    (void)sum_ctx;

    // Figures over the measured requests (a closed loop counts every request, as the benchmarks do).
    std::vector<double> ttft, tpot;
    double t_end                = 0;
    std::uint64_t done_measured = 0;
    double in_done = 0, out_done = 0; // prompt and output tokens of the requests that finished
    for (std::uint64_t i = 0; i < total; ++i) {
        if (finish[i] < 0) continue;
        ++done_measured;
        const auto id = static_cast<std::uint32_t>(i);
        in_done += static_cast<double>(in_of(id));
        out_done += static_cast<double>(out_of(id));
        ttft.push_back(first[i] - arrival[i]);
        if (out_of(id) > 1) tpot.push_back((finish[i] - first[i]) / static_cast<double>(out_of(id) - 1));
        t_end = std::max(t_end, finish[i]);
    }
    if (closed) {
        // the benchmark's throughput: every request over the run, from the first wave to the last finish
        r.requests_per_s = t_end > 0 ? static_cast<double>(done_measured) / t_end : 0;
    } else {
        const double t_begin = open_arrivals.empty() ? 0 : open_arrivals.front();
        r.requests_per_s     = t_end > t_begin ? static_cast<double>(done_measured) / (t_end - t_begin) : 0;
        r.saturated          = burst || completed < total ||
                      (last_arrival_queue >= 0 && last_arrival_queue > 0.1 * static_cast<double>(total));
    }
    r.completed = completed;
    r.ttft_s    = stats_of(std::move(ttft), c.slo_percentile);
    r.tpot_s    = stats_of(std::move(tpot), c.slo_percentile);
    // tokens a second: the finished requests' mean lengths (the set means when every request has them)
    const double per_request_out = done_measured ? out_done / static_cast<double>(done_measured) : 0;
    const double per_request_in  = done_measured ? in_done / static_cast<double>(done_measured) : 0;
    r.output_tokens_per_s        = r.requests_per_s * per_request_out;
    r.total_tokens_per_s         = r.requests_per_s * (per_request_in + per_request_out);
    r.mean_running               = busy > 0 ? weighted_running / busy : 0;
    r.compute_share              = busy > 0 ? compute_time / busy : 0;
    if (steps_with_waiting > 0) {
        r.kv_limited_share   = static_cast<double>(kv_limited) / static_cast<double>(steps_with_waiting);
        r.seqs_limited_share = static_cast<double>(seqs_limited) / static_cast<double>(steps_with_waiting);
    }
    return r;
}

} // namespace llmplan

// Answers per kind: the best laptop, desktop (or card to add), Mac, CPU-only machine, cloud instance
// and server part for the model, each with its reasons as data (plan.h, kind_answer).
#include "llmplan/units.h"
#include "plan/detail.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace llmplan {
namespace {

constexpr std::array<std::string_view, 6> kind_names    = {"laptop", "desktop", "mac", "cpu", "cloud", "server"};
constexpr std::array<std::string_view, 13> reason_names = {
    "fits",          "does_not_fit", "offload_layers",   "offload_experts", "ram_short",
    "speed_unknown", "slow",         "slow_first_token", "fast_enough",     "cheapest",
    "fastest",       "closest",      "no_price"};
constexpr std::array<std::string_view, 3> device_names = {"cpu", "gpu", "apple"};
static_assert(static_cast<int>(device_kind::cpu) == 0 && static_cast<int>(device_kind::cuda) == 1 &&
                  static_cast<int>(device_kind::metal) == 2,
              "device_names follow device_kind's order");
constexpr std::array<std::string_view, 7> way_names = {
    "shorter_context", "quantized_kv", "smaller_quant", "experts_on_cpu", "more_gpus", "wired_limit", "other_trainer"};

constexpr std::uint8_t bit(answer_kind k) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(k));
}

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

std::string gib(std::int64_t bytes) {
    return gib_text(static_cast<double>(bytes));
}

} // namespace

std::string_view name(candidate_kind k) {
    static constexpr std::array<std::string_view, 5> names = {"local", "gpu", "apple", "cpu", "cloud"};
    return names[static_cast<std::size_t>(k)];
}
std::string_view name(answer_kind k) {
    return kind_names[static_cast<std::size_t>(k)];
}
std::string_view name(reason_code c) {
    return reason_names[static_cast<std::size_t>(c)];
}
std::string_view name(fit_way w) {
    return way_names[static_cast<std::size_t>(w)];
}
std::string_view runs_on_name(std::optional<device_kind> d) {
    return d ? device_names[static_cast<std::size_t>(*d)] : std::string_view{};
}

bool answer_kind_from_name(std::string_view text, answer_kind& out) {
    for (auto k : all_answer_kinds)
        if (name(k) == text) {
            out = k;
            return true;
        }
    return false;
}

std::uint8_t answer_kinds_of(const device_spec& d) {
    // Apple silicon by its architecture column (gpus.csv Apple rows, Macs in laptops.csv).
    const bool apple = d.kind == hardware_kind::apple || d.architecture == "Apple silicon";
    std::uint8_t k   = apple ? bit(answer_kind::mac) : 0;
    switch (d.kind) {
    case hardware_kind::gpu:
        k |= bit(detail::is_server_gpu(d) ? answer_kind::server : answer_kind::desktop); // a card to add
        break;
    case hardware_kind::apple:
        break;
    case hardware_kind::cpu:
        k |= bit(answer_kind::cpu);
        break;
    case hardware_kind::laptop:
        k |= bit(starts_with(d.form, "laptop") ? answer_kind::laptop : answer_kind::desktop);
        if (!d.has_accelerator()) k |= bit(answer_kind::cpu);
        break;
    case hardware_kind::cloud:
        k |= bit(answer_kind::cloud);
        break;
    case hardware_kind::local:
        k = 0; // this machine is its own answer
        break;
    }
    return k;
}

std::string reason_text(const plan_reason& r) {
    switch (r.code) {
    case reason_code::fits:
        return r.bytes > 0 ? fmt::format("fits with {} headroom", gib(r.bytes)) : "fits";
    case reason_code::does_not_fit:
        return fmt::format("does not fit: short by {}", gib(r.bytes));
    case reason_code::offload_layers:
        return fmt::format("{} layers on the GPU (-ngl {}), the rest in RAM ({})", r.count, r.count, gib(r.bytes));
    case reason_code::offload_experts:
        return fmt::format("experts of {} layers in RAM (--n-cpu-moe {}, {})", r.count, r.count, gib(r.bytes));
    case reason_code::ram_short:
        return fmt::format("the RAM is short by {} for the offloaded part", gib(r.bytes));
    case reason_code::speed_unknown:
        return "a bandwidth or compute figure is missing: speed unknown";
    case reason_code::slow:
        return fmt::format("slow: {} tokens/s per request, {:.1f} wanted", tokens_per_s_text(r.tokens_per_s), r.wanted);
    case reason_code::slow_first_token:
        return fmt::format("first token after {:.0f} s, {:.0f} s wanted", r.seconds, r.wanted);
    case reason_code::fast_enough:
        return fmt::format("fast enough: {} tokens/s per request, first token in {:.1f} s",
                           tokens_per_s_text(r.tokens_per_s), r.seconds);
    case reason_code::cheapest:
        return r.usd ? fmt::format("the cheapest of its kind that fits and is fast enough: ${:.3f} per million tokens",
                                   *r.usd)
                     : "fits and is fast enough (no price known)";
    case reason_code::fastest:
        return r.tokens_per_s > 0 ? fmt::format("none of its kind is fast enough; the fastest that fits: {} tokens/s",
                                                tokens_per_s_text(r.tokens_per_s))
                                  : "none of its kind is known to be fast enough; one that fits (speed unknown)";
    case reason_code::closest:
        return fmt::format("none of its kind fits; the closest: short by {}", gib(r.bytes));
    case reason_code::no_price:
        return "no price in the table";
    }
    return {};
}

namespace detail {

std::vector<kind_answer> kind_answers(const std::vector<plan_candidate>& cands, const plan_options& o) {
    std::vector<kind_answer> out;
    for (auto k : all_answer_kinds) {
        if (o.kinds != 0 && (o.kinds & bit(k)) == 0) continue;
        // Candidates are sorted: fitting cheapest per token first, then the rest closest to fitting.
        const plan_candidate* best = nullptr; // fits and fast enough: the first in that order
        const plan_candidate* fast = nullptr; // fits: the fastest
        const plan_candidate* near = nullptr; // does not fit: the first (closest)
        for (const auto& c : cands) {
            if ((c.answer_kinds & bit(k)) == 0) continue;
            if (c.fits && c.meets_speed && !best) best = &c;
            if (c.fits && (!fast || c.decode_tokens_per_s > fast->decode_tokens_per_s)) fast = &c;
            if (!c.fits && !near) near = &c;
        }
        const plan_candidate* pick = best ? best : fast ? fast : near;
        if (!pick) continue;
        kind_answer a;
        a.kind            = k;
        a.index           = static_cast<std::size_t>(pick - cands.data());
        plan_reason first = make_reason(best   ? reason_code::cheapest
                                        : fast ? reason_code::fastest
                                               : reason_code::closest,
                                        best || fast ? 0 : -pick->headroom_bytes);
        if (best) first.usd = pick->cost_per_million_tokens_usd;
        if (fast && !best) first.tokens_per_s = pick->decode_tokens_per_s;
        a.why.push_back(first);
        for (const auto& f : pick->findings)
            if (f.code != reason_code::does_not_fit || best || fast) a.why.push_back(f);
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace detail
} // namespace llmplan

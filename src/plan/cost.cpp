// What a candidate costs an hour, the order of candidates, and the plan options' own checks.
#include "llmplan/plan.h"

#include <fmt/format.h>

namespace llmplan {

std::optional<hourly_cost_figures> hourly_cost(const device_spec& d, unsigned count, unsigned nodes,
                                               const plan_options& o) {
    hourly_cost_figures f;
    if (d.price_usd_per_hour) {
        f.usd_per_hour = *d.price_usd_per_hour * nodes;
        f.rented       = true;
        f.reason       = fmt::format("rented: {} instance{} of {} {} at ${:.2f}/h{}, paid while it runs", nodes,
                               nodes > 1 ? "s" : "", d.provider, d.instance_type, *d.price_usd_per_hour,
                               d.price_region.empty() ? "" : fmt::format(" ({} list price)", d.price_region));
        return f;
    }
    if (!d.price_usd) return std::nullopt;
    // A card or CPU row is one part: the plan buys `count` of them; a machine row is bought once a node.
    const auto pk        = purchase_of(d);
    const unsigned units = pk == purchase_kind::card ? count : nodes;
    const double buy     = *d.price_usd * units / (o.life_years * 8760.0); // 365 x 24 hours a year
    if (d.tdp_w) f.power_w = *d.tdp_w * units;
    if (d.idle_w) f.idle_power_w = *d.idle_w * units;
    // Load power the working share of the hours, idle power the rest (a machine left on).
    const double avg_w  = f.power_w ? *f.power_w * o.utilization + f.idle_power_w.value_or(0) * (1 - o.utilization) : 0;
    const double energy = avg_w / 1000.0 * o.pue * o.electricity_usd_per_kwh;
    f.usd_per_hour      = buy + energy;
    const std::string dated = d.price_date.empty() ? "" : fmt::format(" ({})", d.price_date);
    const std::string needs = host_needs(d, units);
    const std::string part = needs.empty() ? "" : fmt::format("; {} only: needs {}, not counted", to_string(pk), needs);
    f.reason = f.power_w ? fmt::format("cost: ${:.0f}{} over {:g} years (${:.3f}/h) + {:.0f} W load x {:.0f}% of the "
                                       "hours, {:.0f} W idle the rest, at ${:.3f}/kWh x PUE {:g} (${:.3f}/h){}",
                                       *d.price_usd * units, dated, o.life_years, buy, *f.power_w, o.utilization * 100,
                                       f.idle_power_w.value_or(0), o.electricity_usd_per_kwh, o.pue, energy, part)
                         : fmt::format("cost: ${:.0f}{} over {:g} years; power not counted (not in the table){}",
                                       *d.price_usd * units, dated, o.life_years, part);
    return f;
}

std::optional<double> cost_per_million_tokens(const hourly_cost_figures& f, double tokens_per_s,
                                              const plan_options& o) {
    if (!(tokens_per_s > 0)) return std::nullopt;
    const double busy = f.rented ? 1.0 : o.utilization;
    return f.usd_per_hour / (tokens_per_s * 3600.0 * busy) * 1e6;
}

bool cheapest_first(const plan_candidate& a, const plan_candidate& b) {
    if (a.fits != b.fits) return a.fits;
    if (!a.fits) return a.headroom_bytes > b.headroom_bytes; // closest to fitting first
    const bool ac = a.cost_per_million_tokens_usd.has_value(), bc = b.cost_per_million_tokens_usd.has_value();
    if (ac != bc) return ac;
    if (ac && *a.cost_per_million_tokens_usd != *b.cost_per_million_tokens_usd)
        return *a.cost_per_million_tokens_usd < *b.cost_per_million_tokens_usd;
    const double ta = a.training ? a.training->train_tokens_per_s : a.decode_tokens_per_s;
    const double tb = b.training ? b.training->train_tokens_per_s : b.decode_tokens_per_s;
    return ta > tb;
}

status validate(const plan_options& o) {
    auto bad = [](const char* opt, std::string msg) {
        return make_error(error_code::invalid_params, std::move(msg), opt);
    };
    if (!(o.electricity_usd_per_kwh >= 0)) return bad("--electricity-price", "expected a price of 0 or more");
    // Bounds that catch typos, not judgments: a PUE below 1 would give power back (the worst surveyed
    // sites are near 2.5, Uptime Institute 2023), and no machine is kept 50 years.
    if (!(o.pue >= 1.0 && o.pue < 10.0)) return bad("--pue", "expected a PUE from 1 (no overhead) to 10");
    if (!(o.utilization > 0 && o.utilization <= 1)) return bad("--utilization", "expected a share in (0, 1]");
    if (!(o.life_years > 0 && o.life_years <= 50)) return bad("--life-years", "expected 0 to 50 years");
    if (!(o.min_tokens_per_s >= 0)) return bad("--min-tokens-per-s", "expected 0 or more");
    if (!(o.max_ttft_s > 0)) return bad("--max-ttft", "expected a positive number of seconds");
    if (o.max_nodes == 0 || o.max_nodes > 1024) return bad("--max-nodes", "expected 1 to 1024");
    return ok();
}

} // namespace llmplan

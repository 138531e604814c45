// llmplan plan MODEL [estimate options] [plan options] [--json]: which hardware runs it, how fast, at
// what cost, CPU or GPU, and the command lines to launch it.
#include "cmd_estimate.h"
#include "commands.h"
#include "llmplan/plan.h"
#include "llmplan/report.h"
#include "llmplan/train_plan.h"
#include "llmplan/units.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace llmplan::cli {
namespace {

struct plan_cli_options {
    plan_options plan;
    std::string hardware_file;
    std::vector<std::string> hardware; ///< only these rows (and this machine)
    std::string from;                  ///< the model the user runs now (the article's 0.5B -> 7B)
    std::size_t top = 15;
};

std::string money(const std::optional<double>& v) {
    return v ? fmt::format("{:.3f}", *v) : std::string("-");
}

void print_row(const plan_candidate& c) {
    std::printf("%-34.34s %-6s %4u %-4s %9s %9.1f %9.0f %7.1f %8s %8s\n", c.hardware.c_str(), c.kind.c_str(), c.count,
                c.fits ? "yes" : "no",
                fmt::format("{:.1f}G", static_cast<double>(c.headroom_bytes) / (1024.0 * 1024 * 1024)).c_str(),
                c.decode_tokens_per_s, c.prefill_tokens_per_s, c.ttft_s, money(c.cost_per_hour_usd).c_str(),
                money(c.cost_per_million_tokens_usd).c_str());
}

void print_table(const plan_result& p, std::size_t top) {
    std::printf("%-34s %-6s %4s %-4s %9s %9s %9s %7s %8s %8s\n", "hardware", "kind", "n", "fits", "headroom",
                "decode/s", "prefill/s", "ttft s", "$/h", "$/Mtok");
    std::size_t shown = 0;
    for (const auto& c : p.candidates)
        if (shown++ < top) print_row(c); // --json has all
    for (const auto& c : p.candidates)
        if (c.kind == "local") {
            std::printf("\nthis machine:\n");
            print_row(c);
            for (const auto& r : c.reasons)
                std::printf("  - %s\n", r.c_str());
        }
    if (p.cpu_or_gpu) {
        std::printf("\nCPU or GPU: %s\n", p.cpu_or_gpu->choice.c_str());
        for (const auto& w : p.cpu_or_gpu->why)
            std::printf("  - %s\n", w.c_str());
    }
    if (p.recommendation) {
        std::printf("\nrecommended: %u x %s\n", p.recommendation->count, p.recommendation->hardware.c_str());
        for (const auto& w : p.recommendation->why)
            std::printf("  - %s\n", w.c_str());
        for (const auto& [engine, line] : p.candidates[p.recommendation->index].launch)
            std::printf("  %s: %s\n", engine.c_str(), line.c_str());
    } else {
        std::printf("\nnothing in the catalog fits\n");
    }
}

double gib(double bytes) {
    return bytes / (1024.0 * 1024 * 1024);
}

void print_comparison(const plan_comparison& c) {
    const auto& a = c.from;
    const auto& b = c.to;
    std::printf("\nfrom %s to %s (same workload):\n", a.model.c_str(), b.model.c_str());
    std::printf("  memory of the largest device: %.2f GiB -> %.2f GiB (x%.1f); weights %.2f -> %.2f GiB, KV cache "
                "%.2f -> %.2f GiB\n",
                gib(static_cast<double>(a.largest_device_bytes)), gib(static_cast<double>(b.largest_device_bytes)),
                a.largest_device_bytes > 0
                    ? static_cast<double>(b.largest_device_bytes) / static_cast<double>(a.largest_device_bytes)
                    : 0.0,
                gib(static_cast<double>(a.weights_bytes)), gib(static_cast<double>(b.weights_bytes)),
                gib(static_cast<double>(a.kv_cache_bytes)), gib(static_cast<double>(b.kv_cache_bytes)));
    for (const auto& r : c.rows)
        std::printf("  %s: %s -> %s, decode %.1f -> %.1f tokens/s, first token %.1f -> %.1f s\n", r.hardware.c_str(),
                    r.fits_from ? "fits" : "does not fit", r.fits_to ? "fits" : "does not fit", r.decode_from,
                    r.decode_to, r.ttft_from, r.ttft_to);
}

/// 100000000 -> "100M", 2500000000 -> "2.5B".
std::string token_count(std::uint64_t n) {
    const auto x = static_cast<double>(n);
    if (x >= 1e12) return fmt::format("{:g}T", x / 1e12);
    if (x >= 1e9) return fmt::format("{:g}B", x / 1e9);
    if (x >= 1e6) return fmt::format("{:g}M", x / 1e6);
    if (x >= 1e3) return fmt::format("{:g}k", x / 1e3);
    return std::to_string(n);
}

void print_train_table(const plan_result& p, std::uint64_t train_tokens, std::size_t top) {
    std::printf("training on %s tokens (--train-tokens)\n\n", token_count(train_tokens).c_str());
    std::printf("%-34s %-6s %4s %5s %4s %-4s %10s %9s %11s %9s %9s %10s\n", "hardware", "kind", "gpus", "nodes", "zero",
                "fits", "headroom", "step s", "train tok/s", "run h", "$/h", "run $");
    std::size_t shown = 0;
    for (const auto& c : p.candidates) {
        if (shown++ == top) break; // --json has all
        const auto& t    = *c.training;
        const bool timed = t.train_tokens_per_s > 0;
        std::string zero = std::to_string(t.zero_stage) + (t.offload_optimizer ? "+o" : "");
        std::printf("%-34.34s %-6s %4u %5u %4s %-4s %10s %9s %11s %9s %9s %10s\n", c.hardware.c_str(), c.kind.c_str(),
                    c.count, t.nodes, zero.c_str(), c.fits ? "yes" : "no",
                    fmt::format("{:.1f}GiB", static_cast<double>(c.headroom_bytes) / (1024.0 * 1024 * 1024)).c_str(),
                    timed ? fmt::format("{:.2f}", t.step_seconds).c_str() : "-",
                    timed ? fmt::format("{:.0f}", t.train_tokens_per_s).c_str() : "-",
                    timed ? fmt::format("{:.1f}", t.run_hours).c_str() : "-", money(c.cost_per_hour_usd).c_str(),
                    t.run_cost_usd ? fmt::format("{:.2f}", *t.run_cost_usd).c_str() : "-");
    }
    if (p.recommendation) {
        const auto& rec = p.candidates[p.recommendation->index];
        std::printf("\nrecommended: %u x %s\n", p.recommendation->count, p.recommendation->hardware.c_str());
        for (const auto& w : p.recommendation->why)
            std::printf("  - %s\n", w.c_str());
        for (const auto& [name, line] : rec.launch)
            if (name != "ds_config.json") std::printf("  %s: %s\n", name.c_str(), line.c_str());
        for (const auto& [name, text] : rec.launch)
            if (name == "ds_config.json") std::printf("\n  ds_config.json:\n%s\n", text.c_str());
    } else {
        std::printf("\nnothing in the catalog fits\n");
    }
}

void add_plan_options(CLI::App* cmd, plan_cli_options& o) {
    auto& p = o.plan;
    cmd->add_option("--hardware", o.hardware,
                    "only these catalog rows (names as `llmplan hardware list`; repeat or comma-separate)")
        ->delimiter(',');
    cmd->add_option("--hardware-file", o.hardware_file, "CSV of your own machines (same format as the catalog)");
    cmd->add_option("--electricity-price", p.electricity_usd_per_kwh,
                    "USD per kWh for owned hardware [0.1688, US residential average, EIA Apr 2024]");
    cmd->add_option("--pue", p.pue, "power usage effectiveness [1.0 at home; data centres average 1.58]");
    cmd->add_option("--utilization", p.utilization, "share of the hours the machine works [1.0]");
    cmd->add_option("--life-years", p.life_years, "years an owned machine is used [3]");
    cmd->add_option("--min-tokens-per-s", p.min_tokens_per_s, "decode speed wanted per request [5.3, reading speed]");
    cmd->add_option("--max-ttft", p.max_ttft_s, "longest wait for the first token, seconds [10]");
    cmd->add_option("--max-nodes", p.max_nodes, "most machines a plan may span [64]");
    cmd->add_option("--top", o.top, "rows of the table [15]");
    cmd->add_option("--from", o.from,
                    "the model you run now: compare its memory and speed with MODEL on this machine and on the "
                    "recommended one");
}

} // namespace

void add_plan_command(CLI::App& app) {
    auto opt  = std::make_shared<estimate_options>();
    auto po   = std::make_shared<plan_cli_options>();
    auto* cmd = app.add_subcommand("plan", "Hardware that runs a model, with speed, cost and launch lines");
    add_estimate_options(cmd, *opt);
    add_plan_options(cmd, *po);
    cmd->callback([opt, po] {
        if (auto s = validate(po->plan); !s) fail(s.error());
        if (!po->from.empty() && opt->task == "train") fail("--from: compares inference plans; drop --task train");
        std::uint64_t train_tokens = default_train_tokens;
        if (!opt->train_tokens.empty()) {
            auto n = parse_count(opt->train_tokens, "--train-tokens");
            if (!n) fail(n.error());
            train_tokens = *n;
        }
        std::optional<hardware_catalog> with_file;
        if (!po->hardware_file.empty()) {
            auto c = catalog_with_file(po->hardware_file);
            if (!c) fail(c.error());
            with_file = std::move(*c);
        }
        const hardware_catalog& catalog = with_file ? *with_file : builtin_hardware();
        const auto r                    = run_estimate(*opt);
        // Every GPU, Apple SoC, machine and cloud instance with known memory (or the ones named), plus
        // this machine.
        std::vector<const device_spec*> cands;
        if (po->hardware.empty()) {
            cands = catalog.candidates();
        } else {
            for (const auto& name : po->hardware) {
                auto d = catalog.lookup(name);
                if (!d) fail(d.error());
                cands.push_back(*d);
            }
        }
        const auto local = to_device_spec(detect_local_hardware());
        cands.push_back(&local);
        if (r.training) {
            const auto p = make_train_plan(r.model, r.train, cands, train_tokens, po->plan);
            if (opt->json)
                print_json(train_plan_to_json(to_json(r), p, train_tokens));
            else
                print_train_table(p, train_tokens, po->top);
            return;
        }
        const auto p = make_plan(r.model, r.infer, cands, po->plan);
        std::optional<resolved_estimate> from;
        std::optional<plan_result> from_plan;
        std::optional<plan_comparison> cmp;
        if (!po->from.empty()) {
            estimate_options before = *opt;
            before.model            = po->from;
            from                    = run_estimate(before);
            // The model run now, on this machine and on the row recommended for the one wanted.
            std::vector<const device_spec*> where{&local};
            if (p.recommendation)
                for (const auto* d : cands)
                    if (d != &local && d->name == p.recommendation->hardware) where.insert(where.begin(), d);
            from_plan = make_plan(from->model, from->infer, where, po->plan);
            cmp       = compare_plans(from->model, *from->inference, *from_plan, r.model, *r.inference, p);
        }
        if (opt->json) {
            auto j = plan_to_json(to_json(r), p);
            if (cmp) {
                j["from"]       = plan_to_json(to_json(*from), *from_plan);
                j["comparison"] = comparison_to_json(*cmp);
            }
            print_json(j);
        } else {
            print_table(p, po->top);
            if (cmp) print_comparison(*cmp);
        }
    });
}

} // namespace llmplan::cli

// llmplan plan MODEL [estimate options] [--json]: which hardware runs it, how fast, at what cost.
#include "cmd_estimate.h"
#include "commands.h"
#include "llmplan/plan.h"
#include "llmplan/report.h"
#include "llmplan/train_plan.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace llmplan::cli {
namespace {

std::string money(const std::optional<double>& v, const char* fmt_str) {
    return v ? fmt::format(fmt::runtime(fmt_str), *v) : std::string("-");
}

void print_table(const plan_result& p) {
    std::printf("%-34s %-6s %3s %-4s %10s %9s %10s %8s %9s\n", "hardware", "kind", "n", "fits", "headroom", "decode/s",
                "prefill/s", "$/h", "$/Mtok");
    std::size_t shown = 0;
    for (const auto& c : p.candidates) {
        if (shown++ == 15) break; // the top 15; --json has all
        std::printf("%-34.34s %-6s %3u %-4s %10s %9.1f %10.0f %8s %9s\n", c.hardware.c_str(), c.kind.c_str(), c.count,
                    c.fits ? "yes" : "no",
                    fmt::format("{:.1f}GiB", static_cast<double>(c.headroom_bytes) / (1024.0 * 1024 * 1024)).c_str(),
                    c.decode_tokens_per_s, c.prefill_tokens_per_s, money(c.cost_per_hour_usd, "{:.3f}").c_str(),
                    money(c.cost_per_million_tokens_usd, "{:.3f}").c_str());
    }
    if (p.recommendation) {
        std::printf("\nrecommended: %u x %s\n", p.recommendation->count, p.recommendation->hardware.c_str());
        for (const auto& w : p.recommendation->why)
            std::printf("  - %s\n", w.c_str());
        for (const auto& [engine, line] : p.candidates.front().launch)
            std::printf("  %s: %s\n", engine.c_str(), line.c_str());
    } else {
        std::printf("\nnothing in the catalog fits\n");
    }
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

void print_train_table(const plan_result& p, std::uint64_t train_tokens) {
    std::printf("training on %s tokens (--train-tokens)\n\n", token_count(train_tokens).c_str());
    std::printf("%-34s %-6s %4s %5s %4s %-4s %10s %9s %11s %9s %9s %10s\n", "hardware", "kind", "gpus", "nodes", "zero",
                "fits", "headroom", "step s", "train tok/s", "run h", "$/h", "run $");
    std::size_t shown = 0;
    for (const auto& c : p.candidates) {
        if (shown++ == 15) break; // the top 15; --json has all
        const auto& t    = *c.training;
        const bool timed = t.train_tokens_per_s > 0;
        std::string zero = std::to_string(t.zero_stage) + (t.offload_optimizer ? "+o" : "");
        std::printf("%-34.34s %-6s %4u %5u %4s %-4s %10s %9s %11s %9s %9s %10s\n", c.hardware.c_str(), c.kind.c_str(),
                    c.count, t.nodes, zero.c_str(), c.fits ? "yes" : "no",
                    fmt::format("{:.1f}GiB", static_cast<double>(c.headroom_bytes) / (1024.0 * 1024 * 1024)).c_str(),
                    timed ? fmt::format("{:.2f}", t.step_seconds).c_str() : "-",
                    timed ? fmt::format("{:.0f}", t.train_tokens_per_s).c_str() : "-",
                    timed ? fmt::format("{:.1f}", t.run_hours).c_str() : "-",
                    money(c.cost_per_hour_usd, "{:.3f}").c_str(), money(t.run_cost_usd, "{:.2f}").c_str());
    }
    if (p.recommendation) {
        std::printf("\nrecommended: %u x %s\n", p.recommendation->count, p.recommendation->hardware.c_str());
        for (const auto& w : p.recommendation->why)
            std::printf("  - %s\n", w.c_str());
        for (const auto& [name, line] : p.candidates.front().launch)
            if (name != "ds_config.json") std::printf("  %s: %s\n", name.c_str(), line.c_str());
        if (!p.candidates.empty())
            for (const auto& [name, text] : p.candidates.front().launch)
                if (name == "ds_config.json") std::printf("\n  ds_config.json:\n%s\n", text.c_str());
    } else {
        std::printf("\nnothing in the catalog fits\n");
    }
}

} // namespace

void add_plan_command(CLI::App& app) {
    auto opt  = std::make_shared<estimate_options>();
    auto* cmd = app.add_subcommand("plan", "Hardware that runs a model, with speed, cost and launch lines");
    add_estimate_options(cmd, *opt);
    cmd->callback([opt] {
        const std::uint64_t train_tokens = parse_train_tokens(opt->train_tokens, default_train_tokens);
        const auto r                     = run_estimate(*opt);
        // Every GPU, Apple SoC, machine and cloud instance with known memory, plus this machine.
        auto cands       = builtin_hardware().candidates();
        const auto local = to_device_spec(detect_local_hardware());
        cands.push_back(&local);
        if (r.training) {
            const auto p = make_train_plan(r.model, r.train, cands, train_tokens);
            if (opt->json)
                print_json(train_plan_to_json(to_json(r), p, train_tokens));
            else
                print_train_table(p, train_tokens);
            return;
        }
        const auto p = make_plan(r.model, r.infer, cands);
        if (opt->json)
            print_json(plan_to_json(to_json(r), p));
        else
            print_table(p);
    });
}

} // namespace llmplan::cli

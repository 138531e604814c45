// llmplan plan MODEL [estimate options] [--json]: which hardware runs it, how fast, at what cost.
#include "cmd_estimate.h"
#include "commands.h"
#include "llmplan/plan.h"
#include "llmplan/report.h"

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

} // namespace

void add_plan_command(CLI::App& app) {
    auto opt  = std::make_shared<estimate_options>();
    auto* cmd = app.add_subcommand("plan", "Hardware that runs a model, with speed, cost and launch lines");
    add_estimate_options(cmd, *opt);
    cmd->callback([opt] {
        if (opt->task != "infer") fail("plan: --task train is not planned yet; use estimate");
        const auto r = run_estimate(*opt);
        // Every GPU, Apple SoC, machine and cloud instance with known memory, plus this machine.
        auto cands       = builtin_hardware().candidates();
        const auto local = to_device_spec(detect_local_hardware());
        cands.push_back(&local);
        const auto p = make_plan(r.model, r.infer, cands);
        if (opt->json)
            print_json(plan_to_json(to_json(r), p));
        else
            print_table(p);
    });
}

} // namespace llmplan::cli

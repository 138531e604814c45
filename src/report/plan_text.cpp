// `llmplan plan` as text: the candidate table, this machine, CPU or GPU, the recommendation with
// its launch lines, the training table, and the --from comparison (moved from the CLI).
#include "report/document_text.h"

#include <fmt/format.h>

namespace llmplan::detail {
namespace {

double gib(double bytes) {
    return bytes / (1024.0 * 1024 * 1024);
}

std::string money(const std::optional<double>& v) {
    return v ? fmt::format("{:.3f}", *v) : std::string("-");
}

std::string row_text(const plan_candidate& c) {
    return fmt::format("{:<34.34} {:<6} {:>4} {:<4} {:>9} {:>9.1f} {:>9.0f} {:>7.1f} {:>8} {:>8}\n", c.hardware, c.kind,
                       c.count, c.fits ? "yes" : "no",
                       fmt::format("{:.1f}G", gib(static_cast<double>(c.headroom_bytes))), c.decode_tokens_per_s,
                       c.prefill_tokens_per_s, c.ttft_s, money(c.cost_per_hour_usd),
                       money(c.cost_per_million_tokens_usd));
}

std::string lines(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& w : items)
        s += fmt::format("  - {}\n", w);
    return s;
}

std::string infer_table(const plan_result& p, std::size_t top) {
    std::string s = fmt::format("{:<34} {:<6} {:>4} {:<4} {:>9} {:>9} {:>9} {:>7} {:>8} {:>8}\n", "hardware", "kind",
                                "n", "fits", "headroom", "decode/s", "prefill/s", "ttft s", "$/h", "$/Mtok");
    std::size_t shown = 0;
    for (const auto& c : p.candidates)
        if (shown++ < top) s += row_text(c); // --json has all
    for (const auto& c : p.candidates)
        if (c.kind == "local") s += "\nthis machine:\n" + row_text(c) + lines(c.reasons);
    if (p.cpu_or_gpu) s += fmt::format("\nCPU or GPU: {}\n", p.cpu_or_gpu->choice) + lines(p.cpu_or_gpu->why);
    if (!p.recommendation) return s + "\nnothing in the catalog fits\n";
    s += fmt::format("\nrecommended: {} x {}\n", p.recommendation->count, p.recommendation->hardware);
    s += lines(p.recommendation->why);
    for (const auto& [engine, line] : p.candidates[p.recommendation->index].launch)
        s += fmt::format("  {}: {}\n", engine, line);
    return s;
}

std::string comparison_text(const plan_comparison& c) {
    const auto& a = c.from;
    const auto& b = c.to;
    const auto la = static_cast<double>(a.largest_device_bytes), lb = static_cast<double>(b.largest_device_bytes);
    std::string s = fmt::format("\nfrom {} to {} (same workload):\n", a.model, b.model);
    s += fmt::format("  memory of the largest device: {:.2f} GiB -> {:.2f} GiB (x{:.1f}); weights {:.2f} -> {:.2f} "
                     "GiB, KV cache {:.2f} -> {:.2f} GiB\n",
                     gib(la), gib(lb), la > 0 ? lb / la : 0.0, gib(static_cast<double>(a.weights_bytes)),
                     gib(static_cast<double>(b.weights_bytes)), gib(static_cast<double>(a.kv_cache_bytes)),
                     gib(static_cast<double>(b.kv_cache_bytes)));
    for (const auto& r : c.rows)
        s += fmt::format("  {}: {} -> {}, decode {:.1f} -> {:.1f} tokens/s, first token {:.1f} -> {:.1f} s\n",
                         r.hardware, r.fits_from ? "fits" : "does not fit", r.fits_to ? "fits" : "does not fit",
                         r.decode_from, r.decode_to, r.ttft_from, r.ttft_to);
    return s;
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

std::string train_table(const plan_result& p, std::uint64_t train_tokens, std::size_t top) {
    std::string s = fmt::format("training on {} tokens (--train-tokens)\n\n", token_count(train_tokens));
    s +=
        fmt::format("{:<34} {:<6} {:>4} {:>5} {:>4} {:<4} {:>10} {:>9} {:>11} {:>9} {:>9} {:>10}\n", "hardware", "kind",
                    "gpus", "nodes", "zero", "fits", "headroom", "step s", "train tok/s", "run h", "$/h", "run $");
    std::size_t shown = 0;
    for (const auto& c : p.candidates) {
        if (shown++ == top) break; // --json has all
        const auto& t    = *c.training;
        const bool timed = t.train_tokens_per_s > 0;
        auto fixed       = [&](double v, int places) { return timed ? fmt::format("{:.{}f}", v, places) : "-"; };
        s += fmt::format("{:<34.34} {:<6} {:>4} {:>5} {:>4} {:<4} {:>10} {:>9} {:>11} {:>9} {:>9} {:>10}\n", c.hardware,
                         c.kind, c.count, t.nodes, std::to_string(t.zero_stage) + (t.offload_optimizer ? "+o" : ""),
                         c.fits ? "yes" : "no", fmt::format("{:.1f}GiB", gib(static_cast<double>(c.headroom_bytes))),
                         fixed(t.step_seconds, 2), fixed(t.train_tokens_per_s, 0), fixed(t.run_hours, 1),
                         money(c.cost_per_hour_usd), t.run_cost_usd ? fmt::format("{:.2f}", *t.run_cost_usd) : "-");
    }
    if (!p.recommendation) return s + "\nnothing in the catalog fits\n";
    const auto& rec = p.candidates[p.recommendation->index];
    s += fmt::format("\nrecommended: {} x {}\n", p.recommendation->count, p.recommendation->hardware);
    s += lines(p.recommendation->why);
    for (const auto& [name, line] : rec.launch)
        if (name != "ds_config.json") s += fmt::format("  {}: {}\n", name, line);
    for (const auto& [name, text] : rec.launch)
        if (name == "ds_config.json") s += fmt::format("\n  ds_config.json:\n{}\n", text);
    return s;
}

} // namespace

std::string plan_text(const plan_document& d) {
    if (d.estimate.training) return train_table(d.plan, d.train_tokens, d.top);
    std::string s = infer_table(d.plan, d.top);
    if (d.from) s += comparison_text(d.from->comparison);
    return s;
}

} // namespace llmplan::detail

// `llmplan plan` as text: the candidate table, this machine, CPU or GPU, the recommendation with
// its launch lines, the training table, and the --from comparison (moved from the CLI).
#include "llmplan/units.h"
#include "plan/turn.h"
#include "report/document_text.h"

#include <fmt/format.h>
#include <string>
#include <vector>

namespace llmplan::detail {
namespace {

double gib(double bytes) {
    return bytes / (1024.0 * 1024 * 1024);
}

std::string money(const std::optional<double>& v) {
    return v ? fmt::format("{:.3f}", *v) : std::string("-");
}

/// Width of the hardware column: the table's other columns take 68, so a row stays within 100.
constexpr std::size_t name_width = 30;

std::string row_text(const plan_candidate& c) {
    const auto lines = wrapped(c.hardware, name_width);
    // an unknown speed (a missing figure) is "-", never 0
    const auto known = [](double v, const char* f) { return v > 0 ? fmt::format(fmt::runtime(f), v) : "-"; };
    std::string s    = fmt::format("{:<30} {:<7} {:>3} {:<4} {:>8.1f} {:>8} {:>8} {:>6} {:>7} {:>8}\n", lines[0],
                                   name(c.kind), c.instances > 0 ? c.instances : c.count, c.fits ? "yes" : "no",
                                   gib(static_cast<double>(c.headroom_bytes)),
                                c.decode_tokens_per_s > 0 ? tokens_per_s_text(c.decode_tokens_per_s) : "-",
                                   known(c.prefill_tokens_per_s, "{:.0f}"), known(c.ttft_s, "{:.1f}"),
                                   money(c.cost_per_hour_usd), money(c.cost_per_million_tokens_usd));
    for (std::size_t i = 1; i < lines.size(); ++i)
        s += "  " + lines[i] + "\n";
    return s;
}

/// One counting of machines and accelerators (issue 25, finding 4): a cloud row is counted in
/// instances, each a machine of N GPUs, with the GPUs in all beside it ("2 x p4d.24xlarge (16 GPUs)");
/// a card row in cards ("4 x GeForce RTX 4090"); a machine as itself.
std::string units_text(const plan_candidate& c) {
    const unsigned instances =
        c.instances > 0 ? c.instances : (c.kind == candidate_kind::cloud && c.training ? c.training->nodes : 0);
    const bool tpu        = c.hardware.find("TPU") != std::string::npos;
    const bool on_devices = c.runs_on != device_kind::cpu;
    if (instances > 0) {
        std::string s = fmt::format("{} x {}", instances, c.hardware);
        if (on_devices && c.count > 1) s += fmt::format(" ({} {}s in all)", c.count, tpu ? "TPU chip" : "GPU");
        return s;
    }
    return c.count > 1 ? fmt::format("{} x {}", c.count, c.hardware) : c.hardware;
}

std::string lines(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& w : items)
        s += fmt::format("  - {}\n", w);
    return s;
}

std::string fit_option_text(const fit_option& f) {
    std::string s = fmt::format("{}: {}", f.setting, f.fits ? "fits" : "still short");
    s += fmt::format(", {} {:.1f} GiB", f.fits ? "headroom" : "short by",
                     gib(static_cast<double>(f.fits ? f.headroom_bytes : -f.headroom_bytes)));
    if (f.host_bytes > 0) s += fmt::format(", {:.1f} GiB in RAM", gib(static_cast<double>(f.host_bytes)));
    s += f.decode_tokens_per_s > 0 ? fmt::format(", {} tokens/s", tokens_per_s_text(f.decode_tokens_per_s))
                                   : std::string(", speed unknown");
    return s;
}

/// "--engine llama.cpp --weights q4_k_m: 9.1 tokens/s, headroom 4.2 GiB (3.1x the speed; quality: ...)".
std::string better_option_text(const fit_option& f) {
    return fmt::format("{}: {} tokens/s, headroom {:.1f} GiB ({})", f.setting,
                       f.decode_tokens_per_s > 0 ? tokens_per_s_text(f.decode_tokens_per_s) : std::string("-"),
                       gib(static_cast<double>(f.headroom_bytes)), f.cost);
}

/// The way a person would take on this row: the fastest way to do better where it fits, else the
/// fastest way to fit that fits; nullptr when neither.
const fit_option* chosen_way(const plan_candidate& c) {
    if (!c.better_options.empty() && !c.better_options.front().launch.empty()) return &c.better_options.front();
    if (!c.fits)
        for (const auto& f : c.fit_options)
            if (f.fits && !f.launch.empty()) return &f;
    return nullptr;
}

/// A row's settings as they run: the chosen way's launch lines when there is one, else the row's own.
std::string settings_text(const plan_candidate& c, const char* indent) {
    std::string s;
    for (const auto& f : c.better_options)
        s += fmt::format("{}- faster: {}\n", indent, better_option_text(f));
    const fit_option* way = chosen_way(c);
    const auto& launch    = way ? way->launch : c.launch;
    if (way) s += fmt::format("{}run it {}({}):\n", indent, c.fits ? "faster " : "", way->setting);
    for (const auto& [engine, line] : launch)
        s += fmt::format("{}{}{}: {}\n", indent, way ? "  " : "", engine, line);
    return s;
}

/// The person's own machine first (this machine, detected): what runs, how fast, with which settings.
std::string my_machine_text(const plan_result& p) {
    std::string s;
    for (const auto& c : p.candidates)
        if (c.kind == candidate_kind::local) {
            s += "this machine:\n" + row_text(c) + lines(c.reasons);
            for (const auto& f : c.fit_options)
                s += fmt::format("  - to fit: {}\n", fit_option_text(f));
            s += settings_text(c, "  ");
            s += "\n";
        }
    return s;
}

/// The short answer first: the best row of each kind, why, and how to make it fit when nothing does.
std::string answers_text(const plan_result& p) {
    if (p.answers.empty()) return {};
    std::string s = "best of each kind (--kind to ask for one):\n";
    for (const auto& a : p.answers) {
        const auto& c = p.candidates[a.index];
        s += fmt::format(
            "  {:<8} {}:{}\n", name(a.kind), units_text(c),
            c.fits
                ? fmt::format(" {}{}",
                              c.decode_tokens_per_s > 0 ? tokens_per_s_text(c.decode_tokens_per_s) + " tokens/s"
                                                        : std::string("speed unknown"),
                              c.cost_per_hour_usd ? fmt::format(", ${:.3f}/h (${:.0f} a month)", *c.cost_per_hour_usd,
                                                                *c.cost_per_hour_usd * 8760.0 / 12.0)
                                                  : std::string())
                : std::string(" does not fit"));
        for (const auto& r : a.why)
            s += fmt::format("           - {}\n", reason_text(r));
        for (const auto& f : c.fit_options)
            s += fmt::format("           - to fit: {}\n", fit_option_text(f));
        for (const auto& f : c.better_options)
            s += fmt::format("           - faster: {}\n", better_option_text(f));
        // The line that runs the chosen way on this row (its settings: -ngl 0 on a CPU).
        if (const fit_option* way = chosen_way(c); way)
            s += fmt::format("           - run it ({}): {}\n", way->setting, way->launch.front().second);
    }
    return s + "\n";
}

std::string infer_table(const plan_result& p, std::size_t top, const std::string& turn) {
    // This machine first, then what to buy or rent.
    std::string s = my_machine_text(p) + answers_text(p);
    if (p.recommendation) {
        const auto& rec = p.candidates[p.recommendation->index];
        s += fmt::format("recommended: {}{}\n",
                         rec.count > 1 || rec.instances > 0 ? units_text(rec) : "1 x " + rec.hardware,
                         rec.kind == candidate_kind::local   ? ""
                         : rec.kind == candidate_kind::cloud ? " (to rent)"
                                                             : " (to buy)");
        s += lines(p.recommendation->why);
        s += settings_text(rec, "  ");
    } else {
        s += "nothing in the catalog fits\n";
    }
    if (p.cpu_or_gpu) s += fmt::format("\nCPU or GPU: {}\n", p.cpu_or_gpu->choice) + lines(p.cpu_or_gpu->why);
    s += "\nmemory in GiB (2^30 bytes), speeds in tokens/s, times in seconds, money in US dollars; n: cards, "
         "or instances of a cloud row (each with the GPUs its name says)\n";
    s += turn + "\n";
    s += fmt::format("{:<30} {:<7} {:>3} {:<4} {:>8} {:>8} {:>8} {:>6} {:>7} {:>8}\n", "hardware", "kind", "n", "fits",
                     "headroom", "decode", "prefill", "ttft", "$/h", "$/Mtok");
    // This machine has its own section above; each row that does not fit is followed by its ways to
    // fit, closest first.
    std::size_t shown = 0, rows = 0;
    for (const auto& c : p.candidates) {
        if (c.kind == candidate_kind::local) continue;
        ++rows;
        if (shown++ >= top) continue; // --json has all
        s += row_text(c);
        for (const auto& f : c.fit_options)
            s += fmt::format("  to fit: {}\n", fit_option_text(f));
    }
    if (rows > top) s += fmt::format("... {} more rows (--top, or --json for all)\n", rows - top);
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
    std::string s = fmt::format("training on {} tokens (--train-tokens)\n", token_count(train_tokens));
    s += "memory in GiB (2^30 bytes), times in seconds (step) and hours (run), money in US dollars\n\n";
    s += fmt::format("{:<24} {:<5} {:>4} {:>3} {:>4} {:<3} {:>7} {:>7} {:>9} {:>7} {:>7} {:>9}\n", "hardware", "kind",
                     "gpus", "nod", "zero", "fit", "free", "step", "tok/s", "run h", "$/h", "run $");
    std::size_t shown = 0;
    for (const auto& c : p.candidates) {
        if (shown++ == top) break; // --json has all
        const auto& t    = *c.training;
        const bool timed = t.train_tokens_per_s > 0;
        auto fixed       = [&](double v, int places) { return timed ? fmt::format("{:.{}f}", v, places) : "-"; };
        const auto lines = wrapped(c.hardware, 24);
        s += fmt::format("{:<24} {:<5} {:>4} {:>3} {:>4} {:<3} {:>7.1f} {:>7} {:>9} {:>7} {:>7} {:>9}\n", lines[0],
                         name(c.kind), c.count, t.nodes,
                         std::to_string(t.zero_stage) + (t.offload_optimizer ? "+o" : ""), c.fits ? "yes" : "no",
                         gib(static_cast<double>(c.headroom_bytes)), fixed(t.step_seconds, 2),
                         fixed(t.train_tokens_per_s, 0), fixed(t.run_hours, 1), money(c.cost_per_hour_usd),
                         t.run_cost_usd ? fmt::format("{:.2f}", *t.run_cost_usd) : "-");
        for (std::size_t i = 1; i < lines.size(); ++i)
            s += "  " + lines[i] + "\n";
    }
    if (!p.recommendation) return s + "\nnothing in the catalog fits\n";
    const auto& rec = p.candidates[p.recommendation->index];
    s += fmt::format("\nrecommended: {}\n",
                     rec.count > 1 || rec.kind == candidate_kind::cloud ? units_text(rec) : "1 x " + rec.hardware);
    s += lines(p.recommendation->why);
    for (const auto& [name, line] : rec.launch)
        if (name != "ds_config.json") s += fmt::format("  {}: {}\n", name, line);
    for (const auto& [name, text] : rec.launch)
        if (name == "ds_config.json") s += fmt::format("\n  ds_config.json:\n{}\n", text);
    return s;
}

} // namespace

std::vector<std::string> wrapped(const std::string& text, std::size_t width) {
    std::vector<std::string> out(1);
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        std::string word = text.substr(at, end - at);
        at               = end + 1;
        while (word.size() > width) {
            if (!out.back().empty()) out.emplace_back();
            out.back() = word.substr(0, width);
            word       = word.substr(width);
            out.emplace_back();
        }
        if (!out.back().empty() && out.back().size() + 1 + word.size() > width) out.emplace_back();
        if (!out.back().empty()) out.back() += ' ';
        out.back() += word;
    }
    return out;
}

std::string plan_text(const plan_document& d) {
    if (d.estimate.training) return train_table(d.plan, d.train_tokens, d.top);
    std::string s = infer_table(d.plan, d.top, turn_text(turn_of(d.estimate.infer)));
    if (d.from) s += comparison_text(d.from->comparison);
    return s;
}

} // namespace llmplan::detail

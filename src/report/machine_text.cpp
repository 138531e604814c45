// `llmplan fit`, `llmplan hardware` and `llmplan models` as text (moved from the CLI).
#include "report/document_text.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan::detail {
namespace {

double gib(std::uint64_t b) {
    return static_cast<double>(b) / (1024.0 * 1024.0 * 1024.0);
}
std::string gib(std::optional<std::uint64_t> b) {
    return b ? fmt::format("{:.1f} GiB", gib(*b)) : std::string("?");
}
/// Memory in one unit, GiB (2^30 bytes) as every other answer gives it: what a model can use (a card
/// sold as "80GB" shows 79 GiB, the driver's share taken; a Mac its GPU's share of the RAM).
std::string gib_short(std::optional<std::uint64_t> b) {
    if (!b) return "?";
    const double g = gib(*b);
    return g < 10 ? fmt::format("{:.1f} GiB", g) : fmt::format("{:.0f} GiB", g);
}
/// The row's type as a person names it: a laptops.csv row is a laptop or a desktop (its form column),
/// not every owned machine a "laptop".
std::string type_of(const device_spec& d) {
    if (d.kind == hardware_kind::laptop) return d.form.rfind("desktop", 0) == 0 ? "desktop" : "laptop";
    return std::string(to_string(d.kind));
}
std::string gbs(std::optional<std::uint64_t> b) {
    return b ? fmt::format("{:.0f} GB/s", static_cast<double>(*b) / 1e9) : std::string("?");
}
std::string yes(std::optional<bool> b) {
    return b ? (*b ? "yes" : "no") : "?";
}
std::string tflops(const std::optional<double>& f) {
    return f ? fmt::format("{:.0f}", *f / 1e12) : std::string("?");
}

std::string local_text(const local_machine& m, const device_spec& d, const std::string& cache_file) {
    std::string s = fmt::format("This machine ({})\n", m.os.empty() ? "unknown OS" : m.os);
    s += fmt::format("  CPU      {} ({} cores, {} threads; avx2 {}, avx512f {}, amx {})\n",
                     m.cpu.model.empty() ? "unknown" : m.cpu.model, m.cpu.cores, m.cpu.threads, yes(d.avx2),
                     yes(d.avx512), yes(d.amx));
    if (!d.cpu_link.empty())
        s +=
            fmt::format("           catalog: {}, {} DRAM peak\n", d.cpu_link, gbs(d.host_memory_bandwidth_bytes_per_s));
    s += fmt::format("  RAM      {} total, {} available; reads at {} ({})\n", gib(m.ram.total_bytes),
                     gib(m.ram.available_bytes), gbs(m.measured_read_bytes_per_s),
                     m.bandwidth_from_cache
                         ? fmt::format("measured before, cached in {}; --probe measures again", cache_file)
                         : std::string("measured now"));
    if (m.gpus.empty()) s += "  GPU      none found (CPU only)\n";
    for (const auto& g : m.gpus)
        s += fmt::format("  GPU      {} ({} total, {} used; via {})\n", g.name, gib(g.memory_total_bytes),
                         gib(g.memory_used_bytes), g.via);
    if (!m.gpus.empty()) {
        s += fmt::format("           usable for a model: {}{}\n", gib(d.memory_bytes),
                         m.unified_memory ? " (75% of unified RAM, macOS default GPU share)" : "");
        if (!d.gpu_link.empty())
            s += fmt::format("           catalog: {}, {}, BF16 {} TFLOPS\n", d.gpu_link,
                             gbs(d.memory_bandwidth_bytes_per_s), tflops(d.bf16_flops));
    }
    if (!m.missing.empty()) {
        std::string miss;
        for (const auto& x : m.missing)
            miss += (miss.empty() ? "" : "; ") + x;
        s += fmt::format("  Missing  {}\n", miss);
    }
    return s;
}

std::string catalog_table(const std::vector<device_spec>& rows) {
    // Within 100 columns: the name (30) and the GPU / provider (21) wrap onto more lines, whole.
    constexpr std::size_t name_w = 30, extra_w = 21;
    std::string s = fmt::format("{:<30} {:<7} {:>9} {:>10} {:>7} {:>9}  {}\n", "NAME", "KIND", "MEMORY", "BANDWIDTH",
                                "BF16 TF", "PRICE", "GPU / PROVIDER");
    for (const auto& d : rows) {
        std::string mem = d.memory_bytes ? gib_short(d.memory_bytes) : gib_short(d.host_memory_bytes);
        if (d.gpu_count > 1) mem = fmt::format("{}x{}", d.gpu_count, gib_short(d.memory_bytes));
        const auto bw =
            gbs(d.memory_bandwidth_bytes_per_s ? d.memory_bandwidth_bytes_per_s : d.host_memory_bandwidth_bytes_per_s);
        const auto price = d.price_usd_per_hour ? fmt::format("${:.2f}/h", *d.price_usd_per_hour)
                           : d.price_usd        ? fmt::format("${:.0f}", *d.price_usd)
                                                : std::string("?");
        const auto name  = wrapped(d.name, name_w);
        const auto extra = wrapped(
            d.kind == hardware_kind::cloud ? fmt::format("{} {}", d.provider, d.gpu_model) : d.gpu_model, extra_w);
        s += fmt::format("{:<30} {:<7} {:>9} {:>10} {:>7} {:>9}  {}\n", name[0], type_of(d), mem, bw,
                         tflops(d.bf16_flops), price, extra[0]);
        for (std::size_t i = 1; i < std::max(name.size(), extra.size()); ++i) {
            const std::string more = i < extra.size() ? extra[i] : std::string();
            s += fmt::format("{:<30} {:>46}  {}\n", i < name.size() ? name[i] : std::string(), "", more);
        }
    }
    return s;
}

} // namespace

std::string fit_text(const fit_hardware_result& r) {
    std::string s = fmt::format(
        "{} ({}): {} on {}, {} device(s), {:.1f} GiB each, budget {:.1f} GiB, ctx {}, batch {}\n", r.hardware, r.kind,
        r.engine, r.device, r.gpus, gib(r.memory_bytes), gib(r.budget_bytes), r.ctx, r.batch);
    for (const auto& n : r.notes)
        s += fmt::format("  note: {}\n", n);
    s += "\nlargest models that fit:\n";
    for (const auto& p : r.largest) {
        s += fmt::format("  {:<7}", p.weights);
        if (p.largest.empty()) s += " none";
        for (std::size_t i = 0; i < p.largest.size(); ++i)
            s += fmt::format("{} {}", i ? "," : "", p.largest[i]);
        s += "\n";
    }
    if (r.chosen_model.empty()) return s;
    s += fmt::format("\n{}:\n  {:<7} {:<5} {:>10} {:>10}\n", r.chosen_model, "weights", "fits", "max ctx", "max seqs");
    for (const auto& a : r.chosen) {
        if (!a.error.empty())
            s += fmt::format("  {:<7} {}\n", a.weights, a.error);
        else
            s += fmt::format("  {:<7} {:<5} {:>10} {:>10}\n", a.weights, a.answer.fits_as_asked ? "yes" : "no",
                             a.answer.max_ctx, a.answer.max_batch);
    }
    return s;
}

std::string hardware_text(const hardware_document& d) {
    if (d.what == hardware_request::mode::local) return local_text(d.machine, d.local, d.cache_file);
    if (d.what == hardware_request::mode::check) {
        // Ranked rows are those with every figure (hardware_catalog::candidates), so this list is
        // what the planner leaves out, and why.
        std::string s = fmt::format("{} of {} rows are ranked, each with memory, bandwidth, compute, price and power.\n"
                                    "{} rows a person buys or rents are not ranked, for the figures they lack:\n",
                                    d.ranked, d.catalog_size, d.rows.size());
        for (const auto& r : d.rows) {
            std::string miss;
            for (const auto& m : missing_figures(r))
                miss += (miss.empty() ? "" : ", ") + m;
            s += fmt::format("  {} ({}): {}\n", r.name, r.id, miss);
        }
        return s;
    }
    std::string s = catalog_table(d.rows);
    if (d.what == hardware_request::mode::list)
        return s + fmt::format("{} of {} rows.\nMEMORY: what a model can use, in GiB (2^30 bytes): a card's less "
                               "the driver's share,\na Mac's GPU share of its RAM, else the RAM. BANDWIDTH: GB/s "
                               "(10^9 bytes a second).\n",
                               d.rows.size(), d.catalog_size);
    const auto& row = d.rows.at(0);
    s += fmt::format("id: {}; bought as: {}{}\n", row.id, to_string(purchase_of(row)),
                     host_needs(row).empty() ? "" : "; needs " + host_needs(row));
    if (!row.notes.empty()) s += fmt::format("notes: {}\n", row.notes);
    return s + fmt::format("sources: {}\n", row.sources);
}

std::string models_text(const models_document& d) {
    std::string s;
    for (const auto& r : d.rows) {
        const auto p = count_params(r.model);
        s += fmt::format("{:<45} {:<24} {:>9.2f}B {:>8.2f}B active  ctx {:>7}  {}\n", r.entry.id, r.entry.alias,
                         static_cast<double>(p.total) / 1e9, static_cast<double>(p.active) / 1e9, r.model.n_ctx_train,
                         r.model.arch);
    }
    return s;
}

} // namespace llmplan::detail

// The hardware catalog: the tables compiled into the binary plus users' files, and name lookup.
#include "detail/embedded.h"
#include "detail/enum_names.h"
#include "detail/strings.h"
#include "hardware/csv.h"
#include "hardware/names.h"
#include "hardware/tables.h"
#include "llmplan/hardware.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fstream>

namespace llmplan {

std::string_view to_string(hardware_kind k) {
    using h                                           = hardware_kind;
    static constexpr detail::enum_name_row<h> names[] = {
        {h::gpu,    "gpu"   },
        {h::apple,  "apple" },
        {h::cpu,    "cpu"   },
        {h::laptop, "laptop"},
        {h::cloud,  "cloud" },
        {h::local,  "local" }
    };
    return detail::name_in(names, k);
}

std::uint64_t device_spec::total_accelerator_memory_bytes() const {
    std::uint64_t out = 0;
    if (!memory_bytes || !detail::checked_mul(*memory_bytes, gpu_count, out)) return 0;
    return out;
}

namespace {

enum class table_kind { gpus, cpus, laptops, cloud, by_row };

std::optional<table_kind> table_from_name(std::string_view s) {
    if (s == "gpus" || s == "gpu" || s == "apple") return table_kind::gpus;
    if (s == "cpus" || s == "cpu") return table_kind::cpus;
    if (s == "laptops" || s == "laptop") return table_kind::laptops;
    if (s == "cloud" || s == "cloud_instances") return table_kind::cloud;
    return std::nullopt;
}

/// Which table a header is: by a `kind` column, else by columns only that table has.
std::optional<table_kind> table_from_header(const detail::csv_table& t) {
    if (t.column("kind")) return table_kind::by_row;
    if (t.column("instance_type")) return table_kind::cloud;
    if (t.column("vram_gb") || t.column("ram_gb")) return table_kind::laptops;
    if (t.column("theoretical_mem_bw_gb_s") || (t.column("cores") && !t.column("memory_unit"))) return table_kind::cpus;
    if (t.column("memory_unit") || t.column("memory_bandwidth_gb_s")) return table_kind::gpus;
    return std::nullopt;
}

/// Every column some table format reads: the union of the shipped tables' headers, plus `kind`.
/// A user's file with any other column has a typo (e.g. "memory_gb" for "memory"), and its figures
/// would be silently dropped: refused instead, naming the column.
const std::vector<std::string>& known_columns() {
    static const std::vector<std::string> cols = [] {
        std::vector<std::string> c{"kind"};
        for (const auto& f : detail::embedded_files()) {
            const std::string_view path = f.path;
            if (path.rfind("hardware/", 0) != 0 || path.size() < 4 || path.substr(path.size() - 4) != ".csv") continue;
            auto t = detail::parse_csv(f.text(), path);
            if (!t) continue;
            for (const auto& h : t->header)
                if (std::find(c.begin(), c.end(), h) == c.end()) c.push_back(h);
        }
        return c;
    }();
    return cols;
}

bool is_accelerator_row(table_kind k) {
    return k == table_kind::gpus || k == table_kind::cpus;
}

} // namespace

result<std::vector<device_spec>> parse_hardware_csv(std::string_view text, std::string_view file,
                                                    std::string_view table, const hardware_catalog* link_to) {
    auto parsed = detail::parse_csv(text, file);
    if (!parsed) return unexpected{parsed.error()};
    const auto& t = *parsed;

    for (std::size_t i = 0; i < t.header.size(); ++i) {
        const auto& known = known_columns();
        if (std::find(known.begin(), known.end(), t.header[i]) == known.end())
            return make_error(error_code::bad_device_file,
                              fmt::format("unknown column '{}' (column {}); expected the columns of gpus.csv, "
                                          "cpus.csv, laptops.csv or cloud_instances.csv (data/hardware/SOURCES.md)",
                                          t.header[i], i + 1),
                              fmt::format("{}:1", file));
    }
    std::optional<table_kind> whole = table.empty() ? table_from_header(t) : table_from_name(table);
    if (!whole)
        return make_error(error_code::bad_device_file,
                          "cannot tell which hardware table this is; expected the header of gpus.csv, cpus.csv, "
                          "laptops.csv or cloud_instances.csv, or a 'kind' column",
                          fmt::format("{}:1", file));
    const char* name_col = *whole == table_kind::cloud ? "instance_type" : "name";
    if (!t.column(name_col) && !(*whole == table_kind::by_row && (t.column("name") || t.column("instance_type"))))
        return make_error(error_code::bad_device_file,
                          fmt::format("no '{}' column; expected one naming each row", name_col),
                          fmt::format("{}:1", file));

    // Each row's table; with a kind column the row says (gpu|apple|cpu|laptop|cloud).
    std::vector<table_kind> kinds(t.rows.size(), *whole);
    std::vector<bool> apple(t.rows.size(), false);
    if (*whole == table_kind::by_row) {
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const std::string k = detail::lower(t.get(r, "kind"));
            const auto tk       = table_from_name(k);
            if (!tk)
                return make_error(error_code::bad_device_file,
                                  fmt::format("field 'kind': '{}'; expected gpu, apple, cpu, laptop or cloud", k),
                                  t.where(r));
            kinds[r] = *tk;
            apple[r] = k == "apple";
        }
    }

    // GPU and CPU rows first, so that machines and instances in the same file can link to them.
    std::vector<std::optional<device_spec>> out(t.rows.size());
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (!is_accelerator_row(kinds[r])) continue;
        auto d = kinds[r] == table_kind::gpus ? detail::read_gpu_row(t, r) : detail::read_cpu_row(t, r);
        if (!d) return unexpected{d.error()};
        if (apple[r]) d->kind = hardware_kind::apple;
        out[r] = std::move(*d);
    }
    std::vector<const device_spec*> gpus, cpus;
    if (link_to)
        for (const auto& d : link_to->devices()) {
            if (d.kind == hardware_kind::gpu || d.kind == hardware_kind::apple) gpus.push_back(&d);
            if (d.kind == hardware_kind::cpu) cpus.push_back(&d);
        }
    for (const auto& d : out)
        if (d) (d->kind == hardware_kind::cpu ? cpus : gpus).push_back(&*d);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (is_accelerator_row(kinds[r])) continue;
        auto d = kinds[r] == table_kind::laptops ? detail::read_laptop_row(t, r, gpus, cpus)
                                                 : detail::read_cloud_row(t, r, gpus);
        if (!d) return unexpected{d.error()};
        out[r] = std::move(*d);
    }

    std::vector<device_spec> rows;
    rows.reserve(out.size());
    for (std::size_t r = 0; r < out.size(); ++r) {
        auto& d = *out[r];
        if (d.name.empty())
            return make_error(error_code::bad_device_file, fmt::format("field '{}': empty; expected a name", name_col),
                              t.where(r));
        d.origin = t.where(r);
        rows.push_back(std::move(d));
    }
    return rows;
}

// ------------------------------------------------------------------------------------------------

void hardware_catalog::add(std::vector<device_spec> more) {
    devices_.reserve(devices_.size() + more.size());
    for (auto& d : more) {
        // The id of the name; a second row of the same name gets its provider or kind, then a count.
        auto taken = [&](const std::string& id) {
            return std::any_of(devices_.begin(), devices_.end(), [&](const device_spec& o) { return o.id == id; });
        };
        std::string id = hardware_id(d.name);
        if (taken(id))
            id = hardware_id(fmt::format("{} {}", d.name, d.provider.empty() ? to_string(d.kind) : d.provider));
        for (unsigned n = 2; taken(id); ++n)
            id = fmt::format("{}-{}", hardware_id(d.name), n);
        d.id = std::move(id);
        devices_.push_back(std::move(d));
    }
}

std::vector<const device_spec*> hardware_catalog::of_kind(hardware_kind k) const {
    std::vector<const device_spec*> out;
    for (const auto& d : devices_)
        if (d.kind == k) out.push_back(&d);
    return out;
}

std::vector<const device_spec*> hardware_catalog::candidates() const {
    std::vector<const device_spec*> out;
    for (const auto& d : devices_) {
        const auto pk = purchase_of(d);
        if (pk == purchase_kind::server || pk == purchase_kind::chip) continue;
        if (missing_figures(d).empty()) out.push_back(&d);
    }
    return out;
}

std::vector<const device_spec*> hardware_catalog::filter(std::string_view words) const {
    const auto want = detail::split_words(words).all;
    std::vector<const device_spec*> out;
    for (const auto& d : devices_) {
        const auto hay = detail::normalize_name(
            fmt::format("{} {} {} {} {} {}", d.name, d.vendor, to_string(d.kind), d.form, d.gpu_model, d.provider));
        bool all = true;
        for (const auto& w : want)
            if (hay.find(w) == std::string::npos) all = false;
        if (all) out.push_back(&d);
    }
    return out;
}

namespace {

result<const device_spec*> lookup_among(const hardware_catalog& cat, const std::vector<const device_spec*>& rows,
                                        std::string_view name) {
    const auto n = detail::normalize_name(name);
    if (n.empty())
        return make_error(error_code::unknown_name,
                          "empty hardware name; expected a catalog name like 'H100 SXM 80GB'");
    const auto id = hardware_id(name);
    for (const auto* d : rows)
        if (d->id == id && detail::lower(name) == name) return d; // ids are lower case
    for (const auto* d : rows) {
        if (detail::normalize_name(d->name) == n || detail::normalize_name(detail::base_name(d->name)) == n) return d;
        if (d->kind == hardware_kind::cloud && detail::normalize_name(d->provider + d->instance_type) == n) return d;
    }
    if (const auto* d = detail::best_match(name, rows, detail::match_mode::user)) return d;
    const auto near = cat.suggest(name, 5);
    std::string list;
    for (const auto& s : near)
        list += (list.empty() ? "" : ", ") + s;
    return make_error(error_code::unknown_name,
                      fmt::format("unknown hardware '{}'; closest: {} ('llmplan hardware list' shows all)", name,
                                  list.empty() ? "none" : list));
}

} // namespace

result<const device_spec*> hardware_catalog::lookup(std::string_view name) const {
    std::vector<const device_spec*> rows;
    for (const auto& d : devices_)
        rows.push_back(&d);
    return lookup_among(*this, rows, name);
}

result<std::vector<const device_spec*>> hardware_catalog::lookup_list(std::string_view names) const {
    std::vector<std::string_view> pieces;
    for (std::size_t at = 0; at <= names.size();) {
        const auto comma = std::min(names.find(',', at), names.size());
        pieces.push_back(names.substr(at, comma - at));
        at = comma + 1;
    }
    auto exact = [&](std::string_view s) -> const device_spec* {
        const auto n  = detail::normalize_name(s);
        const auto id = hardware_id(s);
        for (const auto& d : devices_)
            if (!n.empty() && (detail::normalize_name(d.name) == n || d.id == id)) return &d;
        return nullptr;
    };
    std::vector<const device_spec*> out;
    for (std::size_t i = 0; i < pieces.size();) {
        if (detail::normalize_name(pieces[i]).empty()) {
            ++i;
            continue;
        }
        std::size_t took = 0;
        for (std::size_t j = pieces.size(); j > i && !took; --j) {
            const auto first = static_cast<std::size_t>(pieces[i].data() - names.data());
            const auto last  = static_cast<std::size_t>(pieces[j - 1].data() - names.data()) + pieces[j - 1].size();
            if (const auto* d = exact(names.substr(first, last - first))) {
                out.push_back(d);
                took = j - i;
            }
        }
        if (!took) {
            auto d = lookup(pieces[i]);
            if (!d) return unexpected{d.error()};
            out.push_back(*d);
            took = 1;
        }
        i += took;
    }
    return out;
}

result<const device_spec*> hardware_catalog::lookup(std::string_view name, hardware_kind kind) const {
    return lookup_among(*this, of_kind(kind), name);
}

std::vector<std::string> hardware_catalog::suggest(std::string_view name, std::size_t n) const {
    const auto q = detail::normalize_name(name).substr(0, 64); // names are short; bound the work
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (const auto& d : devices_) {
        std::size_t best = std::min(detail::edit_distance(q, detail::normalize_name(d.name)),
                                    detail::edit_distance(q, detail::normalize_name(detail::base_name(d.name))));
        const auto words = detail::split_words(d.name).base;
        for (std::size_t i = 0; i < words.size(); ++i) {
            std::string joined;
            for (std::size_t j = i; j < words.size() && j < i + 3; ++j) {
                joined += words[j];
                best = std::min(best, detail::edit_distance(q, joined));
            }
        }
        scored.emplace_back(best, d.name);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    // Only names within a few edits: half the typed name, at least 2 ("h1000" -> "H100 ...").
    const std::size_t limit = std::max<std::size_t>(2, q.size() / 2);
    for (const auto& [dist, nm] : scored) {
        if (out.size() >= n || dist > limit) break;
        if (std::find(out.begin(), out.end(), nm) == out.end()) out.push_back(nm);
    }
    return out;
}

// ------------------------------------------------------------------------------------------------

result<hardware_catalog> parse_builtin_hardware() {
    // File order = catalog order: GPUs first so machines and instances link to them.
    constexpr std::string_view order[] = {"hardware/gpus.csv", "hardware/cpus.csv", "hardware/laptops.csv",
                                          "hardware/cloud_instances.csv"};
    hardware_catalog cat;
    for (auto path : order) {
        const detail::embedded_file* f = nullptr;
        for (const auto& e : detail::embedded_files())
            if (e.path == path) f = &e;
        if (!f) return make_error(error_code::file_not_found, "hardware table not compiled in", std::string(path));
        auto rows = parse_hardware_csv(f->text(), path, {}, &cat);
        if (!rows) return unexpected{rows.error()};
        cat.add(std::move(*rows));
    }
    return cat;
}

const hardware_catalog& builtin_hardware() {
    static const hardware_catalog cat = [] {
        auto r = parse_builtin_hardware();
        return r ? std::move(*r) : hardware_catalog{};
    }();
    return cat;
}

result<std::vector<device_spec>> load_hardware_file(const std::string& path, const hardware_catalog& link_to) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(error_code::file_not_found, "cannot open hardware file", path);
    constexpr std::size_t max_bytes = 16u << 20; // same bound as the CSV reader: hand-written lists
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_bytes)
            return make_error(error_code::bad_device_file,
                              fmt::format("file is over {} bytes; expected a hand-written list of machines", max_bytes),
                              path);
    }
    if (in.bad()) return make_error(error_code::read_failed, "read failed", path);
    return parse_hardware_csv(text, path, {}, &link_to);
}

result<hardware_catalog> catalog_with_file(const std::string& path) {
    auto rows = load_hardware_file(path, builtin_hardware());
    if (!rows) return unexpected{rows.error()};
    hardware_catalog cat = builtin_hardware();
    cat.add(std::move(*rows));
    return cat;
}

} // namespace llmplan

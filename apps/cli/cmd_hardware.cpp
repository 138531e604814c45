// `llmplan hardware`: this machine; `hardware list [FILTER]`: the catalog; `hardware show NAME`.
#include "commands.h"
#include "llmplan/hardware.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace llmplan::cli {

namespace {

using nlohmann::json;

template <class T> json opt(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

json device_json(const device_spec& d) {
    json j = {
        {"name",                              d.name                                  },
        {"kind",                              to_string(d.kind)                       },
        {"vendor",                            d.vendor                                },
        {"form",                              d.form                                  },
        {"architecture",                      d.architecture                          },
        {"gpu_count",                         d.gpu_count                             },
        {"gpu_model",                         d.gpu_model                             },
        {"gpu_link",                          d.gpu_link                              },
        {"memory_bytes",                      opt(d.memory_bytes)                     },
        {"unified_memory",                    d.unified_memory                        },
        {"unified_memory_bytes",              opt(d.unified_memory_bytes)             },
        {"memory_bandwidth_bytes_per_s",      opt(d.memory_bandwidth_bytes_per_s)     },
        {"fp32_flops",                        opt(d.fp32_flops)                       },
        {"fp16_flops",                        opt(d.fp16_flops)                       },
        {"bf16_flops",                        opt(d.bf16_flops)                       },
        {"fp8_flops",                         opt(d.fp8_flops)                        },
        {"int8_ops",                          opt(d.int8_ops)                         },
        {"tdp_w",                             opt(d.tdp_w)                            },
        {"price_usd",                         opt(d.price_usd)                        },
        {"host_memory_bytes",                 opt(d.host_memory_bytes)                },
        {"host_memory_bandwidth_bytes_per_s", opt(d.host_memory_bandwidth_bytes_per_s)},
        {"cpu_model",                         d.cpu_model                             },
        {"cores",                             opt(d.cores)                            },
        {"threads",                           opt(d.threads)                          },
        {"avx2",                              opt(d.avx2)                             },
        {"avx512",                            opt(d.avx512)                           },
        {"amx",                               opt(d.amx)                              },
        {"sources",                           d.sources                               },
        {"origin",                            d.origin                                },
    };
    if (d.kind == hardware_kind::cloud) {
        j["provider"]           = d.provider;
        j["instance_type"]      = d.instance_type;
        j["price_usd_per_hour"] = opt(d.price_usd_per_hour);
        j["price_region"]       = d.price_region;
    }
    return j;
}

std::string gib(std::optional<std::uint64_t> b) {
    return b ? fmt::format("{:.1f} GiB", static_cast<double>(*b) / 1073741824.0) : std::string("?");
}
/// Vendor sizes are decimal GB ("80GB"); the list shows them as the vendors do.
std::string gb(std::optional<std::uint64_t> b) {
    return b ? fmt::format("{:.0f} GB", static_cast<double>(*b) / 1e9) : std::string("?");
}
std::string gbs(std::optional<std::uint64_t> b) {
    return b ? fmt::format("{:.0f} GB/s", static_cast<double>(*b) / 1e9) : std::string("?");
}
std::string yes(std::optional<bool> b) {
    return b ? (*b ? "yes" : "no") : "?";
}

struct hardware_opts {
    bool json = false;
    std::string hardware_file;
    std::vector<std::string> filter;
    std::string name;
    bool probe = false;
};

hardware_catalog load_catalog(const hardware_opts& o) {
    if (o.hardware_file.empty()) return builtin_hardware();
    auto c = catalog_with_file(o.hardware_file);
    if (!c) fail(c.error());
    return std::move(*c);
}

void run_local(const hardware_opts& o) {
    detect_options dopts;
    if (o.probe) dopts.bandwidth_cache = bandwidth_cache_mode::refresh;
    const auto m   = detect_local_hardware(dopts);
    const auto cat = load_catalog(o);
    const auto d   = to_device_spec(m, cat);
    if (o.json) {
        json gpus = json::array();
        for (const auto& g : m.gpus)
            gpus.push_back({
                {"name",               g.name                  },
                {"memory_total_bytes", g.memory_total_bytes    },
                {"memory_used_bytes",  opt(g.memory_used_bytes)},
                {"via",                g.via                   }
            });
        json j = {
            {"machine",        device_json(d)                              },
            {"os",             m.os                                        },
            {"cpu",
             {{"model", m.cpu.model},
              {"sockets", m.cpu.sockets},
              {"cores", m.cpu.cores},
              {"threads", m.cpu.threads},
              {"avx2", m.cpu.flags_known ? json(m.cpu.avx2) : json(nullptr)},
              {"avx512f", m.cpu.flags_known ? json(m.cpu.avx512f) : json(nullptr)},
              {"amx", m.cpu.flags_known ? json(m.cpu.amx) : json(nullptr)}}},
            {"ram",
             {{"total_bytes", opt(m.ram.total_bytes)},
              {"available_bytes", opt(m.ram.available_bytes)},
              {"measured_read_bytes_per_s", opt(m.measured_read_bytes_per_s)},
              {"measured_read_cached", m.bandwidth_from_cache},
              {"bandwidth_cache_file", bandwidth_cache_path(dopts)}}       },
            {"gpus",           gpus                                        },
            {"unified_memory", m.unified_memory                            },
            {"missing",        m.missing                                   },
        };
        print_json(j);
        return;
    }
    fmt::print("This machine ({})\n", m.os.empty() ? "unknown OS" : m.os);
    fmt::print("  CPU      {} ({} cores, {} threads; avx2 {}, avx512f {}, amx {})\n",
               m.cpu.model.empty() ? "unknown" : m.cpu.model, m.cpu.cores, m.cpu.threads, yes(d.avx2), yes(d.avx512),
               yes(d.amx));
    if (!d.cpu_link.empty())
        fmt::print("           catalog: {}, {} DRAM peak\n", d.cpu_link, gbs(d.host_memory_bandwidth_bytes_per_s));
    fmt::print("  RAM      {} total, {} available; reads at {} ({})\n", gib(m.ram.total_bytes),
               gib(m.ram.available_bytes), gbs(m.measured_read_bytes_per_s),
               m.bandwidth_from_cache
                   ? fmt::format("measured before, cached in {}; --probe measures again", bandwidth_cache_path(dopts))
                   : std::string("measured now"));
    if (m.gpus.empty()) fmt::print("  GPU      none found (CPU only)\n");
    for (const auto& g : m.gpus)
        fmt::print("  GPU      {} ({} total, {} used; via {})\n", g.name, gib(g.memory_total_bytes),
                   gib(g.memory_used_bytes), g.via);
    if (!m.gpus.empty()) {
        fmt::print("           usable for a model: {}{}\n", gib(d.memory_bytes),
                   m.unified_memory ? " (75% of unified RAM, macOS default GPU share)" : "");
        if (!d.gpu_link.empty())
            fmt::print("           catalog: {}, {}, BF16 {} TFLOPS\n", d.gpu_link, gbs(d.memory_bandwidth_bytes_per_s),
                       d.bf16_flops ? fmt::format("{:.0f}", *d.bf16_flops / 1e12) : std::string("?"));
    }
    if (!m.missing.empty()) {
        std::string miss;
        for (const auto& s : m.missing)
            miss += (miss.empty() ? "" : "; ") + s;
        fmt::print("  Missing  {}\n", miss);
    }
}

void print_table(const std::vector<const device_spec*>& rows) {
    fmt::print("{:<44} {:<7} {:>10} {:>10} {:>10} {:>10}  {}\n", "NAME", "KIND", "MEMORY", "BANDWIDTH", "BF16 TFLOPS",
               "PRICE", "GPU / PROVIDER");
    for (const auto* d : rows) {
        std::string mem = d->memory_bytes ? gb(d->memory_bytes) : gb(d->host_memory_bytes);
        if (d->gpu_count > 1) mem = fmt::format("{}x{}", d->gpu_count, gb(d->memory_bytes));
        const auto bw    = gbs(d->memory_bandwidth_bytes_per_s ? d->memory_bandwidth_bytes_per_s
                                                               : d->host_memory_bandwidth_bytes_per_s);
        const auto tf    = d->bf16_flops ? fmt::format("{:.0f}", *d->bf16_flops / 1e12) : std::string("?");
        const auto price = d->price_usd_per_hour ? fmt::format("${:.2f}/h", *d->price_usd_per_hour)
                           : d->price_usd        ? fmt::format("${:.0f}", *d->price_usd)
                                                 : std::string("?");
        std::string extra =
            d->kind == hardware_kind::cloud ? fmt::format("{} {}", d->provider, d->gpu_model) : d->gpu_model;
        fmt::print("{:<44} {:<7} {:>10} {:>10} {:>10} {:>10}  {}\n", d->name.substr(0, 44), to_string(d->kind), mem, bw,
                   tf, price, extra);
    }
}

void run_list(const hardware_opts& o) {
    const auto cat = load_catalog(o);
    std::string words;
    for (const auto& w : o.filter)
        words += w + " ";
    const auto rows = cat.filter(words);
    if (o.json) {
        json arr = json::array();
        for (const auto* d : rows)
            arr.push_back(device_json(*d));
        json out;
        out["hardware"] = arr;
        print_json(out);
        return;
    }
    print_table(rows);
    fmt::print("{} of {} rows; figures and sources: data/hardware/SOURCES.md\n", rows.size(), cat.size());
}

void run_show(const hardware_opts& o) {
    const auto cat = load_catalog(o);
    const auto d   = cat.lookup(o.name);
    if (!d) fail(d.error());
    if (o.json) {
        json out;
        out["hardware"] = device_json(**d);
        print_json(out);
        return;
    }
    print_table({*d});
    if (!(*d)->notes.empty()) fmt::print("notes: {}\n", (*d)->notes);
    fmt::print("sources: {}\n", (*d)->sources);
}

} // namespace

void add_hardware_command(CLI::App& app) {
    auto o   = std::make_shared<hardware_opts>();
    auto* hw = app.add_subcommand("hardware", "This machine (CPU, RAM, GPUs), or the hardware catalog");
    hw->add_flag("--json", o->json, "JSON output");
    hw->add_option("--hardware-file", o->hardware_file, "CSV of your own machines (same format as the catalog)");
    hw->add_flag("--probe", o->probe, "Measure this machine's memory bandwidth again and cache it");
    hw->require_subcommand(0, 1);

    auto* list = hw->add_subcommand("list", "List the catalog (GPUs, CPUs, machines, cloud instances)");
    list->add_option("filter", o->filter, "Words every listed name must contain (e.g. h100, aws, apple)");
    list->add_flag("--json", o->json, "JSON output");
    list->add_option("--hardware-file", o->hardware_file, "CSV of your own machines (same format as the catalog)");
    list->callback([o] { run_list(*o); });

    auto* show = hw->add_subcommand("show", "One catalog row by name, with its sources");
    show->add_option("name", o->name, "Hardware name, e.g. 'H100 SXM 80GB', rtx-4090, g5.xlarge")->required();
    show->add_flag("--json", o->json, "JSON output");
    show->add_option("--hardware-file", o->hardware_file, "CSV of your own machines (same format as the catalog)");
    show->callback([o] { run_show(*o); });

    hw->callback([o, hw] {
        if (hw->get_subcommands().empty()) run_local(*o);
    });
}

} // namespace llmplan::cli

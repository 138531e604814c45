// A machine described on the page, as one row of a hardware file (my_machine.h).
#include "my_machine.h"

#include "llmplan/hardware.h"

#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace llmplan::web {
namespace {

// RAM bandwidth of a PC without a row of its own: two 64-bit channels at the module's transfer rate,
// MT/s x 8 bytes x 2 (the theoretical peak; JEDEC speed grades DDR4-3200 and DDR5-5600, the common
// top grades of desktop and laptop memory). The thin-and-light row of data/hardware/laptops.csv
// carries the same 89.6 GB/s for its DDR5-5600.
struct ram_type {
    std::string_view key;
    std::string_view label;
    double gb_s;
};
constexpr std::array<ram_type, 2> ram_types{
    {{"ddr4", "DDR4-3200, two channels", 3200.0 * 8 * 2 / 1000},
     {"ddr5", "DDR5-5600, two channels", 5600.0 * 8 * 2 / 1000}}
};

// Memory a person types, in GB as sold: 1 GB to 4 TB (the largest Mac, the M3 Ultra, takes 512 GB; a
// workstation a few TB).
std::optional<double> gigabytes(std::string_view v) {
    double x           = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc{} || p != v.data() + v.size() || !std::isfinite(x) || x < 1 || x > 4096) return std::nullopt;
    return x;
}

// A CSV field: quoted, inner quotes doubled.
std::string field(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

std::string gb(double x) {
    return fmt::format("{:g}", x);
}

} // namespace

std::variant<std::monostate, described_machine, std::string> take_described_machine(query& q) {
    std::optional<std::string> ram, ram_kind, gpu, vram, chip, memory;
    query rest;
    for (auto& [k, v] : q) {
        if (k == "my-ram-gb")
            ram = v;
        else if (k == "my-ram-type")
            ram_kind = v;
        else if (k == "my-gpu")
            gpu = v;
        else if (k == "my-vram-gb")
            vram = v;
        else if (k == "my-chip")
            chip = v;
        else if (k == "my-memory-gb")
            memory = v;
        else
            rest.emplace_back(std::move(k), std::move(v));
    }
    q = std::move(rest);
    if (!ram && !ram_kind && !gpu && !vram && !chip && !memory) return std::monostate{};

    const auto number = [](const std::optional<std::string>& v,
                           std::string_view name) -> std::variant<std::monostate, double, std::string> {
        if (!v) return std::monostate{};
        if (auto x = gigabytes(*v)) return *x;
        return fmt::format("{}: \"{}\"; expected a number of GB from 1 to 4096", name, *v);
    };
    const auto& catalog = builtin_hardware();
    std::string row;
    if (chip) {
        if (gpu || vram) return std::string("my-chip: a Mac has no separate GPU; leave out my-gpu and my-vram-gb");
        auto r = catalog.lookup(*chip, hardware_kind::apple);
        if (!r) return fmt::format("my-chip: \"{}\"; expected an Apple chip of the catalog (Apple M3 Pro, ...)", *chip);
        const auto mem = number(memory, "my-memory-gb");
        if (auto* e = std::get_if<std::string>(&mem)) return *e;
        if (!std::holds_alternative<double>(mem)) return std::string("my-memory-gb: the Mac's memory is needed");
        const device_spec& c = **r;
        const std::string bw = c.memory_bandwidth_bytes_per_s
                                   ? gb(static_cast<double>(*c.memory_bandwidth_bytes_per_s) / 1e9)
                                   : std::string();
        row = fmt::format("{},laptop,{},{},unified (shared CPU/GPU),{},,{},{},", field(my_machine_name), field(c.name),
                          gb(std::get<double>(mem)), field(c.name), bw, field("the chip's row"));
    } else {
        if (memory) return std::string("my-memory-gb: goes with my-chip (a Mac); a PC's RAM is my-ram-gb");
        const auto r = number(ram, "my-ram-gb");
        if (auto* e = std::get_if<std::string>(&r)) return *e;
        if (!std::holds_alternative<double>(r)) return std::string("my-ram-gb: the machine's RAM is needed");
        const ram_type* type = nullptr;
        if (ram_kind) {
            for (const auto& t : ram_types)
                if (*ram_kind == t.key) type = &t;
            if (!type) return fmt::format("my-ram-type: \"{}\"; expected ddr4 or ddr5", *ram_kind);
        }
        const std::string ram_bw    = type ? gb(type->gb_s) : std::string();
        const std::string ram_basis = type ? std::string(type->label) : std::string();
        if (gpu) {
            auto g = catalog.lookup(*gpu, hardware_kind::gpu);
            if (!g) return fmt::format("my-gpu: \"{}\"; expected a GPU of the catalog (GeForce RTX 4090, ...)", *gpu);
            const device_spec& c = **g;
            const auto v         = number(vram, "my-vram-gb");
            if (auto* e = std::get_if<std::string>(&v)) return *e;
            // Left out, the card's own memory as the table sells it (GB).
            const std::string vram_gb = std::holds_alternative<double>(v) ? gb(std::get<double>(v))
                                        : c.vendor_memory_gb              ? gb(*c.vendor_memory_gb)
                                                                          : std::string();
            if (vram_gb.empty()) return std::string("my-vram-gb: the GPU's memory is needed");
            const std::string bw = c.memory_bandwidth_bytes_per_s
                                       ? gb(static_cast<double>(*c.memory_bandwidth_bytes_per_s) / 1e9)
                                       : std::string();
            row = fmt::format("{},desktop,,{},{},{},{},{},{},{}", field(my_machine_name), gb(std::get<double>(r)),
                              field(ram_basis), field(c.name), vram_gb, bw, field("the GPU's row"), ram_bw);
        } else {
            if (vram) return std::string("my-vram-gb: goes with my-gpu");
            row = fmt::format("{},desktop,,{},{},,,{},{},{}", field(my_machine_name), gb(std::get<double>(r)),
                              field(ram_basis), ram_bw, field(ram_basis), ram_bw);
        }
    }
    return described_machine{"name,form,cpu,ram_gb,ram_type,gpu,vram_gb,memory_bandwidth_gb_s,bandwidth_basis,"
                             "system_ram_bandwidth_gb_s\n" +
                             row + "\n"};
}

} // namespace llmplan::web

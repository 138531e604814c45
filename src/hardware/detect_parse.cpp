// Parsers for /proc/cpuinfo, /proc/meminfo, nvidia-smi and rocm-smi output and the SMBIOS chassis type: text in, values
// out, so tests feed sample files. Unreadable lines are skipped, never fatal.
#include "detail/size_units.h"
#include "hardware/text.h"
#include "llmplan/hardware.h"

#include <set>
#include <utility>

namespace llmplan {

using detail::for_each_line;
using detail::lower;
using detail::to_u64;
using detail::trim;

namespace {
using detail::kib_bytes; // /proc/meminfo "kB" are KiB (proc(5))
using detail::mib_bytes; // nvidia-smi memory.* with nounits are MiB
} // namespace

cpu_info parse_cpuinfo(std::string_view text) {
    cpu_info c;
    std::set<std::pair<std::string, std::string>> cores; // (physical id, core id)
    std::set<std::string> sockets;
    std::string physical, arm_model;
    unsigned cpu_cores = 0;
    for_each_line(text, [&](std::string_view line) {
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) return;
        const auto key = trim(line.substr(0, colon));
        const auto val = trim(line.substr(colon + 1));
        if (key == "processor") {
            ++c.threads;
            physical.clear();
        } else if (key == "model name" && c.model.empty()) {
            c.model = std::string(val);
        } else if ((key == "Model" || key == "Hardware") && arm_model.empty()) {
            arm_model = std::string(val); // Arm boards (Raspberry Pi "Model", older kernels "Hardware")
        } else if (key == "physical id") {
            physical = std::string(val);
            sockets.insert(physical);
        } else if (key == "core id") {
            cores.emplace(physical, std::string(val));
        } else if (key == "cpu cores" && cpu_cores == 0) {
            cpu_cores = static_cast<unsigned>(to_u64(val).value_or(0));
        } else if ((key == "flags" || key == "Features") && !c.flags_known) {
            c.flags_known         = true;
            std::string_view rest = val;
            while (!rest.empty()) {
                const auto sp = rest.find(' ');
                const auto f  = rest.substr(0, sp);
                if (f == "avx2") c.avx2 = true;
                if (f == "avx512f") c.avx512f = true;
                if (f == "amx_tile") c.amx = true;
                if (sp == std::string_view::npos) break;
                rest.remove_prefix(sp + 1);
            }
        }
    });
    if (c.model.empty()) c.model = arm_model;
    c.sockets = static_cast<unsigned>(sockets.empty() ? (c.threads > 0 ? 1 : 0) : sockets.size());
    if (!cores.empty())
        c.cores = static_cast<unsigned>(cores.size());
    else if (cpu_cores > 0)
        c.cores = cpu_cores * c.sockets;
    else
        c.cores = c.threads; // no topology lines (Arm, VMs): one thread per core
    return c;
}

memory_info parse_meminfo(std::string_view text) {
    memory_info m;
    for_each_line(text, [&](std::string_view line) {
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) return;
        const auto key     = trim(line.substr(0, colon));
        auto val           = trim(line.substr(colon + 1));
        std::uint64_t unit = 1;
        if (val.size() > 2 && val.substr(val.size() - 2) == "kB") {
            unit = kib_bytes;
            val  = trim(val.substr(0, val.size() - 2));
        }
        const auto v    = to_u64(val);
        std::uint64_t b = 0;
        if (!v || !detail::checked_mul(*v, unit, b)) return;
        if (key == "MemTotal") m.total_bytes = b;
        if (key == "MemAvailable") m.available_bytes = b;
    });
    return m;
}

std::vector<detected_gpu> parse_nvidia_smi(std::string_view text) {
    std::vector<detected_gpu> out;
    for_each_line(text, [&](std::string_view line) {
        // name, memory.total, memory.used; the name never holds a comma in NVIDIA's naming
        const auto c1 = line.find(',');
        if (c1 == std::string_view::npos) return;
        const auto c2   = line.find(',', c1 + 1);
        const auto name = trim(line.substr(0, c1));
        const auto tot =
            to_u64(line.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos : c2 - c1 - 1));
        std::uint64_t b = 0;
        if (name.empty() || !tot || !detail::checked_mul(*tot, mib_bytes, b)) return;
        detected_gpu g{std::string(name), b, std::nullopt, "nvidia-smi"};
        if (c2 != std::string_view::npos)
            if (const auto used = to_u64(line.substr(c2 + 1)); used && detail::checked_mul(*used, mib_bytes, b))
                g.memory_used_bytes = b;
        out.push_back(std::move(g));
    });
    return out;
}

std::vector<detected_gpu> parse_rocm_smi(std::string_view text) {
    struct fields {
        std::string market, series, model;
        std::optional<std::uint64_t> total, used;
    };
    std::vector<std::pair<unsigned, fields>> by_index;
    auto slot = [&](unsigned i) -> fields& {
        for (auto& [k, f] : by_index)
            if (k == i) return f;
        return by_index.emplace_back(i, fields{}).second;
    };
    for_each_line(text, [&](std::string_view line) {
        line = trim(line);
        if (line.rfind("GPU[", 0) != 0) return;
        const auto close = line.find(']');
        const auto idx   = to_u64(line.substr(4, close == std::string_view::npos ? 0 : close - 4));
        if (!idx || *idx > 1024) return;
        auto rest     = line.substr(close + 1);
        const auto c1 = rest.find(':');
        if (c1 == std::string_view::npos) return;
        rest          = rest.substr(c1 + 1);
        const auto c2 = rest.find(':');
        if (c2 == std::string_view::npos) return;
        const auto key = lower(trim(rest.substr(0, c2)));
        const auto val = trim(rest.substr(c2 + 1));
        auto& f        = slot(static_cast<unsigned>(*idx));
        if (key == "market name")
            f.market = std::string(val);
        else if (key == "card series")
            f.series = std::string(val);
        else if (key == "card model")
            f.model = std::string(val);
        else if (key == "vram total memory (b)")
            f.total = to_u64(val);
        else if (key == "vram total used memory (b)")
            f.used = to_u64(val);
    });
    std::vector<detected_gpu> out;
    for (auto& [i, f] : by_index) {
        if (!f.total) continue;
        detected_gpu g;
        g.name               = !f.market.empty() ? f.market : !f.series.empty() ? f.series : f.model;
        g.memory_total_bytes = *f.total;
        g.memory_used_bytes  = f.used;
        g.via                = "rocm-smi";
        out.push_back(std::move(g));
    }
    return out;
}

std::string parse_chassis_type(std::string_view text) {
    // DMTF DSP0134 (SMBIOS 3.x) 7.4.1, "System Enclosure or Chassis Types"; the kernel prints the number
    // in decimal (drivers/firmware/dmi-id.c). Portable 8, Laptop 9, Notebook 10, Sub Notebook 14,
    // Tablet 30, Convertible 31, Detachable 32; Desktop 3, Low Profile Desktop 4, Mini Tower 6, Tower 7,
    // All in One 13, Space-saving 15, Mini PC 35, Stick PC 36; Main Server Chassis 17, Rack Mount
    // Chassis 23, Multi-system 25, Blade 28, Blade Enclosure 29. Other (1), Unknown (2) and the rest: "".
    const auto n = to_u64(trim(text));
    if (!n) return {};
    switch (*n) {
    case 8:
    case 9:
    case 10:
    case 14:
    case 30:
    case 31:
    case 32:
        return "laptop";
    case 3:
    case 4:
    case 6:
    case 7:
    case 13:
    case 15:
    case 35:
    case 36:
        return "desktop";
    case 17:
    case 23:
    case 25:
    case 28:
    case 29:
        return "server";
    default:
        return {};
    }
}

} // namespace llmplan

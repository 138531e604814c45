// A personal machine's RAM: the share a model can count on (src/hardware/personal_memory.h).
#include "hardware/personal_memory.h"

#include "detail/size_units.h"
#include "llmplan/units.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan::detail {

std::uint64_t server_os_kept_bytes(std::uint64_t ram_bytes) {
    // GKE's tiers: {up to GiB, share of the RAM in that tier}.
    constexpr struct {
        double upto_gib, share;
    } tiers[] = {
        {4,    0.25},
        {8,    0.20},
        {16,   0.10},
        {128,  0.06},
        {1e30, 0.02}
    };
    constexpr double eviction_bytes = 100.0 * 1024 * 1024; // kept free before the kubelet evicts
    const double ram                = static_cast<double>(ram_bytes);
    double kept                     = eviction_bytes;
    double below_gib                = 0;
    for (const auto& t : tiers) {
        const double lo = below_gib * static_cast<double>(gib_bytes), hi = t.upto_gib * static_cast<double>(gib_bytes);
        if (ram > lo) kept += (std::min(ram, hi) - lo) * t.share;
        below_gib = t.upto_gib;
    }
    return std::min(ram_bytes, static_cast<std::uint64_t>(kept));
}

std::uint64_t personal_model_ram_bytes(const device_spec& d, std::uint64_t ram_bytes) {
    if (!is_apple_silicon(d) && d.form == "server") return ram_bytes - server_os_kept_bytes(ram_bytes);
    const std::uint64_t laptop = apple_gpu_wired_limit_bytes(ram_bytes);
    if (!is_apple_silicon(d) && d.form.rfind("desktop", 0) == 0 && ram_bytes - laptop > desktop_os_kept_bytes)
        return ram_bytes - desktop_os_kept_bytes;
    return laptop;
}

bool is_personal_machine(const device_spec& d) {
    return d.kind == hardware_kind::laptop || d.kind == hardware_kind::local;
}

bool is_apple_silicon(const device_spec& d) {
    return d.kind == hardware_kind::apple || d.architecture == "Apple silicon" ||
           (d.kind == hardware_kind::local && d.cpu_model.rfind("Apple", 0) == 0);
}

std::string personal_ram_note(const device_spec& d, std::uint64_t ram_bytes) {
    const auto usable = personal_model_ram_bytes(d, ram_bytes);
    const bool server = !is_apple_silicon(d) && d.form == "server";
    const auto has = gib_text(static_cast<double>(ram_bytes)), kept = gib_text(static_cast<double>(ram_bytes - usable)),
               can = gib_text(static_cast<double>(usable));
    if (server)
        return fmt::format("of its {} of RAM, the OS and its services keep {}: a model can count on {}", has, kept,
                           can);
    return fmt::format("of its {} of RAM, the OS, the desktop and a browser keep {}: a model can count on {}", has,
                       kept, can);
}

} // namespace llmplan::detail

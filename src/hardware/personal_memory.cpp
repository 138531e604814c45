// A personal machine's RAM: the share a model can count on (src/hardware/personal_memory.h).
#include "hardware/personal_memory.h"

#include "llmplan/units.h"

#include <fmt/format.h>

namespace llmplan::detail {

std::uint64_t personal_model_ram_bytes(std::uint64_t ram_bytes) {
    return apple_gpu_wired_limit_bytes(ram_bytes);
}

bool is_personal_machine(const device_spec& d) {
    return d.kind == hardware_kind::laptop || d.kind == hardware_kind::local;
}

bool is_apple_silicon(const device_spec& d) {
    return d.kind == hardware_kind::apple || d.architecture == "Apple silicon" ||
           (d.kind == hardware_kind::local && d.cpu_model.rfind("Apple", 0) == 0);
}

std::string personal_ram_note(std::uint64_t ram_bytes) {
    const auto usable = personal_model_ram_bytes(ram_bytes);
    return fmt::format("of its {} of RAM, the OS, the desktop and a browser keep {}: a model can count on {}",
                       gib_text(static_cast<double>(ram_bytes)), gib_text(static_cast<double>(ram_bytes - usable)),
                       gib_text(static_cast<double>(usable)));
}

} // namespace llmplan::detail

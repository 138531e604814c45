// A machine the person describes on the page instead of picking a catalog row: its RAM, and the GPU
// (with its memory) or the Mac chip (with its unified memory) it has. The server writes it as one row
// of a hardware file (the laptops.csv format, as a user's --hardware-file) that the library reads.
#pragma once

#include "api_routes.h"

#include <optional>
#include <string>
#include <variant>

namespace llmplan::web {

/// The name the described machine has in the plan's answer (the page shows it in the reader's words).
inline constexpr std::string_view my_machine_name = "My machine";

/// The row of a hardware file for the described machine.
struct described_machine {
    std::string csv; ///< header and one row
};

/// Takes the page's `my-*` options out of `q`: `my-ram-gb` (the RAM, GB as sold), `my-ram-type`
/// (ddr4 or ddr5: two channels at their common speeds, for the CPU's bandwidth), `my-gpu` (a GPU row's
/// name) with `my-vram-gb`, or `my-chip` (an Apple chip row's name) with `my-memory-gb`. Returns
/// nothing when none is given, the row when they describe a machine, or the message of a 400.
std::variant<std::monostate, described_machine, std::string> take_described_machine(query& q);

} // namespace llmplan::web

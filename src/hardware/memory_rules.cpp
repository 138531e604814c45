// Memory as a device exposes it: binary DRAM sizes, inline ECC, the driver's reserve, and the
// macOS GPU wired limit (constants and their sources in include/llmplan/hardware.h).
#include "detail/checked_number.h"
#include "detail/strings.h"
#include "hardware/memory_constants.h"
#include "llmplan/hardware.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace llmplan {

bool has_inline_ecc(std::string_view form, std::string_view memory_type) {
    const auto f = detail::lower(form), t = detail::lower(memory_type);
    return f.rfind("datacenter", 0) == 0 && t.rfind("gddr", 0) == 0;
}

std::uint64_t exposed_memory_bytes(double vendor_gb, bool inline_ecc, std::optional<double> driver_total_mib) {
    const double chips = vendor_gb * static_cast<double>(vendor_gb_bytes) * (inline_ecc ? 1.0 - inline_ecc_share : 1.0);
    const double reserve = static_cast<double>(cuda_reserve_fixed_bytes) + cuda_reserve_share * chips;
    double out           = chips - reserve;
    if (driver_total_mib)
        out = std::min(out, *driver_total_mib * 1048576.0 - static_cast<double>(smi_to_cuda_gap_bytes));
    return out > 0 ? detail::saturate<std::uint64_t>(out) : 0;
}

std::uint64_t apple_gpu_wired_limit_bytes(std::uint64_t unified_bytes) {
    const double share =
        unified_bytes <= apple_wired_small_max_bytes ? apple_wired_share_small : apple_wired_share_large;
    return detail::saturate<std::uint64_t>(static_cast<double>(unified_bytes) * share, detail::rounding::toward_zero);
}

std::uint64_t apple_raised_wired_limit_bytes(std::uint64_t unified_bytes) {
    if (unified_bytes <= apple_os_reserve_bytes) return 0;
    const std::uint64_t raised = unified_bytes - apple_os_reserve_bytes;
    return raised > apple_gpu_wired_limit_bytes(unified_bytes) ? raised : 0;
}

std::string apple_wired_limit_command(std::uint64_t bytes) {
    return fmt::format("sudo sysctl iogpu.wired_limit_mb={}", (bytes + (1ull << 20) - 1) >> 20);
}

} // namespace llmplan

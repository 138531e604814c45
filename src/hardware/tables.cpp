// Reading the four hardware tables (gpus, cpus, laptops, cloud_instances) into device_spec rows.
// Column meanings and units: data/hardware/SOURCES.md. Blank = not verified = empty optional.
#include "hardware/tables.h"

#include "detail/checked_number.h"
#include "detail/strings.h"
#include "hardware/csv.h"
#include "hardware/memory_constants.h"
#include "hardware/names.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace llmplan::detail {

namespace {

// Unit factors. The tables give decimal GB/s, TFLOPS and TOPS (SOURCES.md "gpus.csv columns").
constexpr double gb           = 1e9;          // vendor GB and GB/s are decimal
constexpr double gib_in_bytes = 1073741824.0; // 2^30: cloud ram_gib
constexpr double mib          = 1048576.0;    // 2^20
constexpr double tera         = 1e12;         // TFLOPS / TOPS -> FLOP/s
constexpr double max_figure   = 1e21;         // a sanity bound: no device has a zettabyte or ZFLOP/s

using detail::lower;

bool starts_with_ci(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && lower(s.substr(0, p.size())) == p;
}

enum class sign_rule { any_non_negative, positive };

/// Reads numeric columns of one row, with errors naming file:line and the column.
struct row_reader {
    const csv_table& t;
    std::size_t r;

    [[nodiscard]] std::string_view str(std::string_view col) const { return t.get(r, col); }

    unexpected bad(std::string_view col, std::string_view why) const {
        return make_error(error_code::bad_device_file, fmt::format("field '{}': {}", col, why), t.where(r));
    }

    /// A plain number, or empty when blank. Non-numbers, negatives (and zero when `positive`) are errors.
    result<std::optional<double>> number(std::string_view col, sign_rule rule = sign_rule::any_non_negative,
                                         bool leading_only = false) const {
        const auto s = str(col);
        if (s.empty()) return std::optional<double>{};
        double v           = 0;
        const auto* end    = s.data() + s.size();
        const auto [p, ec] = std::from_chars(s.data(), end, v);
        if (ec != std::errc() || (!leading_only && p != end) || !std::isfinite(v))
            return bad(col, fmt::format("'{}' is not a number; expected a plain number without units", s));
        if (v < 0) return bad(col, fmt::format("{} is negative; expected a value >= 0", s));
        if (rule == sign_rule::positive && v == 0) return bad(col, "0; expected a value > 0 (blank if unknown)");
        if (v > max_figure) return bad(col, fmt::format("{} is out of range", s));
        return std::optional<double>{v};
    }

    result<std::optional<std::uint64_t>> bytes(std::string_view col, double unit, bool leading_only = false) const {
        auto v = number(col, sign_rule::positive, leading_only);
        if (!v) return unexpected{v.error()};
        if (!*v) return std::optional<std::uint64_t>{};
        // The figure is at most max_figure (1e21) in its unit; in bytes it must also fit 64 bits.
        const auto b = detail::to_integer<std::uint64_t>(**v * unit, detail::rounding::nearest);
        if (!b) return bad(col, fmt::format("{} is out of range; expected at most {:g} bytes", **v, 0x1p64));
        return std::optional<std::uint64_t>{*b};
    }

    result<std::optional<double>> scaled(std::string_view col, double unit) const {
        auto v = number(col);
        if (!v) return v;
        if (*v) **v *= unit;
        return v;
    }

    result<std::optional<unsigned>> count(std::string_view col) const {
        auto v = number(col);
        if (!v) return unexpected{v.error()};
        if (!*v) return std::optional<unsigned>{};
        const auto whole = detail::to_integer<unsigned>(**v);
        if (!whole || **v != std::floor(**v) || *whole > 1'000'000)
            return bad(col, fmt::format("'{}' is not a whole count", str(col)));
        return std::optional<unsigned>{*whole};
    }
};

/// "yes ...", "no ...", "n/a ..." -> true/false/false; blank -> unknown.
std::optional<bool> yes_no(std::string_view s) {
    if (starts_with_ci(s, "yes")) return true;
    if (starts_with_ci(s, "no") || starts_with_ci(s, "n/a")) return false;
    return std::nullopt;
}

#define LLMPLAN_TRY(var, expr)                                                                                         \
    auto var##_r = (expr);                                                                                             \
    if (!var##_r) return unexpected{var##_r.error()};                                                                  \
    auto var = *var##_r

/// Reads `expr` straight into `field`, returning its error.
#define LLMPLAN_READ(field, expr)                                                                                      \
    do {                                                                                                               \
        auto read_r = (expr);                                                                                          \
        if (!read_r) return unexpected{read_r.error()};                                                                \
        field = *read_r;                                                                                               \
    } while (false)

/// Memory unit text -> bytes per unit. "GB (unified, max config)" reads as GB.
result<double> memory_unit(const row_reader& rr) {
    const auto u = rr.str("memory_unit");
    if (starts_with_ci(u, "gib")) return gib_in_bytes;
    if (starts_with_ci(u, "gb")) return gb;
    if (starts_with_ci(u, "mib")) return mib;
    if (starts_with_ci(u, "tb")) return 1e12;
    return rr.bad("memory_unit", fmt::format("'{}'; expected GB, GiB, MiB or TB", u));
}

/// "... up to 96 GB assignable ..." -> 96 (the Strix Halo row states its GPU share this way).
std::optional<double> assignable_gb(std::string_view unit) {
    const auto l   = lower(unit);
    const auto pos = l.find("up to ");
    if (pos == std::string::npos || l.find("assignable") == std::string::npos) return std::nullopt;
    double v      = 0;
    const auto* b = l.data() + pos + 6;
    if (std::from_chars(b, l.data() + l.size(), v).ec != std::errc()) return std::nullopt;
    return v;
}

/// A row's device of this kind with the text columns every table has: name (cloud rows have none:
/// their instance type names them), vendor, notes, source and price_basis.
device_spec start_row(const row_reader& rr, hardware_kind kind) {
    device_spec d;
    d.kind        = kind;
    d.name        = std::string(rr.str("name"));
    d.vendor      = std::string(rr.str("vendor")); // cloud rows: the provider, laptops: none
    d.notes       = std::string(rr.str("notes"));
    d.sources     = std::string(rr.str("source"));
    d.price_basis = std::string(rr.str("price_basis"));
    return d;
}

void append_note(std::string& notes, std::string_view more) {
    if (more.empty()) return;
    if (!notes.empty()) notes += " ";
    notes += more;
}

/// The host socket behind a CPU-only cloud family (cloud_instances.csv's cpu_family), for its
/// memory bandwidth: an instance gets its vCPUs' share of the socket's memory channels (a VM's
/// vCPUs are pinned to one socket's cores and the channels are shared in proportion; a 2-socket
/// bare-metal size gets both sockets). Peak = channels x 8 bytes x MT/s, as cpus.csv derives it.
struct cloud_cpu_socket {
    std::string_view family_word; ///< lower-case word of cpu_family
    unsigned vcpus;               ///< vCPUs a socket holds
    double bandwidth_gb_s;        ///< the socket's peak memory bandwidth
    std::string_view basis;
};
// clang-format off
constexpr std::array<cloud_cpu_socket, 2> cloud_cpu_sockets = {{
    // AWS 7th-gen Intel (c7i/m7i/r7i): Xeon Platinum 8488C, 48 cores = 96 vCPUs a socket (the
    // 48xlarge and metal-48xl sizes, 192 vCPUs, are 2 sockets); 8 channels of DDR5-4800 (cpus.csv,
    // Xeon Platinum 8480+: 8 x 64 bit x 4800 MT/s = 307.2 GB/s)
    {"sapphire rapids", 96, 307.2, "Sapphire Rapids socket: 96 vCPUs, 8 x DDR5-4800 = 307.2 GB/s"},
    // AWS Graviton3 / 3E (c7g/c7gn/r7g): 64 cores = 64 vCPUs a socket (c7g.metal), 8 channels of
    // DDR5-4800 (AWS: "first in the cloud to feature DDR5 memory", 50% more bandwidth than
    // Graviton2's 8 x DDR4-3200 = 204.8 GB/s): 307.2 GB/s
    {"graviton3", 64, 307.2, "Graviton3 socket: 64 vCPUs, 8 x DDR5-4800 = 307.2 GB/s"},
}};
// clang-format on

const cloud_cpu_socket* cloud_cpu_socket_of(std::string_view family) {
    const auto f = lower(family);
    for (const auto& s : cloud_cpu_sockets)
        if (f.find(s.family_word) != std::string::npos) return &s;
    return nullptr;
}

/// A card's idle power where no row states it (data/hardware/SOURCES.md, "Idle power"). Measured
/// idles of desktop cards sit at 7-22 W (RTX 4060 Ti 7 W, RTX 3090 8-15 W, RTX 3080 22 W, Radeon AI
/// PRO R9700 12-13 W): 15 W. Datacenter parts idle at about a tenth of their board power (T4 9 of
/// 70 W, A40 30 of 300 W, H100 70 of 700 W, B200 137 of 1000 W).
constexpr double desktop_card_idle_w     = 15.0;
constexpr double datacenter_idle_of_load = 0.10;

void apply_idle_rule(device_spec& d) {
    if (d.kind != hardware_kind::gpu) return;
    if (d.form.rfind("datacenter", 0) == 0 || d.form.rfind("cloud", 0) == 0) {
        if (!d.tdp_w) return;
        d.idle_w     = *d.tdp_w * datacenter_idle_of_load;
        d.idle_basis = "class rule: a tenth of board power (datacenter parts measured 10-14%)";
    } else if (d.form.find("iGPU") == std::string::npos) {
        d.idle_w     = desktop_card_idle_w;
        d.idle_basis = "class rule: 15 W (desktop cards measured 7-22 W idle)";
    }
}

} // namespace

result<device_spec> read_gpu_row(const csv_table& t, std::size_t r) {
    row_reader rr{t, r};
    auto d         = start_row(rr, hardware_kind::gpu);
    d.form         = std::string(rr.str("form"));
    d.architecture = std::string(rr.str("architecture"));
    d.memory_type  = std::string(rr.str("memory_type"));
    d.kind         = lower(d.vendor) == "apple" ? hardware_kind::apple : hardware_kind::gpu;
    d.gpu_count    = 1;

    // "16/32" (V100 PCIe, two variants): the first, smaller size, so a fit is never overstated.
    const auto mem_text  = rr.str("memory");
    const auto unit_text = rr.str("memory_unit");
    d.unified_memory     = d.kind == hardware_kind::apple || lower(unit_text).find("unified") != std::string::npos;
    if (!mem_text.empty()) {
        LLMPLAN_TRY(unit, memory_unit(rr));
        LLMPLAN_TRY(nominal, rr.number("memory", sign_rule::positive, mem_text.find('/') != std::string_view::npos));
        LLMPLAN_TRY(driver_mib, rr.number("memory_driver_mib", sign_rule::positive));
        // A vendor "GB" of DRAM is a GiB (hardware.h, vendor_gb_bytes); other units are exact.
        const double per_unit = unit == gb ? static_cast<double>(vendor_gb_bytes) : unit;
        const double pool     = nominal.value_or(0) * per_unit;
        if (!detail::fits_integer<std::uint64_t>(std::round(pool)))
            return rr.bad("memory", fmt::format("{} is out of range; expected at most {:g} bytes", mem_text, 0x1p64));
        d.vendor_memory_gb = pool / (unit == gb ? static_cast<double>(vendor_gb_bytes) : gb);
        if (d.unified_memory) {
            d.unified_memory_bytes = *detail::to_integer<std::uint64_t>(pool); // fits: checked above
            if (const auto share = assignable_gb(unit_text)) {
                const double assignable = *share * static_cast<double>(vendor_gb_bytes);
                if (!(assignable > 0 && assignable <= pool))
                    return rr.bad("memory_unit", fmt::format("{} GB assignable to the GPU; expected more than 0 and "
                                                             "at most the memory, {}",
                                                             *share, mem_text));
                d.memory_bytes = *detail::to_integer<std::uint64_t>(assignable); // <= pool, which fits
            } else {
                d.memory_bytes = apple_gpu_wired_limit_bytes(*d.unified_memory_bytes);
                append_note(d.notes, "memory_bytes = the GPU wired limit of the largest configuration (2/3 of RAM "
                                     "up to 36 GB, 3/4 above; raise with sudo sysctl iogpu.wired_limit_mb=N).");
            }
        } else if (unit == gb) {
            d.memory_bytes = exposed_memory_bytes(pool / static_cast<double>(vendor_gb_bytes),
                                                  has_inline_ecc(d.form, d.memory_type), driver_mib);
        } else {
            d.memory_bytes = *detail::to_integer<std::uint64_t>(pool); // GiB/MiB: as the device reports
        }
    }
    LLMPLAN_TRY(bw, rr.bytes("memory_bandwidth_gb_s", gb));
    d.memory_bandwidth_bytes_per_s = bw;
    LLMPLAN_READ(d.fp32_flops, rr.scaled("fp32_tflops", tera));
    LLMPLAN_READ(d.fp16_flops, rr.scaled("fp16_bf16_dense_tflops", tera));
    d.bf16_flops = d.fp16_flops;
    LLMPLAN_READ(d.fp16_fp16acc_flops, rr.scaled("fp16_fp16acc_dense_tflops", tera));
    LLMPLAN_READ(d.fp8_flops, rr.scaled("fp8_dense_tflops", tera));
    LLMPLAN_READ(d.int8_ops, rr.scaled("int8_dense_tops", tera));
    LLMPLAN_READ(d.measured_bf16_matmul_flops, rr.scaled("measured_bf16_matmul_tflops", tera));
    LLMPLAN_READ(d.measured_llama3_8b_q4km_tokens_per_s, rr.number("measured_llama3_8b_q4km_tg_tok_s"));
    LLMPLAN_READ(d.measured_llama2_7b_q4_0_tokens_per_s, rr.number("measured_llama2_7b_q4_0_tg_tok_s"));
    LLMPLAN_TRY(tdp, rr.number("tdp_w", sign_rule::positive));
    // user files may use the laptops' price_usd for a card too
    LLMPLAN_TRY(price, rr.number(t.column("typical_price_usd") ? "typical_price_usd" : "price_usd"));
    LLMPLAN_TRY(cc, rr.number("compute_capability", sign_rule::positive));
    LLMPLAN_TRY(idle, rr.number("idle_w", sign_rule::positive));
    d.tdp_w              = tdp;
    d.accelerator_tdp_w  = tdp;
    d.price_usd          = price;
    d.price_date         = std::string(rr.str("price_date"));
    d.compute_capability = cc;
    d.idle_w             = idle;
    d.idle_basis         = std::string(rr.str("idle_basis"));
    if (!d.idle_w) apply_idle_rule(d);
    return d;
}

result<device_spec> read_cpu_row(const csv_table& t, std::size_t r) {
    row_reader rr{t, r};
    auto d         = start_row(rr, hardware_kind::cpu);
    d.form         = std::string(rr.str("segment"));
    d.architecture = std::string(rr.str("architecture"));
    d.cpu_model    = d.name;
    LLMPLAN_READ(d.cores, rr.count("cores"));
    LLMPLAN_READ(d.threads, rr.count("threads"));
    LLMPLAN_READ(d.memory_bandwidth_bytes_per_s, rr.bytes("theoretical_mem_bw_gb_s", gb));
    d.host_memory_bandwidth_bytes_per_s = d.memory_bandwidth_bytes_per_s;
    // RAM: binary GB
    LLMPLAN_READ(d.host_memory_bytes, rr.bytes("max_memory_gb", static_cast<double>(vendor_gb_bytes)));
    d.host_memory_is_platform_max = true;
    LLMPLAN_READ(d.tdp_w, rr.number("tdp_w", sign_rule::positive));
    LLMPLAN_READ(d.price_usd, rr.number("launch_price_usd"));
    if (!d.host_memory_bytes && !d.unified_memory) {
        // No max_memory_gb: the DIMM bound of the memory channels (the leading number of
        // memory_channels; 2 when blank, as laptops are) x 2 DIMMs a channel x 48 GB, the largest
        // DDR5 UDIMM/SO-DIMM. This is the 192 GB Intel ARK gives the Core i9-14900K and AMD the
        // Ryzen 9 7950X; for servers it is a floor (RDIMMs go larger).
        unsigned channels = 0;
        for (char ch : rr.str("memory_channels")) {
            if (ch < '0' || ch > '9') break;
            channels = channels * 10 + static_cast<unsigned>(ch - '0');
            if (channels > 64) break;
        }
        if (channels == 0 || channels > 64) channels = 2;
        // A laptop has one SO-DIMM slot a channel (or soldered LPDDR): 2 x 48 GB = 96 GB, what Intel
        // ARK gives the Core Ultra 7 155H.
        const unsigned per_channel = lower(d.form).find("laptop") != std::string::npos ? 1 : 2;
        d.host_memory_bytes        = std::uint64_t{channels} * per_channel * 48 * vendor_gb_bytes;
    }
    d.avx512     = yes_no(rr.str("avx512"));
    d.amx        = yes_no(rr.str("amx"));
    d.price_date = std::string(rr.str("price_date"));
    return d;
}

/// Copy a linked GPU row's per-chip figures into a machine or instance row.
void copy_gpu_figures(device_spec& d, const device_spec& g, bool with_bandwidth) {
    d.gpu_link = g.name;
    if (d.architecture.empty()) d.architecture = g.architecture;
    if (d.memory_type.empty()) d.memory_type = g.memory_type;
    if (with_bandwidth && !d.memory_bandwidth_bytes_per_s)
        d.memory_bandwidth_bytes_per_s = g.memory_bandwidth_bytes_per_s;
    if (!d.memory_bytes && !g.unified_memory) d.memory_bytes = g.memory_bytes;
    for (auto figure : {&device_spec::fp32_flops, &device_spec::fp16_flops, &device_spec::bf16_flops,
                        &device_spec::fp16_fp16acc_flops, &device_spec::fp8_flops, &device_spec::int8_ops,
                        &device_spec::compute_capability})
        d.*figure = g.*figure;
    d.accelerator_tdp_w = g.accelerator_tdp_w;
    if (with_bandwidth) d.measured_bf16_matmul_flops = g.measured_bf16_matmul_flops;
    append_note(d.notes, fmt::format("Per-GPU figures from gpus.csv '{}' [{}].", g.name, g.sources));
    if (!g.sources.empty()) d.sources += (d.sources.empty() ? "" : "; ") + g.sources;
}

result<device_spec> read_laptop_row(const csv_table& t, std::size_t r, std::span<const device_spec* const> gpus,
                                    std::span<const device_spec* const> cpus) {
    row_reader rr{t, r};
    auto d      = start_row(rr, hardware_kind::laptop);
    d.form      = std::string(rr.str("form"));
    d.cpu_model = std::string(rr.str("cpu"));
    d.gpu_model = std::string(rr.str("gpu"));
    // RAM and VRAM are sold in binary sizes: "16 GB" of RAM is 16 GiB (hardware.h, vendor_gb_bytes).
    LLMPLAN_TRY(ram, rr.bytes("ram_gb", static_cast<double>(vendor_gb_bytes)));
    LLMPLAN_TRY(vram_gb, rr.number("vram_gb", sign_rule::positive));
    const bool vram = vram_gb.has_value();
    LLMPLAN_TRY(bw, rr.bytes("memory_bandwidth_gb_s", gb));
    LLMPLAN_TRY(sysbw, rr.bytes("system_ram_bandwidth_gb_s", gb));
    LLMPLAN_TRY(price, rr.number("price_usd"));
    LLMPLAN_TRY(power, rr.number("power_w", sign_rule::positive));
    LLMPLAN_TRY(idle, rr.number("idle_w", sign_rule::positive));
    d.idle_w            = idle;
    d.idle_basis        = std::string(rr.str("idle_basis"));
    d.price_date        = std::string(rr.str("price_date"));
    d.host_memory_bytes = ram;
    d.price_usd         = price;
    d.tdp_w             = power;
    d.unified_memory    = lower(rr.str("ram_type")).find("unified") != std::string::npos;
    const bool has_gpu  = !d.gpu_model.empty() && !starts_with_ci(d.gpu_model, "integrated (shares");
    d.vendor_memory_gb =
        vram ? vram_gb
             : (ram ? std::optional<double>{static_cast<double>(*ram) / static_cast<double>(vendor_gb_bytes)}
                    : std::nullopt);
    if (vram) {
        // A laptop's or desktop's card: consumer GDDR, no inline ECC; the driver keeps its reserve.
        d.memory_bytes = exposed_memory_bytes(*vram_gb, false);
    } else if (d.unified_memory && has_gpu && ram) {
        d.memory_bytes = apple_gpu_wired_limit_bytes(*ram);
        append_note(d.notes, "memory_bytes = the GPU wired limit macOS sets by default (2/3 of RAM up to 36 GB, 3/4 "
                             "above); raise it with sudo sysctl iogpu.wired_limit_mb=N.");
    }
    if (d.unified_memory) d.unified_memory_bytes = ram;
    d.gpu_count                    = d.memory_bytes ? 1 : 0;
    d.memory_bandwidth_bytes_per_s = bw;
    // bandwidth the CPU sees: given for desktops; the unified pool; or the only memory there is
    d.host_memory_bandwidth_bytes_per_s = sysbw ? sysbw : (d.unified_memory || d.gpu_count == 0 ? bw : std::nullopt);
    if (d.gpu_count == 0) d.memory_bandwidth_bytes_per_s = bw;
    if (has_gpu) {
        if (const auto* g = best_match(d.gpu_model, gpus, match_mode::link)) {
            copy_gpu_figures(d, *g, false);
            d.vendor = g->vendor;
        }
    }
    if (const auto* c = best_match(d.cpu_model, cpus, match_mode::link)) {
        d.cpu_link = c->name;
        if (d.gpu_count == 0) { // a CPU-only machine computes with its CPU's cores
            d.cores   = c->cores;
            d.threads = c->threads;
        }
        d.avx512 = c->avx512;
        d.amx    = c->amx;
    }
    return d;
}

result<device_spec> read_cloud_row(const csv_table& t, std::size_t r, std::span<const device_spec* const> gpus) {
    row_reader rr{t, r};
    auto d          = start_row(rr, hardware_kind::cloud);
    d.provider      = std::string(rr.str("provider"));
    d.vendor        = d.provider;
    d.instance_type = std::string(rr.str("instance_type"));
    d.name          = d.instance_type;
    d.form          = "cloud";
    d.gpu_model     = std::string(rr.str("gpu_model"));
    d.cpu_model     = std::string(rr.str("cpu_family"));
    d.price_region  = std::string(rr.str("price_region"));
    LLMPLAN_TRY(count, rr.count("gpu_count"));
    LLMPLAN_TRY(mem_gb, rr.number("gpu_memory_gb_per_gpu", sign_rule::positive));
    LLMPLAN_TRY(vcpus, rr.count("vcpus"));
    LLMPLAN_TRY(ram, rr.bytes("ram_gib", gib_in_bytes));
    LLMPLAN_TRY(price, rr.number("price_usd_per_hour"));
    d.gpu_count = count.value_or(d.gpu_model.empty() ? 0 : 1);

    d.threads            = vcpus;
    d.host_memory_bytes  = ram;
    d.price_usd_per_hour = price;
    // ISA from the provider's family naming (cloud README: "cpu_family"); Arm has neither.
    const auto fam = lower(d.cpu_model);
    if (fam.find("arm") != std::string::npos) d.avx512 = d.amx = false;
    if (fam.find("avx-512") != std::string::npos) d.avx512 = true;
    if (fam.find("amx") != std::string::npos) d.amx = true;
    if (const auto* sock = d.gpu_count == 0 && vcpus ? cloud_cpu_socket_of(fam) : nullptr) {
        const double share = static_cast<double>(*vcpus) / sock->vcpus;
        d.host_memory_bandwidth_bytes_per_s =
            detail::saturate<std::uint64_t>(sock->bandwidth_gb_s * 1e9 * share); // a catalog socket's figure
        append_note(d.notes, fmt::format("Memory bandwidth derived: {} vCPUs of a {} ({:.1f} GB/s).", *vcpus,
                                         sock->basis, sock->bandwidth_gb_s * share));
    }
    const device_spec* g =
        d.gpu_count > 0 && !d.gpu_model.empty() ? best_match(d.gpu_model, gpus, match_mode::link) : nullptr;
    // The provider's "GB" per GPU, exposed as that card's memory is (inline ECC as its row says); the
    // card's own figure when it is the same size (it may carry a measured driver total).
    if (d.gpu_count > 0) d.vendor_memory_gb = mem_gb ? mem_gb : (g ? g->vendor_memory_gb : std::nullopt);
    if (d.gpu_count > 0 && mem_gb) {
        const auto nominal = exposed_memory_bytes(*mem_gb, g && has_inline_ecc(g->form, g->memory_type));
        const bool same    = g && g->memory_bytes &&
                          std::llabs(static_cast<long long>(*g->memory_bytes) - static_cast<long long>(nominal)) <
                              static_cast<long long>(vendor_gb_bytes) * 4;
        d.memory_bytes = same ? g->memory_bytes : std::optional<std::uint64_t>{nominal};
    }
    if (g) copy_gpu_figures(d, *g, true); // no TDP: the hourly price already includes power
    return d;
}

} // namespace llmplan::detail

// Hardware: the catalog compiled into the binary (data/hardware/*.csv, every figure with a source),
// machines users add from a file in the same format, and detection of the machine we run on.
//
// Units are in the names: bytes, bytes per second, FLOP/s (not TFLOPS), watts, US dollars. A figure
// the tables leave blank ("not verified from a source") is an empty optional, never zero.
#pragma once

#include "llmplan/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

enum class hardware_kind : std::uint8_t {
    gpu,    ///< one accelerator (gpus.csv, non-Apple): NVIDIA, AMD, Intel, TPU chips
    apple,  ///< an Apple silicon SoC with unified memory (gpus.csv Apple rows)
    cpu,    ///< a CPU for CPU-only inference (cpus.csv)
    laptop, ///< a whole machine someone owns: laptop or desktop (laptops.csv)
    cloud,  ///< a rentable instance (cloud_instances.csv), with 0..N GPUs
    local,  ///< this machine, from detect_local_hardware()
};

[[nodiscard]] std::string_view to_string(hardware_kind k);

/// One accelerator, CPU, machine or cloud instance.
struct device_spec {
    std::string name; ///< as the table names it ("H100 SXM 80GB", "g5.xlarge")
    /// A short id made from the name (lower case, words joined by '-': "h100-sxm-80gb",
    /// "macbook-pro-14-m4-16gb"); unique in a catalog (a "-2" suffix when two names make the same).
    std::string id;
    hardware_kind kind = hardware_kind::gpu;
    std::string vendor;       ///< gpus/cpus: vendor; cloud: provider; laptops: ""
    std::string form;         ///< form / segment column ("datacenter", "consumer", "laptop", "desktop")
    std::string architecture; ///< micro-architecture ("Hopper", "Zen 4")

    // --- the memory a model lives in -------------------------------------------------------------
    /// Memory one accelerator can hold a model in: a GPU's VRAM; for unified memory (Apple, Strix
    /// Halo) the share the GPU may use (see unified_memory). Cloud: per GPU. Laptops: the GPU's VRAM
    /// or usable unified share; empty for a machine without a GPU and for CPU rows.
    std::optional<std::uint64_t> memory_bytes;
    /// The memory as the vendor sells it, in its "GB" (the unified pool for Apple rows): 24 for a
    /// "24 GB" card whose memory_bytes is 23.58 GiB. Names say this figure ("80GB").
    std::optional<double> vendor_memory_gb;
    /// Whole unified pool when memory is shared by CPU and GPU; empty otherwise.
    std::optional<std::uint64_t> unified_memory_bytes;
    bool unified_memory = false;
    /// Peak bandwidth of that memory (CPU rows: DRAM per socket).
    std::optional<std::uint64_t> memory_bandwidth_bytes_per_s;
    /// The memory technology as gpus.csv names it ("HBM3", "GDDR6X", "LPDDR"); "" = not stated.
    std::string memory_type;

    // --- compute: vendor dense peaks (no 2:4 sparsity), per accelerator ---------------------------
    std::optional<double> fp32_flops;
    std::optional<double> fp16_flops; ///< FP16/BF16 tensor, FP32 accumulate (the `fp16_bf16_dense_tflops` column)
    std::optional<double> bf16_flops; ///< same column as fp16_flops: the tables give one FP16/BF16 rate
    /// FP16 tensor with FP16 accumulate (`fp16_fp16acc_dense_tflops`): GeForce cards run it at twice
    /// their FP32-accumulate rate; datacenter and workstation parts at the same rate.
    std::optional<double> fp16_fp16acc_flops;
    std::optional<double> fp8_flops;
    std::optional<double> int8_ops;
    std::optional<double> measured_bf16_matmul_flops; ///< MAMF [STAS]: achievable, not peak
    /// NVIDIA CUDA compute capability ("8.9" -> 8.9); empty for other vendors (features: features.h).
    std::optional<double> compute_capability;

    // --- llama.cpp decode measured by [XDAI] (batch 1); never mix the two tables ------------------
    std::optional<double> measured_llama3_8b_q4km_tokens_per_s;
    std::optional<double> measured_llama2_7b_q4_0_tokens_per_s;

    // --- power and price -------------------------------------------------------------------------
    std::optional<double> tdp_w;     ///< board power / TDP / machine load power (laptops)
    std::optional<double> idle_w;    ///< the same at idle (a card in a running PC; a machine at the desktop)
    std::string idle_basis;          ///< where idle_w comes from ("measured ...", "class rule ...")
    std::optional<double> price_usd; ///< purchase price (launch MSRP or cited); never for cloud rows
    std::string price_basis;
    std::string price_date; ///< when the price was stated ("2025-01", "2026-12-02"); "" = not dated
    /// One accelerator's board power (gpus.csv `tdp_w`), also on the machine and cloud rows linked to
    /// that GPU (their tdp_w is the machine's); what the tensor clock is held to (src/plan/speed.cpp).
    std::optional<double> accelerator_tdp_w;

    // --- host side: machines and instances -------------------------------------------------------
    std::optional<std::uint64_t> host_memory_bytes; ///< system RAM (laptops: ram_gb; cloud: ram_gib)
    /// CPU rows: host_memory_bytes is the most RAM the platform takes (max_memory_gb, or the DIMM
    /// bound of its channels), not what a given machine has.
    bool host_memory_is_platform_max = false;
    std::optional<std::uint64_t> host_memory_bandwidth_bytes_per_s;
    std::string cpu_model;  ///< laptops: cpu column; cloud: cpu_family; local: detected
    std::string gpu_model;  ///< laptops/cloud: the GPU as that table names it ("" = none)
    std::string gpu_link;   ///< the gpus.csv row it was linked to ("" = none); figures copied from it
    std::string cpu_link;   ///< the cpus.csv row it was linked to, if any
    unsigned gpu_count = 0; ///< accelerators in the machine (gpu/apple rows: 1; cpu rows: 0)

    // --- CPU ---------------------------------------------------------------------------------------
    std::optional<unsigned> cores;
    std::optional<unsigned> threads; ///< hardware threads; cloud: vCPUs
    std::optional<bool> avx2;        ///< only set by detection
    std::optional<bool> avx512;      ///< empty = not verified
    std::optional<bool> amx;

    // --- cloud -------------------------------------------------------------------------------------
    std::string provider;
    std::string instance_type;
    std::optional<double> price_usd_per_hour; ///< on-demand, whole instance
    std::string price_region;

    std::string notes;
    std::string sources; ///< source keys, ';'-separated (see data/hardware/SOURCES.md)
    std::string origin;  ///< where it came from: "hardware/gpus.csv:3", a user file:line, "detected"

    /// memory_bytes x gpu_count: all the accelerator memory of the machine (0 when unknown).
    [[nodiscard]] std::uint64_t total_accelerator_memory_bytes() const;
    /// Known memory and bandwidth: enough for a fit and a roofline estimate.
    [[nodiscard]] bool has_accelerator() const { return memory_bytes.has_value() && gpu_count > 0; }
};

// ------------------------------------------------------------------------------------------------
// Memory as the device exposes it (data/hardware/SOURCES.md, "Memory as the device exposes it"; the
// fitted constants are in src/hardware/memory_constants.h)

/// Is the memory of this gpus.csv row GDDR with ECC on by default (a datacenter GDDR card)?
[[nodiscard]] bool has_inline_ecc(std::string_view form, std::string_view memory_type);
/// Bytes a framework can allocate on a discrete accelerator sold with `vendor_gb` "GB": vendor_gb
/// GiB, less inline ECC, less the driver's reserve; no more than `driver_total_mib` (nvidia-smi
/// memory.total, where a source gives it) less smi_to_cuda_gap_bytes.
[[nodiscard]] std::uint64_t exposed_memory_bytes(double vendor_gb, bool inline_ecc,
                                                 std::optional<double> driver_total_mib = std::nullopt);

/// Share of unified memory macOS lets the GPU wire by default (recommendedMaxWorkingSetSize):
/// two thirds up to 36 GB of RAM, three quarters above. Measured: 16 GB -> 10922.67 MB
/// (llama-cpp-python #687), 32 GB -> 21845.34 MB (llama.cpp #2011, ollama #434), 96 GB -> 73728 MB
/// (llama.cpp #3213); 64 GB ~ 48 GB (llama.cpp #1870). Newer macOS gives somewhat more (107.52 GiB of
/// 128 GiB on macOS 26, antirez/ds4 #893): the rule errs low. Raised with
/// `sudo sysctl iogpu.wired_limit_mb=N` (macOS 14+, until reboot).
[[nodiscard]] std::uint64_t apple_gpu_wired_limit_bytes(std::uint64_t unified_bytes);
/// The command that raises the limit to `bytes` (what the plan prints when a Mac is short).
[[nodiscard]] std::string apple_wired_limit_command(std::uint64_t bytes);
/// The highest limit the plan proposes for `unified_bytes` of RAM: all of it but apple_os_reserve_bytes
/// (0 when that is below the default limit: nothing to raise, as on a 16 GB Mac).
[[nodiscard]] std::uint64_t apple_raised_wired_limit_bytes(std::uint64_t unified_bytes);

/// The hardware tables, in file order: gpus.csv, cpus.csv, laptops.csv, cloud_instances.csv (plus
/// any rows added from user files). Name lookup is case-insensitive and tolerant of spaces, dashes
/// and vendor words ("h100", "rtx-4090", "g5.xlarge", "H100 SXM 80GB").
class hardware_catalog {
  public:
    [[nodiscard]] const std::vector<device_spec>& devices() const { return devices_; }
    [[nodiscard]] std::size_t size() const { return devices_.size(); }

    /// Every row of one kind, in file order.
    [[nodiscard]] std::vector<const device_spec*> of_kind(hardware_kind k) const;
    /// Rows the planner ranks: those a person can buy or rent whole or as a part for a PC (machines,
    /// desktop and workstation cards, desktop CPUs, cloud instances) with every figure a ranking
    /// needs (missing_figures() empty). Datacenter and cloud-only chips are rented through cloud
    /// rows, Apple chips bought as the Macs of laptops.csv: neither is ranked bare.
    [[nodiscard]] std::vector<const device_spec*> candidates() const;
    /// Rows whose name contains every word of `filter` (case-insensitive); all rows when empty.
    [[nodiscard]] std::vector<const device_spec*> filter(std::string_view words) const;

    /// Exact name (normalised) first, then a partial name naming one model ("h100" -> the first
    /// H100 row, SXM preferred). Unknown -> error_code::unknown_name listing the closest names;
    /// a name matching many models with no model number ("rtx") -> the same error, listing them.
    [[nodiscard]] result<const device_spec*> lookup(std::string_view name) const;
    /// A --hardware value: one name or id, or several separated by commas, where a name may itself
    /// hold commas ("MacBook Pro 14\" M4, 16GB"): the longest run of comma-separated pieces that is
    /// a row's exact name is taken first.
    [[nodiscard]] result<std::vector<const device_spec*>> lookup_list(std::string_view names) const;
    /// Lookup restricted to one kind.
    [[nodiscard]] result<const device_spec*> lookup(std::string_view name, hardware_kind kind) const;
    /// Up to `n` names closest to `name` (edit distance on the normalised name and its words).
    [[nodiscard]] std::vector<std::string> suggest(std::string_view name, std::size_t n = 5) const;

    /// Append rows; cloud and laptop rows link to GPU rows already present (or in `more`).
    void add(std::vector<device_spec> more);

  private:
    std::vector<device_spec> devices_;
};

/// How a row is bought or rented, which says what its price and power cover.
enum class purchase_kind : std::uint8_t {
    machine,  ///< a whole computer (laptops.csv, this machine): price and power are the machine's
    card,     ///< a GPU card for a PC: price and power are the card's; it needs a PC around it
    cpu_part, ///< a desktop CPU: needs a motherboard, RAM and the rest of a PC
    instance, ///< a cloud instance: the hourly price covers everything
    server,   ///< a datacenter or cloud-only chip: not sold to a person, rented as an instance
    chip,     ///< an Apple SoC row: bought as a Mac (laptops.csv)
};
[[nodiscard]] purchase_kind purchase_of(const device_spec& d);
[[nodiscard]] std::string_view to_string(purchase_kind k);
/// What a part needs around it, one line ("a PC with a PCIe x16 slot and a 850 W power supply"), for
/// `cards` of it in one box (a card row: the slots and the supply for all of them); empty for machines
/// and instances.
[[nodiscard]] std::string host_needs(const device_spec& d, unsigned cards = 1);
/// The figures a ranked row must have that this one lacks ("price", "idle power", "compute"...).
[[nodiscard]] std::vector<std::string> missing_figures(const device_spec& d);
/// An id from a name: lower case, runs of anything but letters and digits as one '-'.
[[nodiscard]] std::string hardware_id(std::string_view name);

/// The catalog compiled into the binary (parsed once; a broken table is a build-time bug, and the
/// tests check it parses).
const hardware_catalog& builtin_hardware();

/// Parse the compiled-in tables (what builtin_hardware() holds; exposed so tests see any error).
result<hardware_catalog> parse_builtin_hardware();

/// Parse one table. `file` names it in errors; `table` is which format: "gpus", "cpus", "laptops",
/// "cloud", or "" to tell from the header (or a `kind` column: gpu|apple|cpu|laptop|cloud).
/// Rows with a cloud GPU or laptop GPU are linked against `link_to` when given.
result<std::vector<device_spec>> parse_hardware_csv(std::string_view text, std::string_view file,
                                                    std::string_view table          = {},
                                                    const hardware_catalog* link_to = nullptr);

/// Users' own machines, same CSV format as the catalog. Refuses negative prices, zero or negative
/// bandwidth or memory, rows without a name; errors give file, line and field.
result<std::vector<device_spec>> load_hardware_file(const std::string& path,
                                                    const hardware_catalog& link_to = builtin_hardware());

/// The builtin catalog plus the rows of `path`.
result<hardware_catalog> catalog_with_file(const std::string& path);

// ------------------------------------------------------------------------------------------------
// This machine

struct detected_gpu {
    std::string name;
    std::uint64_t memory_total_bytes = 0;
    std::optional<std::uint64_t> memory_used_bytes;
    std::string via; ///< "nvml", "nvidia-smi", "rocm-smi", "sysctl"
};

struct cpu_info {
    std::string model;
    unsigned sockets = 0;
    unsigned cores   = 0; ///< physical cores (all sockets)
    unsigned threads = 0; ///< logical processors
    bool avx2        = false;
    bool avx512f     = false;
    bool amx         = false; ///< amx_tile
    bool flags_known = false; ///< a flags/Features line was found
};

struct memory_info {
    std::optional<std::uint64_t> total_bytes;
    std::optional<std::uint64_t> available_bytes;
};

struct local_machine {
    cpu_info cpu;
    memory_info ram;
    std::vector<detected_gpu> gpus;
    bool unified_memory = false; ///< Apple silicon: GPUs share RAM
    std::string os;
    /// The machine's class as its firmware types it: "laptop", "desktop" or "server" (SMBIOS chassis
    /// type, /sys/class/dmi/id/chassis_type; a Mac by its model name); "" when not read.
    std::string form;
    /// Memory read bandwidth measured here (measure_memory_read_bandwidth), when asked for.
    std::optional<std::uint64_t> measured_read_bytes_per_s;
    bool bandwidth_from_cache = false; ///< measured_read_bytes_per_s was read from the cache file
    std::vector<std::string> missing;  ///< what could not be read: "NVML not found", ...
};

/// Parsers over file text, so tests can feed sample files.
cpu_info parse_cpuinfo(std::string_view text);
memory_info parse_meminfo(std::string_view text);
/// `nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits` (MiB).
std::vector<detected_gpu> parse_nvidia_smi(std::string_view text);
/// `rocm-smi --showproductname --showmeminfo vram` (lines "GPU[0] : key: value", bytes).
std::vector<detected_gpu> parse_rocm_smi(std::string_view text);
/// /sys/class/dmi/id/chassis_type (an SMBIOS chassis type number, DMTF DSP0134 7.4.1) as a machine's
/// class: "laptop", "desktop", "server", or "" for a type that says neither (other, unknown, a dock).
std::string parse_chassis_type(std::string_view text);

/// What detection does with the cached bandwidth (bandwidth_cache_path).
enum class bandwidth_cache_mode : std::uint8_t {
    use,     ///< read it when it is this machine's; else measure and write it
    refresh, ///< measure and write it (`llmplan hardware --probe`)
    off,     ///< measure, neither read nor write
};

struct detect_options {
    std::string proc_root = "/proc"; ///< where cpuinfo and meminfo are read
    bool use_nvml         = true;
    bool use_nvidia_smi   = true;
    bool use_rocm_smi     = true;
    /// Know RAM read bandwidth (measuring takes about 0.2 s and 256 MiB): used when the CPU is not in
    /// the catalog. Measured once and cached (bandwidth_cache).
    bool measure_bandwidth               = true;
    bandwidth_cache_mode bandwidth_cache = bandwidth_cache_mode::use;
    std::string cache_dir; ///< empty: $XDG_CACHE_HOME/llmplan, else $HOME/.cache/llmplan
};

/// The bandwidth cache file: <cache_dir>/memory-bandwidth.txt; empty when no directory is known.
std::string bandwidth_cache_path(const detect_options& o);
/// What the cache is keyed by: CPU model, threads and RAM size (another machine measures again).
std::string bandwidth_cache_key(const local_machine& m);
/// The cached rate when the file holds `key` and a plausible rate; else empty.
std::optional<std::uint64_t> read_cached_bandwidth(const std::string& path, const std::string& key);
/// Written to a temporary file and renamed over `path` (never half-written). False on any failure.
bool write_cached_bandwidth(const std::string& path, const std::string& key, std::uint64_t bytes_per_s);

/// Read `buffer_bytes` (far larger than the caches) with `threads` threads, `passes` times; the best
/// pass in bytes a second. Empty when the buffer cannot be allocated or is too small to split.
std::optional<std::uint64_t> measure_memory_read_bandwidth(std::uint64_t buffer_bytes, unsigned threads,
                                                           unsigned passes = 3);

/// Never fails: what cannot be read is listed in `missing`. No GPU is a normal answer.
local_machine detect_local_hardware(const detect_options& opts = {});

/// This machine as a device_spec (kind local): its first GPU model (count = GPUs of that model)
/// matched to the catalog by name for bandwidth and FLOPs; no GPU -> a CPU machine with RAM.
device_spec to_device_spec(const local_machine& m, const hardware_catalog& catalog = builtin_hardware());

} // namespace llmplan

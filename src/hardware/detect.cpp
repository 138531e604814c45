// Detecting this machine: CPU and RAM from /proc (Linux) or sysctl (macOS); GPUs through NVML
// loaded at run time (so the binary runs without a driver), else nvidia-smi, else rocm-smi.
// Nothing here fails: what cannot be read is listed in local_machine::missing.
#include "hardware/names.h"
#include "hardware/tables.h"
#include "hardware/text.h"
#include "llmplan/hardware.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>
#include <utility>
#ifdef __APPLE__
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

namespace llmplan {

namespace {

// /proc/cpuinfo on a 2-socket, 384-thread server is about 0.6 MiB; 8 MiB bounds a broken /proc.
constexpr std::size_t max_proc_bytes = 8u << 20;
// Tool output we parse: a line per GPU; 1 MiB bounds a runaway process.
constexpr std::size_t max_tool_bytes = 1u << 20;

std::optional<std::string> read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string out;
    char buf[16384];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<std::size_t>(in.gcount()));
        if (out.size() > max_proc_bytes) break;
    }
    return out;
}

/// An executable named `name` in a PATH directory.
bool on_path(const char* name) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string_view p(path);
    while (true) {
        const auto colon = p.find(':');
        const std::string dir(p.substr(0, colon));
        if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0) return true;
        if (colon == std::string_view::npos) return false;
        p.remove_prefix(colon + 1);
    }
}

/// Run a fixed command line (no user input reaches it); stdout, bounded, or nullopt on failure.
std::optional<std::string> run_tool(const char* cmd) {
    FILE* f = ::popen(cmd, "r");
    if (!f) return std::nullopt;
    std::string out;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < max_tool_bytes)
        out.append(buf, n);
    const int rc = ::pclose(f);
    if (rc != 0) return std::nullopt;
    return out;
}

// --- NVML, declared here so that no CUDA header or library is needed to build or run ------------
using nvml_return_t = int; // nvmlReturn_t; NVML_SUCCESS = 0 (nvml.h)
using nvml_device_t = struct nvml_device_st*;
struct nvml_memory_t { // nvmlMemory_t (v1): bytes
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
constexpr unsigned nvml_name_buffer = 96; // NVML_DEVICE_NAME_V2_BUFFER_SIZE (nvml.h)

std::vector<detected_gpu> nvml_gpus(std::vector<std::string>& missing) {
    void* lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        missing.emplace_back("NVML not found (libnvidia-ml.so.1)");
        return {};
    }
    using init_fn   = nvml_return_t (*)();
    using count_fn  = nvml_return_t (*)(unsigned*);
    using handle_fn = nvml_return_t (*)(unsigned, nvml_device_t*);
    using name_fn   = nvml_return_t (*)(nvml_device_t, char*, unsigned);
    using mem_fn    = nvml_return_t (*)(nvml_device_t, nvml_memory_t*);
    auto init       = reinterpret_cast<init_fn>(::dlsym(lib, "nvmlInit_v2"));
    auto shutdown   = reinterpret_cast<init_fn>(::dlsym(lib, "nvmlShutdown"));
    auto count      = reinterpret_cast<count_fn>(::dlsym(lib, "nvmlDeviceGetCount_v2"));
    auto handle     = reinterpret_cast<handle_fn>(::dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    auto name       = reinterpret_cast<name_fn>(::dlsym(lib, "nvmlDeviceGetName"));
    auto meminfo    = reinterpret_cast<mem_fn>(::dlsym(lib, "nvmlDeviceGetMemoryInfo"));
    std::vector<detected_gpu> out;
    if (!init || !count || !handle || !name || !meminfo) {
        missing.emplace_back("NVML lacks a needed function (old driver?)");
    } else if (const auto rc = init(); rc != 0) {
        missing.emplace_back(fmt::format("NVML init failed (nvmlReturn {})", rc));
    } else {
        unsigned n = 0;
        if (count(&n) != 0) missing.emplace_back("NVML device count failed");
        for (unsigned i = 0; i < n && i < 1024; ++i) {
            nvml_device_t dev = nullptr;
            if (handle(i, &dev) != 0) continue;
            char buf[nvml_name_buffer] = {};
            detected_gpu g;
            g.via = "nvml";
            if (name(dev, buf, nvml_name_buffer) == 0) g.name = std::string(buf, ::strnlen(buf, nvml_name_buffer));
            nvml_memory_t m{};
            if (meminfo(dev, &m) == 0) {
                g.memory_total_bytes = m.total;
                g.memory_used_bytes  = m.used;
            }
            out.push_back(std::move(g));
        }
        if (shutdown) shutdown();
    }
    ::dlclose(lib);
    return out;
}

#ifdef __APPLE__
template <class T> std::optional<T> sysctl_value(const char* key) {
    T v{};
    std::size_t len = sizeof v;
    if (::sysctlbyname(key, &v, &len, nullptr, 0) != 0) return std::nullopt;
    return v;
}
std::optional<std::string> sysctl_string(const char* key) {
    char buf[256]   = {};
    std::size_t len = sizeof buf - 1;
    if (::sysctlbyname(key, buf, &len, nullptr, 0) != 0) return std::nullopt;
    return std::string(buf, ::strnlen(buf, sizeof buf));
}
#endif

} // namespace

namespace {

/// A 256 MiB buffer is 8x the largest desktop L3 (32 MiB on a Ryzen 9 7950X): reads come from DRAM.
/// Smaller when less than 2 GiB is free, so the probe never pushes a machine into swap.
constexpr std::uint64_t probe_bytes = 256ull << 20;

void measure_bandwidth(local_machine& m, const detect_options& opts) {
    if (!opts.measure_bandwidth) return;
    const std::string path = opts.bandwidth_cache == bandwidth_cache_mode::off ? "" : bandwidth_cache_path(opts);
    const std::string key  = bandwidth_cache_key(m);
    // Once known in this process (read from the file or measured), a rate is kept per file and
    // machine: a long-running process (`llmplan serve`, a plan per request) neither reads the file
    // on every plan nor, when the file is missing or another machine's, has each of its threads
    // allocate and read its own probe buffer at once (seen: 8 concurrent probes, 814 MB RSS). The
    // lock is held through a probe so that one thread measures and the others wait for its rate.
    static std::mutex known_lock;
    static std::map<std::string, std::uint64_t, std::less<>> known;
    std::unique_lock lock(known_lock, std::defer_lock);
    const std::string known_key = path + "\n" + key;
    if (opts.bandwidth_cache == bandwidth_cache_mode::use && !path.empty()) {
        lock.lock();
        if (const auto it = known.find(known_key); it != known.end()) {
            m.measured_read_bytes_per_s = it->second;
            m.bandwidth_from_cache      = true;
            return;
        }
        if (const auto cached = read_cached_bandwidth(path, key)) {
            known.emplace(known_key, *cached);
            m.measured_read_bytes_per_s = cached;
            m.bandwidth_from_cache      = true;
            return;
        }
    }
    std::uint64_t bytes = probe_bytes;
    if (m.ram.available_bytes && *m.ram.available_bytes < 8 * probe_bytes) bytes = *m.ram.available_bytes / 8;
    const unsigned threads      = m.cpu.threads ? m.cpu.threads : std::max(1u, std::thread::hardware_concurrency());
    m.measured_read_bytes_per_s = measure_memory_read_bandwidth(bytes, threads);
    if (!m.measured_read_bytes_per_s)
        m.missing.emplace_back("memory bandwidth could not be measured");
    else if (!path.empty() && !write_cached_bandwidth(path, key, *m.measured_read_bytes_per_s))
        m.missing.emplace_back(fmt::format("bandwidth cache {} could not be written", path));
    if (m.measured_read_bytes_per_s && !path.empty()) {
        if (!lock.owns_lock()) lock.lock();
        known.insert_or_assign(known_key, *m.measured_read_bytes_per_s);
    }
}

} // namespace

local_machine detect_local_hardware(const detect_options& opts) {
    local_machine m;
    if (utsname u{}; ::uname(&u) == 0) m.os = fmt::format("{} {}", u.sysname, u.machine);

#ifdef __APPLE__
    m.cpu.model   = sysctl_string("machdep.cpu.brand_string").value_or("");
    m.cpu.cores   = static_cast<unsigned>(sysctl_value<int>("hw.physicalcpu").value_or(0));
    m.cpu.threads = static_cast<unsigned>(sysctl_value<int>("hw.logicalcpu").value_or(0));
    m.cpu.sockets = 1;
    if (const auto mem = sysctl_value<std::uint64_t>("hw.memsize"))
        m.ram.total_bytes = *mem;
    else
        m.missing.emplace_back("sysctl hw.memsize failed");
    if (m.cpu.model.empty()) m.missing.emplace_back("sysctl machdep.cpu.brand_string failed");
    m.missing.emplace_back("available RAM not read on macOS");
    if (m.cpu.model.rfind("Apple", 0) == 0 && m.ram.total_bytes) {
        // Apple silicon: one GPU sharing RAM; its usable share is applied in to_device_spec().
        m.unified_memory = true;
        m.gpus.push_back(detected_gpu{m.cpu.model, *m.ram.total_bytes, std::nullopt, "sysctl"});
    }
    measure_bandwidth(m, opts);
    return m;
#else
    if (const auto t = read_text(opts.proc_root + "/cpuinfo"))
        m.cpu = parse_cpuinfo(*t);
    else
        m.missing.emplace_back(fmt::format("{}/cpuinfo not readable", opts.proc_root));
    if (m.cpu.model.empty() && m.cpu.threads > 0) m.missing.emplace_back("CPU model name not in cpuinfo");
    if (!m.cpu.flags_known && m.cpu.threads > 0) m.missing.emplace_back("CPU flags not in cpuinfo");
    // The machine's class (laptop, desktop, server): what the OS keeps of its RAM depends on it.
    // Read from the real /sys only when /proc is the real one (tests point proc_root at sample files).
    if (opts.proc_root == "/proc")
        if (const auto t = read_text("/sys/class/dmi/id/chassis_type")) m.form = parse_chassis_type(*t);
    if (const auto t = read_text(opts.proc_root + "/meminfo"))
        m.ram = parse_meminfo(*t);
    else
        m.missing.emplace_back(fmt::format("{}/meminfo not readable", opts.proc_root));

    if (opts.use_nvml) m.gpus = nvml_gpus(m.missing);
    if (m.gpus.empty() && opts.use_nvidia_smi) {
        if (!on_path("nvidia-smi"))
            m.missing.emplace_back("nvidia-smi not found");
        else if (const auto out = run_tool("nvidia-smi --query-gpu=name,memory.total,memory.used "
                                           "--format=csv,noheader,nounits 2>/dev/null"))
            m.gpus = parse_nvidia_smi(*out);
        else
            m.missing.emplace_back("nvidia-smi failed");
    }
    if (m.gpus.empty() && opts.use_rocm_smi) {
        if (!on_path("rocm-smi"))
            m.missing.emplace_back("rocm-smi not found");
        else if (const auto out = run_tool("rocm-smi --showproductname --showmeminfo vram 2>/dev/null"))
            m.gpus = parse_rocm_smi(*out);
        else
            m.missing.emplace_back("rocm-smi failed");
    }
    measure_bandwidth(m, opts);
    return m;
#endif
}

device_spec to_device_spec(const local_machine& m, const hardware_catalog& catalog) {
    device_spec d;
    d.kind              = hardware_kind::local;
    d.origin            = "detected";
    d.cpu_model         = m.cpu.model;
    d.host_memory_bytes = m.ram.total_bytes;
    if (m.cpu.cores) d.cores = m.cpu.cores;
    if (m.cpu.threads) d.threads = m.cpu.threads;
    if (m.cpu.flags_known) {
        d.avx2   = m.cpu.avx2;
        d.avx512 = m.cpu.avx512f;
        d.amx    = m.cpu.amx;
    }
    d.unified_memory = m.unified_memory;
    d.form           = m.form;
    d.sources        = "detected";

    // The CPU row, for the DRAM bandwidth a CPU run is bound by.
    const auto cpus = catalog.of_kind(hardware_kind::cpu);
    if (const auto* c =
            m.cpu.model.empty() ? nullptr : detail::best_match(m.cpu.model, cpus, detail::match_mode::link)) {
        d.cpu_link                          = c->name;
        d.host_memory_bandwidth_bytes_per_s = c->memory_bandwidth_bytes_per_s;
        d.sources += "; " + c->sources;
    }
    if (!d.host_memory_bandwidth_bytes_per_s && m.measured_read_bytes_per_s) {
        // Not in the catalog: the read rate measured here stands in for the peak (so decode, at
        // decode_efficiency_cpu of it, is a conservative figure).
        d.host_memory_bandwidth_bytes_per_s = m.measured_read_bytes_per_s;
        d.sources += "; memory bandwidth measured here";
    }

    if (m.gpus.empty()) {
        d.name                         = fmt::format("this machine ({})", m.cpu.model.empty() ? "CPU" : m.cpu.model);
        d.memory_bandwidth_bytes_per_s = d.host_memory_bandwidth_bytes_per_s;
        return d;
    }
    // The first GPU's model; a machine with mixed GPUs is planned on its first model only.
    const auto& first      = m.gpus.front();
    std::uint64_t smallest = first.memory_total_bytes;
    for (const auto& g : m.gpus)
        if (g.name == first.name) {
            ++d.gpu_count;
            smallest = std::min(smallest, g.memory_total_bytes);
        }
    d.gpu_model = first.name;
    d.name      = d.gpu_count > 1 ? fmt::format("this machine ({} x {})", d.gpu_count, first.name)
                                  : fmt::format("this machine ({})", first.name);
    if (m.unified_memory) {
        d.unified_memory_bytes = smallest;
        d.memory_bytes         = apple_gpu_wired_limit_bytes(smallest);
        d.notes = "memory_bytes = macOS's default GPU wired limit (2/3 of RAM up to 36 GB, 3/4 above); raise it "
                  "with sudo sysctl iogpu.wired_limit_mb=N.";
    } else {
        d.memory_bytes = smallest;
    }
    std::vector<const device_spec*> gpus;
    for (const auto& g : catalog.devices())
        if (g.kind == hardware_kind::gpu || g.kind == hardware_kind::apple) gpus.push_back(&g);
    if (const auto* g = detail::best_match(first.name, gpus, detail::match_mode::link))
        detail::copy_gpu_figures(d, *g, true);
    else {
        if (!d.notes.empty()) d.notes += ' ';
        d.notes += fmt::format("'{}' is not in the catalog: bandwidth and FLOPs unknown.", first.name);
    }
    return d;
}

} // namespace llmplan

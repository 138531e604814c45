// Detection of this machine, from sample /proc and tool output (no GPU or driver needed).
#include "llmplan/hardware.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace llmplan {
namespace {

// Two sockets x 2 cores x 2 threads, trimmed from an x86 /proc/cpuinfo (key\t: value lines).
constexpr const char* cpuinfo_x86 = R"(processor	: 0
vendor_id	: GenuineIntel
model name	: Intel(R) Xeon(R) Platinum 8480+
physical id	: 0
core id		: 0
cpu cores	: 2
flags		: fpu sse2 avx avx2 avx512f avx512bw amx_bf16 amx_tile amx_int8

processor	: 1
model name	: Intel(R) Xeon(R) Platinum 8480+
physical id	: 0
core id		: 0
processor	: 2
physical id	: 0
core id		: 1
processor	: 3
physical id	: 0
core id		: 1
processor	: 4
physical id	: 1
core id		: 0
processor	: 5
physical id	: 1
core id		: 0
processor	: 6
physical id	: 1
core id		: 1
processor	: 7
physical id	: 1
core id		: 1
)";

TEST(detect, cpuinfo_x86_topology_and_flags) {
    const auto c = parse_cpuinfo(cpuinfo_x86);
    EXPECT_EQ(c.model, "Intel(R) Xeon(R) Platinum 8480+");
    EXPECT_EQ(c.threads, 8u);
    EXPECT_EQ(c.sockets, 2u);
    EXPECT_EQ(c.cores, 4u); // distinct (physical id, core id) pairs
    EXPECT_TRUE(c.flags_known);
    EXPECT_TRUE(c.avx2);
    EXPECT_TRUE(c.avx512f);
    EXPECT_TRUE(c.amx);
}

TEST(detect, cpuinfo_arm_without_topology) {
    const auto c = parse_cpuinfo("processor\t: 0\nFeatures\t: fp asimd sve\n\nprocessor\t: 1\n"
                                 "Features\t: fp asimd sve\n\nModel\t: Raspberry Pi 5 Model B\n");
    EXPECT_EQ(c.threads, 2u);
    EXPECT_EQ(c.cores, 2u);
    EXPECT_EQ(c.model, "Raspberry Pi 5 Model B");
    EXPECT_TRUE(c.flags_known);
    EXPECT_FALSE(c.avx2);
    EXPECT_FALSE(parse_cpuinfo("").flags_known);
}

TEST(detect, meminfo_kib) {
    const auto m = parse_meminfo("MemTotal:       24683584 kB\nMemFree:        24459556 kB\n"
                                 "MemAvailable:   24412732 kB\nBogus: x kB\n");
    EXPECT_EQ(m.total_bytes, 24683584ull * 1024); // proc(5): "kB" means KiB
    EXPECT_EQ(m.available_bytes, 24412732ull * 1024);
    EXPECT_FALSE(parse_meminfo("garbage").total_bytes);
}

TEST(detect, nvidia_smi_csv_in_mib) {
    const auto g = parse_nvidia_smi("NVIDIA H200, 143771, 0\nNVIDIA GeForce RTX 4090, 24564, 1234\n[N/A]\n");
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].name, "NVIDIA H200");
    EXPECT_EQ(g[0].memory_total_bytes, 143771ull << 20);
    EXPECT_EQ(g[1].memory_used_bytes, 1234ull << 20);
    EXPECT_EQ(g[1].via, "nvidia-smi");
    EXPECT_TRUE(parse_nvidia_smi("").empty());
}

TEST(detect, rocm_smi_lines) {
    const auto g = parse_rocm_smi("======= ROCm System Management Interface =======\n"
                                  "GPU[0]\t\t: Card series:\t\tAMD Instinct MI300X\n"
                                  "GPU[0]\t\t: VRAM Total Memory (B): 206141652992\n"
                                  "GPU[0]\t\t: VRAM Total Used Memory (B): 7028736\n"
                                  "GPU[1]\t\t: Card series:\t\tAMD Instinct MI300X\n"
                                  "GPU[1]\t\t: VRAM Total Memory (B): 206141652992\n");
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0].name, "AMD Instinct MI300X");
    EXPECT_EQ(g[0].memory_total_bytes, 206141652992ull);
    EXPECT_EQ(g[0].memory_used_bytes, 7028736ull);
    EXPECT_FALSE(g[1].memory_used_bytes);
}

TEST(detect, missing_proc_degrades_and_says_what_is_missing) {
    detect_options o;
    o.proc_root      = "/nonexistent-proc";
    o.use_nvml       = false;
    o.use_nvidia_smi = false;
    o.use_rocm_smi   = false;
    const auto m     = detect_local_hardware(o);
#ifndef __APPLE__
    ASSERT_GE(m.missing.size(), 2u);
    EXPECT_NE(m.missing[0].find("cpuinfo"), std::string::npos);
    EXPECT_NE(m.missing[1].find("meminfo"), std::string::npos);
#endif
    const auto d = to_device_spec(m);
    EXPECT_EQ(d.kind, hardware_kind::local);
    EXPECT_EQ(d.gpu_count, 0u);
}

TEST(detect, injected_proc_root) {
    const auto dir = std::filesystem::temp_directory_path() / "llmplan_proc";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "cpuinfo") << cpuinfo_x86;
    std::ofstream(dir / "meminfo") << "MemTotal: 1048576 kB\nMemAvailable: 524288 kB\n";
    detect_options o;
    o.proc_root = dir.string();
    o.use_nvml = o.use_nvidia_smi = o.use_rocm_smi = false;
    const auto m                                   = detect_local_hardware(o);
#ifndef __APPLE__
    EXPECT_EQ(m.cpu.threads, 8u);
    EXPECT_EQ(m.ram.total_bytes, 1ull << 30);
    EXPECT_TRUE(m.missing.empty());
    const auto d = to_device_spec(m);
    EXPECT_EQ(d.cpu_link, "Xeon Platinum 8480+ (Sapphire Rapids)");
    EXPECT_EQ(d.host_memory_bandwidth_bytes_per_s, 307'200'000'000ull); // cpus.csv: 8 ch DDR5-4800
    EXPECT_EQ(d.amx, true);
#endif
}

TEST(detect, detected_gpus_match_the_catalog) {
    local_machine m;
    m.cpu.model = "AMD EPYC 9654 96-Core Processor";
    m.gpus      = parse_nvidia_smi("NVIDIA H200, 143771, 0\nNVIDIA H200, 143771, 0\n");
    auto d      = to_device_spec(m);
    EXPECT_EQ(d.gpu_count, 2u);
    EXPECT_EQ(d.gpu_link, "H200 SXM");
    EXPECT_EQ(d.memory_bytes, 143771ull << 20); // what the driver reports, not the catalog's 141 GB
    EXPECT_EQ(d.memory_bandwidth_bytes_per_s, 4'800'000'000'000ull);
    EXPECT_EQ(d.cpu_link, "EPYC 9654 (Genoa)");

    // Apple: unified memory, 75% usable by the GPU.
    local_machine mac;
    mac.unified_memory = true;
    mac.gpus.push_back(detected_gpu{"Apple M2 Max", 64'000'000'000ull, std::nullopt, "sysctl"});
    d = to_device_spec(mac);
    EXPECT_EQ(d.gpu_link, "Apple M2 Max");
    EXPECT_EQ(d.memory_bytes, 48'000'000'000ull);
    EXPECT_EQ(d.memory_bandwidth_bytes_per_s, 400'000'000'000ull);

    local_machine odd;
    odd.gpus.push_back(detected_gpu{"Mystery GPU 9000", 8ull << 30, std::nullopt, "nvml"});
    d = to_device_spec(odd);
    EXPECT_EQ(d.gpu_link, "");
    EXPECT_FALSE(d.memory_bandwidth_bytes_per_s);
    EXPECT_NE(d.notes.find("not in the catalog"), std::string::npos);
}

TEST(detect, real_machine_never_fails) {
    const auto m = detect_local_hardware();
    const auto d = to_device_spec(m);
    EXPECT_FALSE(d.name.empty());
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

TEST(detect, memory_probe_gives_a_physical_rate_or_nothing) {
    // Two threads reading 64 MiB from a CPU's memory: above 1 GB/s (one channel of the slowest DRAM a
    // 64-bit machine has, DDR3-800, peaks at 6.4 GB/s (JEDEC JESD79-3); the floor leaves room for a
    // busy, shared CI machine) and below 1.3 TB/s (the widest CPU memory sold, the Xeon CPU Max
    // series' on-package HBM2e, is quoted at about 1 TB/s by Intel; an Apple M3 Ultra's 819 GB/s is
    // next): the probe measures, it does not make up a number.
    const auto bw = measure_memory_read_bandwidth(64ull << 20, 2, 1);
    ASSERT_TRUE(bw.has_value());
    EXPECT_GT(*bw, 1'000'000'000ull);
    EXPECT_LT(*bw, 1'300'000'000'000ull);
    // Too small to give each thread 1024 words: refused, not divided by zero.
    EXPECT_FALSE(measure_memory_read_bandwidth(1024, 4, 1).has_value());
    EXPECT_FALSE(measure_memory_read_bandwidth(64ull << 20, 2, 0).has_value());
}

TEST(detect, measured_bandwidth_stands_in_when_the_cpu_is_unknown) {
    local_machine m;
    m.cpu.model                 = "Some CPU not in any table 9000";
    m.cpu.cores                 = 4;
    m.ram.total_bytes           = 16ull << 30;
    m.measured_read_bytes_per_s = 20'000'000'000ull;
    const auto d                = to_device_spec(m);
    ASSERT_TRUE(d.host_memory_bandwidth_bytes_per_s.has_value());
    EXPECT_EQ(*d.host_memory_bandwidth_bytes_per_s, 20'000'000'000ull);
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

// The bandwidth cache (src/hardware/bandwidth_cache.cpp): written whole, read back only for the
// machine it was measured on, refused when implausible or corrupt.
TEST(detect, bandwidth_cache_round_trip_and_refusals) {
    const auto dir = std::filesystem::temp_directory_path() / "llmplan_bw_cache_test";
    std::filesystem::remove_all(dir);
    detect_options o;
    o.cache_dir     = dir.string();
    const auto path = bandwidth_cache_path(o);
    EXPECT_EQ(path, (dir / "memory-bandwidth.txt").string());

    local_machine m;
    m.cpu.model       = "AMD Ryzen 9 7950X 16-Core Processor";
    m.cpu.threads     = 32;
    m.ram.total_bytes = 64ull << 30;
    const auto key    = bandwidth_cache_key(m);
    EXPECT_FALSE(read_cached_bandwidth(path, key)); // nothing there yet
    ASSERT_TRUE(write_cached_bandwidth(path, key, 62'000'000'000ull));
    EXPECT_EQ(read_cached_bandwidth(path, key), 62'000'000'000ull);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid()))); // renamed away

    local_machine upgraded   = m; // more RAM: another machine, measure again
    upgraded.ram.total_bytes = 128ull << 30;
    EXPECT_FALSE(read_cached_bandwidth(path, bandwidth_cache_key(upgraded)));

    // More than 100 TB/s (an HBM3e GPU reads 8 TB/s): no memory system, a corrupt file.
    ASSERT_TRUE(write_cached_bandwidth(path, key, 200'000'000'000'000ull));
    EXPECT_FALSE(read_cached_bandwidth(path, key));
    std::ofstream(path) << "machine=" << key << "\nread_bytes_per_s=12abc\n";
    EXPECT_FALSE(read_cached_bandwidth(path, key));
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

// A rate known in this process is kept (detect.cpp, measure_bandwidth): `llmplan serve` plans on
// every request, and must neither re-read the file each time nor probe once per thread when the
// file goes away. The rate written here is read once; a rewritten or removed file changes nothing.
TEST(detect, bandwidth_is_kept_once_known_in_the_process) {
    const auto dir = std::filesystem::temp_directory_path() / ("llmplan_bw_keep_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    detect_options o;
    o.cache_dir                = dir.string();
    o.use_nvml                 = false;
    o.use_nvidia_smi           = false;
    o.use_rocm_smi             = false;
    detect_options no_probe    = o;
    no_probe.measure_bandwidth = false;
    const auto key             = bandwidth_cache_key(detect_local_hardware(no_probe));
    const auto path            = bandwidth_cache_path(o);
    ASSERT_TRUE(write_cached_bandwidth(path, key, 12'000'000'000ull));
    const auto first = detect_local_hardware(o);
    EXPECT_EQ(first.measured_read_bytes_per_s, 12'000'000'000ull);
    EXPECT_TRUE(first.bandwidth_from_cache);
    ASSERT_TRUE(write_cached_bandwidth(path, key, 34'000'000'000ull));
    EXPECT_EQ(detect_local_hardware(o).measured_read_bytes_per_s, 12'000'000'000ull);
    std::filesystem::remove_all(dir);
    const auto gone = detect_local_hardware(o); // no file: still no probe
    EXPECT_EQ(gone.measured_read_bytes_per_s, 12'000'000'000ull);
    EXPECT_TRUE(gone.bandwidth_from_cache);
    EXPECT_FALSE(std::filesystem::exists(path));
}

} // namespace
} // namespace llmplan

// What the OS keeps of a machine's RAM depends on the machine's class (issue 25, finding 4): a server
// or a desktop detected as this machine no longer gets a laptop's share. The rules and their sources
// are in src/hardware/personal_memory.h; the figures below are their arithmetic by hand.
#include "hardware/personal_memory.h"
#include "llmplan/hardware.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

constexpr std::uint64_t GiB = std::uint64_t{1} << 30;

device_spec detected(std::string form, std::uint64_t ram) {
    local_machine m;
    m.cpu.model       = "AMD EPYC 9654 96-Core Processor";
    m.ram.total_bytes = ram;
    m.form            = std::move(form);
    return to_device_spec(m);
}

TEST(machine_class_ram, the_chassis_type_names_the_class) {
    // DMTF DSP0134 7.4.1: 9 Laptop, 10 Notebook, 3 Desktop, 7 Tower, 17 Main Server Chassis,
    // 23 Rack Mount Chassis; 1 Other and 2 Unknown say neither (a virtual machine often says 1).
    EXPECT_EQ(parse_chassis_type("9\n"), "laptop");
    EXPECT_EQ(parse_chassis_type("10"), "laptop");
    EXPECT_EQ(parse_chassis_type("3\n"), "desktop");
    EXPECT_EQ(parse_chassis_type("7"), "desktop");
    EXPECT_EQ(parse_chassis_type("17"), "server");
    EXPECT_EQ(parse_chassis_type("23\n"), "server");
    EXPECT_EQ(parse_chassis_type("1"), "");
    EXPECT_EQ(parse_chassis_type("rack"), "");
}

TEST(machine_class_ram, a_server_keeps_what_gke_reserves_for_a_node) {
    // 256 GiB: 25% x 4 + 20% x 4 + 10% x 8 + 6% x 112 + 2% x 128 = 1 + 0.8 + 0.8 + 6.72 + 2.56 = 11.88 GiB,
    // + 100 MiB before eviction = 11.978 GiB kept; a laptop's rule would keep 1/4 = 64 GiB.
    const auto d = detected("server", 256 * GiB);
    EXPECT_EQ(d.form, "server");
    EXPECT_NEAR(static_cast<double>(detail::server_os_kept_bytes(256 * GiB)) / GiB, 11.88 + 100.0 / 1024, 1e-6);
    EXPECT_EQ(detail::personal_model_ram_bytes(d, 256 * GiB), 256 * GiB - detail::server_os_kept_bytes(256 * GiB));
    // 16 GiB: 1 + 0.8 + 0.8 = 2.6 GiB + 100 MiB.
    EXPECT_NEAR(static_cast<double>(detail::server_os_kept_bytes(16 * GiB)) / GiB, 2.6 + 100.0 / 1024, 1e-6);
    EXPECT_NE(detail::personal_ram_note(d, 16 * GiB).find("the OS and its services keep 2.7 GiB"), std::string::npos)
        << detail::personal_ram_note(d, 16 * GiB);
}

TEST(machine_class_ram, a_desktop_keeps_what_its_os_and_a_browser_take_not_a_share) {
    // 64 GiB desktop: a laptop's rule keeps 1/4 = 16 GiB; the OS, the desktop and a browser take at most
    // 8 GB (Windows 11 with a browser and light apps: 4-8 GB), so a model counts on 64 GiB - 8 GB.
    EXPECT_EQ(detail::personal_model_ram_bytes(detected("desktop", 64 * GiB), 64 * GiB), 64 * GiB - 8'000'000'000ull);
    // 16 GiB desktop: the laptop rule keeps 5.33 GiB (< 8 GB), so it stands: 2/3 of 16 GiB.
    EXPECT_EQ(detail::personal_model_ram_bytes(detected("desktop", 16 * GiB), 16 * GiB),
              apple_gpu_wired_limit_bytes(16 * GiB));
}

TEST(machine_class_ram, a_laptop_or_an_unknown_class_keeps_the_laptop_share) {
    EXPECT_EQ(detail::personal_model_ram_bytes(detected("laptop", 16 * GiB), 16 * GiB),
              apple_gpu_wired_limit_bytes(16 * GiB));
    EXPECT_EQ(detail::personal_model_ram_bytes(detected("", 32 * GiB), 32 * GiB),
              apple_gpu_wired_limit_bytes(32 * GiB));
    // 2/3 of 16 GiB = 10.67 GiB (recommendedMaxWorkingSetSize on a 16 GB M1: 10922.67 MB).
    EXPECT_NEAR(static_cast<double>(apple_gpu_wired_limit_bytes(16 * GiB)) / GiB, 16.0 * 2 / 3, 0.01);
}

} // namespace
} // namespace llmplan

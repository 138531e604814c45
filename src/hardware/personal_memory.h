// What a model may take of a personal machine's RAM (a laptop's, a desktop's, this machine's): the
// operating system, the desktop and a browser keep the rest. Issue 25, finding 2: "a 16 GB laptop is
// not 16 GiB free".
#pragma once

#include "llmplan/hardware.h"

#include <cstdint>
#include <string>

namespace llmplan::detail {

/// The share of `ram_bytes` a model can count on, by the machine's class (issue 25, finding 4):
/// - a laptop, a Mac, a machine of unknown class: the rule Apple gives Metal on a Mac
///   (recommendedMaxWorkingSetSize: 2/3 up to 36 GB, 3/4 above; apple_gpu_wired_limit_bytes), taken
///   as what a desktop OS with a browser open leaves to one program. Sources, measured or stated by
///   the vendor: ggml-metal logs recommendedMaxWorkingSetSize = 10922.67 MB on a 16 GB M1
///   (llama-cpp-python #687, 2023-09): 5.3 GiB of 16 stays with macOS and the apps; LlamaBarn,
///   llama.cpp's own Mac app, budgets 11 GB for a model on a 16 GB Mac (github.com/ggml-org/Llama-macOS
///   issue #58, 2026-07-27);
/// - a desktop (form "desktop", "desktop (mini-PC)", ...; not a Mac): the same, but never more than
/// desktop_os_kept_bytes, since
///   what the OS, the desktop and a browser take does not grow with the RAM fitted: Windows 11 takes
///   1.5-2 GB at idle, 4-8 GB with a browser and a few light apps open (umatechnology.org, "What is
///   normal RAM usage Windows 11");
/// - a server (form "server": a rack, blade or server chassis, no desktop session): what a node's
///   system daemons are reserved on Google Kubernetes Engine (cloud.google.com/kubernetes-engine/docs/
///   concepts/plan-node-sizes, "Memory and CPU reservations", read 2026-12-06): 25% of the first 4 GiB,
///   20% of the next 4, 10% of the next 8, 6% of the next 112 and 2% above 128 GiB, plus 100 MiB
///   kept free before eviction (server_os_kept_bytes).
[[nodiscard]] std::uint64_t personal_model_ram_bytes(const device_spec& d, std::uint64_t ram_bytes);

/// A desktop's OS, desktop session and a browser: the top of Windows 11's 4-8 GB with a browser and a
/// few light apps open (source above), in bytes (8 GB).
inline constexpr std::uint64_t desktop_os_kept_bytes = 8'000'000'000ull;

/// What a headless server's OS and services keep of `ram_bytes` (GKE's reservation, source above).
[[nodiscard]] std::uint64_t server_os_kept_bytes(std::uint64_t ram_bytes);

/// A machine a person works at (laptops.csv rows, laptops and desktops, and this machine, whatever its
/// class: a server's OS keeps its share too): its RAM is shared with the OS. CPU parts (their
/// platform's maximum) and cloud instances (priced for the RAM they give a program) are not.
[[nodiscard]] bool is_personal_machine(const device_spec& d);

/// Apple silicon (Metal): gpus.csv Apple rows and Macs (their architecture column), a detected Mac.
/// Other unified-memory machines (DGX Spark: CUDA; Strix Halo: ROCm/Vulkan) are not.
[[nodiscard]] bool is_apple_silicon(const device_spec& d);

/// "of its 16.0 GiB of RAM, the OS, the desktop and a browser keep 5.3 GiB: a model can count on
/// 10.7 GiB" (a server: "the OS and its services keep"): the line a plan and a fit print.
[[nodiscard]] std::string personal_ram_note(const device_spec& d, std::uint64_t ram_bytes);

} // namespace llmplan::detail

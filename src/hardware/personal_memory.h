// What a model may take of a personal machine's RAM (a laptop's, a desktop's, this machine's): the
// operating system, the desktop and a browser keep the rest. Issue 25, finding 2: "a 16 GB laptop is
// not 16 GiB free".
#pragma once

#include "llmplan/hardware.h"

#include <cstdint>
#include <string>

namespace llmplan::detail {

/// The share of `ram_bytes` a model can count on: the same rule Apple gives Metal on a Mac
/// (recommendedMaxWorkingSetSize: 2/3 up to 36 GB, 3/4 above; apple_gpu_wired_limit_bytes), taken as
/// what any desktop OS leaves to one program. Sources, each measured or stated by the vendor:
/// - ggml-metal logs recommendedMaxWorkingSetSize = 10922.67 MB on a 16 GB M1 (llama-cpp-python #687,
///   2023-09): 5.3 GiB of 16 stays with macOS and the apps;
/// - LlamaBarn, llama.cpp's own Mac app, budgets 11 GB for a model on a 16 GB Mac
///   (github.com/ggml-org/Llama-macOS issue #58, 2026-07-27);
/// - Windows 11 takes 1.5-2 GB at idle, 4-8 GB with a browser and a few light apps open
///   (umatechnology.org, "What is normal RAM usage Windows 11"): 16 GiB x 1/3 = 5.3 GiB is inside it.
[[nodiscard]] std::uint64_t personal_model_ram_bytes(std::uint64_t ram_bytes);

/// A machine a person works at (laptops.csv rows, laptops and desktops, and this machine): its RAM is
/// shared with the OS and the browser. CPU parts (their platform's maximum) and cloud instances
/// (headless servers) are not.
[[nodiscard]] bool is_personal_machine(const device_spec& d);

/// Apple silicon (Metal): gpus.csv Apple rows and Macs (their architecture column), a detected Mac.
/// Other unified-memory machines (DGX Spark: CUDA; Strix Halo: ROCm/Vulkan) are not.
[[nodiscard]] bool is_apple_silicon(const device_spec& d);

/// "the OS and a browser keep 5.3 GiB of 16.0 GiB; a model can count on 10.7 GiB": the line a plan
/// and a fit print for a personal machine.
[[nodiscard]] std::string personal_ram_note(std::uint64_t ram_bytes);

} // namespace llmplan::detail

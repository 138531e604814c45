// The gpus.csv rows added for hardware the speed benchmark names (SOURCES.md, "Added for the speed
// benchmark's hardware"): their figures as the sources state them, and names that keep their
// siblings' lookups and links where they were.
#include "catalog_fixtures.h"

#include <gtest/gtest.h>

namespace llmplan {
namespace {

using test::hardware_row;

TEST(hardware_bench_rows, geforce_figures_from_their_sources) {
    // RTX 3070: 8 GB GDDR6 at 448 GB/s (256-bit x 14 Gbps), 220 W, $499 (Fudzilla 51457); FP32 =
    // 5888 x 2 x 1.73 GHz = 20.4 TFLOPS; GA102 whitepaper's GeForce ratio: FP16-acc tensor = 4 x FP32.
    const auto& r3070 = hardware_row("GeForce RTX 3070");
    EXPECT_EQ(r3070.memory_bandwidth_bytes_per_s, 448'000'000'000ull);
    EXPECT_DOUBLE_EQ(*r3070.fp32_flops, 20.4e12);
    EXPECT_DOUBLE_EQ(*r3070.fp16_fp16acc_flops, 81.5e12);
    EXPECT_DOUBLE_EQ(*r3070.tdp_w, 220);
    EXPECT_DOUBLE_EQ(*r3070.price_usd, 499);
    EXPECT_DOUBLE_EQ(*r3070.compute_capability, 8.6);

    // RTX 3080 Ti: 384-bit x 19 Gbps = 912 GB/s; 10240 x 2 x 1.665 GHz = 34.1 TFLOPS; FP32-acc
    // tensor = 2 x FP32. No MSRP was found: the price stays unknown, not zero.
    const auto& r3080ti = hardware_row("GeForce RTX 3080 Ti");
    EXPECT_EQ(r3080ti.memory_bandwidth_bytes_per_s, 912'000'000'000ull);
    EXPECT_DOUBLE_EQ(*r3080ti.bf16_flops, 68.2e12);
    EXPECT_FALSE(r3080ti.price_usd);

    // RTX 4070 Ti: 7680 x 2 x 2.61 GHz = 40.1 TFLOPS; Ada GeForce: FP32-acc 2x, FP16-acc and FP8 4x,
    // INT8 8x FP32 (= NVIDIA's 641 AI TOPS sparse / 2); 504 GB/s, 285 W, $799 (January 2023).
    const auto& r4070ti = hardware_row("RTX 4070 Ti");
    EXPECT_EQ(r4070ti.name, "GeForce RTX 4070 Ti"); // not the 4070 Ti SUPER, not the 4070
    EXPECT_DOUBLE_EQ(*r4070ti.bf16_flops, 80.2e12);
    EXPECT_DOUBLE_EQ(*r4070ti.fp8_flops, 160.4e12);
    EXPECT_DOUBLE_EQ(*r4070ti.int8_ops, 320.7e12);
    EXPECT_DOUBLE_EQ(*r4070ti.price_usd, 799);
}

TEST(hardware_bench_rows, workstation_ada_from_nvidia_figures) {
    // RTX 5000 Ada datasheet: 576 GB/s, 65.3 TFLOPS FP32, 1044.4 TFLOPS "tensor" = FP8 with
    // sparsity: FP8 dense 522.2, FP16/BF16 dense 261.1; 250 W; 32 GB of ECC GDDR6.
    const auto& r5000 = hardware_row("RTX 5000 Ada Generation");
    EXPECT_EQ(r5000.memory_bandwidth_bytes_per_s, 576'000'000'000ull);
    EXPECT_DOUBLE_EQ(*r5000.bf16_flops, 261.1e12);
    EXPECT_DOUBLE_EQ(*r5000.fp8_flops, 522.2e12);
    EXPECT_DOUBLE_EQ(*r5000.tdp_w, 250);
    EXPECT_FALSE(r5000.fp16_fp16acc_flops); // not stated for workstation Ada: blank, as on the RTX 6000 Ada

    // RTX 4000 Ada (PC Gamer, GTC 2023): 20 GB, 160-bit 360 GB/s, 26.7 TFLOPS, 130 W, $1,250; 327.6
    // TFLOPS FP8 sparse / 4 = 81.9 BF16 dense.
    const auto& r4000 = hardware_row("RTX 4000 Ada");
    EXPECT_EQ(r4000.name, "RTX 4000 Ada Generation");
    EXPECT_EQ(r4000.memory_bandwidth_bytes_per_s, 360'000'000'000ull);
    EXPECT_DOUBLE_EQ(*r4000.bf16_flops, 81.9e12);
    EXPECT_DOUBLE_EQ(*r4000.tdp_w, 130);
    EXPECT_DOUBLE_EQ(*r4000.price_usd, 1250);
    EXPECT_EQ(hardware_row("RTX 6000 Ada").name, "RTX 6000 Ada Generation"); // the sibling is still found
}

TEST(hardware_bench_rows, m3_max_bins_keep_their_names_and_links) {
    const auto& cat = builtin_hardware();
    // The 30-core-GPU bin: 300 GB/s (384-bit), 30 x 128 x 2 x 1.398 GHz = 10.74 TFLOPS.
    const auto& bin = hardware_row("Apple M3 Max 30-core GPU");
    EXPECT_EQ(bin.kind, hardware_kind::apple);
    EXPECT_EQ(bin.memory_bandwidth_bytes_per_s, 300'000'000'000ull);
    EXPECT_DOUBLE_EQ(*bin.fp32_flops, 10.74e12);
    // "Apple M3 Max" still names the 40-core 400 GB/s part, and the MacBooks with the 40-core GPU
    // still copy its figures (the new row's "30" is a model word the 40-core spelling lacks).
    EXPECT_EQ(hardware_row("Apple M3 Max").memory_bandwidth_bytes_per_s, 400'000'000'000ull);
    EXPECT_EQ((*cat.lookup("MacBook Pro 16\" M3 Max (16-core), 64GB"))->gpu_link, "Apple M3 Max");
}

} // namespace
} // namespace llmplan

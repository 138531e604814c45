// The hardware of 2026 (data/hardware/SOURCES.md, "The hardware of 2026"): the new rows' figures as
// their cited sources state them, the names the speed benchmark publishes resolving to them, cloud
// rows linking to their GPU rows, and a catalog-wide rule that every row names a source and every
// priced row dates its price (so a row added later without them fails here).
#include "catalog_fixtures.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace llmplan {
namespace {

using test::hardware_row;

constexpr std::uint64_t gib = 1ull << 30;
constexpr std::uint64_t mib = 1ull << 20;

bool ranked(const device_spec& d) {
    const auto c = builtin_hardware().candidates();
    return std::find(c.begin(), c.end(), &d) != c.end();
}

TEST(hardware_2026, rtx_pro_6000_blackwell_from_its_spec_sheet) {
    // Workstation Edition (hardware-corner 2025-03-21, VideoCardz): 96 GB GDDR7 ECC on a 512-bit bus at
    // 28 Gbps = 512 / 8 x 28 = 1,792 GB/s, 600 W. hmc-tech: FP16/BF16 tensor 503.8 TFLOPS dense with
    // FP32 accumulate (4 x the 125.95 FP32), FP4 2,015.2 dense. MSRP $8,565 (technical.city, March 2025).
    const auto& pro = hardware_row("RTX PRO 6000 Blackwell");
    EXPECT_EQ(pro.name, "RTX PRO 6000 Blackwell"); // the exact name wins over Max-Q and Server Edition
    EXPECT_EQ(pro.memory_type, "GDDR7");
    EXPECT_DOUBLE_EQ(*pro.vendor_memory_gb, 96);
    EXPECT_EQ(pro.memory_bandwidth_bytes_per_s, 1'792'000'000'000ull);
    EXPECT_DOUBLE_EQ(*pro.bf16_flops, 503.8e12);
    EXPECT_DOUBLE_EQ(*pro.fp32_flops, 125.95e12);
    EXPECT_DOUBLE_EQ(*pro.tdp_w, 600);
    EXPECT_DOUBLE_EQ(*pro.price_usd, 8565);
    EXPECT_EQ(pro.price_date, "2025-03");
    EXPECT_DOUBLE_EQ(*pro.compute_capability, 12.0);
    // nvidia-smi reports 97,887 MiB (public logs): what a framework gets is below that and above 95 GiB.
    EXPECT_LT(*pro.memory_bytes, 97887 * mib);
    EXPECT_GT(*pro.memory_bytes, 95 * gib);
    EXPECT_TRUE(ranked(pro));

    // Max-Q: the same memory, held to 300 W (Fixstars, from NVIDIA's datasheet); 110.1 TFLOPS FP32.
    const auto& maxq = hardware_row("RTX PRO 6000 Blackwell Max-Q");
    EXPECT_EQ(maxq.memory_bandwidth_bytes_per_s, 1'792'000'000'000ull);
    EXPECT_DOUBLE_EQ(*maxq.tdp_w, 300);
    EXPECT_DOUBLE_EQ(*maxq.fp32_flops, 110.1e12);
    EXPECT_TRUE(ranked(maxq));

    // The Server Edition is a server part: rented (Verda rows), never ranked bare.
    const auto& server = hardware_row("RTX PRO 6000 Blackwell Server Edition");
    EXPECT_EQ(purchase_of(server), purchase_kind::server);
    const auto verda = builtin_hardware().lookup("1RTXPRO6000.30V", hardware_kind::cloud);
    ASSERT_TRUE(verda.has_value());
    EXPECT_EQ((*verda)->gpu_link, "RTX PRO 6000 Blackwell Server Edition");
    EXPECT_DOUBLE_EQ(*(*verda)->price_usd_per_hour, 1.69);
    EXPECT_EQ((*verda)->memory_bytes, server.memory_bytes);
}

TEST(hardware_2026, dgx_spark_is_a_machine_with_128_gb_of_unified_memory) {
    // The name the llama.cpp scoreboard publishes resolves to the machine row.
    const auto& spark = hardware_row("DGX Spark (GB10)");
    EXPECT_EQ(spark.name, "DGX Spark (GB10), 128GB");
    EXPECT_EQ(spark.kind, hardware_kind::laptop);
    EXPECT_TRUE(spark.unified_memory);
    EXPECT_EQ(spark.unified_memory_bytes, 128 * gib);
    // 273 GB/s LPDDR5X-9400 (NVIDIA, Hot Chips 2025); about 31 TFLOPS FP32, copied from the GB10 row.
    EXPECT_EQ(spark.memory_bandwidth_bytes_per_s, 273'000'000'000ull);
    EXPECT_EQ(spark.gpu_link, "NVIDIA GB10");
    EXPECT_DOUBLE_EQ(*spark.fp32_flops, 31e12);
    // CUDA sees 130,596,048,896 bytes (121.6 GiB) of the pool: a model gets less than that.
    EXPECT_LT(*spark.memory_bytes, 130'596'048'896ull);
    EXPECT_GT(*spark.memory_bytes, 118 * gib);
    // $4,700 in April 2026 (SolaFide) against a $3,999 launch price: the dated street price is used.
    EXPECT_DOUBLE_EQ(*spark.price_usd, 4700);
    EXPECT_EQ(spark.price_date, "2026-04");
    EXPECT_DOUBLE_EQ(*spark.idle_w, 25); // measured at the wall after the February 2026 update
    EXPECT_TRUE(ranked(spark));
}

TEST(hardware_2026, consumer_and_workstation_cards_of_2025) {
    // RTX 5060 Ti 16GB: 128 bits x 28 Gbps = 448 GB/s, 180 W, $429 (2025-04-16); FP32 = 4,608 x 2 x 2.572 GHz.
    const auto& r5060ti = hardware_row("RTX 5060 Ti");
    EXPECT_EQ(r5060ti.name, "GeForce RTX 5060 Ti 16GB");
    EXPECT_EQ(r5060ti.memory_bandwidth_bytes_per_s, 448'000'000'000ull);
    EXPECT_DOUBLE_EQ(*r5060ti.fp32_flops, 23.7e12);
    EXPECT_DOUBLE_EQ(*r5060ti.bf16_flops, 2 * 23.7e12); // the RTX 5090 row's ratio: BF16 = 2 x FP32
    EXPECT_DOUBLE_EQ(*r5060ti.tdp_w, 180);
    EXPECT_DOUBLE_EQ(*r5060ti.price_usd, 429);

    // RX 9070 XT: 256 bits x 20 Gbps = 640 GB/s, 304 W, 48.7 TFLOPS, $599 (purepc, multiplayer.it).
    const auto& rx9070xt = hardware_row("RX 9070 XT");
    EXPECT_EQ(rx9070xt.name, "Radeon RX 9070 XT");
    EXPECT_EQ(rx9070xt.memory_bandwidth_bytes_per_s, 640'000'000'000ull);
    EXPECT_DOUBLE_EQ(*rx9070xt.tdp_w, 304);
    EXPECT_DOUBLE_EQ(*rx9070xt.price_usd, 599);

    // Radeon AI PRO R9700: the same Navi 48 with 32 GB and a 300 W limit (GPUBench audit, 2026-10-05).
    const auto& r9700 = hardware_row("Radeon AI PRO R9700");
    EXPECT_DOUBLE_EQ(*r9700.vendor_memory_gb, 32);
    EXPECT_DOUBLE_EQ(*r9700.tdp_w, 300);
    EXPECT_TRUE(ranked(r9700));

    // Arc Pro B60: 192 bits x 19 Gbps = 456 GB/s, XMX BF16 98.3 TFLOPS, 200 W, $499 (September 2025).
    const auto& b60 = hardware_row("Arc Pro B60");
    EXPECT_EQ(b60.memory_bandwidth_bytes_per_s, 456'000'000'000ull);
    EXPECT_DOUBLE_EQ(*b60.bf16_flops, 98.3e12);
    EXPECT_DOUBLE_EQ(*b60.price_usd, 499);
    // Arc Pro B70: 256 bits = 608 GB/s, 230 W; no price was found, so it is listed but not ranked.
    const auto& b70 = hardware_row("Arc Pro B70");
    EXPECT_EQ(b70.memory_bandwidth_bytes_per_s, 608'000'000'000ull);
    EXPECT_FALSE(b70.price_usd);
    EXPECT_FALSE(ranked(b70));
}

TEST(hardware_2026, datacenter_parts_of_2025_and_the_completed_blackwell_rows) {
    // B300: 288 GB HBM3e in 8 twelve-high stacks, 8 TB/s, 1,400 W; dense BF16 2,250 (Lockwood's notes).
    const auto& b300 = hardware_row("B300");
    EXPECT_EQ(b300.name, "B300 (HGX, per GPU)"); // not the GB300 row
    EXPECT_EQ(b300.memory_bandwidth_bytes_per_s, 8'000'000'000'000ull);
    EXPECT_DOUBLE_EQ(*b300.bf16_flops, 2250e12);
    EXPECT_DOUBLE_EQ(*b300.tdp_w, 1400);
    // The Verda catalog's 268,288 MiB caps what CUDA gets below the nominal 288 GiB.
    EXPECT_LT(*b300.memory_bytes, 268288 * mib);
    const auto verda = builtin_hardware().lookup("4B300.120V", hardware_kind::cloud);
    ASSERT_TRUE(verda.has_value());
    EXPECT_EQ((*verda)->gpu_link, "B300 (HGX, per GPU)");
    EXPECT_EQ((*verda)->gpu_count, 4u);
    EXPECT_EQ((*verda)->memory_bytes, b300.memory_bytes);
    EXPECT_DOUBLE_EQ(*(*verda)->price_usd_per_hour, 27.96);

    // MI355X: FP8 dense = 256 CUs x 8,192 FLOP/clock x 2.4 GHz = 5,033 TFLOPS (ISSCC 2026), FP16 half
    // of it; 288 GB at 8 TB/s, 1,400 W. MI350X: the same package at 2.2 GHz and 1,000 W.
    const auto& mi355x = hardware_row("MI355X");
    EXPECT_DOUBLE_EQ(*mi355x.fp8_flops, 5033.2e12);
    EXPECT_DOUBLE_EQ(*mi355x.bf16_flops, 2516.6e12);
    EXPECT_EQ(mi355x.memory_bandwidth_bytes_per_s, 8'000'000'000'000ull);
    EXPECT_DOUBLE_EQ(*mi355x.tdp_w, 1400);
    const auto& mi350x = hardware_row("MI350X");
    EXPECT_DOUBLE_EQ(*mi350x.fp8_flops, 4613.7e12);
    EXPECT_DOUBLE_EQ(*mi350x.tdp_w, 1000);

    // TPU7x (Google's TPU7x page): 2,307 TFLOPS BF16, 192 GiB of HBM at 7,380 GB/s per chip.
    const auto& tpu7x = hardware_row("TPU7x (Ironwood), per chip");
    EXPECT_DOUBLE_EQ(*tpu7x.bf16_flops, 2307e12);
    EXPECT_EQ(tpu7x.memory_bytes, 192 * gib);
    EXPECT_EQ(tpu7x.memory_bandwidth_bytes_per_s, 7'380'000'000'000ull);

    // B100 and GB200 had no memory or bandwidth: both now carry the B200 package's 8 TB/s.
    for (const char* name : {"B100 (per GPU)", "GB200 (per Blackwell GPU)"}) {
        const auto& r = hardware_row(name);
        EXPECT_TRUE(r.memory_bytes.has_value()) << name;
        EXPECT_EQ(r.memory_bandwidth_bytes_per_s, 8'000'000'000'000ull) << name;
    }
    EXPECT_DOUBLE_EQ(*hardware_row("B100 (per GPU)").tdp_w, 700); // the 700 W variant of B200

    // Lambda's B200 instances link to the B200 row and keep its driver-capped memory.
    const auto lambda = builtin_hardware().lookup("gpu_8x_b200_sxm6", hardware_kind::cloud);
    ASSERT_TRUE(lambda.has_value());
    EXPECT_EQ((*lambda)->gpu_link, "B200 (HGX/DGX, per GPU)");
    EXPECT_LT(*(*lambda)->memory_bytes, 184320 * mib);
    EXPECT_DOUBLE_EQ(*(*lambda)->price_usd_per_hour, 53.52);
}

TEST(hardware_2026, apple_m5_family) {
    // M5: 153 GB/s, up to 32 GB (Apple, 2025-10-15); M5 Pro 307 GB/s / 64 GB; M5 Max 614 GB/s / 128 GB.
    EXPECT_EQ(hardware_row("Apple M5").memory_bandwidth_bytes_per_s, 153'000'000'000ull);
    EXPECT_EQ(hardware_row("Apple M5 Pro").memory_bandwidth_bytes_per_s, 307'000'000'000ull);
    const auto& max = hardware_row("Apple M5 Max");
    EXPECT_EQ(max.memory_bandwidth_bytes_per_s, 614'000'000'000ull);
    EXPECT_EQ(max.unified_memory_bytes, 128 * gib);
    // The 14-inch M5 MacBook Pro: $1,599 (October 2025), its GPU linked to the M5 row, not the M5 Pro.
    const auto& mbp = hardware_row("MacBook Pro 14\" M5, 16GB");
    EXPECT_EQ(mbp.gpu_link, "Apple M5");
    EXPECT_DOUBLE_EQ(*mbp.price_usd, 1599);
    EXPECT_EQ(mbp.price_date, "2025-10");
    EXPECT_TRUE(ranked(mbp));
}

TEST(hardware_2026, every_row_names_a_source_and_dates_its_price) {
    // Two older rows state a price without a date (SOURCES.md, "Known gaps"); every other priced row
    // says when the price was stated, and every cloud price names its region.
    const std::string undated[] = {"MacBook Pro 16\" M4 Max (16-core), 128GB",
                                   "Framework Desktop, Ryzen AI Max+ 395, 128GB"};
    for (const auto& d : builtin_hardware().devices()) {
        EXPECT_FALSE(d.sources.empty()) << d.name << ": no source";
        if (d.price_usd && std::find(std::begin(undated), std::end(undated), d.name) == std::end(undated))
            EXPECT_FALSE(d.price_date.empty()) << d.name << ": price without a date";
        if (d.price_usd_per_hour) EXPECT_FALSE(d.price_region.empty()) << d.name << ": hourly price without a region";
    }
}

} // namespace
} // namespace llmplan

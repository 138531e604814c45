// The hardware catalog: CSV reading, every row sourced, units, lookup, users' files.
#include "cli_run.h"
#include "hardware/csv.h"
#include "llmplan/hardware.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <tuple>
#include <utility>

namespace llmplan {
namespace {

// --- CSV (RFC 4180) ------------------------------------------------------------------------------

TEST(hardware_csv, quoting_crlf_and_embedded_newlines) {
    const auto t = detail::parse_csv("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n1,,3\n", "t.csv");
    ASSERT_TRUE(t) << t.error().what();
    ASSERT_EQ(t->rows.size(), 2u);
    EXPECT_EQ(t->rows[0][0], "x, y");
    EXPECT_EQ(t->rows[0][1], "say \"hi\"");
    EXPECT_EQ(t->rows[0][2], "two\nlines");
    EXPECT_EQ(t->rows[1][1], "");
    EXPECT_EQ(t->row_lines[1], 4u); // the quoted newline makes row 2 start on line 4
    EXPECT_EQ(t->get(1, "c"), "3");
    EXPECT_EQ(t->get(1, "missing"), "");
}

TEST(hardware_csv, errors_name_file_and_line) {
    auto e = detail::parse_csv("a,b\n1,2\n3\n", "f.csv");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().context, "f.csv:3");
    EXPECT_NE(e.error().message.find("1 fields; expected 2"), std::string::npos);

    e = detail::parse_csv("a,b\n1,\"open\n", "f.csv");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().context, "f.csv:2");
    EXPECT_NE(e.error().message.find("unterminated"), std::string::npos);

    e = detail::parse_csv("a,b\n\"x\"y,2\n", "f.csv");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().context, "f.csv:2");
    EXPECT_FALSE(detail::parse_csv("", "f.csv"));
}

// --- the builtin catalog -------------------------------------------------------------------------

TEST(hardware_catalog, builtin_parses_with_every_row) {
    const auto cat = parse_builtin_hardware();
    ASSERT_TRUE(cat) << cat.error().what();
    // Row counts of data/hardware/*.csv (SOURCES.md table: 99 + 21 + 21 + 127).
    EXPECT_EQ(cat->of_kind(hardware_kind::gpu).size() + cat->of_kind(hardware_kind::apple).size(), 99u);
    EXPECT_EQ(cat->of_kind(hardware_kind::apple).size(), 19u); // Apple M1..M5 rows and the 30-core M3 Max
    EXPECT_EQ(cat->of_kind(hardware_kind::cpu).size(), 21u);
    EXPECT_EQ(cat->of_kind(hardware_kind::laptop).size(), 21u);
    EXPECT_EQ(cat->of_kind(hardware_kind::cloud).size(), 127u);
    EXPECT_EQ(builtin_hardware().size(), cat->size());
}

TEST(hardware_catalog, every_row_has_a_source_listed_in_sources_md) {
    std::ifstream in(std::string(LLMPLAN_SOURCE_DIR) + "/data/hardware/SOURCES.md");
    ASSERT_TRUE(in);
    const std::string sources((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& d : builtin_hardware().devices()) {
        EXPECT_FALSE(d.sources.empty()) << d.name << " (" << d.origin << ") has no source";
        // each ';'-separated key is in SOURCES.md, or is a cross-reference to another table row
        std::string_view s = d.sources;
        while (!s.empty()) {
            const auto semi = s.find(';');
            std::string key(s.substr(0, semi));
            key.erase(0, key.find_first_not_of(' '));
            key.erase(key.find_last_not_of(' ') + 1);
            if (!key.empty() && key.rfind("see ", 0) != 0 && key != "detected")
                EXPECT_NE(sources.find(key), std::string::npos) << d.name << ": source key " << key;
            if (semi == std::string_view::npos) break;
            s.remove_prefix(semi + 1);
        }
    }
}

TEST(hardware_catalog, units_converted_from_the_tables) {
    const auto& cat = builtin_hardware();
    const auto h100 = cat.lookup("H100 SXM 80GB");
    ASSERT_TRUE(h100) << h100.error().what();
    const auto& d = **h100;
    // gpus.csv: 80 GB = 80 GiB of HBM3, less the driver's 272 MiB + 0.65%: 79.21 GiB, where vLLM PR
    // #10511 logs total_gpu_memory 79.22 GiB on an 80 GB card. 3350 GB/s, 989 dense BF16 TFLOPS,
    // 1979 FP8, 700 W.
    EXPECT_NEAR(static_cast<double>(*d.memory_bytes) / (1ull << 30), 79.22, 0.02);
    EXPECT_EQ(d.memory_bandwidth_bytes_per_s, 3'350'000'000'000ull);
    EXPECT_DOUBLE_EQ(*d.bf16_flops, 989e12);
    EXPECT_DOUBLE_EQ(*d.fp8_flops, 1979e12);
    EXPECT_DOUBLE_EQ(*d.tdp_w, 700);
    EXPECT_FALSE(d.price_usd); // blank in the table: no public list price

    // Apple M2 Ultra: 192 GB unified; the GPU may wire 3/4 of it above 36 GB = 144 GiB.
    const auto m2u = cat.lookup("Apple M2 Ultra", hardware_kind::apple);
    ASSERT_TRUE(m2u);
    EXPECT_TRUE((*m2u)->unified_memory);
    EXPECT_EQ((*m2u)->unified_memory_bytes, 192ull << 30);
    EXPECT_EQ((*m2u)->memory_bytes, 144ull << 30);

    // Strix Halo states its own GPU share: up to 96 of 128 GB.
    const auto strix = cat.lookup("Radeon 8060S");
    ASSERT_TRUE(strix) << strix.error().what();
    EXPECT_EQ((*strix)->memory_bytes, 96ull << 30);

    // V100 PCIe "16/32": the smaller size, 16 GiB of HBM2 less the driver's reserve = 15.63 GiB.
    EXPECT_NEAR(static_cast<double>(*(*cat.lookup("V100 PCIe 16/32GB"))->memory_bytes) / (1ull << 30), 15.63, 0.01);

    // T4: 16 GiB of GDDR6 with ECC on hides 1/16 (nvidia-smi 15360 MiB); CUDA sees 430 MiB less.
    EXPECT_EQ((*cat.lookup("T4"))->memory_bytes, (15360ull - 430) << 20);
    EXPECT_DOUBLE_EQ(*(*cat.lookup("T4"))->compute_capability, 7.5); // NVIDIA's CUDA GPU table
    // RTX 3090: vLLM issue #10517 reports total_gpu_memory 23.58 GiB.
    EXPECT_NEAR(static_cast<double>(*(*cat.lookup("GeForce RTX 3090"))->memory_bytes) / (1ull << 30), 23.58, 0.01);

    // CPU row: 12 ch x 64 bit x 4800 MT/s = 460.8 GB/s; AVX-512 yes, AMX no.
    const auto epyc = cat.lookup("EPYC 9654");
    ASSERT_TRUE(epyc);
    EXPECT_EQ((*epyc)->memory_bandwidth_bytes_per_s, 460'800'000'000ull);
    EXPECT_EQ((*epyc)->cores, 96u);
    EXPECT_EQ((*epyc)->avx512, true);
    EXPECT_EQ((*epyc)->amx, false);
    EXPECT_FALSE((*cat.lookup("Core Ultra 9 285K"))->avx512); // blank = not verified
}

TEST(hardware_catalog, cloud_rows_link_to_their_gpu_row) {
    const auto& cat = builtin_hardware();
    const auto p5   = cat.lookup("p5.48xlarge");
    ASSERT_TRUE(p5);
    EXPECT_EQ((*p5)->gpu_link, "H100 SXM 80GB");
    EXPECT_EQ((*p5)->gpu_count, 8u);
    EXPECT_DOUBLE_EQ(*(*p5)->price_usd_per_hour, 98.32); // cloud_instances.csv, SkyPilot AWS catalog
    EXPECT_EQ((*p5)->memory_bandwidth_bytes_per_s, 3'350'000'000'000ull);
    EXPECT_EQ((*p5)->total_accelerator_memory_bytes(), 8 * *(*cat.lookup("H100 SXM 80GB"))->memory_bytes);
    EXPECT_NE((*p5)->sources.find("STAS"), std::string::npos); // the GPU row's sources come along

    const auto g5 = cat.lookup("g5.xlarge");
    ASSERT_TRUE(g5);
    EXPECT_EQ((*g5)->gpu_link, "A10G");
    EXPECT_EQ((*g5)->host_memory_bytes, 16ull << 30); // 16 GiB host RAM

    // Form not stated by the catalog: the SXM row (SOURCES.md, "How llmplan reads").
    EXPECT_EQ((*cat.lookup("a3-highgpu-8g"))->gpu_link, "H100 SXM 80GB");
    EXPECT_EQ((*cat.lookup("Standard_NC24ads_A100_v4"))->gpu_link, "A100 PCIe 80GB");
    // blank -> B200 row: sold as 192 GB, nvidia-smi 184320 MiB (SkyPilot GCP), CUDA 430 MiB less
    EXPECT_EQ((*cat.lookup("a4-highgpu-8g"))->memory_bytes, (184320ull - 430) << 20);
    EXPECT_EQ((*cat.lookup("TPU v6e-1"))->gpu_link, "TPU v6e (Trillium), per chip");
    EXPECT_EQ((*cat.lookup("gpu_1x_rtx6000"))->gpu_link, ""); // Quadro RTX 6000 is not RTX 6000 Ada
    const auto c7i = cat.lookup("c7i.48xlarge");
    ASSERT_TRUE(c7i);
    EXPECT_EQ((*c7i)->gpu_count, 0u);
    EXPECT_EQ((*c7i)->amx, true); // cpu_family says "AVX-512 + AMX"

    // every GPU instance links, except the one GPU model without a row
    for (const auto* d : cat.of_kind(hardware_kind::cloud))
        if (d->gpu_count > 0 && d->gpu_model != "Quadro RTX 6000 (Turing)")
            EXPECT_FALSE(d->gpu_link.empty()) << d->name << " " << d->gpu_model;
}

TEST(hardware_catalog, laptops_link_gpu_and_use_unified_share) {
    const auto& cat = builtin_hardware();
    const auto mbp  = cat.lookup("MacBook Pro 16\" M4 Max (16-core), 128GB");
    ASSERT_TRUE(mbp) << mbp.error().what();
    EXPECT_EQ((*mbp)->gpu_link, "Apple M4 Max");
    EXPECT_EQ((*mbp)->memory_bytes, 96ull << 30); // the wired limit: 3/4 of 128 GiB
    EXPECT_EQ((*mbp)->memory_bandwidth_bytes_per_s, 546'000'000'000ull);
    const auto desk = cat.lookup("Desktop: RTX 4090 24GB + 64GB DDR5 (Ryzen 9 7950X)");
    ASSERT_TRUE(desk);
    EXPECT_EQ((*desk)->gpu_link, "GeForce RTX 4090");
    EXPECT_EQ((*desk)->memory_bytes, *(*cat.lookup("GeForce RTX 4090"))->memory_bytes); // 24 GiB card
    EXPECT_EQ((*desk)->host_memory_bandwidth_bytes_per_s, 83'200'000'000ull);           // DDR5-5200 dual channel
    EXPECT_EQ((*desk)->cpu_link, "Ryzen 9 7950X");
    const auto thin = cat.lookup("Thin-and-light, 16GB RAM, no discrete GPU (Core Ultra 7 155H class)");
    ASSERT_TRUE(thin);
    EXPECT_EQ((*thin)->gpu_count, 0u);
    EXPECT_FALSE((*thin)->memory_bytes);
}

TEST(hardware_catalog, lookup_is_tolerant) {
    const auto& cat = builtin_hardware();
    // a spelling as people type it -> the row it finds
    const std::pair<const char*, const char*> spellings[] = {
        {"h100",            "H100 SXM 80GB"              },
        {"h100 sxm 80gb",   "H100 SXM 80GB"              },
        {"H100-PCIe",       "H100 PCIe 80GB"             },
        {"rtx-4090",        "GeForce RTX 4090"           },
        {"RTX4090",         "GeForce RTX 4090"           },
        {"rtx 4090 laptop", "GeForce RTX 4090 Laptop GPU"},
        {"G5.XLARGE",       "g5.xlarge"                  },
        {"aws p5.48xlarge", "p5.48xlarge"                },
        {"h200 141gb",      "H200 SXM"                   },
        {"a100 40gb",       "A100 SXM4 40GB"             },
        {"mi300x",          "Instinct MI300X"            },
        {"m4 max",          "Apple M4 Max"               },
    };
    for (const auto& [typed, row] : spellings) {
        const auto d = cat.lookup(typed);
        ASSERT_TRUE(d) << typed;
        EXPECT_EQ((*d)->name, row) << typed;
    }
    EXPECT_EQ((*cat.lookup("Apple M1 Max"))->kind, hardware_kind::apple); // the gpus.csv row before cpus.csv
    EXPECT_EQ((*cat.lookup("Apple M1 Max", hardware_kind::cpu))->kind, hardware_kind::cpu);
}

TEST(hardware_catalog, unknown_names_get_suggestions) {
    const auto& cat = builtin_hardware();
    const auto r    = cat.lookup("h1000");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::unknown_name);
    EXPECT_NE(r.error().message.find("H100 SXM 80GB"), std::string::npos) << r.error().message;
    const auto rtx = cat.lookup("rtx"); // names no model
    ASSERT_FALSE(rtx);
    EXPECT_NE(rtx.error().message.find("RTX"), std::string::npos);
    EXPECT_FALSE(cat.lookup(""));
    EXPECT_FALSE(cat.lookup("rtx 4090 80gb")); // size contradicts the row
    const auto s = cat.suggest("rtx 4900", 3);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_NE(std::find(s.begin(), s.end(), "GeForce RTX 4090"), s.end());
}

TEST(hardware_catalog, candidates_and_filter) {
    const auto& cat = builtin_hardware();
    for (const auto* d : cat.candidates()) {
        if (d->gpu_count > 0) {
            EXPECT_TRUE(d->memory_bytes && d->memory_bandwidth_bytes_per_s) << d->name;
        }
        if (d->kind == hardware_kind::cloud) EXPECT_TRUE(d->price_usd_per_hour) << d->name;
    }
    const auto h100 = cat.filter("h100");
    EXPECT_GE(h100.size(), 3u + 10u); // 3 GPU rows + the H100 cloud instances
    EXPECT_EQ(cat.filter("").size(), cat.size());
}

// --- users' files --------------------------------------------------------------------------------

std::string write_temp(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / ("llmplan_hw_" + name);
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

TEST(hardware_file, rows_in_the_catalog_format_with_links) {
    const auto path = write_temp("ok.csv", "kind,name,vendor,memory,memory_unit,memory_bandwidth_gb_s,"
                                           "fp16_bf16_dense_tflops,ram_gb,vram_gb,gpu,price_usd,source\n"
                                           "gpu,My Card,Acme,48,GiB,1000,200,,,,1500,my bench\n"
                                           "laptop,Home box,,,,,,64,48,My Card,,my bench\n"
                                           "laptop,Old box,,,,,,32,24,GeForce RTX 3090,,receipt\n");
    auto rows       = load_hardware_file(path);
    ASSERT_TRUE(rows) << rows.error().what();
    ASSERT_EQ(rows->size(), 3u);
    EXPECT_EQ((*rows)[0].memory_bytes, 48ull << 30);
    EXPECT_EQ((*rows)[1].gpu_link, "My Card"); // links to a row of the same file
    EXPECT_DOUBLE_EQ(*(*rows)[1].bf16_flops, 200e12);
    EXPECT_EQ((*rows)[2].gpu_link, "GeForce RTX 3090"); // and to the builtin catalog
    EXPECT_EQ((*rows)[0].origin, path + ":2");

    const auto cat = catalog_with_file(path);
    ASSERT_TRUE(cat);
    EXPECT_EQ((*cat->lookup("my card"))->vendor, "Acme");

    // a cloud-format file, told by its header
    const auto cloud = write_temp("cloud.csv", "provider,instance_type,gpu_model,gpu_count,price_usd_per_hour,source\n"
                                               "Acme,acme.h100x2,H100 80GB (SXM5),2,4.50,quote\n");
    auto c           = load_hardware_file(cloud);
    ASSERT_TRUE(c) << c.error().what();
    EXPECT_EQ((*c)[0].kind, hardware_kind::cloud);
    EXPECT_EQ((*c)[0].gpu_link, "H100 SXM 80GB");
}

TEST(hardware_file, bad_values_name_file_line_and_field) {
    struct bad_case {
        const char* text;
        const char* field;
    };
    const bad_case cases[] = {
        {"name,memory,memory_unit,memory_bandwidth_gb_s\nX,24,GB,0\n",                        "memory_bandwidth_gb_s"},
        {"name,memory,memory_unit,memory_bandwidth_gb_s,typical_price_usd\nX,24,GB,900,-5\n", "typical_price_usd"    },
        {"provider,instance_type,gpu_model,gpu_count,price_usd_per_hour\nA,b,T4,1,-0.5\n",    "price_usd_per_hour"   },
        {"name,memory,memory_unit,memory_bandwidth_gb_s\nX,24 GB,GB,900\n",                   "memory"               },
        {"name,memory,memory_unit,memory_bandwidth_gb_s\nX,24,bytes,900\n",                   "memory_unit"          },
        {"kind,name\nspaceship,X\n",                                                          "kind"                 },
        {"name,memory,memory_unit,memory_bandwidth_gb_s\n,24,GB,900\n",                       "name"                 },
    };
    int i = 0;
    for (const auto& c : cases) {
        const auto path = write_temp("bad" + std::to_string(i++) + ".csv", c.text);
        const auto r    = load_hardware_file(path);
        ASSERT_FALSE(r) << c.text;
        EXPECT_EQ(r.error().code, error_code::bad_device_file);
        EXPECT_EQ(r.error().context, path + ":2") << r.error().what();
        EXPECT_NE(r.error().message.find(c.field), std::string::npos) << r.error().what();
    }
    const auto unknown = write_temp("unknown.csv", "foo,bar\n1,2\n");
    EXPECT_FALSE(load_hardware_file(unknown));
    // A misspelled column ("memory_gb" for memory + memory_unit) would drop the figure silently.
    const auto typo = write_temp("typo.csv", "kind,name,memory_gb\ngpu,X,24\n");
    const auto t    = load_hardware_file(typo);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().context, typo + ":1");
    EXPECT_NE(t.error().message.find("'memory_gb' (column 3)"), std::string::npos) << t.error().what();
    EXPECT_EQ(load_hardware_file("/nonexistent/x.csv").error().code, error_code::file_not_found);
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

std::pair<std::string, int> run_cli(const std::string& args) {
    auto r = test::run_cli(args);
    return {r.out, r.status};
}

TEST(hardware_cli, list_show_and_errors) {
    auto [out, rc] = run_cli("hardware list h100 --json");
    EXPECT_EQ(rc, 0);
    EXPECT_NE(out.find("\"H100 SXM 80GB\""), std::string::npos);
    std::tie(out, rc) = run_cli("hardware --json");
    EXPECT_EQ(rc, 0);
    EXPECT_NE(out.find("\"missing\""), std::string::npos);
    std::tie(out, rc) = run_cli("hardware show h1000");
    EXPECT_EQ(rc, 2);
    EXPECT_TRUE(out.empty()); // errors: one line on stderr, nothing on stdout
    std::tie(out, rc) = run_cli("hardware list --hardware-file /nonexistent.csv");
    EXPECT_EQ(rc, 2);
    EXPECT_TRUE(out.empty());
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

// --- issue 14: ranked rows complete, ids, names with commas -----------------------------------

TEST(hardware_catalog, every_ranked_row_has_every_figure) {
    const auto& cat   = builtin_hardware();
    const auto ranked = cat.candidates();
    for (const auto* d : ranked) {
        EXPECT_TRUE(missing_figures(*d).empty()) << d->name;
        EXPECT_NE(purchase_of(*d), purchase_kind::server) << d->name; // rented as instances instead
    }
    // The rows a person asks about are ranked: a 16 GB CPU-only laptop, a Mac, a desktop card, an
    // instance; a $15,000 accelerator module (MI300X) is not a personal purchase.
    auto has = [&](std::string_view name) {
        return std::any_of(ranked.begin(), ranked.end(), [&](const device_spec* d) { return d->name == name; });
    };
    EXPECT_TRUE(has("Thin-and-light, 16GB RAM, no discrete GPU (Core Ultra 7 155H class)"));
    EXPECT_TRUE(has("MacBook Pro 14\" M4, 16GB"));
    EXPECT_TRUE(has("GeForce RTX 5080")); // 360 W board power (RTX 50 table, PES-RTX50)
    EXPECT_TRUE(has("GeForce RTX 4090"));
    EXPECT_TRUE(has("g4dn.xlarge"));
    EXPECT_FALSE(has("Instinct MI300X"));
    EXPECT_EQ(host_needs(**cat.lookup("GeForce RTX 4090")), "a PC with a PCIe x16 slot and a 850 W power supply");
}

TEST(hardware_catalog, ids_and_names_with_commas) {
    const auto& cat = builtin_hardware();
    const auto mbp  = cat.lookup("macbook-pro-14-m4-16gb");
    ASSERT_TRUE(mbp) << mbp.error().what();
    EXPECT_EQ((*mbp)->name, "MacBook Pro 14\" M4, 16GB");
    // --hardware arrives split at commas: the longest run that is a name is taken
    const auto two = cat.lookup_list("MacBook Pro 14\" M4, 16GB,rtx-4090,Mac Studio M2 Ultra, 192GB");
    ASSERT_TRUE(two) << two.error().what();
    ASSERT_EQ(two->size(), 3u);
    EXPECT_EQ((*two)[0]->name, "MacBook Pro 14\" M4, 16GB");
    EXPECT_EQ((*two)[1]->name, "GeForce RTX 4090");
    EXPECT_EQ((*two)[2]->name, "Mac Studio M2 Ultra, 192GB");
    std::vector<std::string> ids;
    for (const auto& d : cat.devices())
        ids.push_back(d.id);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()); // unique
}

} // namespace
} // namespace llmplan

namespace llmplan {
namespace {

TEST(hardware_catalog, a_cpu_instance_gets_its_share_of_the_socket_bandwidth) {
    // Sapphire Rapids (c7i/m7i/r7i): 96 vCPUs a socket, 8 x DDR5-4800 = 307.2 GB/s; Graviton3 64 vCPUs.
    const auto& cat = builtin_hardware();
    auto bw         = [&](const char* name) { return *(*cat.lookup(name))->host_memory_bandwidth_bytes_per_s; };
    EXPECT_EQ(bw("c7i.large"), 6'400'000'000u);                        // 2 of 96 vCPUs
    EXPECT_EQ(bw("c7i.48xlarge"), 614'400'000'000u);                   // 192 vCPUs: both sockets
    EXPECT_EQ(bw("c7g.metal"), 307'200'000'000u);                      // 64 of 64
    EXPECT_EQ(bw("r7g.16xlarge"), 307'200'000'000u);                   // 64 of 64
    EXPECT_TRUE(missing_figures(**cat.lookup("m7i.2xlarge")).empty()); // ranked now
}

TEST(hardware_catalog, the_list_stays_within_100_columns_and_rows_are_found_by_id) {
    const auto r = test::run_cli("hardware list");
    ASSERT_EQ(r.status, 0);
    const std::string& out = r.out;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
        EXPECT_LE(line.size(), 100u) << line;
    EXPECT_NE(out.find("MacBook Pro 16\" M4 Max"), std::string::npos); // names whole, wrapped
    const auto& cat = builtin_hardware();
    ASSERT_TRUE(cat.lookup("mac-studio-m3-ultra-28-core-96gb").has_value());
    EXPECT_EQ((*cat.lookup("mac-studio-m3-ultra-28-core-96gb"))->name, "Mac Studio M3 Ultra (28-core), 96GB");
}

} // namespace
} // namespace llmplan

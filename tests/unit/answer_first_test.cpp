// Issue 25, "an answer a person can act on": each finding's scenario as the CLI answers it.
// Figures are from the row's table (data/hardware/*.csv) and the sources named beside each check.
#include "cli_run.h"
#include "llmplan/sweep.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using llmplan::test::run_cli;
using nlohmann::json;

constexpr const char* laptop = "thin-and-light-16gb-ram-no-discrete-gpu-core-ultra-7-155h-class";

json cli_json(const std::string& args) {
    const auto r = run_cli(args + " --offline --json");
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    return r.status == 0 ? json::parse(r.out) : json::object();
}

const json* row_named(const json& plan, const std::string& name) {
    for (const auto& c : plan["candidates"])
        if (c["kind"] != "local" && c["hardware"].get<std::string>().find(name) != std::string::npos) return &c;
    return nullptr;
}

// Finding 2: a 16 GB laptop keeps a third for the OS and a browser; 2/3 of 16 GiB = 11,453,246,122
// bytes (the share macOS gives Metal on a 16 GB Mac, 10922.67 MB: llama-cpp-python #687).
TEST(answer_first, a_16gb_laptop_counts_on_two_thirds_of_its_ram) {
    const auto f = cli_json(std::string("fit ") + laptop);
    EXPECT_EQ(f["budget_bytes"], 11453246122u);
    // An 8B in f16 is 16 GB of weights: it no longer "fits" (it did, against all 16 GiB).
    for (const auto& m : f["models"])
        if (m["weights"] == "f16" && m["params"].get<double>() > 7e9) EXPECT_FALSE(m["fits"].get<bool>()) << m["model"];
    const auto p  = cli_json(std::string("plan meta-llama/Llama-3.1-8B-Instruct --prompt 500 --hardware ") + laptop);
    const json* c = row_named(p, "Thin-and-light");
    ASSERT_NE(c, nullptr);
    bool said = false;
    for (const auto& r : (*c)["reasons"])
        said = said || r.get<std::string>().find("a model can count on 10.7 GiB") != std::string::npos;
    EXPECT_TRUE(said) << (*c)["reasons"];
}

// Finding 2: an 8B in bf16 (16 GB of weights) does not fit the laptop's 10.7 GiB; the way that fits and
// runs fastest is llama.cpp at Q4_K_M (about 4.9 bits a weight instead of 16), with -ngl 0 on its CPU.
TEST(answer_first, the_laptop_is_offered_q4_llama_cpp_with_ngl_0) {
    const auto p  = cli_json(std::string("plan meta-llama/Llama-3.1-8B-Instruct --prompt 500 --hardware ") + laptop);
    const json* c = row_named(p, "Thin-and-light");
    ASSERT_NE(c, nullptr);
    EXPECT_FALSE((*c)["fits"].get<bool>()); // before: "fits with 1.0 GiB headroom" against all 16 GiB
    ASSERT_FALSE((*c)["fit_options"].empty()) << c->dump();
    const auto& best = (*c)["fit_options"][0];
    EXPECT_EQ(best["setting"], "--engine llama.cpp --weights q4_k_m");
    EXPECT_TRUE(best["fits"].get<bool>());
    EXPECT_NE(best["launch"]["llama.cpp"].get<std::string>().find("-ngl 0"), std::string::npos) << best["launch"];
    // The text answers for the machine with the line that runs it.
    const auto t =
        run_cli(std::string("plan meta-llama/Llama-3.1-8B-Instruct --prompt 500 --offline --hardware ") + laptop);
    ASSERT_EQ(t.status, 0);
    EXPECT_NE(t.out.find("run it (--engine llama.cpp --weights q4_k_m): llama-server"), std::string::npos) << t.out;
}

// Finding 2: ways to do better even where it fits: a 0.5B in bf16 with transformers fits the laptop;
// llama.cpp at Q4_K_M reads about a third of the bytes a token, with its cost in quality.
TEST(answer_first, ways_to_do_better_where_it_fits) {
    const auto p  = cli_json(std::string("plan Qwen/Qwen2.5-0.5B-Instruct --prompt 500 --hardware ") + laptop);
    const json* c = row_named(p, "Thin-and-light");
    ASSERT_NE(c, nullptr);
    ASSERT_TRUE((*c)["fits"].get<bool>());
    ASSERT_TRUE(c->contains("better_options")) << c->dump();
    const auto& best = (*c)["better_options"][0];
    EXPECT_EQ(best["setting"], "--engine llama.cpp --weights q4_k_m");
    EXPECT_GT(best["decode_tokens_per_s"].get<double>(), 1.2 * (*c)["decode_tokens_per_s"].get<double>());
    EXPECT_NE(best["cost"].get<std::string>().find("perplexity"), std::string::npos);
    EXPECT_NE(best["launch"]["llama.cpp"].get<std::string>().find("-ngl 0"), std::string::npos) << best["launch"];
}

// "My machine first": this machine's section comes before what to buy or rent.
TEST(answer_first, this_machine_comes_first) {
    const auto t = run_cli("plan qwen2.5-0.5b --weights q4_k_m --offline --hardware rtx4090");
    ASSERT_EQ(t.status, 0);
    const auto mine = t.out.find("this machine:");
    const auto rec  = t.out.find("recommended:");
    ASSERT_NE(mine, std::string::npos);
    ASSERT_NE(rec, std::string::npos);
    EXPECT_LT(mine, rec);
}

// Unified memory is Metal only on Apple silicon: DGX Spark (GB10, CUDA) is planned as a GPU.
TEST(answer_first, dgx_spark_is_cuda_not_metal) {
    const auto p  = cli_json("plan qwen2.5-7b --weights q4_k_m --hardware dgx-spark-gb10-128gb");
    const json* c = row_named(p, "DGX Spark");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ((*c)["runs_on"], "gpu");
    EXPECT_NE((*c)["kind"], "apple");
    EXPECT_NE((*c)["launch"]["llama.cpp"].get<std::string>().find("-ngl 99"), std::string::npos);
}

// Finding 4: one counting. p4d.24xlarge is one instance of 8 A100 40GB (cloud_instances.csv): a 70B
// in bf16 (141 GB) fits one instance of 8 x 40 GB.
TEST(answer_first, a_multi_gpu_instance_is_counted_in_instances_with_its_launch_lines) {
    const auto p = cli_json("plan meta-llama/Llama-3.3-70B-Instruct --hardware p4d.24xlarge");
    ASSERT_TRUE(p["recommendation"].is_object());
    EXPECT_EQ(p["recommendation"]["instances"], 1);
    EXPECT_EQ(p["recommendation"]["gpus"], 8);
    EXPECT_EQ(p["recommendation"]["count"], 1);
    EXPECT_FALSE(p["recommendation"]["launch"].empty());
    const auto idx = p["recommendation"]["index"].get<std::size_t>();
    EXPECT_EQ(p["candidates"][idx]["hardware"], "p4d.24xlarge");
    EXPECT_EQ(p["candidates"][idx]["gpus"], 8);
    const auto t = run_cli("plan meta-llama/Llama-3.3-70B-Instruct --hardware p4d.24xlarge --offline");
    EXPECT_NE(t.out.find("recommended: 1 x p4d.24xlarge (8 GPUs in all)"), std::string::npos) << t.out;
}

// Finding 6: training on the cloud may be asked; a one-off run on bought cards costs their price
// plus the run's power. RTX 5090: $1999 (gpus.csv, 2025-01 launch price), 575 W.
TEST(answer_first, training_on_the_cloud_and_a_one_off_run_bought) {
    const auto c = cli_json("plan qwen2.5-0.5b --task train --kind cloud");
    for (const auto& row : c["candidates"])
        EXPECT_TRUE(row["kind"] == "cloud" || row["kind"] == "local") << row["hardware"];
    const auto p  = cli_json("plan meta-llama/Llama-3.1-8B --task train --method full --hardware rtx5090 "
                              "--hardware p5.48xlarge");
    const json* r = row_named(p, "RTX 5090");
    ASSERT_NE(r, nullptr);
    if ((*r)["fits"].get<bool>()) {
        ASSERT_TRUE(r->contains("purchase_usd"));
        EXPECT_DOUBLE_EQ((*r)["purchase_usd"].get<double>(), 1999.0 * (*r)["count"].get<double>());
        EXPECT_NEAR((*r)["run_cost_usd"].get<double>(),
                    (*r)["purchase_usd"].get<double>() + (*r)["power_usd"].get<double>(), 1e-6);
        // The purchase is paid once: renting 8 x H100 for the run costs far less than the cards.
        EXPECT_EQ(p["recommendation"]["hardware"], "p5.48xlarge");
        bool break_even = false;
        for (const auto& w : p["recommendation"]["why"])
            break_even = break_even || w.get<std::string>().find("buying pays off after") != std::string::npos;
        EXPECT_TRUE(break_even) << p["recommendation"]["why"];
    }
}

// Finding 6: the training speed of multi-GPU FSDP checked against a published run: torchtitan's
// Llama 3.1 8B, FSDP on 8 H100s, local batch 2 x 8192 tokens, selective activation checkpointing:
// 5,762 tokens/s a GPU, "33% to 39% MFU" (pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md,
// Table 1, torch 1963fc8 of 2024-12-23). Their H100s ran at 500 W (footnote 2: the peak is between SXM
// and NVL, so that MFU is understated). llmplan's single-node MFU (0.52 of the dense peak, train_plan.h)
// with full recomputation predicts about 7,500 a GPU: 1.3x the run. The bounds hold it there: the
// test fails if the prediction drifts further from the published run, or below it.
TEST(answer_first, fsdp_training_speed_against_torchtitan) {
    const auto p  = cli_json("plan meta-llama/Llama-3.1-8B --task train --method full --seq 8192 --micro-batch 2 "
                              "--grad-checkpointing on --trainer fsdp --hardware h100-sxm-80gb");
    const json* c = row_named(p, "H100 SXM");
    ASSERT_NE(c, nullptr);
    const double per_gpu = (*c)["train_tokens_per_s"].get<double>() / (*c)["count"].get<double>();
    EXPECT_GT(per_gpu, 0.9 * 5762) << per_gpu;
    EXPECT_LT(per_gpu, 1.35 * 5762) << per_gpu;
}

// Finding 7: QLoRA of a 32B on one 24 GB card: the reverse question tries unsloth before "none".
TEST(answer_first, the_reverse_question_tries_another_trainer) {
    const auto e = cli_json("estimate Qwen/Qwen2.5-32B-Instruct --task train --method qlora --memory 24GiB");
    ASSERT_TRUE(e.contains("fit")) << e.dump().substr(0, 300);
    ASSERT_TRUE(e["fit"]["fit_with_args"].is_string()) << e["fit"]; // before: none, "no change helps"
    EXPECT_NE(e["fit"]["fit_with_args"].get<std::string>().find("--trainer unsloth"), std::string::npos) << e["fit"];
}

// Finding 10: an fp8 plan puts the chips that run FP8 first; a V100 (7.0) cannot run FP8 weights at
// all (vLLM's weight-only Marlin path needs 8.0), so it does not fit.
TEST(answer_first, fp8_runs_as_planned_first_and_not_on_a_v100) {
    const auto p      = cli_json("plan meta-llama/Llama-3.1-8B-Instruct --engine vllm --weights fp8 --hardware "
                                      "a100-sxm4-80gb --hardware h100-sxm-80gb --hardware v100-sxm2-32gb");
    const auto& first = p["candidates"][0];
    EXPECT_TRUE(first["fits"].get<bool>());
    EXPECT_FALSE(first.contains("unsupported")) << first["hardware"];
    const json* v100 = row_named(p, "V100");
    ASSERT_NE(v100, nullptr);
    EXPECT_FALSE((*v100)["fits"].get<bool>());
}

// Finding 10: README's main question is met by a $8.57/h 192-vCPU instance and by a $549 card: the
// answer is the card, and "CPU or GPU" says GPU.
TEST(answer_first, a_192_vcpu_instance_is_not_a_cpu_is_enough) {
    const auto p = cli_json("plan Qwen/Qwen2.5-7B-Instruct --weights q4_k_m --ctx 8192 --prompt 1000 --hardware "
                            "c7i.48xlarge --hardware \"GeForce RTX 5070\"");
    EXPECT_EQ(p["cpu_or_gpu"]["choice"], "gpu");
    EXPECT_EQ(p["recommendation"]["hardware"], "GeForce RTX 5070");
    // $/month beside $/h: 730 hours a month.
    for (const auto& c : p["candidates"])
        if (c["cost_per_hour_usd"].is_number())
            EXPECT_NEAR(c["cost_per_month_usd"].get<double>(), c["cost_per_hour_usd"].get<double>() * 730.0, 1e-9);
}

// Finding 10: `hardware list` in one unit (GiB) and desktops typed as desktops.
TEST(answer_first, hardware_list_says_gib_and_desktop) {
    const auto t = run_cli("hardware list desktop --offline");
    ASSERT_EQ(t.status, 0);
    EXPECT_NE(t.out.find("desktop"), std::string::npos);
    EXPECT_EQ(t.out.find(" GB "), std::string::npos) << t.out;
    EXPECT_NE(t.out.find(" GiB"), std::string::npos);
    for (std::size_t at = t.out.find("Desktop:"); at != std::string::npos; at = t.out.find("Desktop:", at + 1)) {
        const auto line = t.out.substr(at, t.out.find('\n', at) - at);
        if (line.size() > 31) EXPECT_EQ(line.substr(31, 7), "desktop") << line;
    }
}

// Finding 10: the rule of thumb knows GGUF quants: q4_k_m at its main type's 4.5 bits, not 16.
TEST(answer_first, the_rule_of_thumb_knows_gguf_quants) {
    const auto r = llmplan::why({
        {"model",   "qwen2.5-7b"},
        {"weights", "q4_k_m"    },
        {"offline", "1"         }
    });
    ASSERT_EQ(r.status, 200) << r.body;
    const auto j = json::parse(r.body);
    EXPECT_DOUBLE_EQ(j["rule_of_thumb"]["bits_per_param"].get<double>(), 4.5);
}

// Finding 10: help text in user words, not code names.
TEST(answer_first, help_has_no_developer_names) {
    const auto t = run_cli("plan --help");
    EXPECT_EQ(t.out.find("trainer_table()"), std::string::npos);
    EXPECT_EQ(t.out.find("../shared"), std::string::npos);
}

} // namespace

// `llmplan plan MODEL --task train --json`: the contract's plan document (../shared/cli-contract.md)
// with the training fields; bad --train-tokens exits 2 with nothing on stdout.
#include "cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

using llmplan::test::run_cli;

TEST(cli_train_plan, json_has_the_contract_and_training_fields) {
    const auto r = run_cli("plan Qwen/Qwen2.5-0.5B --task train --method full --train-tokens 250M --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("estimate"));
    EXPECT_TRUE(j["estimate"].contains("devices"));
    EXPECT_EQ(j["train_tokens"], 250'000'000u);
    ASSERT_TRUE(j["candidates"].is_array());
    ASSERT_FALSE(j["candidates"].empty());
    for (const auto& c : j["candidates"]) {
        for (const char* k :
             {"hardware", "kind", "count", "fits", "headroom_bytes", "decode_tokens_per_s", "prefill_tokens_per_s",
              "cost_per_hour_usd", "cost_per_million_tokens_usd", "reasons", "launch", "train_tokens_per_s",
              "step_seconds", "tokens_per_step", "run_hours", "run_cost_usd", "nodes", "zero_stage"})
            EXPECT_TRUE(c.contains(k)) << k << " in " << c["hardware"];
        EXPECT_TRUE(c["launch"].is_object());
        for (const auto& [k, v] : c["launch"].items())
            EXPECT_TRUE(v.is_string()) << k;
    }
    // Fitting first, cheapest per million training tokens first.
    double last     = 0;
    bool seen_unfit = false;
    for (const auto& c : j["candidates"]) {
        if (!c["fits"].get<bool>()) seen_unfit = true;
        EXPECT_FALSE(seen_unfit && c["fits"].get<bool>());
        if (c["fits"].get<bool>() && c["cost_per_million_tokens_usd"].is_number()) {
            const double v = c["cost_per_million_tokens_usd"];
            EXPECT_GE(v, last);
            last = v;
        }
    }
    const auto& first = j["candidates"][0];
    ASSERT_TRUE(first["fits"].get<bool>());
    ASSERT_TRUE(j["recommendation"].is_object());
    for (const char* k : {"hardware", "count", "why"})
        EXPECT_TRUE(j["recommendation"].contains(k)) << k;
    EXPECT_EQ(j["recommendation"]["hardware"], first["hardware"]);
    if (first["run_cost_usd"].is_number())
        EXPECT_NEAR(first["run_cost_usd"].get<double>(),
                    first["run_hours"].get<double>() * first["cost_per_hour_usd"].get<double>(), 1e-6);
}

TEST(cli_train_plan, bad_train_tokens_exit_2) {
    for (const char* args : {"plan qwen2.5-0.5b --task train --train-tokens lots --json",
                             "plan qwen2.5-0.5b --task train --train-tokens 0 --json",
                             "plan qwen2.5-0.5b --task train --train-tokens -5M --json"}) {
        llmplan::test::expect_refused(args, "--train-tokens:");
    }
}

TEST(cli_train_plan, text_table_shows_step_time_and_run_cost) {
    const auto r = run_cli("plan Qwen/Qwen2.5-0.5B --task train");
    ASSERT_EQ(r.status, 0);
    for (const char* k : {"step", "tok/s", "run h", "run $", "recommended:", "torchrun", "memory in GiB"})
        EXPECT_NE(r.out.find(k), std::string::npos) << k;
    // The table stays within 100 columns (issue 14, item 8): long names wrap.
    std::size_t width = 0;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("  - ", 0) != 0 && line.rfind("  torchrun", 0) != 0 &&
            line.find("ds_config") == std::string::npos)
            width = std::max(width, line.size());
    EXPECT_LE(width, 100u);
}

// Gradient accumulation without the sync between micro-steps (the fsdp trainer: accelerate's no_sync)
// all-reduces the gradients once per --grad-accum micro-steps: two RTX 4090s over PCIe, Qwen2.5-1.5B full
// at 256 tokens, communication-bound when synced every micro-step, no longer with 8. DeepSpeed's ZeRO-1
// (the default trainer) reduces every micro-step: unchanged.
TEST(cli_train_plan, accumulation_without_sync_reduces_once_per_optimizer_step) {
    auto step = [](const std::string& trainer, int accum) {
        const auto r = run_cli("plan Qwen/Qwen2.5-1.5B --task train --method full --seq 256 --hardware \"GeForce RTX "
                               "4090\" --trainer " +
                               trainer + " --grad-accum " + std::to_string(accum) + " --json");
        EXPECT_EQ(r.status, 0);
        const auto doc = nlohmann::json::parse(r.out);
        for (const auto& c : doc["candidates"])
            if (c["hardware"] == "GeForce RTX 4090")
                return std::make_pair(c["step_seconds"].get<double>(), c["comm_bound"].get<bool>());
        ADD_FAILURE() << "no RTX 4090 row";
        return std::make_pair(0.0, false);
    };
    const auto fsdp_1 = step("fsdp", 1), fsdp_8 = step("fsdp", 8);
    EXPECT_TRUE(fsdp_1.second);
    EXPECT_FALSE(fsdp_8.second);
    EXPECT_LT(fsdp_8.first, fsdp_1.first);
    const auto hf_1 = step("hf", 1), hf_8 = step("hf", 8);
    EXPECT_TRUE(hf_8.second);
    EXPECT_DOUBLE_EQ(hf_8.first, hf_1.first);
}

} // namespace

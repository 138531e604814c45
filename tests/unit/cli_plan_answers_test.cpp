// `llmplan plan`: the short answer per kind first, the long table after, within 100 columns; the
// JSON's answers, findings and fit_options; the new options refused by name when they cannot apply.
#include "cli_run.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

using llmplan::test::run_cli;

TEST(cli_plan_answers, summary_first_then_a_table_within_100_columns) {
    const auto r = run_cli("plan qwen2.5-7b --weights q4_k_m --offline");
    ASSERT_EQ(r.status, 0);
    const auto summary = r.out.find("best of each kind");
    const auto units   = r.out.find("memory in GiB (2^30 bytes)");
    const auto table   = r.out.find("\nhardware ");
    ASSERT_NE(summary, std::string::npos);
    ASSERT_NE(table, std::string::npos);
    EXPECT_LT(summary, table);
    EXPECT_LT(units, table);
    std::istringstream lines(r.out.substr(table + 1));
    for (std::string line; std::getline(lines, line);)
        EXPECT_LE(line.size(), 100u) << line;
    // this machine: its own section, not a second time in the table; no speed printed as 0.0
    std::size_t local = 0;
    for (auto at = r.out.find("this machine ("); at != std::string::npos; at = r.out.find("this machine (", at + 1))
        ++local;
    EXPECT_EQ(local, 1u);
    EXPECT_EQ(r.out.find(" 0.0 tokens/s"), std::string::npos);
}

// A question about many users (--concurrency) is answered first: the serving table, then the plan for
// one request at a time under its own label (its launch lines run one sequence). The table's "out tok/s"
// is the JSON's output_tokens_per_s for the same row.
TEST(cli_plan_answers, serving_question_first_then_one_request_labelled) {
    const char* q = "plan qwen2.5-7b --engine vllm --concurrency 16 --hardware h100-sxm --offline";
    const auto r  = run_cli(q);
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("Serving 16 requests in flight", 0), 0u) << r.out.substr(0, 200);
    const auto one  = r.out.find("For one request at a time");
    const auto best = r.out.find("best of each kind");
    ASSERT_NE(one, std::string::npos);
    ASSERT_NE(best, std::string::npos);
    EXPECT_LT(one, best);
    const auto j = run_cli(std::string(q) + " --json");
    ASSERT_EQ(j.status, 0);
    const auto doc = nlohmann::json::parse(j.out);
    const auto& s  = doc["candidates"][doc["serving_order"][0].get<std::size_t>()]["serving"];
    const auto row =
        r.out.find("\n" + doc["candidates"][doc["serving_order"][0].get<std::size_t>()]["hardware"].get<std::string>());
    ASSERT_NE(row, std::string::npos);
    std::istringstream cells(r.out.substr(row + 33, r.out.find('\n', row + 1) - row - 33));
    std::string inst, tp, gpus, users, out_tps;
    cells >> inst >> tp >> gpus >> users >> out_tps;
    EXPECT_EQ(out_tps, std::to_string(std::lround(s["output_tokens_per_s"].get<double>())));
    EXPECT_EQ(users, "16");
    // The varied-lengths TTFT under the table is the JSON's ttft_ms_varied_lengths of the same row, below
    // the in-step p50 of the table (the 16 requests no longer wait for each other's prompts).
    const auto& varied = s["ttft_ms_varied_lengths"];
    ASSERT_TRUE(varied.is_object());
    const auto p50 = std::to_string(std::lround(varied["p50"].get<double>()));
    EXPECT_NE(r.out.find("drift apart: on " +
                         doc["candidates"][doc["serving_order"][0].get<std::size_t>()]["hardware"].get<std::string>() +
                         ", TTFT p50 " + p50 + " ms"),
              std::string::npos);
    EXPECT_LT(varied["p50"].get<double>(), s["ttft_ms"]["p50"].get<double>());
}

TEST(cli_plan_answers, json_answers_name_their_kind_and_reasons_as_codes) {
    const auto r = run_cli("plan qwen2.5-7b --weights q4_k_m --kind laptop,cloud --offline --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["answers"].size(), 2u);
    EXPECT_EQ(j["answers"][0]["kind"], "laptop");
    EXPECT_EQ(j["answers"][1]["kind"], "cloud");
    for (const auto& a : j["answers"]) {
        ASSERT_FALSE(a["why"].empty());
        EXPECT_TRUE(a["why"][0].contains("code"));
        EXPECT_TRUE(a["why"][0].contains("text"));
        const auto& c = j["candidates"][a["index"].get<std::size_t>()];
        EXPECT_EQ(c["hardware"], a["hardware"]);
    }
    for (const auto& c : j["candidates"]) {
        EXPECT_TRUE(c.contains("findings"));
        EXPECT_TRUE(c.contains("fit_options"));
        if (c["kind"] != "local")
            EXPECT_TRUE(c["kind"] == "cloud" || c["answer_kinds"].dump().find("laptop") != std::string::npos)
                << c["hardware"];
    }
}

TEST(cli_plan_answers, new_options_that_cannot_apply_exit_2) {
    llmplan::test::expect_refused("plan qwen2.5-7b --kind phone --offline", "--kind: \"phone\"");
    // a dense model has no experts to keep in RAM
    llmplan::test::expect_refused("estimate qwen2.5-7b --engine llama.cpp --n-cpu-moe 4 --offline",
                                  "--n-cpu-moe/--cpu-moe: the model has no routed experts");
    // --cpu-moe configures llama.cpp
    llmplan::test::expect_refused("estimate Qwen/Qwen3-30B-A3B --engine vllm --cpu-moe --offline",
                                  "--cpu-moe: configures llama.cpp");
    // vLLM cannot split 28 heads over 3 GPUs
    llmplan::test::expect_refused("estimate qwen2.5-7b --engine vllm --gpus 3 --offline", "--gpus: vLLM splits");
    const auto ok =
        run_cli("estimate Qwen/Qwen3-30B-A3B --engine llama.cpp --weights q4_k_m --cpu-moe --offline --json");
    EXPECT_EQ(ok.status, 0);
}

} // namespace

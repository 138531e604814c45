// The command line as ../shared/cli-contract.md fixes it: JSON on stdout, bad input exits 2 with
// one line on stderr and nothing on stdout.
#include "cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using llmplan::test::run_cli;

TEST(cli, inspect_json_has_the_contract_fields) {
    const auto r = run_cli("inspect Qwen/Qwen2.5-7B-Instruct --json");
    ASSERT_EQ(r.status, 0);
    const auto m = nlohmann::json::parse(r.out)["model"];
    for (const char* k :
         {"id", "arch", "n_params", "n_params_active", "n_layer", "n_embd", "n_head", "n_head_kv", "head_dim",
          "n_vocab", "n_ctx_train", "n_expert", "n_expert_used", "weights_bytes", "weights_source"})
        EXPECT_TRUE(m.contains(k)) << k;
    EXPECT_EQ(m["n_params"], 7'615'616'512ull); // Qwen2.5-7B: 7.62 B (model card), exact count from the config
    EXPECT_EQ(m["weights_source"], "formula");
}

TEST(cli, estimate_json_parts_add_up) {
    const auto r = run_cli("estimate qwen2.5-7b --weights q4_k_m --device cpu --ctx 8192 --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["workload"]["engine"], "llama.cpp"); // a GGUF type implies llama.cpp
    for (const auto& d : j["devices"]) {
        std::int64_t sum = 0;
        for (const auto& [k, v] : d["parts"].items())
            sum += v.get<std::int64_t>();
        EXPECT_EQ(sum, d["total_bytes"].get<std::int64_t>());
    }
    EXPECT_GT(j["disk_bytes"].get<std::uint64_t>(), 0u);
}

// Each refusal: exit 2, nothing on stdout, one line on stderr naming the option, file or value.
TEST(cli, bad_input_exits_2_with_one_line_naming_what_was_wrong) {
    const std::pair<const char*, const char*> cases[] = {
        {"estimate nosuch-model --json",                                            "nosuch-model: not a file"                              },
        {"estimate qwen2.5-7b --ctx 0 --json",                                      "--ctx: 0"                                              },
        {"estimate qwen2.5-7b --weights q9_z --json",                               "--weights: unknown weights type \"q9_z\""              },
        {"estimate qwen2.5-7b --bogus",                                             "--bogus: not an option here; `llmplan estimate --help`"},
 // The parser's own errors, in a person's words (apps/cli/main.cpp parse_error_words).
        {"estimate qwen2.5-7b --ctx 1 --ctx 2",                                     "--ctx: given more than once"                           },
        {"estimate qwen2.5-7b --ctx",                                               "--ctx: expected a value after it"                      },
        {"estimate qwen2.5-7b 8192",                                                "8192: one argument too many"                           },
        {"estimate",                                                                "expected a model"                                      },
        {"frobnicate",                                                              "expected a command"                                    },
        {"inspect /nonexistent/config.json --json",                                 "/nonexistent/config.json: not a file"                  },
        {"plan qwen2.5-7b --hardware rtx9999 --json",                               "--hardware: unknown hardware 'rtx9999'"                },
        {"plan qwen2.5-7b --electricity-price -1 --json",                           "--electricity-price:"                                  },
        {"plan qwen2.5-7b --utilization 0 --json",                                  "--utilization:"                                        },
        {"plan qwen2.5-7b --from nosuch-model --json",                              "--from: nosuch-model: not a file"                      },
        {"estimate qwen2.5-7b --engine vllm --gpus 3 --pipeline-parallel 2 --json", "--pipeline-parallel: 3 GPUs"                           },
    };
    for (const auto& [args, names] : cases)
        llmplan::test::expect_refused(args, names);
}

TEST(cli, plan_json_has_the_contract_fields_and_the_comparison) {
    const auto r =
        run_cli("plan Qwen/Qwen2.5-7B-Instruct --from Qwen/Qwen2.5-0.5B-Instruct --weights q4_k_m --hardware "
                "rtx4090,\"Ryzen 9 7950X\" --prompt 500 --json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["candidates"].size(), 3u); // the two named rows and this machine
    for (const auto& c : j["candidates"])
        for (const char* k :
             {"hardware", "kind", "count", "fits", "headroom_bytes", "decode_tokens_per_s", "prefill_tokens_per_s",
              "cost_per_hour_usd", "cost_per_million_tokens_usd", "reasons", "launch"})
            EXPECT_TRUE(c.contains(k)) << k;
    for (const char* k : {"hardware", "count", "why"})
        EXPECT_TRUE(j["recommendation"].contains(k)) << k;
    EXPECT_TRUE(j["cpu_or_gpu"]["choice"] == "cpu" || j["cpu_or_gpu"]["choice"] == "gpu");
    // --from: the 0.5B on the recommended row and this machine, with its own (smaller) estimate.
    ASSERT_TRUE(j.contains("from"));
    EXPECT_EQ(j["from"]["estimate"]["model"]["id"], "Qwen/Qwen2.5-0.5B-Instruct");
    EXPECT_LT(j["from"]["estimate"]["devices"][0]["total_bytes"], j["estimate"]["devices"][0]["total_bytes"]);
    EXPECT_EQ(j["comparison"]["from"]["model"], "Qwen/Qwen2.5-0.5B-Instruct");
    EXPECT_LT(j["comparison"]["from"]["weights_bytes"], j["comparison"]["to"]["weights_bytes"]);
}

} // namespace

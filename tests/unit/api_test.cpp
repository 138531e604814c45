// The front door (api.h): the same request from CLI arguments and from a key/value map (the web
// API's way) gives byte-identical JSON; the API never reads a path; bad options are 400s naming them.
#include "cli_run.h"
#include "llmplan/api.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using llmplan::answer;
using llmplan::test::run_cli;

TEST(api, same_request_from_argv_and_from_a_map_gives_the_same_bytes) {
    struct pair_case {
        const char* argv;
        const char* command;
        std::vector<std::pair<std::string, std::string>> options;
    };
    const std::vector<pair_case> cases = {
        {"inspect qwen2.5-7b --json",                                                                 "inspect",  {{"model", "qwen2.5-7b"}}                                                                          },
        {"models qwen2.5 --json",                                                                     "models",   {{"filter", "qwen2.5"}}                                                                            },
        {"estimate qwen2.5-7b --engine vllm --gpus 2 --gpu-memory-utilization 0.85 --json",
         "estimate",                                                                                              {{"model", "qwen2.5-7b"}, {"engine", "vllm"}, {"gpus", "2"}, {"gpu-memory-utilization", "0.85"}}   },
        {"estimate qwen2.5-7b --task train --method qlora --weights nf4 --lora-targets q,k,v --json",
         "estimate",                                                                                              {{"model", "qwen2.5-7b"},
          {"task", "train"},
          {"method", "qlora"},
          {"weights", "nf4"},
          {"lora-targets", "q,k,v"}}                                                                                                                                                             },
        {"plan qwen2.5-7b --weights q4_k_m --hardware rtx4090 --hardware h100-sxm --json",
         "plan",                                                                                                  {{"model", "qwen2.5-7b"}, {"weights", "q4_k_m"}, {"hardware", "rtx4090"}, {"hardware", "h100-sxm"}}},
        {"fit rtx4090 --model qwen2.5-7b --ctx 8192 --json",
         "fit",                                                                                                   {{"name", "rtx4090"}, {"model", "qwen2.5-7b"}, {"ctx", "8192"}}                                    },
        {"hardware list h100 --json",                                                                 "hardware", {{"filter", "h100"}}                                                                               },
        {"hardware show rtx4090 --json",                                                              "hardware", {{"name", "rtx4090"}}                                                                              },
    };
    for (const auto& c : cases) {
        const auto cli = run_cli(c.argv);
        ASSERT_EQ(cli.status, 0) << c.argv;
        const auto api = answer(c.command, c.options);
        EXPECT_EQ(api.status, 200) << c.argv << ": " << api.body;
        // The plan holds this machine, whose RAM bandwidth is measured at each run (and may move its row
        // and the CPU-or-GPU answer): compare the estimate and the catalog rows.
        if (std::string(c.command) == "plan") {
            auto rows = [](const std::string& text) {
                auto j   = nlohmann::json::parse(text);
                auto out = nlohmann::json::array();
                for (const auto& x : j["candidates"])
                    if (x["kind"] != "local") out.push_back(x);
                return nlohmann::json{j["estimate"], out};
            };
            EXPECT_EQ(rows(cli.out), rows(api.body)) << c.argv;
            continue;
        }
        EXPECT_EQ(cli.out, api.body) << c.argv;
    }
}

TEST(api, never_reads_a_path) {
    for (const char* model :
         {"tests/data/gguf/llama-2-tiny-random.gguf", "/etc/passwd", "./config.json", "../x", LLMPLAN_TEST_DATA}) {
        const auto r = answer("inspect", {
                                             {"model", model}
        });
        EXPECT_EQ(r.status, 400) << model;
        EXPECT_TRUE(nlohmann::json::parse(r.body).contains("error")) << model;
    }
    // A folder that exists but does not look like a path ("tests/data" from the source tree) is not read either.
    EXPECT_EQ(answer("inspect",
                     {
                         {"model", "tests/data"}
    })
                  .status,
              400);
    EXPECT_EQ(answer("plan",
                     {
                         {"model",         "qwen2.5-7b"},
                         {"hardware-file", "/etc/hosts"}
    })
                  .status,
              400);
}

TEST(api, bad_options_are_400_naming_the_option) {
    struct bad_case {
        const char* command;
        std::vector<std::pair<std::string, std::string>> options;
        const char* named;
    };
    const std::vector<bad_case> cases = {
        {"estimate",
         {{"model", "qwen2.5-7b"}, {"engine", "vllm"}, {"gpu-memory-utilization", "nan"}},
         "--gpu-memory-utilization"                                                                     },
        {"estimate", {{"model", "qwen2.5-7b"}, {"ctx", "inf"}},                              "--ctx"    },
        {"estimate", {{"model", "qwen2.5-7b"}, {"trainer", "hf"}},                           "--trainer"},
        {"estimate", {{"model", "qwen2.5-7b"}, {"task", "train"}, {"engine", "vllm"}},       "--engine" },
        {"estimate", {{"model", "qwen2.5-7b"}, {"method", "full"}},                          "--method" },
        {"estimate", {{"model", "qwen2.5-7b"}, {"engine", "vllm"}, {"n-batch", "512"}},      "--n-batch"},
        {"estimate", {{"model", "qwen2.5-7b"}, {"from", "qwen2.5-0.5b"}},                    "--from"   },
        {"estimate", {{"model", "qwen2.5-7b"}, {"bogus", "1"}},                              "--bogus"  },
        {"estimate", {},                                                                     "MODEL"    },
        {"plan",     {{"model", "qwen2.5-7b"}, {"task", "train"}, {"from", "qwen2.5-0.5b"}}, "--from"   },
        {"plan",     {{"model", "qwen2.5-7b"}, {"pue", "-inf"}},                             "--pue"    },
        {"fit",      {{"gpus", "0"}},                                                        "--gpus"   },
        {"nosuch",   {},                                                                     "nosuch"   },
    };
    for (const auto& c : cases) {
        const auto r = answer(c.command, c.options);
        EXPECT_EQ(r.status, 400) << c.named << ": " << r.body;
        const auto msg = nlohmann::json::parse(r.body)["error"].get<std::string>();
        EXPECT_NE(msg.find(c.named), std::string::npos) << msg;
    }
}

TEST(cli, gpu_memory_utilization_nan_exits_2) {
    llmplan::test::expect_refused("estimate qwen2.5-7b --engine vllm --gpu-memory-utilization nan --json",
                                  "--gpu-memory-utilization: \"nan\"; expected a finite number");
    llmplan::test::expect_refused("estimate qwen2.5-7b --task train --weights nf4 --engine vllm --json",
                                  "--engine: does not apply to --task train");
}

} // namespace

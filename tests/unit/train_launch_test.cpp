// Launch commands of a training plan by the trainer table's launch column (src/plan/train_launch.cpp):
// each trainer gets the command lines its own tooling takes (accelerate's FSDP config keys, torchtune's
// `tune run` recipes, LitGPT's finetune CLI, DeepSpeed), with the plan's GPU, node and sharding choices.
#include "cli_run.h"
#include "llmplan/estimate.h"
#include "plan/train_launch.h"
#include "training_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmplan {
namespace {

using detail::train_launch_commands;
using detail::train_launch_setup;

std::string text_of(const std::vector<std::pair<std::string, std::string>>& c, const std::string& name) {
    for (const auto& [k, v] : c)
        if (k == name) return v;
    return {};
}

TEST(TrainLaunch, AccelerateFsdpConfigFollowsThePlan) {
    train_launch_setup s;
    s.kind    = launcher::accelerate_fsdp;
    s.gpus    = 8;
    s.zero    = 3;
    s.offload = true;
    auto c    = train_launch_commands(s);
    EXPECT_EQ(text_of(c, "accelerate"), "accelerate launch --config_file fsdp_config.yaml train.py");
    // transformers' TrainingArguments.fsdp takes "full_shard", "shard_grad_op", "offload", "auto_wrap".
    EXPECT_EQ(text_of(c, "torchrun"), "torchrun --nproc_per_node=8 train.py --fsdp \"full_shard auto_wrap offload\"");
    const std::string yaml = text_of(c, "fsdp_config.yaml");
    EXPECT_NE(yaml.find("distributed_type: FSDP\n"), std::string::npos);
    EXPECT_NE(yaml.find("fsdp_sharding_strategy: FULL_SHARD\n"), std::string::npos);
    EXPECT_NE(yaml.find("fsdp_offload_params: true\n"), std::string::npos);
    EXPECT_NE(yaml.find("mixed_precision: bf16\n"), std::string::npos);
    EXPECT_NE(yaml.find("num_processes: 8\n"), std::string::npos);
    EXPECT_TRUE(text_of(c, "ds_config.json").empty());
    // ZeRO 0 on several GPUs is plain data parallel: no --fsdp argument, NO_SHARD in the config.
    s.zero    = 0;
    s.offload = false;
    c         = train_launch_commands(s);
    EXPECT_EQ(text_of(c, "torchrun"), "torchrun --nproc_per_node=8 train.py");
    EXPECT_NE(text_of(c, "fsdp_config.yaml").find("fsdp_sharding_strategy: NO_SHARD\n"), std::string::npos);
}

TEST(TrainLaunch, TorchtuneRecipesAndLitGptCli) {
    train_launch_setup s;
    s.kind   = launcher::torchtune;
    s.method = train_method::lora;
    auto one = train_launch_commands(s);
    EXPECT_EQ(text_of(one, "torchtune").rfind("tune run lora_finetune_single_device --config config.yaml", 0), 0u);
    s.method = train_method::full;
    s.gpus   = 16;
    s.nodes  = 2;
    auto two = text_of(train_launch_commands(s), "torchtune");
    EXPECT_NE(two.find("--nnodes 2 --nproc_per_node 8 "), std::string::npos);
    EXPECT_NE(two.find(" full_finetune_distributed --config "), std::string::npos);

    train_launch_setup l;
    l.kind      = launcher::litgpt;
    l.method    = train_method::qlora;
    l.precision = train_precision::bf16;
    l.gpus      = 2;
    l.model_id  = "meta-llama/Llama-2-7b-hf";
    EXPECT_EQ(text_of(train_launch_commands(l), "litgpt"),
              "litgpt finetune_lora meta-llama/Llama-2-7b-hf --devices 2 --num_nodes 1 --precision bf16-true "
              "--quantize bnb.nf4");
}

TEST(TrainLaunch, DeepSpeedConfigOnlyForDeepSpeedTrainers) {
    const auto m = test::make_llama({});
    training_params p;
    p.method     = train_method::full;
    p.seq        = 16;
    p.gpus       = 2;
    p.zero_stage = 3;
    for (const char* trainer : {"hf", "deepspeed", "ms-swift"}) {
        p.trainer = trainer;
        auto e    = estimate_training(m, p);
        ASSERT_TRUE(e) << e.error().what();
        EXPECT_FALSE(e->launch_config_json.empty()) << trainer;
    }
    for (const char* trainer : {"fsdp", "torchtune", "litgpt"}) {
        p.trainer = trainer;
        auto e    = estimate_training(m, p);
        ASSERT_TRUE(e) << e.error().what();
        EXPECT_TRUE(e->launch_config_json.empty()) << trainer;
    }
}

TEST(TrainLaunch, PlanJsonCarriesTheTrainersCommands) {
    const auto r = test::run_cli("plan Qwen/Qwen2.5-0.5B --task train --trainer litgpt --hardware \"H100 SXM 80GB\" "
                                 "--json");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    bool found   = false;
    for (const auto& c : j["candidates"])
        if (c["hardware"] == "H100 SXM 80GB") {
            found = true;
            ASSERT_TRUE(c["launch"].contains("litgpt"));
            EXPECT_EQ(
                c["launch"]["litgpt"].get<std::string>().rfind("litgpt finetune_lora Qwen/Qwen2.5-0.5B --devices ", 0),
                0u);
            EXPECT_FALSE(c["launch"].contains("ds_config.json"));
        }
    EXPECT_TRUE(found);
}

} // namespace
} // namespace llmplan

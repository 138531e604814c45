// The JSON each command prints, field by field, as docs/cli-contract.md fixes it (outside scripts
// read these names) or, for the commands the contract only names (models, hardware, fit, check), as
// README.md documents them. inspect and plan have theirs in cli_test.cpp.
#include "cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <string_view>

namespace llmplan {
namespace {

using json = nlohmann::json;

json run_json(const std::string& args) {
    const auto r = test::run_cli(args + " --json");
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    if (r.status != 0) return json::object();
    return json::parse(r.out);
}

// cli-contract.md, "llmplan inspect": the model object that estimate repeats.
void expect_model_object(const json& m) {
    for (const char* k :
         {"id", "arch", "n_params", "n_params_active", "n_layer", "n_embd", "n_head", "n_head_kv", "head_dim",
          "n_vocab", "n_ctx_train", "n_expert", "n_expert_used", "weights_bytes", "weights_source"})
        EXPECT_TRUE(m.contains(k)) << "model." << k;
    EXPECT_TRUE(m["weights_source"] == "tensors" || m["weights_source"] == "formula") << m["weights_source"];
}

// cli-contract.md, "llmplan estimate", Output: devices named cpu | cuda:N | metal, each with its total
// and the nine named parts (integers, none negative; parts that do not apply are 0).
void expect_devices(const json& e) {
    ASSERT_TRUE(e["devices"].is_array());
    ASSERT_FALSE(e["devices"].empty());
    const std::regex name("cpu|metal|cuda:[0-9]+");
    for (const auto& d : e["devices"]) {
        EXPECT_TRUE(std::regex_match(d["device"].get<std::string>(), name)) << d["device"];
        EXPECT_TRUE(d["total_bytes"].is_number_integer());
        for (const char* k : {"weights", "kv_cache", "compute", "activations", "gradients", "optimizer",
                              "master_weights", "adapters", "overhead"}) {
            ASSERT_TRUE(d["parts"].contains(k)) << d["device"] << ": parts." << k;
            EXPECT_TRUE(d["parts"][k].is_number_integer()) << k;
            // A CPU's total is resident memory, and total - overhead is what llama.cpp's buffer lines
            // sum to (contract): where a reserved compute buffer is mostly never touched, the CPU's
            // overhead is below zero by the untouched pages. Every other part is a size.
            if (std::string_view(k) != "overhead" || d["device"] != "cpu")
                EXPECT_GE(d["parts"][k].get<std::int64_t>(), 0) << k;
        }
    }
    EXPECT_TRUE(e["disk_bytes"].is_number_integer());
}

TEST(contract_shape, estimate_inference_on_every_engine_and_device) {
    // "workload": every option above, resolved, defaults filled in (the inference options' names
    // with - as _).
    const char* inference_options[] = {
        "engine",       "device",       "gpus",   "weights", "ctx",        "prompt",     "batch",
        "kv_type",      "n_batch",      "ubatch", "mmap",    "flash_attn", "gpu_layers", "gpu_memory_utilization",
        "max_num_seqs", "device_memory"};
    for (const char* args :
         {"estimate qwen2.5-7b", "estimate qwen2.5-7b --engine vllm --gpus 2", "estimate qwen2.5-7b --weights q4_k_m",
          "estimate qwen2.5-7b --weights q4_k_m --device cpu", "estimate qwen2.5-7b --weights q4_k_m --device metal"}) {
        SCOPED_TRACE(args);
        const auto e = run_json(args);
        expect_model_object(e["model"]);
        expect_devices(e);
        for (const char* k : inference_options)
            EXPECT_TRUE(e["workload"].contains(k)) << "workload." << k;
    }
}

TEST(contract_shape, estimate_training) {
    const auto e = run_json("estimate qwen2.5-7b --task train --method qlora --gpus 2 --zero 3");
    expect_model_object(e["model"]);
    expect_devices(e);
    for (const char* k : {"method", "optimizer", "precision", "seq", "micro_batch", "grad_checkpointing", "lora_rank",
                          "lora_targets", "gpus", "zero", "trainer", "grad_accum"})
        EXPECT_TRUE(e["workload"].contains(k)) << "workload." << k;
    EXPECT_EQ(e["devices"].size(), 2u); // one a GPU
}

// README, "Commands": models lists the catalog, each entry the inspect object plus its source.
TEST(contract_shape, models_hardware_fit_and_check) {
    const auto m = run_json("models qwen2.5-7b");
    ASSERT_TRUE(m["models"].is_array());
    ASSERT_FALSE(m["models"].empty());
    for (const auto& x : m["models"]) {
        expect_model_object(x);
        EXPECT_TRUE(x.contains("source"));
    }
    const auto h = run_json("hardware list h100");
    ASSERT_TRUE(h["hardware"].is_array());
    ASSERT_FALSE(h["hardware"].empty());
    for (const auto& x : h["hardware"])
        for (const char* k : {"id", "name", "kind", "memory_bytes", "memory_bandwidth_bytes_per_s", "price_usd"})
            EXPECT_TRUE(x.contains(k)) << k;
    const auto f = run_json("fit rtx4090");
    for (const char* k : {"hardware", "kind", "memory_bytes", "budget_bytes", "engine", "ctx", "largest"})
        EXPECT_TRUE(f.contains(k)) << k;
    const auto c = run_json("check " + std::string(LLMPLAN_TEST_DATA) + "/logs/vllm_04.log");
    for (const char* k : {"engine", "estimate", "rows", "notes"})
        EXPECT_TRUE(c.contains(k)) << k;
    expect_devices(c["estimate"]);
}

} // namespace
} // namespace llmplan

// The estimate options shared by `estimate` and `plan` (names: ../shared/cli-contract.md).
#pragma once

#include "llmplan/fit.h"
#include "llmplan/inference.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace llmplan::cli {

struct estimate_options {
    std::string model, task = "infer", engine, device = "cuda", weights, kv_type;
    std::uint32_t gpus              = 1;
    std::uint32_t pipeline_parallel = 1;
    std::uint64_t ctx = 4096, prompt = 0, batch = 1, n_batch = 2048, ubatch = 512, max_num_seqs = 256;
    std::string flash_attn = "off", mmap = "on", device_memory, memory;
    std::int64_t gpu_layers = -1;
    double gpu_mem_util     = 0.9;
    std::string method = "lora", optimizer = "adamw", precision = "bf16-mixed", grad_ckpt = "off",
                lora_targets = "all-linear", offload = "off";
    std::uint64_t seq = 2048, micro_batch = 1;
    std::uint32_t lora_rank = 16, zero = 0;
    std::string train_tokens; ///< plan --task train: tokens of the run ("100M", "2B", "5e8") [100M]
    bool json = false;
    // other residents of the device (README: one budget per device)
    std::string draft, mmproj, reserve;
    std::uint32_t image_size = 0;
};

/// What the library computed for one set of options.
struct resolved_estimate {
    model_desc model;
    inference_params infer;
    std::optional<inference_estimate> inference;
    training_params train;
    std::optional<training_estimate> training;
    std::optional<fit_answer> fit; ///< --memory: the reverse questions
};

void add_estimate_options(CLI::App* cmd, estimate_options& o);
/// Parse the options into the library's params and run the estimate; fails (exit 2) on bad input.
resolved_estimate run_estimate(const estimate_options& o);
nlohmann::json to_json(const resolved_estimate& r);

} // namespace llmplan::cli

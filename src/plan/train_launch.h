// The command lines (and config files) that start a training plan's run with the trainer it assumed.
#pragma once

#include "llmplan/estimate.h"
#include "llmplan/trainer.h"

#include <string>
#include <utility>
#include <vector>

namespace llmplan::detail {

/// One planned set-up, as train_plan.cpp chose it.
struct train_launch_setup {
    bool cpu      = false; ///< a CPU row: accelerate --cpu
    bool apple    = false; ///< PyTorch MPS: one process, no DeepSpeed or NCCL
    unsigned gpus = 1, nodes = 1, zero = 0;
    bool offload = false;
    std::string model_id;
    train_method method       = train_method::lora;
    train_precision precision = train_precision::bf16_mixed;
    launcher kind             = launcher::deepspeed;
    std::string deepspeed_config; ///< the estimate's DeepSpeed config (launch_config_json), or empty
};

/// (name, text) pairs: a command per launcher that can start the run, then any config file it reads
/// (ds_config.json, fsdp_config.yaml).
std::vector<std::pair<std::string, std::string>> train_launch_commands(const train_launch_setup& s);

} // namespace llmplan::detail

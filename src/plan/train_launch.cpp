// Command lines for a training plan, by the trainer table's launch column (include/llmplan/trainer.h).
//  - deepspeed: the estimate's DeepSpeed config (src/estimate/deepspeed_config.cpp) for torchrun,
//    deepspeed and accelerate --use_deepspeed.
//  - accelerate_fsdp: an accelerate config with distributed_type FSDP (accelerate's fsdp_config keys:
//    fsdp_sharding_strategy FULL_SHARD / SHARD_GRAD_OP / NO_SHARD, TRANSFORMER_BASED_WRAP of the decoder
//    layers, fsdp_offload_params, fsdp_use_orig_params), and transformers' own `--fsdp "full_shard
//    auto_wrap"` argument for torchrun. ZeRO stage 3 is FULL_SHARD, 1-2 SHARD_GRAD_OP (gradients and
//    optimizer sharded: no more memory than the plan's stage), 0 DDP.
//  - torchtune: `tune run [--nnodes M] [--nproc_per_node N] <recipe> --config <file>` with the recipe of
//    the method and GPU count (full_finetune_single_device / _distributed, lora_finetune_...; QLoRA is a
//    LoRA recipe with a qlora config) and the activation checkpointing override.
//  - litgpt: `litgpt finetune_lora|finetune_full <model> --devices N --num_nodes M --precision P`, QLoRA
//    with `--quantize bnb.nf4`.
#include "plan/train_launch.h"

#include <fmt/format.h>

namespace llmplan::detail {
namespace {

using commands = std::vector<std::pair<std::string, std::string>>;

constexpr const char* rendezvous = "--master_addr=$MASTER_ADDR --master_port=29500";

void deepspeed_commands(const train_launch_setup& s, commands& out) {
    const std::string& cfg = s.deepspeed_config;
    const std::string ds   = cfg.empty() ? "" : " --deepspeed ds_config.json";
    const unsigned per     = s.gpus / s.nodes;
    if (s.nodes > 1) {
        out.emplace_back("torchrun", fmt::format("torchrun --nnodes={} --nproc_per_node={} --node_rank=$NODE_RANK "
                                                 "{} train.py{}",
                                                 s.nodes, per, rendezvous, ds));
        out.emplace_back("deepspeed", fmt::format("deepspeed --hostfile hostfile --num_nodes {} --num_gpus {} "
                                                  "--master_addr $MASTER_ADDR train.py{}",
                                                  s.nodes, per, ds));
        out.emplace_back("accelerate",
                         fmt::format("accelerate launch --num_machines {} --num_processes {} --machine_rank $NODE_RANK "
                                     "--main_process_ip $MASTER_ADDR --main_process_port 29500 --use_deepspeed "
                                     "--deepspeed_config_file ds_config.json train.py",
                                     s.nodes, s.gpus));
    } else {
        out.emplace_back("torchrun", fmt::format("torchrun --nproc_per_node={} train.py{}", per, ds));
        if (!cfg.empty()) {
            out.emplace_back("deepspeed", fmt::format("deepspeed --num_gpus {} train.py{}", per, ds));
            out.emplace_back("accelerate", fmt::format("accelerate launch --num_processes {} --use_deepspeed "
                                                       "--deepspeed_config_file ds_config.json train.py",
                                                       per));
        } else {
            out.emplace_back("accelerate", fmt::format("accelerate launch --num_processes {} train.py", per));
        }
    }
    if (!cfg.empty()) out.emplace_back("ds_config.json", cfg);
}

const char* accelerate_precision(train_precision p) {
    switch (p) {
    case train_precision::bf16_mixed:
        return "bf16";
    case train_precision::fp16_mixed:
        return "fp16";
    case train_precision::bf16: // the model's own bf16 weights, no autocast
    case train_precision::fp32:
        return "no";
    }
    return "no";
}

void fsdp_commands(const train_launch_setup& s, commands& out) {
    const unsigned per = s.gpus / s.nodes;
    if (s.gpus == 1) {
        out.emplace_back("torchrun", "torchrun --nproc_per_node=1 train.py");
        return;
    }
    const char* strategy = s.zero >= 3 ? "FULL_SHARD" : s.zero >= 1 ? "SHARD_GRAD_OP" : "NO_SHARD";
    const char* trainer  = s.zero >= 3 ? "full_shard" : s.zero >= 1 ? "shard_grad_op" : "";
    std::string fsdp_arg;
    if (*trainer != '\0') fsdp_arg = fmt::format(" --fsdp \"{} auto_wrap{}\"", trainer, s.offload ? " offload" : "");
    if (s.nodes > 1) {
        out.emplace_back("accelerate", "accelerate launch --config_file fsdp_config.yaml --machine_rank $NODE_RANK "
                                       "--main_process_ip $MASTER_ADDR --main_process_port 29500 train.py");
        out.emplace_back("torchrun", fmt::format("torchrun --nnodes={} --nproc_per_node={} --node_rank=$NODE_RANK "
                                                 "{} train.py{}",
                                                 s.nodes, per, rendezvous, fsdp_arg));
    } else {
        out.emplace_back("accelerate", "accelerate launch --config_file fsdp_config.yaml train.py");
        out.emplace_back("torchrun", fmt::format("torchrun --nproc_per_node={} train.py{}", per, fsdp_arg));
    }
    out.emplace_back("fsdp_config.yaml", fmt::format("compute_environment: LOCAL_MACHINE\n"
                                                     "distributed_type: FSDP\n"
                                                     "fsdp_config:\n"
                                                     "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
                                                     "  fsdp_backward_prefetch: BACKWARD_PRE\n"
                                                     "  fsdp_cpu_ram_efficient_loading: true\n"
                                                     "  fsdp_offload_params: {}\n"
                                                     "  fsdp_sharding_strategy: {}\n"
                                                     "  fsdp_state_dict_type: SHARDED_STATE_DICT\n"
                                                     "  fsdp_sync_module_states: true\n"
                                                     "  fsdp_use_orig_params: true\n"
                                                     "mixed_precision: {}\n"
                                                     "num_machines: {}\n"
                                                     "num_processes: {}\n",
                                                     s.offload ? "true" : "false", strategy,
                                                     accelerate_precision(s.precision), s.nodes, s.gpus));
}

void torchtune_commands(const train_launch_setup& s, commands& out) {
    const bool distributed   = s.gpus > 1;
    const std::string recipe = fmt::format("{}_finetune_{}", s.method == train_method::full ? "full" : "lora",
                                           distributed ? "distributed" : "single_device");
    std::string procs;
    if (s.nodes > 1)
        procs = fmt::format(" --nnodes {} --nproc_per_node {} --rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:29500",
                            s.nodes, s.gpus / s.nodes);
    else if (distributed)
        procs = fmt::format(" --nproc_per_node {}", s.gpus);
    const char* what = s.method == train_method::qlora ? "a qlora config" : "a config";
    out.emplace_back("torchtune", fmt::format("tune run{} {} --config config.yaml  # {} of this model (tune ls)", procs,
                                              recipe, what));
}

const char* litgpt_precision(train_precision p) {
    switch (p) {
    case train_precision::bf16:
        return "bf16-true";
    case train_precision::bf16_mixed:
        return "bf16-mixed";
    case train_precision::fp16_mixed:
        return "16-mixed";
    case train_precision::fp32:
        return "32-true";
    }
    return "bf16-true";
}

void litgpt_commands(const train_launch_setup& s, commands& out) {
    out.emplace_back("litgpt", fmt::format("litgpt {} {} --devices {} --num_nodes {} --precision {}{}",
                                           s.method == train_method::full ? "finetune_full" : "finetune_lora",
                                           s.model_id, s.gpus / s.nodes, s.nodes, litgpt_precision(s.precision),
                                           s.method == train_method::qlora ? " --quantize bnb.nf4" : ""));
}

} // namespace

std::vector<std::pair<std::string, std::string>> train_launch_commands(const train_launch_setup& s) {
    commands out;
    if (s.cpu) {
        out.emplace_back("accelerate", "accelerate launch --cpu train.py");
        return out;
    }
    if (s.apple) {
        out.emplace_back("accelerate",
                         "accelerate launch train.py  # PyTorch MPS; DeepSpeed does not run on Apple GPUs");
        return out;
    }
    switch (s.kind) {
    case launcher::deepspeed:
        deepspeed_commands(s, out);
        break;
    case launcher::accelerate_fsdp:
        fsdp_commands(s, out);
        break;
    case launcher::torchtune:
        torchtune_commands(s, out);
        break;
    case launcher::litgpt:
        litgpt_commands(s, out);
        break;
    }
    return out;
}

} // namespace llmplan::detail

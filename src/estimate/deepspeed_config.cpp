// The DeepSpeed config a multi-GPU training estimate assumes, for `deepspeed --num_gpus N` or the
// transformers Trainer's --deepspeed. Keys from DeepSpeed's config reference
// (deepspeed.ai/docs/config-json); bucket sizes as Qwen's finetune/ds_config_zero2.json.
#include "estimate/training_detail.h"

#include <nlohmann/json.hpp>

namespace llmplan::detail {

std::string deepspeed_config_json(const training_params& p, std::uint64_t hidden_size) {
    if (p.gpus <= 1 && p.zero_stage == 0) return {};
    nlohmann::ordered_json j;
    j["train_micro_batch_size_per_gpu"] = p.micro_batch;
    // "auto": the transformers Trainer fills it from its arguments; --grad-accum N says it.
    if (p.grad_accum > 1)
        j["gradient_accumulation_steps"] = p.grad_accum;
    else
        j["gradient_accumulation_steps"] = "auto";
    j["gradient_clipping"] = 1.0;
    j["bf16"]["enabled"]   = p.precision == train_precision::bf16_mixed || p.precision == train_precision::bf16;
    j["fp16"]["enabled"]   = p.precision == train_precision::fp16_mixed;
    if (p.precision == train_precision::fp16_mixed) {
        j["fp16"]["loss_scale"]          = 0; // dynamic loss scaling
        j["fp16"]["initial_scale_power"] = 16;
    }
    if (p.optimizer == optimizer_kind::adamw) {
        j["optimizer"]["type"]   = "AdamW";
        j["optimizer"]["params"] = {
            {"lr",           "auto"},
            {"betas",        "auto"},
            {"eps",          "auto"},
            {"weight_decay", "auto"}
        };
    }
    auto& z    = j["zero_optimization"];
    z["stage"] = p.zero_stage;
    if (p.offload_optimizer)
        z["offload_optimizer"] = {
            {"device",     "cpu"},
            {"pin_memory", true }
        };
    z["overlap_comm"]         = true;
    z["contiguous_gradients"] = true;
    if (p.zero_stage <= 2) {
        z["allgather_bucket_size"] = ds_bucket_elements;
        z["reduce_bucket_size"]    = ds_bucket_elements;
    } else {
        // DeepSpeed's "auto" values as the transformers integration fills them: h*h for the
        // reduce bucket, 0.9*h*h for the prefetch bucket, 10*h for the persistence threshold.
        z["reduce_bucket_size"]                        = hidden_size * hidden_size;
        z["stage3_prefetch_bucket_size"]               = hidden_size * hidden_size * 9 / 10;
        z["stage3_param_persistence_threshold"]        = 10 * hidden_size;
        z["sub_group_size"]                            = ds_sub_group_elements;
        z["stage3_max_live_parameters"]                = ds_sub_group_elements;
        z["stage3_max_reuse_distance"]                 = ds_sub_group_elements;
        z["stage3_gather_16bit_weights_on_model_save"] = true;
    }
    return j.dump(2);
}

} // namespace llmplan::detail

// The trainers people use and what each one's defaults do to memory, as data (include/llmplan/trainer.h).
// Every field is read from the trainer's code at the versions named; the estimator reads the row,
// never the name.
//  - hf: transformers Trainer + PEFT. Trainer's default optim "adamw_torch" is torch.optim.AdamW,
//    whose CUDA default is the foreach implementation; PEFT's prepare_model_for_kbit_training casts
//    every 16/32-bit parameter of a bitsandbytes model to fp32 (peft/utils/other.py; not for GPTQ,
//    AQLM, EETQ, HQQ, torchao); LoraConfig(autocast_adapter_dtype=True) keeps adapters in fp32;
//    the causal-LM loss upcasts the whole logits to fp32 (ForCausalLMLoss); the collator pads each
//    batch to its longest sample. Recipes set lora_dropout 0.05-0.1 (TRL, axolotl examples).
//  - trl: SFTTrainer subclasses transformers' Trainer with PEFT: the same habits but the loss. From v1.7.0
//    (2026-06-25, b58947c7e) SFTConfig's loss_type defaults to "chunked_nll": lm_head and the cross-entropy
//    per checkpointed chunk of 256 labelled tokens, the logits never whole (trl/trainer/sft_trainer.py @
//    f2cd57710, 2026-07-24, read at v1.9.0's era): --loss head-chunked; `trl@1.6` and older take the model's
//    loss (trainer_releases.cpp). Its gradient checkpointing has been non-reentrant since v0.28.0 (2026-02-10,
//    f11b4c3fd) as transformers' own since PR #43203 (5.0): with bitsandbytes 0.43.2 and later, which keeps
//    no input of a 4-bit linear (`ctx.tensors = (None, B)`, bitsandbytes/autograd/_functions.py @ 95f9af30,
//    0.50), that changes no memory, so it is not a column here.
//  - axolotl: drives transformers' Trainer with PEFT: the hf habits.
//  - llama-factory: Trainer + PEFT but its own model preparation (no fp32 upcast unless
//    upcast_layernorm/upcast_lmhead_output are set) and lora_dropout 0 by default (FinetuningArguments).
//  - ms-swift: Trainer + its own LoRA tuner, no k-bit upcast (swift/llm/sft.py, 1.x), lora_dropout 0.05.
//  - unsloth: Triton kernels (RMSNorm, SwiGLU, RoPE), Apple's Cut Cross-Entropy since 2024.12
//    (unsloth_zoo loss_utils fused_linear_cross_entropy, UNSLOTH_ENABLE_CCE default "1": the logits
//    are never whole; before it, a Triton cross-entropy writing the gradient into the 16-bit logits:
//    --loss fused), use_gradient_checkpointing="unsloth" offloads the checkpointed layer
//    inputs to host RAM, lora_dropout 0 (the fast path), no fp32 upcast of the base. At dropout 0 its
//    LoRA layers run as its own autograd functions (kernels/fast_lora.py LoRA_QKV, LoRA_MLP, LoRA_W):
//    they save X once per group and cast A, B to X's dtype, so no per-module input copy (own_lora);
//    with dropout > 0 unsloth leaves the LoRA matrices to PEFT's forward.
//  - torchtune (pytorch/torchtune recipes/configs, read @ 0031bfb0 2024-10-14, 1814feb1 2024-11-18, bd2a0fc7
//    2026-04-23): pure bf16 (`dtype: bf16`); chunked loss: CEWithChunkedOutputLoss, 8 chunks (configs from
//    4fba6cd4, 2024-08-28), then LinearCrossEntropyLoss, the output projection chunk by chunk inside the loss
//    (9c06c8bd, 2025-04-30), torch.nn.CrossEntropyLoss before (@ ff594c23, 2024-04-15); AdamW(fused=True) in the
//    LoRA configs; lora_dropout 0.0 (d7fae967, 2024-09-11; the model builders' 0.05 before); FSDP2 for several
//    GPUs; optimizer_in_bwd in the single-device full configs, always with their bitsandbytes paged optimizer
//    (training_habits.cpp: taken with --optimizer adamw-8bit only). Compiled kernels: every config says
//    `compile: False`, but the memory torchtune publishes is measured compiled (README @ 0031bfb0 "torch compile
//    enabled" for its table; the optimization-flags table @ 1814feb1), so the row keeps the compiled figure. Eager
//    keeps more without checkpointing (that table: Llama-3.2-3B, 2 x 4096 tokens, 60.0 -> 51.0 GiB with compile);
//    with checkpointing only the recomputed layer differs.
//  - litgpt: Fabric bf16-true, chunked cross-entropy (lm_head_chunk_size 128), torch AdamW (foreach),
//    lora_dropout 0.05, adapters in the model dtype.
//  - deepspeed: a plain `deepspeed` launch of a transformers model: DeepSpeed's FusedAdam steps.
//  - fsdp: torch FSDP of a transformers model (accelerate/Trainer --fsdp): foreach AdamW on the shards.
// FSDP units (root column): accelerate's TRANSFORMER_BASED_WRAP wraps the model's _no_split_modules
// (the decoder layer) and LitGPT's FSDPStrategy its Block, so the embeddings and lm_head stay in the
// root unit, which FSDP never reshards after forward (FSDP1 _post_forward_reshard; FSDP2 fully_shard
// sets the root's reshard_after_forward to False). torchtune makes them units of their own (FSDP1
// llama3_wrap "due to a large embedding size"; FSDP2 custom_sharded_layers ['tok_embeddings', 'output']
// in the 70B configs).
// Gradient accumulation (no_sync column): accelerate's Accelerator.accumulate() enters the model's no_sync()
// on every micro-step but the last unless GradientAccumulationPlugin(sync_each_batch=True), and transformers'
// Trainer runs each micro-step in it (so the hf family and the fsdp row); LitGPT's finetune scripts wrap the
// accumulating micro-steps in fabric.no_backward_sync; torchtune's recipes call backward() on each
// micro-batch with the gradient sync on. Only FSDP sharding holds more for it (DeepSpeed accumulates into its
// partitions; DDP's gradients are whole anyway).
// Mixed units (mixed column): no row mixes adapters and frozen weights in one FSDP1 unit today (transformers'
// Trainer applies PEFT's fsdp_auto_wrap_policy to a PEFT model; torchtune and LitGPT since 2025-08 use FSDP2);
// --fsdp-units mixed describes the scripts that do (LitGPT's FSDPStrategy wrapping each Block before then).
// Launch (launch column): how the plan's commands start a run. The transformers-based trainers (and unsloth on
// one GPU) take a DeepSpeed config; the fsdp row an accelerate FSDP config (accelerate's fsdp_config keys);
// torchtune its `tune run <recipe> --config` CLI; LitGPT its `litgpt finetune_lora|finetune_full` CLI.
// Host time per layer (host_s column, seconds per micro-step with checkpointing): Qwen-1's finetune.py (Trainer +
// PEFT, eager, flash-attention 2) runs LoRA at the same s/it for 256 and 512 tokens, then linearly in the
// tokens (truth/qwen1_readme_profiling.json): the floor is the host. 1.8B: 1.0 s/it = 125 ms a micro-step
// (8 accumulated) over 24 layers = 5.2 ms; 7B: 1.2 s/it = 150 ms over 32 = 4.7 ms; 14B: 1.6 s/it = 200 ms
// over 40 = 5.0 ms: 5 ms a layer. No trainer publishes a short-sequence run of its compiled or fused
// kernels (torchtune's table is at 2 x 2048 tokens, device-bound), so every row carries the eager figure:
// an upper bound for torchtune and unsloth.
#include "llmplan/trainer.h"

#include <array>

namespace llmplan {
namespace {

using enum optimizer_step;
using enum loss_impl;
using enum batch_lengths;
using enum launcher;

// clang-format off
constexpr std::array<trainer_profile, 10> trainer_rows{{
//   name             what                                                       step           in_bwd kbit_up loss     fused  dropout fp32_ad offl_ck own_lora lengths   ds     root   host_s mixed no_sync launch
    {"hf",            "transformers Trainer + PEFT",                              foreach_temps, false, true,  full,    false, 0.05,   true,   false,  false,    variable, true,  true, 5e-3, false, true, deepspeed},
    {"trl",           "TRL (transformers Trainer + PEFT, chunked lm_head loss)",  foreach_temps, false, true,  head_chunked, false, 0.05, true, false, false,   variable, true,  true, 5e-3, false, true, deepspeed},
    {"axolotl",       "axolotl (transformers Trainer + PEFT)",                    foreach_temps, false, true,  full,    false, 0.05,   true,   false,  false,    variable, true,  true, 5e-3, false, true, deepspeed},
    {"llama-factory", "LLaMA-Factory (transformers Trainer + PEFT, no upcast)",   foreach_temps, false, false, full,    false, 0.0,    true,   false,  false,    variable, true,  true, 5e-3, false, true, deepspeed},
    {"ms-swift",      "ms-swift (transformers Trainer, swift LoRA tuner)",        foreach_temps, false, false, full,    false, 0.05,   true,   false,  false,    variable, true,  true, 5e-3, false, true, deepspeed},
    {"unsloth",       "unsloth (Triton kernels, Cut Cross-Entropy, offloaded checkpoints)",
                                                                                  foreach_temps, false, false, linear,  true,  0.0,    true,   true,   true,     variable, true,  true, 5e-3, false, true, deepspeed},
    {"torchtune",     "torchtune recipes (pure bf16, compiled, chunked loss, FSDP2)",
                                                                                  fused_adam,    true,  false, chunked, true,  0.0,    false,  false,  false,    variable, false, false, 5e-3, false, false, torchtune},
    {"litgpt",        "LitGPT (Fabric bf16-true, chunked cross-entropy)",         foreach_temps, false, false, chunked, false, 0.05,   false,  false,  false,    variable, false, true, 5e-3, false, true, litgpt},
    {"deepspeed",     "DeepSpeed launch of a transformers model (FusedAdam)",     fused_adam,    false, true,  full,    false, 0.05,   true,   false,  false,    variable, true,  true, 5e-3, false, true, deepspeed},
    {"fsdp",          "torch FSDP of a transformers model (foreach AdamW)",       foreach_temps, false, true,  full,    false, 0.05,   true,   false,  false,    variable, false, true, 5e-3, false, true, accelerate_fsdp},
}};
// clang-format on

} // namespace

std::span<const trainer_profile> trainer_table() {
    return trainer_rows;
}

const trainer_profile* find_trainer(std::string_view name) {
    for (const auto& t : trainer_rows)
        if (t.name == name) return &t;
    return nullptr;
}

std::string trainer_names() {
    std::string s;
    for (const auto& t : trainer_rows) {
        if (!s.empty()) s += ' ';
        s.append(t.name);
    }
    return s;
}

} // namespace llmplan

// The trainer as part of a training workload: what differs between the trainers people use is data
// in one table (src/estimate/trainers.cpp), never a branch on a trainer's name.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace llmplan {

/// How the loss over the vocabulary is computed.
enum class loss_impl : std::uint8_t {
    full,         ///< the whole [tokens, vocab] logits, upcast to fp32 for cross-entropy (transformers)
    chunked,      ///< the output projection and cross-entropy a chunk of tokens at a time (torchtune, LitGPT)
    fused,        ///< a fused kernel over 16-bit logits, gradient written in place (unsloth before 2024.12)
    linear,       ///< output projection and loss in one kernel, logits never whole (Cut Cross-Entropy: unsloth)
    full_shift,   ///< full, with the fp32 shifted copy of transformers 4.46.0 until PR #35646 (ForCausalLMLoss)
    head_chunked, ///< the output projection and cross-entropy per checkpointed chunk of 256 labelled tokens (TRL's
                  ///< chunked_nll)
};

/// How torch.optim.AdamW's step allocates.
enum class optimizer_step : std::uint8_t {
    foreach_temps, ///< _multi_tensor_adamw: sqrt(exp_avg_sq) for every parameter at once
    fused_adam,    ///< fused kernels (DeepSpeed FusedAdam, fused=True): no parameter-sized temporaries
};

/// How a multi-GPU run of the trainer is started (the plan's `launch` commands).
enum class launcher : std::uint8_t {
    deepspeed,       ///< a DeepSpeed config: deepspeed / torchrun / accelerate --use_deepspeed
    accelerate_fsdp, ///< an accelerate FSDP config (transformers' Trainer under FSDP)
    torchtune,       ///< tune run <recipe> --config <config>
    litgpt,          ///< litgpt finetune_lora / finetune_full --devices N
};

/// What lengths the batches have: dynamic padding of a real dataset (every step a new size: the
/// caching allocator keeps blocks of earlier sizes), or padded/packed to one length.
enum class batch_lengths : std::uint8_t { variable, fixed };

struct trainer_profile {
    std::string_view name;
    std::string_view what;    ///< one line for the notes
    optimizer_step step;      ///< torch AdamW's implementation (DeepSpeed ZeRO steps with FusedAdam)
    bool in_backward_single;  ///< full fine-tuning on one GPU with the 8-bit optimizer steps each parameter in backward
    bool kbit_upcast;         ///< PEFT prepare_model_for_kbit_training: 16-bit params of a bnb model -> fp32
    loss_impl loss;           ///< how the loss is computed
    bool fused_kernels;       ///< compiled/fused norms and SwiGLU (no eager fp32 norm copies)
    double lora_dropout;      ///< the recipes' LoRA dropout (> 0 keeps a dropped-out input copy)
    bool fp32_adapters;       ///< PEFT autocast_adapter_dtype: adapters in fp32 even in pure bf16
    bool offload_checkpoints; ///< checkpointed layer inputs kept in host RAM (unsloth)
    /// LoRA through the trainer's own autograd functions when lora_dropout is 0 (unsloth fast_lora.py
    /// LoRA_QKV, LoRA_MLP, LoRA_W): they save the module input once and cast the adapters to its
    /// dtype (matmul_lora `A.to(dtype)`), so no per-module copy of the input is kept.
    bool own_lora_kernels;
    batch_lengths lengths; ///< dynamic padding (variable) or packed/padded (fixed)
    bool deepspeed_zero;   ///< --zero means DeepSpeed ZeRO (buckets); else FSDP sharding
    /// FSDP wraps only the decoder layers, so the embeddings, final norm and lm_head are the root unit,
    /// gathered from the forward's start to the backward's end; false: they are units of their own.
    bool fsdp_root_gathered;
    /// Host seconds to issue one decoder layer's kernels (and the Python around them) for one
    /// micro-step with gradient checkpointing (forward, recomputed forward, backward). CUDA launches
    /// asynchronously, so a micro-step takes the longer of this x layers and the GPU's work
    /// (train_plan.h, train_host_seconds). Source in src/estimate/trainers.cpp.
    double host_s_per_layer;
    /// FSDP1 units that put LoRA adapters and frozen weights into one FlatParameter (LitGPT before
    /// 2025-08: FSDPStrategy wrapping each Block): the flat gradient covers every parameter of the unit,
    /// frozen ones included, so a LoRA run holds a gradient the size of its base. false: the adapters
    /// are units of their own (PEFT's fsdp_auto_wrap_policy, which transformers' Trainer applies to a
    /// PEFT model under FSDP) or FSDP2's per-parameter sharding (frozen parameters get no gradient).
    bool fsdp_mixed_units;
    /// Gradient accumulation micro-steps run without the gradients' reduce-scatter (FSDP1 no_sync,
    /// FSDP2 set_requires_gradient_sync(False)), so each GPU holds the unsharded gradients until the
    /// last micro-step.
    bool no_sync_accumulation;
    launcher launch; ///< how a run is started (src/plan/train_launch.cpp)
};

/// How a --trainer value named its row.
enum class trainer_match : std::uint8_t {
    exact, ///< the row's own name
    alias, ///< another name people use for it ("transformers", "swift", "lit-gpt", "fsdp2", ...)
};

/// A --trainer value read: NAME or NAME@RELEASE, case-insensitive, '_' read as '-'.
struct trainer_choice {
    const trainer_profile* row = nullptr;
    std::string release; ///< "0.5.10" of "litgpt@0.5.10" (a leading v dropped); empty: the current release
    trainer_match match = trainer_match::exact;
};

/// Reads a --trainer value into `out`; on a value that names no row (empty, over 64 characters,
/// characters other than letters, digits, '.', '_', '-', a release that is not dotted numbers, or a
/// name that is neither a row's nor another name for one), returns what was expected and leaves `out`
/// as it was.
std::optional<std::string> read_trainer(std::string_view text, trainer_choice& out);

/// Habits of a trainer's older releases where they differ from its row (the row describes the
/// current release), each read from the trainer's code at the release named.
struct trainer_release {
    std::string_view trainer; ///< the row's name
    std::string_view through; ///< the last release with these habits ("0.5.10": 0.5.10 and older)
    std::string_view what;    ///< one line for the notes
    std::optional<loss_impl> loss;
    std::optional<double> lora_dropout;
    std::optional<bool> fsdp_mixed_units;
    /// The loop keeps the last step's graph into the next forward, and bitsandbytes keeps each 4-bit
    /// linear's input on it (no option says it: a release's habit only).
    bool keeps_last_graph = false;
};

/// The habits of `release` of `trainer` where they differ from the row, or nullptr (the current
/// habits; also for an empty release).
const trainer_release* find_release(std::string_view trainer, std::string_view release);

/// Every trainer llmplan knows, the default (transformers Trainer + PEFT) first.
std::span<const trainer_profile> trainer_table();
/// The row named `name` (case-sensitive names as listed by trainer_table), or nullptr.
const trainer_profile* find_trainer(std::string_view name);
/// "hf trl axolotl ..." for error messages and --help.
std::string trainer_names();

/// Per-run overrides of a trainer's habits (--lora-dropout, --loss, --optimizer-in-backward,
/// --batch-lengths, --fsdp-units), so that an unlisted trainer can be described.
struct trainer_overrides {
    std::optional<double> lora_dropout;
    std::optional<loss_impl> loss;
    std::optional<bool> optimizer_in_backward;
    std::optional<batch_lengths> lengths;
    std::optional<bool> fsdp_mixed_units; ///< --fsdp-units mixed|separate
};

/// Named by one table each (src/estimate/training_names.cpp), as the options spell them.
std::string_view to_string(loss_impl l);
std::string_view to_string(batch_lengths l);
std::optional<loss_impl> loss_from_name(std::string_view s);
std::optional<batch_lengths> batch_lengths_from_name(std::string_view s);

} // namespace llmplan

// Internals of estimate_training: LoRA counting, activation memory, DeepSpeed config.
//
// Each piece is a pure function of (model_desc, training_params) so that it can be unit-tested
// alone; training.cpp adds them up per device.
#pragma once

#include "llmplan/error.h"
#include "llmplan/estimate.h"
#include "llmplan/model_desc.h"
#include "llmplan/trainer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llmplan::detail {

/// One trained matrix (or vector) as an optimizer sees it: `count` copies of [rows, cols]
/// (count = n_expert for stacked expert tensors; cols = 1 for vectors).
struct trained_tensor {
    std::uint64_t rows  = 0;
    std::uint64_t cols  = 1;
    std::uint64_t count = 1;
    [[nodiscard]] std::uint64_t n_elements() const { return rows * cols * count; }
};

/// The inputs a dense layer's linears take: q/k/v (the attention norm's output), the attention output
/// (o_proj's), gate/up (the MLP norm's output), down (the gated product or the activation's output).
enum lora_input_group : std::uint8_t { lora_in_qkv = 1, lora_in_o = 2, lora_in_gate_up = 4, lora_in_down = 8 };

struct lora_plan {
    std::uint64_t params = 0;               ///< r*(in+out) summed over every targeted matrix (and expert)
    std::vector<trained_tensor> matrices;   ///< A [r, in] and B [out, r] of every target
    std::vector<std::string> roles;         ///< tensor roles that got an adapter (for the notes)
    std::uint64_t largest_layer_params = 0; ///< adapter params of the layer holding the most
    std::uint64_t largest_layer_inputs = 0; ///< sum of adapted modules' in_features in the widest layer
    std::uint64_t total_inputs         = 0; ///< the same summed over every layer
    /// Which inputs of a dense layer's linears have an adapter (lora_input_group bits): an adapter whose
    /// lora_A takes the module input itself keeps it for its weight gradient.
    std::uint8_t input_groups = 0;
    /// PEFT modules_to_save (targets "embed", "lm_head"): a trainable copy of the whole module next to
    /// the frozen original, trained in full at the base's dtype.
    std::vector<trained_tensor> saved;
    std::uint64_t saved_params = 0;
};

/// Adapters for rank r on the targets ("all-linear" or short names q,k,v,o,gate,up,down), and the
/// modules trained whole ("embed", "lm_head": PEFT's modules_to_save).
/// Errors: unknown name, or a target this architecture lacks.
result<lora_plan> plan_lora(const model_desc& m, std::uint32_t rank, const std::vector<std::string>& targets);

/// The q/k/v projections the trainer's model code runs: the checkpoint's own (transformers and its remote
/// code: a fused c_attn / qkv_proj / query_key_value where the checkpoint has one), always one fused matrix
/// (LitGPT's `attn`), or always three (torchtune's q_proj, k_proj, v_proj).
enum class qkv_source : std::uint8_t { checkpoint, fused, separate };

/// A trainer row with the user's overrides applied: what the estimate follows.
struct train_habits {
    const trainer_profile* row     = nullptr;
    const trainer_release* release = nullptr; ///< an older release's habits (--trainer NAME@RELEASE), or none
    double lora_dropout            = 0;
    loss_impl loss                 = loss_impl::full;
    bool in_backward               = false; ///< optimizer steps each parameter in backward (one grad alive)
    batch_lengths lengths          = batch_lengths::variable;
    bool fsdp_mixed_units          = false; ///< FSDP1 units mixing adapters and frozen weights
    bool fp32_adapters             = false; ///< LoRA adapters kept in fp32 and their inputs cast to it
    /// The trainer builds its own output layer even where the checkpoint ties it to the embedding
    /// (LitGPT: a second vocab x hidden matrix beside the embedding; training_habits.cpp).
    bool untied_head = false;
    /// Its 4-bit quantization replaces every linear layer, the output layer included (Lightning Fabric's
    /// BitsandbytesPrecision), where PEFT/transformers keep lm_head in 16-bit.
    bool quantizes_head = false;
    /// Its 4-bit weights are quantized from an fp16 copy, so each matmul dequantizes to fp16 and casts to
    /// the bf16 compute dtype: two copies of the matrix at once (one where the dtypes agree).
    bool dequant_via_fp16 = false;
    /// Its model code runs an attention that caps its logits (Gemma-2) eagerly, keeping heads x seq x seq
    /// scores, where SDPA/flash kernels cannot apply the cap.
    bool eager_softcap = false;
    /// Its attention repeats grouped keys and values to every query head before the kernel, so the kernel
    /// keeps n_head-wide k and v (LitGPT's CausalSelfAttention in training).
    bool expands_kv = false;
    /// Its NF4 keeps one fp32 absmax per block of 64 weights, without the double quantization (8-bit absmax
    /// + an fp32 scale per 256) that bitsandbytes' nf4 default in transformers/PEFT has (LitGPT's `bnb.nf4`).
    bool nf4_plain_absmax = false;
    /// Its chunked loss runs cross-entropy on each 16-bit chunk and keeps every chunk's 16-bit log-softmax,
    /// while the training loop still holds all logits (LitGPT's chunked_cross_entropy).
    bool chunk_ce_16bit = false;
    /// Whose q/k/v projection the attention splits its value from (training_activations.cpp, qkv_buffer).
    qkv_source qkv = qkv_source::checkpoint;
    /// Its training loop keeps the last step's outputs, and with them that step's autograd graph, until the
    /// next forward returns, and bitsandbytes keeps each 4-bit linear's input on that graph (an older
    /// release's habit, trainer_releases.cpp: LitGPT 0.1-0.5.4): those inputs are still there during the
    /// next forward.
    bool keeps_last_graph = false;
    /// Its gradient checkpointing is PyTorch's non-reentrant kind (saved-tensor hooks; training_habits.cpp): the
    /// forward keeps its autograd graph, so a tensor an autograd function holds as a plain attribute of its
    /// context, not through save_for_backward, outlives the checkpoint (training_activations.cpp, ctx_held).
    bool non_reentrant_checkpoint = false;
};

/// The band key of a workload with its trainer ("lora, 1 GPU, ms-swift"); training_band() takes that band
/// when the trainer has 3 dev runs of the kind or more, else the kind's over every trainer.
std::string training_trainer_kind(const training_params& p);

/// Resolve --trainer and the overrides for this workload; error on an unknown trainer or bad value.
result<train_habits> resolve_habits(const training_params& p);
/// The note that says which trainer, release and habits an estimate followed, and how --trainer named it.
std::string trainer_note(const training_params& p, const train_habits& h);

struct activation_estimate {
    std::uint64_t per_layer_saved_bytes = 0; ///< sum over layers of what backward keeps, no recomputation
    std::uint64_t checkpoint_bytes      = 0; ///< layer inputs kept with gradient checkpointing
    std::uint64_t largest_layer_bytes   = 0; ///< one layer's saved activations (recomputed in backward)
    std::uint64_t backward_work_bytes   = 0; ///< gradient tensors in flight inside one layer's backward
    std::uint64_t logits_peak_bytes     = 0; ///< logits and the loss's copies at their peak
    std::uint64_t bias_bytes            = 0; ///< a dense n_head x seq x seq position bias alive all step
    std::uint64_t ctx_held_bytes        = 0; ///< linear inputs quantized autograd functions hold past checkpointing
    std::uint64_t last_step_held_bytes  = 0; ///< those inputs of the last micro-batch, held by its kept graph
    std::uint64_t transient_bytes       = 0; ///< the largest block freed and re-made every step (logits or a layer)
    std::uint64_t record_block_bytes    = 0; ///< one fp32 logits tensor, when the model code upcasts before the loss
    std::uint64_t peak_bytes            = 0; ///< what the activations add to the GPU at the step's peak
};

/// Activation memory of one micro-batch (Korthikanti et al. 2022, re-derived per layer kind).
/// `lora` (may be null) gives the adapted inputs that dropout copies; `fp32_residual` when a k-bit
/// upcast made the embeddings fp32, so the residual stream and its checkpoints are fp32.
/// The model caps its attention logits (Gemma-2), which flash/SDPA kernels of the trainers' era cannot do.
bool softcapped_attention(const model_desc& m);
/// The model's own training forward casts the whole logits to fp32 before its cross-entropy (transformers'
/// causal-LM heads, ChatGLM's remote code), rather than handing 16-bit logits to it (Qwen-1, Baichuan).
bool logits_upcast_before_loss(const model_desc& m);

/// `saved_weights`: 16-bit copies of frozen weights that autograd keeps for the input gradient (a
/// quantized linear that dequantizes with plain torch ops and multiplies, auto-gptq's training path): the
/// largest layer's and every layer's, kept like that layer's activations.
struct saved_weight_bytes {
    std::uint64_t largest_layer = 0;
    std::uint64_t all_layers    = 0;
    /// Whether the frozen base's linears keep their input for backward (training_activations.cpp): a
    /// bitsandbytes or AWQ matmul (a custom autograd function saving it) does; a torch linear or matmul with
    /// a frozen 16-bit (or dequantized GPTQ) weight does not.
    bool base_keeps_inputs = true;
    /// Whether those linears are bitsandbytes autograd functions, which keep their input as a plain attribute
    /// of the autograd context (MatMul4Bit `ctx.tensors = (A, B)`, MatMul8bitLt `ctx.tensors = (CAt, subA, A)`)
    /// rather than through save_for_backward, out of reach of a non-reentrant checkpoint's hooks.
    bool ctx_held_inputs = false;
};
activation_estimate estimate_activations(const model_desc& m, const training_params& p, const train_habits& h,
                                         const lora_plan* lora, bool fp32_residual,
                                         saved_weight_bytes saved_weights = {});

/// DeepSpeed JSON config for the plan (multi-GPU ZeRO); empty for a single GPU without ZeRO.
std::string deepspeed_config_json(const training_params& p, std::uint64_t hidden_size);

/// NCCL's communicator buffers for data parallel (NCCL_BUFFSIZE 4 MiB per channel and peer, plus its
/// own context): about 0.5 GiB a GPU, outside PyTorch's allocator (in nvidia-smi's figure only).
inline constexpr std::uint64_t nccl_bytes = std::uint64_t{512} << 20;

/// The runtime outside a training step's allocated peak (training_runtime.cpp).
struct training_runtime {
    std::uint64_t slack_bytes       = 0;     ///< the allocator's cached blocks, the reserve included
    std::uint64_t reclaimable_bytes = 0;     ///< the part the allocator frees before an out-of-memory error
    bool capped                     = false; ///< the reserve stopped at the GPU's memory
};
/// Sets g.overhead (CUDA context, allocator slack and reserve, NCCL when gpus > 1) from the step's
/// largest transient, the optimizer step's excess over the activations and, when known, the GPU's
/// memory (the reserve never grows past it).
/// `record_block_bytes`: one fp32 logits tensor of the step when the model code upcasts them before the loss
/// (activation_estimate), else 0.
training_runtime add_training_runtime(memory_parts& g, batch_lengths lengths, std::uint64_t transient_bytes,
                                      std::uint64_t record_block_bytes, std::uint64_t step_excess, std::uint64_t gpus,
                                      std::uint64_t device_memory_bytes);

/// DeepSpeed / FSDP knobs the estimate assumes; the config above writes the same values.
inline constexpr std::uint64_t ds_bucket_elements =
    200'000'000; // reduce/allgather bucket (Qwen's ds_config_zero2.json: 2e8)
inline constexpr std::uint64_t ds_sub_group_elements =
    1'000'000'000; // DeepSpeed default sub_group_size (ZeRO-3 optimizer step granularity)

} // namespace llmplan::detail

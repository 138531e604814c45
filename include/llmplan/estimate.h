// Memory estimates: pure functions of (model_desc, params) -> a breakdown per device.
//
// The part names are the contract's (../shared/cli-contract.md): weights, kv_cache, compute,
// activations, gradients, optimizer, master_weights, adapters, overhead. `overhead` is the
// runtime's own memory outside the framework's allocator, so total - overhead is what the
// framework allocated (torch.cuda.max_memory_allocated, or the sum of llama.cpp's buffer lines).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"
#include "llmplan/trainer.h"
#include "llmplan/weights.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

struct memory_parts {
    std::uint64_t weights        = 0;
    std::uint64_t kv_cache       = 0;
    std::uint64_t compute        = 0;
    std::uint64_t activations    = 0;
    std::uint64_t gradients      = 0;
    std::uint64_t optimizer      = 0;
    std::uint64_t master_weights = 0;
    std::uint64_t adapters       = 0;
    // Other residents of the same device, in the same budget (residents.cpp):
    std::uint64_t draft     = 0; ///< a speculative-decoding draft model: its weights, KV cache and compute
    std::uint64_t projector = 0; ///< a multimodal projector / vision encoder: weights and encoder activations
    std::uint64_t reserved  = 0; ///< memory other processes hold (--reserve): not the engine's, but not free
    std::int64_t overhead   = 0; ///< may be negative on a CPU: reserved buffers that never become resident

    [[nodiscard]] std::int64_t allocated() const {
        return static_cast<std::int64_t>(weights + kv_cache + compute + activations + gradients + optimizer +
                                         master_weights + adapters + draft + projector);
    }
    [[nodiscard]] std::int64_t total() const { return allocated() + overhead + static_cast<std::int64_t>(reserved); }
};

enum class device_kind : std::uint8_t { cpu, cuda, metal };
/// "cpu", "cuda", "metal": the --device word.
[[nodiscard]] std::string_view to_string(device_kind d);

struct device_breakdown {
    std::string device; ///< "cpu", "cuda:0", "metal"
    device_kind kind = device_kind::cuda;
    memory_parts parts;
    std::vector<std::string> notes; ///< how each part was derived, for the human report

    [[nodiscard]] std::int64_t total_bytes() const { return parts.total(); }
};

// ----------------------------------------------------------------------------- training
enum class train_method : std::uint8_t { full, lora, qlora };
enum class optimizer_kind : std::uint8_t { adamw, adamw_8bit, sgd, adafactor };
enum class train_precision : std::uint8_t { fp32, bf16_mixed, fp16_mixed, bf16 };
/// The option spellings ("qlora", "adamw-8bit", "bf16-mixed"), one table an enum both ways.
[[nodiscard]] std::string_view to_string(train_method m);
[[nodiscard]] std::string_view to_string(optimizer_kind o);
[[nodiscard]] std::string_view to_string(train_precision p);
[[nodiscard]] std::optional<train_method> train_method_from_name(std::string_view s);
[[nodiscard]] std::optional<optimizer_kind> optimizer_from_name(std::string_view s);
[[nodiscard]] std::optional<train_precision> train_precision_from_name(std::string_view s);

struct training_params {
    train_method method       = train_method::lora;
    optimizer_kind optimizer  = optimizer_kind::adamw;
    train_precision precision = train_precision::bf16_mixed;
    std::uint64_t seq         = 2048;
    std::uint64_t micro_batch = 1;
    bool grad_checkpointing   = false;
    std::uint32_t lora_rank   = 16;
    std::vector<std::string> lora_targets{"all-linear"}; ///< "all-linear" or short names q,k,v,o,gate,up,down
    std::uint32_t gpus       = 1;
    std::uint32_t zero_stage = 0;
    bool offload_optimizer   = false;
    std::uint64_t grad_accum = 1; ///< --grad-accum: micro-steps per optimizer step (1 to 2^20)
    weight_choice weights{};      ///< --weights: the frozen base of LoRA/QLoRA (native: by method and precision)
    std::string trainer = "hf";   ///< --trainer: a row of trainer_table() (llmplan/trainer.h)
    std::string trainer_release;  ///< --trainer NAME@RELEASE: the release (empty: the current one)
    std::string trainer_asked;    ///< --trainer as typed when it was not the row's own name (an alias, or no row)
    trainer_overrides overrides;  ///< --lora-dropout, --loss, --optimizer-in-backward, --batch-lengths, --fsdp-units
    /// --device-memory: each GPU's memory (0 = unknown); the caching allocator's reserve above the
    /// allocated peak cannot pass it (training_estimate::reclaimable_bytes).
    std::uint64_t device_memory_bytes = 0;
};

/// `p` run by another trainer (a row's name), at that trainer's current release.
inline training_params with_trainer(training_params p, std::string_view name) {
    p.trainer = std::string(name);
    p.trainer_release.clear();
    p.trainer_asked.clear();
    return p;
}

/// The trainer habits an estimate assumed, after --trainer and the overrides.
struct trainer_assumed {
    std::string name;
    std::string what;
    double lora_dropout        = 0;
    loss_impl loss             = loss_impl::full;
    bool optimizer_in_backward = false;
    bool foreach_step_temps    = false; ///< the optimizer step's parameter-sized temporaries were counted
    bool kbit_upcast           = false; ///< the 16-bit params of a bitsandbytes base were counted in fp32
    batch_lengths lengths      = batch_lengths::variable;
    bool fsdp_mixed_units      = false; ///< FSDP1 units mixing adapters and frozen weights (a base-sized gradient)
    bool no_sync_accumulation  = false; ///< accumulation micro-steps skip the gradient sync (unsharded gradients)
    std::string release;                ///< --trainer NAME@RELEASE: the release whose habits were taken ("": current)
};

/// How measured runs of the same kind fell around llmplan's estimate (measured / estimate - 1),
/// from the dev cases (tests/data/truth/train_cases.jsonl), generated by the accuracy test.
struct memory_band {
    std::string kind;        ///< e.g. "lora, 1 GPU"
    double low          = 0; ///< lowest measured / estimate - 1
    double high         = 0; ///< highest
    std::uint32_t cases = 0;
    std::string text; ///< "expected 18.2 GiB per GPU; measured runs of this kind (...): -3% to +9%"
    double p10 = 0;   ///< 10th percentile (nearest rank): 8 in 10 of the runs lie between p10 and p90
    double p90 = 0;   ///< 90th percentile
};

struct training_estimate {
    std::vector<device_breakdown> devices; ///< one per GPU (cuda:i), plus "cpu" when offloading
    std::uint64_t trainable_params = 0;
    std::uint64_t lora_params      = 0;
    double flops_per_token         = 0; ///< 6 x trained-through params (+2 with recomputation)
    std::string launch_config_json;     ///< DeepSpeed config the estimate assumed (multi-GPU, a DeepSpeed-launched
                                        ///< trainer), else empty
    std::vector<std::string> assumptions;
    trainer_assumed trainer;
    std::optional<memory_band> band; ///< absent when no dev case is of this kind
    /// Of each GPU's total, the caching allocator's reserve of earlier steps' blocks (--batch-lengths
    /// variable): counted in `overhead`, but released and the allocation retried before an
    /// out-of-memory error, so what must fit is the total minus this.
    std::uint64_t reclaimable_bytes = 0;
};

/// The band key of a workload: method and one GPU / several.
std::string training_kind(const training_params& p);
/// The dev cases' band for that kind (generated table, src/estimate/training_bands.inc).
std::optional<memory_band> training_band(const training_params& p);

result<training_estimate> estimate_training(const model_desc& m, const training_params& p);

} // namespace llmplan

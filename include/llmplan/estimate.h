// Memory estimates: pure functions of (model_desc, params) -> a breakdown per device.
//
// The part names are the contract's (../shared/cli-contract.md): weights, kv_cache, compute,
// activations, gradients, optimizer, master_weights, adapters, overhead. `overhead` is the
// runtime's own memory outside the framework's allocator, so total - overhead is what the
// framework allocated (torch.cuda.max_memory_allocated, or the sum of llama.cpp's buffer lines).
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"
#include "llmplan/weights.h"

#include <cstdint>
#include <optional>
#include <string>
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
    weight_choice weights{}; ///< --weights: the frozen base of LoRA/QLoRA (native: by method and precision)
};

struct training_estimate {
    std::vector<device_breakdown> devices; ///< one per GPU (cuda:i), plus "cpu" when offloading
    std::uint64_t trainable_params = 0;
    std::uint64_t lora_params      = 0;
    double flops_per_token         = 0; ///< 6 x trained-through params (+2 with recomputation)
    std::string launch_config_json;     ///< DeepSpeed config the estimate assumed (multi-GPU), else empty
    std::vector<std::string> assumptions;
};

result<training_estimate> estimate_training(const model_desc& m, const training_params& p);

} // namespace llmplan

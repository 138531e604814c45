// The three memory figures people read on a CUDA device of a PyTorch run (cli-contract.md
// `counters`): what torch.cuda.max_memory_allocated() reports at the peak, what
// max_memory_reserved() reports (the allocated tensors plus the blocks the caching allocator keeps
// cached), and what nvidia-smi shows for the process (reserved plus the CUDA context and the
// memory outside PyTorch's allocator: NCCL's buffers, library workspaces). Measured sources differ
// in which one they published (../shared/truth/COUNTERS.md).
#pragma once

#include "llmplan/estimate.h"
#include "llmplan/inference.h"

#include <cstdint>
#include <optional>

namespace llmplan::detail {

struct torch_counters {
    std::uint64_t torch_allocated = 0;
    std::uint64_t torch_reserved  = 0;
    std::uint64_t device_used     = 0; ///< = the device's total_bytes
};

/// A GPU of a training estimate (every trainer runs on PyTorch); nullopt for the host row.
std::optional<torch_counters> training_counters(const device_breakdown& d, const training_params& p);

/// A GPU of an inference estimate on a PyTorch engine (transformers, vLLM); nullopt otherwise.
std::optional<torch_counters> inference_counters(const device_breakdown& d, const inference_params& p);

} // namespace llmplan::detail

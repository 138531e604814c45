// The contract's three counters on each GPU of a training or PyTorch-engine inference estimate
// (estimate/counters.h).
#include "estimate/counters.h"
#include "estimate/runtime.h"
#include "estimate/training_detail.h"

#include <algorithm>

namespace llmplan::detail {
namespace {

std::uint64_t non_negative(std::int64_t v) {
    return static_cast<std::uint64_t>(std::max<std::int64_t>(v, 0));
}

} // namespace

std::optional<torch_counters> training_counters(const device_breakdown& d, const training_params& p) {
    if (d.kind != device_kind::cuda) return std::nullopt;
    // A training GPU's `overhead` (training.cpp) is the CUDA context, NCCL's buffers on several GPUs and
    // the caching allocator's cached blocks (its fixed slack and, with batches of varying length, the
    // reserve of earlier steps' blocks). Only the cached blocks are inside PyTorch's reserved figure;
    // the context and NCCL are what nvidia-smi adds on top of it.
    const std::uint64_t total     = non_negative(d.total_bytes());
    const std::uint64_t allocated = non_negative(d.parts.allocated());
    const std::uint64_t outside   = torch_cuda_context_bytes + (p.gpus > 1 ? nccl_bytes : 0);
    const std::uint64_t reserved  = std::max(allocated, total > outside ? total - outside : 0);
    return torch_counters{allocated, reserved, total};
}

std::optional<torch_counters> inference_counters(const device_breakdown& d, const inference_params& p) {
    // llama.cpp has its own buffers, no caching allocator: no PyTorch counter to read.
    if (d.kind != device_kind::cuda || p.engine == engine_kind::llama_cpp) return std::nullopt;
    // The inference estimates model no cached block beyond what the engine allocates (vLLM allocates its
    // KV pool up front), so reserved is taken as the allocated peak; `overhead` is the runtime's own
    // memory outside the allocator (CUDA context, CUDA graphs), which nvidia-smi adds.
    const std::uint64_t allocated = non_negative(d.total_bytes() - d.parts.overhead);
    return torch_counters{allocated, allocated, non_negative(d.total_bytes())};
}

} // namespace llmplan::detail

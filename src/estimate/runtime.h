// Memory of the GPU runtime outside the framework's allocator, shared by the estimators that run
// on PyTorch (transformers inference and every training estimate).
#pragma once

#include <cstdint>

namespace llmplan::detail {

/// CUDA context, cuBLAS/cuDNN handles and workspaces and the loaded kernels (flash-attn,
/// bitsandbytes): PyTorch 2.x on A100/H100 shows 0.5-1 GiB in nvidia-smi before the first tensor
/// is allocated; we take the top of that range so that "fits" is not optimistic.
constexpr std::uint64_t torch_cuda_context_bytes = std::uint64_t{1} << 30;

} // namespace llmplan::detail

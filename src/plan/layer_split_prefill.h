#pragma once
// llama.cpp prompt processing on a layer split (-sm layer) over the GPUs of one node: each
// micro-batch (ubatch) passes the GPUs in turn, and at every GPU boundary ggml's scheduler copies the
// boundary activations to the next GPU and waits for them (ggml_backend_sched_compute_splits,
// ggml/src/ggml-backend.cpp, ggml-org/llama.cpp at build b2824-b2843, May 2024: for each split, an
// input copy with ggml_backend_tensor_copy_async and an event wait before the split runs).

#include <cstdint>

namespace llmplan {

struct model_desc;

/// Bytes of one micro-batch's activations handed over at one GPU boundary: the residual stream of
/// `tokens` tokens, n_embd F32 values each (ggml keeps the residual stream in F32 on CUDA).
double llamacpp_boundary_bytes(const model_desc& m, std::uint64_t tokens);

/// Prefill tokens/s of a layer split over `gpus` GPUs of one node before the micro-batches overlap:
/// `one_gpu_tokens_per_s` (the whole model's prompt rate on one of these GPUs) with each micro-batch of
/// min(prompt, n_ubatch) tokens also paying gpus - 1 hand-overs, each the decode-fitted
/// llamacpp_layer_split_hop_s plus the copy of llamacpp_boundary_bytes over PCIe
/// (pcie_copy_bytes_per_s): for batches above GGML_CUDA_PEER_MAX_BATCH_SIZE = 128 tokens ggml-cuda
/// turns peer access off (ggml-cuda.cu), so the copy goes through the driver's staging in host
/// memory. Returns `one_gpu_tokens_per_s` for one GPU, an empty prompt or a rate of 0.
double llamacpp_split_prefill_tokens_per_s(double one_gpu_tokens_per_s, const model_desc& m, std::uint64_t prompt,
                                           std::uint64_t n_ubatch, unsigned gpus);

} // namespace llmplan

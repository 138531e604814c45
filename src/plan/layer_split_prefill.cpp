#include "plan/layer_split_prefill.h"

#include "llmplan/model_desc.h"
#include "plan/speed.h"

#include <algorithm>

namespace llmplan {

double llamacpp_boundary_bytes(const model_desc& m, std::uint64_t tokens) {
    // F32 residual stream: 4 bytes a value (ggml GGML_TYPE_F32).
    return static_cast<double>(tokens) * static_cast<double>(m.n_embd) * 4.0;
}

double llamacpp_split_prefill_tokens_per_s(double one_gpu_tokens_per_s, const model_desc& m, std::uint64_t prompt,
                                           std::uint64_t n_ubatch, unsigned gpus) {
    if (gpus < 2 || prompt == 0 || one_gpu_tokens_per_s <= 0) return one_gpu_tokens_per_s;
    const std::uint64_t tokens = n_ubatch > 0 ? std::min(prompt, n_ubatch) : prompt;
    const double compute_s     = static_cast<double>(tokens) / one_gpu_tokens_per_s;
    const double hop_s = llamacpp_layer_split_hop_s + llamacpp_boundary_bytes(m, tokens) / pcie_copy_bytes_per_s;
    return static_cast<double>(tokens) / (compute_s + static_cast<double>(gpus - 1) * hop_s);
}

} // namespace llmplan

// libFuzzer target: a checkpoint's quantization, as the 2026 formats arrive: a config.json (its
// quantization_config: ModelOpt, compressed-tensors, FP8 blocks, MXFP4; or MLX's `quantization`
// block), then, after a NUL byte, the hf_quant_config.json that ModelOpt writes beside it
// (src/model/quant_formats.cpp, read by src/model/load.cpp and the Hub reader). Never a crash, a
// hang, unbounded memory or undefined behaviour; the weights' bytes of what parses are summed
// through each tensor's stored layout (src/model/quant_checkpoint.cpp).
#include "llmplan/hf_config.h"
#include "llmplan/model_desc.h"
#include "model/quant_config.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto nul              = text.find('\0');
    const std::string_view conf = text.substr(0, nul);
    auto m                      = llmplan::parse_hf_config(conf, "config.json");
    if (!m.has_value()) return 0;
    if (nul != std::string_view::npos)
        (void)llmplan::detail::apply_hf_quant_config(*m, text.substr(nul + 1), "hf_quant_config.json");
    // Summed only for shapes a run sums in milliseconds: a 61-layer checkpoint of 256-384 experts
    // (the DeepSeek-V3.1 and Kimi K2.5 seeds) takes 1.5-2.5 s a run under ASan, where fuzzing wants
    // hundreds a second; their quantization configs are still parsed and applied above.
    if (m->n_layer <= 64 && m->moe.n_expert <= 64 && m->n_embd < (1u << 16) && m->n_vocab < (1u << 20))
        (void)llmplan::weights_bytes(*m);
    return 0;
}

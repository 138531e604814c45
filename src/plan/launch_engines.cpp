// SGLang's and mlx-lm's launch lines (launch_engines.h).
#include "plan/launch_engines.h"

#include "estimate/engines.h"
#include "plan/launch_source.h"

#include <fmt/format.h>

namespace llmplan::detail {

std::string sglang_launch_line(const model_desc& m, const inference_params& p, unsigned tp, double fraction) {
    if (tp == 0) tp = 1;
    if (fraction <= 0) fraction = sglang_static_fraction(m, p.device_memory_bytes, tp, p.version);
    // vllm_model_arg: the repo id, with --revision COMMIT when pinned (SGLang takes --revision too).
    std::string s = fmt::format("python -m sglang.launch_server --model-path {} --tp {} --mem-fraction-static {:.3f} "
                                "--context-length {}",
                                vllm_model_arg(m), tp, fraction, p.ctx);
    if (p.batch > 1) s += fmt::format(" --max-running-requests {}", p.batch);
    if (p.kv_type && *p.kv_type == dtype::f8_e4m3) s += " --kv-cache-dtype fp8_e4m3";
    return s;
}

std::string mlx_generate_line(const model_desc& m, const inference_params& p) {
    std::string s = fmt::format("mlx_lm.generate --model {} --prompt 'Hello' --max-tokens 256", vllm_model_arg(m));
    // --kv-bits quantizes the KV cache (QuantizedKVCache, group 64).
    if (p.kv_type && *p.kv_type == dtype::q8_0) s += " --kv-bits 8";
    if (p.kv_type && *p.kv_type == dtype::q4_0) s += " --kv-bits 4";
    return s;
}

std::string mlx_server_line(const model_desc& m) {
    return fmt::format("mlx_lm.server --model {}", vllm_model_arg(m));
}

} // namespace llmplan::detail

// Launch lines of SGLang and mlx-lm (launch_engines.cpp), kept apart so that other parts of the plan
// (serving at load) build the same lines.
#pragma once

#include "llmplan/inference.h"
#include "llmplan/model_desc.h"

#include <string>

namespace llmplan::detail {

/// `python -m sglang.launch_server --model-path ORG/NAME --tp N --mem-fraction-static F
/// --context-length L` (sgl-project/sglang python/sglang/srt/server_args.py: --model-path, --tp-size
/// alias --tp, --mem-fraction-static, --context-length, --kv-cache-dtype fp8_e4m3,
/// --max-running-requests). `fraction` <= 0: the release's default for p.device_memory_bytes.
std::string sglang_launch_line(const model_desc& m, const inference_params& p, unsigned tp, double fraction = 0);

/// mlx-lm's command lines: `mlx_lm.generate --model ORG/NAME --max-kv-size ...` and `mlx_lm.server
/// --model ORG/NAME` (mlx_lm/generate.py and server.py argument parsers; --kv-bits 8/4 for a
/// quantized KV cache in generate).
std::string mlx_generate_line(const model_desc& m, const inference_params& p);
std::string mlx_server_line(const model_desc& m);

} // namespace llmplan::detail

// Defaults of an engine that depend on its release and that the request fills in when the user did
// not set them (src/api/run.cpp); the table of release rows is src/estimate/engine_versions.cpp.
#pragma once

#include "llmplan/engine_version.h"

namespace llmplan::detail {

/// llama.cpp without --flash-attn: "auto" from build b6327 (PR 15434, Aug 2025), which turns flash
/// attention on wherever the backend has the kernel (CUDA, Metal and the CPU: llama-context.cpp
/// checks that the layers' devices support FLASH_ATTN_EXT); off in earlier builds.
bool llama_flash_attn_by_default(engine_version v);

} // namespace llmplan::detail

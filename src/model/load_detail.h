// Pieces of load_model shared with the Hub reader (src/model/hub): the same mapping from a
// config plus safetensors headers, or from a GGUF header, whatever the bytes came from.
#pragma once

#include "llmplan/gguf.h"
#include "llmplan/model_desc.h"
#include "llmplan/safetensors.h"

#include <filesystem>
#include <string>

namespace llmplan::detail {

/// The config's description with the checkpoint's tensors (unquantized) or bytes on disk (quantized).
result<model_desc> add_checkpoint(model_desc m, const safetensors_model& st);
/// A folder holding config.json and maybe safetensors files.
result<model_desc> load_model_dir(const std::filesystem::path& dir);
/// A GGUF header (one file or a split set) as a model; `path` names it.
result<model_desc> model_from_gguf_file(const gguf_file& g, const std::string& path);

} // namespace llmplan::detail

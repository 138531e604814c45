// A model sent as bytes rather than named: the web page's dropped config.json or .gguf header.
#pragma once

#include "llmplan/error.h"
#include "llmplan/model_desc.h"

#include <cstdint>
#include <string_view>

namespace llmplan {

/// Largest body load_model_bytes takes: a GGUF header with a 256k-token vocabulary (Gemma) is about
/// 6 MiB of token strings plus scores and types; a config.json is under 40 KB (DeciLM, the largest
/// in data/models). 16 MiB holds both with room; the page sends at most this many bytes of a file.
inline constexpr std::uint64_t max_model_bytes = std::uint64_t{16} << 20;

/// Parses a model held in memory, never touching the file system: a GGUF (starts with "GGUF"),
/// whole or its first bytes, or a config.json. `name` is the file's name, used in messages, as the
/// model's id, and as the GGUF launch lines' file. `file_size_bytes` is the whole GGUF's size when
/// `bytes` is only its beginning (0: unknown; tensor extents are then not checked).
result<model_desc> load_model_bytes(std::string_view bytes, std::string_view name, std::uint64_t file_size_bytes = 0);

} // namespace llmplan

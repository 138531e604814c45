// Internals shared by the GGUF reader files (gguf.cpp, gguf_read_file.cpp, gguf_value.cpp).
#pragma once

#include "llmplan/gguf.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace llmplan::detail {

/// Parses a GGUF header from `bytes`, the first bytes of a file of `file_size` bytes. When it fails
/// only because `bytes` ends before the header does, `need_more` is set: read more and retry.
result<gguf_file> parse_gguf(std::span<const std::byte> bytes, std::string_view path, std::uint64_t file_size,
                             bool check_extent, bool& need_more);

/// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view s);

} // namespace llmplan::detail

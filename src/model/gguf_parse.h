// Internals shared by the GGUF reader files (gguf.cpp, gguf_read_file.cpp, gguf_value.cpp).
#pragma once

#include "llmplan/gguf.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace llmplan::detail {

/// Parses a GGUF header from `bytes`, the first bytes of a file of `file_size` bytes. When it fails
/// only because `bytes` ends before the header does, `need_more` is set: read more and retry.
result<gguf_file> parse_gguf(std::span<const std::byte> bytes, std::string_view path, std::uint64_t file_size,
                             bool check_extent, bool& need_more);

/// One file of a GGUF set, header parsed (gguf_file::parts holds that one file).
using gguf_part_reader = std::function<result<gguf_file>(const std::string& path)>;

/// The model named by `path` through `read_part`: one file, or every part of a split set (the
/// first part's key/values, every part's tensors), from the parts' names "<prefix>-0000K-of-0000N.gguf".
result<gguf_file> read_gguf_set(const std::string& path, const gguf_part_reader& read_part);

/// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view s);

} // namespace llmplan::detail

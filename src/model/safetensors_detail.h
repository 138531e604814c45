// Internals shared by the safetensors header reader and the directory reader.
#pragma once

#include "llmplan/error.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace llmplan::detail {

/// Parses JSON text, keeping key order; duplicate keys (which nlohmann would silently collapse)
/// give error_code::duplicate_key with the JSON pointer, syntax errors give error_code::bad_json
/// with "path:offset" = base_offset + the parser's byte position. Never throws.
result<nlohmann::ordered_json> parse_json_strict(std::string_view text, std::string_view path,
                                                 std::uint64_t base_offset);

/// At most max_chars of s, with control and non-ASCII bytes written as \xNN (for error messages).
std::string printable(std::string_view s, std::size_t max_chars = 200);

/// "/a~1b" style JSON pointer of one key (RFC 6901 escaping), printable.
std::string json_pointer(std::string_view key);

} // namespace llmplan::detail

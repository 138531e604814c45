// Helpers of the engine-log reader (src/check/log_parse.cpp, log_lines.cpp), exposed for tests.
#pragma once

#include "llmplan/check.h"

#include <optional>
#include <string>
#include <string_view>

namespace llmplan::detail {

/// A decimal number at the start of s ("24079,77" and "24079.77" alike); `used` = characters read.
std::optional<double> parse_number(std::string_view s, std::size_t& used);
/// The text after `key` in line, past separators (" = : ( '") and the words take/takes/took/is.
std::optional<std::string_view> value_after(std::string_view line, std::string_view key);
/// True when s starts with what an engine prints for a number no size or count can be: a sign
/// ("-5", "+3") or "nan"/"inf".
bool is_unusable_number(std::string_view s);
/// value x its unit (GiB/GB/MiB/MB/KiB/KB at the start of unit_text) in bytes; nothing without a unit
/// or past max_log_bytes.
std::optional<std::uint64_t> bytes_of(double value, std::string_view unit_text);
/// The largest figure a log line may give: 2^50 bytes (1 PiB).
inline constexpr std::uint64_t max_log_bytes = 1ull << 50;
/// The number after `key` in line, past separators (" = : ( '") and the words take/takes/took/is.
std::optional<double> number_after(std::string_view line, std::string_view key, std::string_view* rest = nullptr);
/// A size with its unit (GiB/GB/MiB/MB/KiB) after `key`, in bytes.
std::optional<std::uint64_t> size_after(std::string_view line, std::string_view key);
/// "cpu", "metal" or "cuda:N" for a ggml buffer name (CPU, CPU_Mapped, CUDA_Host, CUDA1, Metal, Vulkan0 ...).
std::string device_of_buffer(std::string_view name);
/// llama-quantize's name for a file type as llama.cpp prints it ("Q4_K - Medium" -> "q4_k_m").
std::optional<std::string> gguf_ftype_of(std::string_view printed);

} // namespace llmplan::detail

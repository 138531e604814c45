// Sizes people type ("80GiB", "24 GB", "81121MiB") -> bytes.
#pragma once

#include "llmplan/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llmplan {

/// Decimal (KB, MB, GB, TB) and binary (KiB, MiB, GiB, TiB) units, or a plain byte count.
/// `what` names the option or field in the error.
result<std::uint64_t> parse_size_bytes(std::string_view s, std::string_view what);

/// Counts people type ("100M", "2B", "5e8", "250k"): decimal k/M/B (or G)/T suffixes or an exponent;
/// at least 1, at most 1e18. `what` names the option or field in the error.
result<std::uint64_t> parse_count(std::string_view s, std::string_view what);

/// Bytes as "12.3 GiB" (binary GiB, `decimals` places): the one wording of reasons and notes.
std::string gib_text(double bytes, int decimals = 1);

/// A speed as people read it: one decimal from 1 up ("26.2"), two significant digits below
/// ("0.042", never "0.0"), "unknown" for 0 or less (a missing figure, not a slow one).
std::string tokens_per_s_text(double tokens_per_s);

} // namespace llmplan

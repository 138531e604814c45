// Binary size units as byte counts, one definition for every file (a unity build compiles several
// files as one, where per-file copies of these constants would collide).
#pragma once

#include <cstdint>

namespace llmplan::detail {

inline constexpr std::uint64_t kib_bytes = std::uint64_t{1} << 10;
inline constexpr std::uint64_t mib_bytes = std::uint64_t{1} << 20;
inline constexpr std::uint64_t gib_bytes = std::uint64_t{1} << 30;

} // namespace llmplan::detail

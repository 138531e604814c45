// The binary search the reverse questions (--memory) share.
#pragma once

#include <cstdint>

namespace llmplan::detail {

/// Largest v in [1, hi] with ok(v), assuming ok is monotone (true then false); 0 when hi is 0 or
/// ok(1) fails.
template <class F> std::uint64_t largest_true(std::uint64_t hi, F ok) {
    if (hi == 0 || !ok(1)) return 0;
    std::uint64_t lo = 1;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo + 1) / 2;
        if (ok(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace llmplan::detail

// The one way a floating-point value becomes an integer: checked for NaN, infinity and the range of
// the target type before the conversion, so that no value read from text (a log, a config.json, Hub
// JSON, GGUF metadata, an option, a query string) or computed from one can reach the undefined
// behaviour of an out-of-range float-to-integer cast ([conv.fpint]: "the behavior is undefined if
// the truncated value cannot be represented in the destination type").
//
// Callers say how to round (a size in bytes rounds up where an under-estimate would crash, a count
// of whole blocks rounds down), and what to do when the value does not fit: `to_integer` returns
// nothing, `integer_field` an error naming the field, `saturate` the nearest bound (for figures the
// library computed itself and only prints, never for input).
#pragma once

#include "llmplan/error.h"

#include <cmath>
#include <concepts>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string_view>

namespace llmplan::detail {

/// a / b rounded up (b = 0 gives a: no division).
inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
    return b == 0 ? a : (a + b - 1) / b;
}

enum class rounding {
    nearest, ///< std::round: halves away from zero
    down,    ///< std::floor
    up,      ///< std::ceil
    toward_zero,
};

inline double apply_rounding(double v, rounding r) {
    switch (r) {
    case rounding::nearest:
        return std::round(v);
    case rounding::down:
        return std::floor(v);
    case rounding::up:
        return std::ceil(v);
    case rounding::toward_zero:
        return std::trunc(v);
    }
    return std::trunc(v);
}

/// True when the integral double `whole` is a value of T. The bounds are powers of two, exact in a
/// double: [-2^digits, 2^digits) for a signed T, [0, 2^digits) for an unsigned one.
template <std::integral T> bool fits_integer(double whole) {
    if (!std::isfinite(whole)) return false;
    const double upper = std::ldexp(1.0, std::numeric_limits<T>::digits);
    const double lower = std::numeric_limits<T>::is_signed ? -upper : 0.0;
    return whole >= lower && whole < upper;
}

/// v rounded as asked, or nothing when v is NaN, infinite or outside T.
template <std::integral T> std::optional<T> to_integer(double v, rounding r = rounding::nearest) {
    const double whole = apply_rounding(v, r);
    if (!fits_integer<T>(whole)) return std::nullopt;
    return static_cast<T>(whole); // in range: checked above
}

/// v as an integer of [lo, hi], or an error naming the field: "FIELD = V is not a whole number from
/// LO to HI". For values read from input.
template <std::integral T>
result<T> integer_field(double v, std::string_view field, T lo, T hi, rounding r = rounding::nearest) {
    const auto i = to_integer<T>(v, r);
    if (!i || *i < lo || *i > hi)
        return make_error(error_code::bad_value,
                          fmt::format("{} = {} is out of range; expected a number from {} to {}", field,
                                      std::isfinite(v) ? fmt::format("{:g}", v) : std::string("not a number"), lo, hi));
    return *i;
}

/// v rounded as asked and held to T's range (NaN gives 0). Only for figures the library computed
/// from values already checked on input (a product of valid sizes that exceeds 2^64 bytes says
/// "more than any machine has" either way); never for input.
template <std::integral T> T saturate(double v, rounding r = rounding::nearest) {
    if (std::isnan(v)) return 0;
    const double whole = apply_rounding(v, r);
    if (fits_integer<T>(whole)) return static_cast<T>(whole); // in range: checked above
    return whole < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
}

} // namespace llmplan::detail

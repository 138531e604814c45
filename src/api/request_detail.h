// The option parser's shared pieces: one option's text as a typed value, and the checks every
// command's options go through (request.cpp, request_values.cpp, request_serving.cpp).
#pragma once

#include "llmplan/request.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmplan::request_detail {

using id = option_id;

/// An error naming the option (its "--name" is the error's field).
error bad(const option_spec& o, std::string message);

/// Whether v is one of the words of a space-separated set.
bool in_set(std::string_view set, std::string_view v);

/// A MODEL (or --from) that names a file or folder rather than a catalog id or a hub repo.
bool looks_like_path(std::string_view v);

/// One option's text as a typed value; the option's own syntax only (ranges that depend on other
/// options are the estimators' validate()).
struct value {
    std::string text;
    std::uint64_t u = 0;
    std::int64_t i  = 0;
    double d        = 0;
    bool on         = false;
};

result<value> parse_value(const option_spec& o, const std::string& v);

/// A count that must fit 32 bits.
result<std::uint32_t> narrow(const option_spec& o, std::uint64_t v);

/// "a,b,,c" -> a, b, c appended to into.
void split_list(const std::string& v, std::vector<std::string>& into);

/// The enum value a word names (the table's value set was checked before).
template <class E> E pick(const std::string& v, std::initializer_list<std::pair<const char*, E>> rows) {
    for (const auto& [n, x] : rows)
        if (v == n) return x;
    return rows.begin()->second; // unreachable: the table's value set was checked first
}

/// A whole number of [lo, hi], or an error naming the option.
result<std::uint64_t> in_range(const option_spec& o, std::uint64_t v, std::uint64_t lo, std::uint64_t hi);

/// A number of (lo, hi], or an error naming the option.
result<double> number_in(const option_spec& o, double v, double lo, double hi, std::string_view unit);

/// Serving at load (the contract's "Serving at load").
status apply_serving(serving_request& s, const option_spec& o, const value& v);

} // namespace llmplan::request_detail

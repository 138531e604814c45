// One option's text as a typed value, and the range checks every command's options share.
#include "api/request_detail.h"
#include "detail/checked_number.h"
#include "estimate/engine_traits.h"
#include "llmplan/check.h"
#include "llmplan/units.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace llmplan::request_detail {

error bad(const option_spec& o, std::string message) {
    return error{error_code::invalid_params, std::move(message), fmt::format("--{}", o.name)};
}

bool in_set(std::string_view set, std::string_view v) {
    std::size_t at = 0;
    while (at < set.size()) {
        std::size_t end = set.find(' ', at);
        if (end == std::string_view::npos) end = set.size();
        if (set.substr(at, end - at) == v) return true;
        at = end + 1;
    }
    return false;
}

/// A MODEL (or --from) that names a file or folder rather than a catalog id or a hub repo.
bool looks_like_path(std::string_view v) {
    auto ends = [&](std::string_view s) { return v.size() >= s.size() && v.substr(v.size() - s.size()) == s; };
    return v.empty() || v.front() == '/' || v.front() == '.' || v.front() == '~' ||
           v.find('\\') != std::string_view::npos || v.find("..") != std::string_view::npos || ends(".gguf") ||
           ends(".json") || ends(".safetensors");
}

result<value> parse_value(const option_spec& o, const std::string& v) {
    value out{v};
    const char* b = v.data();
    const char* e = v.data() + v.size();
    switch (o.kind) {
    case value_kind::flag:
        if (v != "1" && v != "true" && !v.empty()) return bad(o, fmt::format("\"{}\"; a flag takes 1 or nothing", v));
        out.on = true;
        return out;
    case value_kind::text:
    case value_kind::list:
        if (v.empty()) return bad(o, "empty; expected a value");
        return out;
    case value_kind::choice:
        if (!in_set(o.values, v)) return bad(o, fmt::format("\"{}\"; expected one of: {}", v, o.values));
        out.on = v == "on";
        return out;
    case value_kind::uint:
    case value_kind::positive: {
        auto [p, ec] = std::from_chars(b, e, out.u);
        if (v.empty() || ec != std::errc{} || p != e)
            return bad(o, fmt::format("\"{}\"; expected a whole number{}", v,
                                      o.kind == value_kind::positive ? " of at least 1" : " >= 0"));
        if (o.kind == value_kind::positive && out.u == 0) return bad(o, "0; expected at least 1");
        return out;
    }
    case value_kind::sint: {
        auto [p, ec] = std::from_chars(b, e, out.i);
        if (v.empty() || ec != std::errc{} || p != e) return bad(o, fmt::format("\"{}\"; expected a whole number", v));
        return out;
    }
    case value_kind::number: {
        auto [p, ec] = std::from_chars(b, e, out.d);
        if (v.empty() || ec != std::errc{} || p != e || !std::isfinite(out.d))
            return bad(o, fmt::format("\"{}\"; expected a finite number", v));
        return out;
    }
    case value_kind::size: {
        auto s = parse_size_bytes(v, fmt::format("--{}", o.name));
        if (!s) return s.error();
        out.u = *s;
        return out;
    }
    case value_kind::count: {
        auto n = parse_count(v, fmt::format("--{}", o.name));
        if (!n) return n.error();
        out.u = *n;
        return out;
    }
    }
    return out;
}

result<std::uint32_t> narrow(const option_spec& o, std::uint64_t v) {
    if (v > std::numeric_limits<std::uint32_t>::max()) return bad(o, fmt::format("{}; too large", v));
    return static_cast<std::uint32_t>(v);
}

void split_list(const std::string& v, std::vector<std::string>& into) {
    std::size_t at = 0;
    while (at <= v.size()) {
        std::size_t end = v.find(',', at);
        if (end == std::string::npos) end = v.size();
        if (end > at) into.push_back(v.substr(at, end - at));
        at = end + 1;
    }
}

/// A whole number of [lo, hi] (the checked conversion of checked_number.h), or an error naming the option.
result<std::uint64_t> in_range(const option_spec& o, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    auto n = detail::integer_field<std::uint64_t>(static_cast<double>(v), fmt::format("--{}", o.name), lo, hi);
    if (!n) return bad(o, fmt::format("{}; expected a whole number from {} to {}", v, lo, hi));
    return *n;
}

/// A number of (lo, hi], or an error naming the option.
result<double> number_in(const option_spec& o, double v, double lo, double hi, std::string_view unit) {
    if (!(v > lo) || !(v <= hi))
        return bad(o, fmt::format("{:g}; expected a number above {:g} and at most {:g}{}", v, lo, hi, unit));
    return v;
}

} // namespace llmplan::request_detail

// Small text helpers for the detection parsers (detect.cpp, detect_parse.cpp).
#pragma once

#include "detail/strings.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace llmplan::detail {

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

template <class F> void for_each_line(std::string_view text, F f) {
    while (!text.empty()) {
        const auto nl = text.find('\n');
        f(text.substr(0, nl));
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
}

inline std::optional<std::uint64_t> to_u64(std::string_view s) {
    s                  = trim(s);
    std::uint64_t v    = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p == s.data()) return std::nullopt;
    return v;
}

} // namespace llmplan::detail

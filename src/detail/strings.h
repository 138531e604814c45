// ASCII case folding for names (model ids, dtype and GGUF type names, hardware names, JSON keys).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace llmplan::detail {

inline char lower_char(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

inline std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = lower_char(c);
    return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower_char(a[i]) != lower_char(b[i])) return false;
    return true;
}

/// Whether sub occurs in s (case-sensitive).
inline bool has(std::string_view s, std::string_view sub) {
    return s.find(sub) != std::string_view::npos;
}

} // namespace llmplan::detail

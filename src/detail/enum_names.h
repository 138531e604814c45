// Names of enum values from a table of (value, name) rows: one lookup instead of a switch per enum.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace llmplan::detail {

template <class E> struct enum_name_row {
    E value;
    std::string_view name;
};

/// The row's name for `e`; `otherwise` when no row holds it (a value cast from a bad integer).
template <class E, std::size_t N>
constexpr std::string_view name_in(const enum_name_row<E> (&rows)[N], E e, std::string_view otherwise = "?") {
    for (const auto& r : rows)
        if (r.value == e) return r.name;
    return otherwise;
}

/// The value whose row is named `name`; nullopt when none is (the reverse of name_in).
template <class E, std::size_t N>
constexpr std::optional<E> value_in(const enum_name_row<E> (&rows)[N], std::string_view name) {
    for (const auto& r : rows)
        if (r.name == name) return r.value;
    return std::nullopt;
}

/// A table indexed by an enum: row i holds the value i in `member` (for a static_assert beside it).
template <class Row, std::size_t N, class E>
constexpr bool rows_in_enum_order(const std::array<Row, N>& rows, E Row::*member) {
    for (std::size_t i = 0; i < N; ++i)
        if (static_cast<std::size_t>(rows[i].*member) != i) return false;
    return true;
}

} // namespace llmplan::detail

// Writing members into a JSON object under their own names: one list of names where the document's
// key is the member's name, instead of a {"name", x.name} line for each.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>

namespace nlohmann {
/// An empty optional is null (nlohmann_json 3.11.2 has no std::optional conversion of its own).
template <class T> struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& v) { j = v ? json(*v) : json(nullptr); }
};
} // namespace nlohmann

namespace llmplan::detail {
template <class T> struct names_needed : std::is_enum<T> {};
template <class T> struct names_needed<std::optional<T>> : std::is_enum<T> {};

/// j[key] = v, refusing enums (and optional enums): nlohmann would write an enum as its integer, the
/// documents want its name.
template <class T> void json_member(nlohmann::json& j, const char* key, const T& v) {
    static_assert(!names_needed<T>::value, "an enum member needs its name: write it with to_string()");
    j[key] = v;
}
} // namespace llmplan::detail

#define LLMPLAN_JSON_MEMBER(m) ::llmplan::detail::json_member(llmplan_json_j, #m, llmplan_json_x.m);

/// LLMPLAN_JSON_MEMBERS(j, x, a, b): j["a"] = x.a; j["b"] = x.b; (up to 63 names, applied one by one
/// with NLOHMANN_JSON_PASTE, the step nlohmann's NLOHMANN_DEFINE_TYPE_* macros use).
#define LLMPLAN_JSON_MEMBERS(j, x, ...)                                                                                \
    do {                                                                                                               \
        auto& llmplan_json_j       = (j);                                                                              \
        const auto& llmplan_json_x = (x);                                                                              \
        NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(LLMPLAN_JSON_MEMBER, __VA_ARGS__))                                    \
    } while (false)

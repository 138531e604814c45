// Writing members into a JSON object under their own names: one list of names where the document's
// key is the member's name, instead of a {"name", x.name} line for each.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace nlohmann {
/// An empty optional is null (nlohmann_json 3.11.2 has no std::optional conversion of its own).
template <class T> struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& v) { j = v ? json(*v) : json(nullptr); }
};
} // namespace nlohmann

/// LLMPLAN_JSON_MEMBERS(j, x, a, b): j["a"] = x.a; j["b"] = x.b; (up to 63 names; nlohmann's
/// NLOHMANN_JSON_PASTE applies NLOHMANN_JSON_TO, the step its NLOHMANN_DEFINE_TYPE_* macros use, to each).
#define LLMPLAN_JSON_MEMBERS(j, x, ...)                                                                                \
    do {                                                                                                               \
        auto& nlohmann_json_j       = (j);                                                                             \
        const auto& nlohmann_json_t = (x);                                                                             \
        NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                                       \
    } while (false)

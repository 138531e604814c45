// Small readers of config.json fields shared by the model readers.
#pragma once

#include <nlohmann/json.hpp>

namespace llmplan::detail {

/// true only where key holds the JSON boolean true (absent, null or another type: false).
inline bool json_flag(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

} // namespace llmplan::detail

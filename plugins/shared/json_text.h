#pragma once

// Reading strings out of rows, bodies and arguments (JSON) in feature plugins.

#include <string>

#include <nlohmann/json.hpp>

namespace docintel::shared {

/// The string `j[key]`, or "" when `j` is not an object, or the key is absent or not a string.
inline std::string textOf(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return {};
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace docintel::shared

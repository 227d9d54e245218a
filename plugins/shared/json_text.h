#pragma once

// Reading strings out of rows, bodies and arguments (JSON) in feature plugins, and writing
// optional ones back.

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace docintel::shared {

/// The string `j[key]`, or "" when `j` is not an object, or the key is absent or not a string.
inline std::string textOf(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return {};
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The member of `j` at `path` ("visit", "date", "value"), or null when a step is missing or
/// not an object. A const `operator[]` on a missing key is a broken precondition, not a null.
inline const nlohmann::json& memberAt(const nlohmann::json& j,
                                      std::initializer_list<const char*> path) {
    static const nlohmann::json kNull;
    const nlohmann::json* at = &j;
    for (const char* key : path) {
        if (!at->is_object()) return kNull;
        const auto it = at->find(key);
        if (it == at->end()) return kNull;
        at = &*it;
    }
    return *at;
}

/// `s`, or null when it is empty (an optional text in an answer).
inline nlohmann::json nullable(const std::string& s) {
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

}  // namespace docintel::shared

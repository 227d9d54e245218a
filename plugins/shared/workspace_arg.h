#pragma once

// The workspace a feature plugin's operation acts in. Header-only; thread-safe.

#include <string>

#include <nlohmann/json.hpp>

namespace docintel::shared {

/// The body's `workspace_id`, else its `ws` (MCP's argument) — "personal" and "" name none —
/// else `fallback` (REST's X-DocIntel-Workspace-ID header).
inline std::string workspaceArgument(const nlohmann::json& body, const std::string& fallback) {
    if (!body.is_object()) return fallback;
    for (const char* key : {"workspace_id", "ws"}) {
        const auto it = body.find(key);
        if (it != body.end() && it->is_string() && !it->get<std::string>().empty() &&
            it->get<std::string>() != "personal") {
            return it->get<std::string>();
        }
    }
    return fallback;
}

}  // namespace docintel::shared

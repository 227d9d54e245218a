#pragma once

// What a feature plugin's doors (its REST routes, MCP tools and resources) share: the JSON
// Schema pieces of their inputs, the route and tool records, and the answer of an operation.
// Header-only; thread-safe.

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/registrar.h"

namespace docintel::shared {

/// A REST answer: the operation's JSON with `status` (0 = the route's success status), or its
/// error.
inline plugin::Result<plugin::HttpResponse> respond(plugin::Result<nlohmann::json> out,
                                                    int status = 0) {
    if (!out) return out.error();
    return plugin::HttpResponse::json(status, std::move(out).value());
}

namespace schema {

inline nlohmann::json string(const std::string& description, int max_length = 0) {
    nlohmann::json s = {{"type", "string"}, {"description", description}};
    if (max_length > 0) s["maxLength"] = max_length;
    return s;
}
inline nlohmann::json boolean(const std::string& description) {
    return {{"type", "boolean"}, {"description", description}};
}
inline nlohmann::json integer(const std::string& description, int minimum, int maximum) {
    return {{"type", "integer"},
            {"minimum", minimum},
            {"maximum", maximum},
            {"description", description}};
}
inline nlohmann::json object(nlohmann::json properties, std::vector<std::string> required) {
    return {{"type", "object"},
            {"properties", std::move(properties)},
            {"required", std::move(required)}};
}

}  // namespace schema

/// One REST route of the plugin (`request_schema` names a schema added with addSchema; empty
/// = no body).
inline void addRoute(plugin::Registrar& r, std::string method, std::string path,
                     std::string operation_id, std::string summary, std::vector<std::string> scopes,
                     std::string request_schema, plugin::HttpHandler handler,
                     int success_status = 200) {
    plugin::RouteDefinition def;
    def.method = std::move(method);
    def.path = std::move(path);
    def.operation_id = std::move(operation_id);
    def.summary = std::move(summary);
    def.scopes = std::move(scopes);
    def.request_schema = std::move(request_schema);
    def.success_status = success_status;
    def.handler = std::move(handler);
    r.addRoute(std::move(def));
}

/// One MCP tool of the plugin.
inline void addTool(
    plugin::Registrar& r, std::string name, std::string description, nlohmann::json input_schema,
    std::vector<std::string> scopes,
    std::function<plugin::Result<nlohmann::json>(const plugin::ToolCall&)> handler) {
    plugin::McpToolDefinition t;
    t.name = std::move(name);
    t.description = std::move(description);
    t.input_schema = std::move(input_schema);
    t.scopes = std::move(scopes);
    t.handler = std::move(handler);
    r.addMcpTool(std::move(t));
}

/// The id that follows `prefix` in a resource URI ("docintel://videos/<id>/timeline" with
/// prefix "docintel://videos/" → "<id>").
inline std::string resourceId(const std::string& uri, const std::string& prefix) {
    std::string id = uri.substr(std::min(uri.size(), prefix.size()));
    return id.substr(0, id.find('/'));
}

}  // namespace docintel::shared

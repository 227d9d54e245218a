#pragma once

// The pieces every built-in tool table (mcp_tools.cpp, mcp_vertical_tools.cpp) is made of:
// argument readers and the JSON Schemas tools declare.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "http/schema_validator.h"
#include "mcp/mcp_types.h"

namespace docintel::mcp {

using Scopes = std::vector<std::string>;

/// `workspace_id` of the arguments: null, absent, "" and "personal" mean the personal scope.
std::string workspaceArg(const nlohmann::json& args);
/// A string argument, or "" when absent or not a string.
std::string stringArg(const nlohmann::json& args, const char* name);

nlohmann::json workspaceProperty();
nlohmann::json documentIdProperty(const char* what = "The document's id (a UUID).");
/// `{"type":"object","properties":...,"required":...}`.
nlohmann::json objectSchema(nlohmann::json properties,
                            nlohmann::json required = nlohmann::json::array());
/// A REST body schema as a tool's input schema, with `describe` notes on its properties.
nlohmann::json restSchema(const http::SchemaRegistry& schemas, const std::string& name,
                          const nlohmann::json& describe);
/// The declared output: `structuredContent` is always `{"result": <value>}`.
nlohmann::json output(nlohmann::json result_schema);
/// The declared output of a tool whose result is an object with these properties.
nlohmann::json output(nlohmann::json properties, nlohmann::json required);
nlohmann::json anyObject();

/// A service's `validation_error` (its message the 422 detail array) as bad arguments
/// (`kInvalidArguments`, answered with JSON-RPC -32602) whose message names each place,
/// `inputs.policy_document_ids: field required`; other errors unchanged (tool results with
/// isError). The tool dispatcher applies it to every tool's error, built-in or a plugin's.
plugin::Error toolError(const plugin::Error& e);

/// A tool whose handler needs only the call (no progress reporting).
template <typename F>
ToolHandler call(F&& f) {
    return
        [f = std::forward<F>(f)](const plugin::ToolCall& c,
                                 ToolContext&) -> plugin::Result<nlohmann::json> { return f(c); };
}

}  // namespace docintel::mcp

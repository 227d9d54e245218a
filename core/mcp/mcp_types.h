#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/registrar.h"
#include "plugin_api/result.h"

namespace docintel::mcp {

/// Where a running tool reports progress and log messages. They reach the client as
/// `notifications/progress` and `notifications/message` on an SSE response when the client
/// accepts one (and, for progress, sent a `progressToken`); otherwise they are dropped.
/// Used by one request thread at a time.
class ToolContext {
  public:
    virtual ~ToolContext() = default;
    virtual void progress(double progress, double total, const std::string& message) = 0;
    /// `level` is an MCP log level (debug, info, notice, warning, error, ...).
    virtual void log(const std::string& level, const nlohmann::json& data) = 0;
};

using ToolHandler =
    std::function<plugin::Result<nlohmann::json>(const plugin::ToolCall&, ToolContext&)>;

/// One MCP tool: what `tools/list` shows and what `tools/call` runs. Built-in tools are thin
/// adapters over the services REST calls (mcp_tools.cpp is the table); plugin tools come from
/// the plugin registry.
struct Tool {
    std::string name{};
    std::string title{};
    std::string description{};
    nlohmann::json input_schema{};           ///< a complete JSON Schema object
    nlohmann::json output_schema = nullptr;  ///< null = not declared
    std::vector<std::string> scopes{};       ///< all required
    bool requires_confirm = false;           ///< refuse unless arguments.confirm is true
    bool read_only = false;                  ///< annotations.readOnlyHint
    bool destructive = false;                ///< annotations.destructiveHint
    bool validate_arguments = true;          ///< check arguments against input_schema
    /// The handler returns an MCP CallToolResult itself instead of a value that is wrapped as
    /// `structuredContent: {"result": ...}` (the conformance fixtures only).
    bool raw_result = false;
    std::string plugin{};  ///< empty for built-in tools
    ToolHandler handler{};
};

/// A resource template (`docintel://documents/{document_id}`) or, without variables, a fixed
/// resource (listed by `resources/list`).
struct Resource {
    std::string uri_template{};
    std::string name{};
    std::string title{};
    std::string description{};
    std::string mime_type = "application/json";
    std::vector<std::string> scopes{};
    /// The reader returns a `contents[]` item itself (uri, mimeType, text|blob) instead of a
    /// JSON value served as text (the conformance fixtures only).
    bool raw_contents = false;
    std::string plugin{};
    std::function<plugin::Result<nlohmann::json>(
        const std::string& uri, const std::map<std::string, std::string>& variables,
        const plugin::Principal& caller)>
        reader{};

    bool isTemplate() const { return uri_template.find('{') != std::string::npos; }
};

/// Matches `uri` against a level-1 RFC 6570 template whose variables each stand for one
/// non-empty path segment (no '/'). Returns false when it does not match.
bool matchUriTemplate(const std::string& uri_template, const std::string& uri,
                      std::map<std::string, std::string>& variables);

}  // namespace docintel::mcp

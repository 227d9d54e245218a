#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_types.h"
#include "jobs.h"
#include "result.h"
#include "workflow.h"

namespace docintel::plugin {

/// A query parameter an operation accepts; validated before the handler runs.
struct QueryParam {
    std::string name;
    std::string type = "string";  ///< "string", "integer" or "boolean"
    bool required = false;
    std::optional<long long> minimum;
    std::optional<long long> maximum;
    std::string description;
};

/// One REST operation. The route table, request validation and the OpenAPI document are all
/// built from these, so they cannot disagree.
struct RouteDefinition {
    std::string method;        ///< GET, POST, PUT, PATCH, DELETE
    std::string path;          ///< template, e.g. /api/v1/workspaces/{workspace_id}
    std::string operation_id;  ///< unique across the server
    std::string summary;
    std::vector<std::string> scopes;  ///< all required; empty = any valid token
    std::string request_schema;       ///< a schema name (see Registrar::addSchema); empty = no body
    std::vector<QueryParam> query_params;
    int success_status = 200;
    bool is_public = false;  ///< no bearer token needed (discovery documents only)
    HttpHandler handler;
    /// The largest request body accepted (bytes); the transport answers 413 before reading
    /// more. 0 = the server default, 1 MiB (decision 0061).
    std::size_t max_body_bytes = 0;
    /// Non-empty: the body is multipart/form-data (ABI minor 5). These are its file parts,
    /// each required (in HttpRequest::files); the text parts form the JSON object `body`, of
    /// strings as sent, validated against `request_schema`.
    std::vector<std::string> file_fields;
};

/// One versioned step of a plugin's storage (ABI minor 3). The host runs each version once, in
/// ascending order, logged in as the plugin's own Postgres role with the plugin's schema
/// (`plugin_<name>`) first on the search path; see docs/plugins.md.
struct PluginMigration {
    int version = 0;   ///< > 0, unique within the plugin; never reuse or renumber one
    std::string name;  ///< for logs and the record of applied versions
    std::string sql;   ///< one or more statements, run in one transaction
};

/// An MCP tool call after authentication and argument validation.
struct ToolCall {
    std::string name;
    nlohmann::json arguments;
    Principal principal;
    std::string trace_id;
};

struct McpToolDefinition {
    std::string name;
    std::string description;
    nlohmann::json input_schema;
    std::vector<std::string> scopes;
    std::function<Result<nlohmann::json>(const ToolCall&)> handler;
};

struct McpResourceTemplate {
    std::string uri_template;  ///< e.g. docintel://claims/{claim_id}
    std::string name;
    std::string description;
    std::string mime_type = "application/json";
    std::vector<std::string> scopes;
    std::function<Result<nlohmann::json>(const std::string& uri, const Principal&)> reader;
};

/// A read-only page a plugin adds to the reviewer console (ABI minor 6, docs/console.md
/// "Plugin pages"), served at `/console/plugins/<plugin>/<path>` to a signed-in console user
/// holding every scope in `scopes`, inside the console's frame (navigation, workspace switcher,
/// CSP without script). Only GET: state changes stay on the plugin's REST routes and tools.
struct ConsolePage {
    /// Below the plugin's prefix: segments of `[a-z0-9_-]` or `{name}` parameters, e.g.
    /// "courses" or "courses/{course_id}".
    std::string path;
    /// The label in the console's navigation; "" = not listed. Only for pages without
    /// parameters.
    std::string nav;
    /// A mustache template over the view `view` returns (its `title` is the page's title).
    /// Values are HTML-escaped unless the template asks otherwise; links should stay under
    /// `/console/`.
    std::string template_text;
    std::vector<std::string> scopes;  ///< all required
    /// The page's view from a GET request: `path_params`, `query`, `principal`, `trace_id`, and
    /// `workspace_id` — the console's chosen workspace ("" = personal). An error becomes the
    /// console's readable error page with its status.
    std::function<Result<nlohmann::json>(const HttpRequest&)> view;
};

/// Handed to a plugin once, during registration. Everything a plugin contributes goes through
/// here; the host validates each item and refuses the whole plugin when one is bad (a route
/// that collides, a schema name already taken, a workflow without a name). Not thread-safe:
/// use it only inside Plugin::registerWith.
class Registrar {
  public:
    virtual ~Registrar() = default;

    /// A JSON Schema that request bodies of this plugin's routes refer to by `name`.
    virtual void addSchema(const std::string& name, const nlohmann::json& schema) = 0;
    virtual void addRoute(RouteDefinition route) = 0;
    virtual void addMcpTool(McpToolDefinition tool) = 0;
    virtual void addMcpResource(McpResourceTemplate resource) = 0;
    /// A workflow definition (the JSON of a `*.workflow.json`), validated against
    /// schemas/workflows/workflow.schema.json; every step it `uses` must be registered by this
    /// plugin or one loaded before it.
    virtual void addWorkflow(const nlohmann::json& definition) = 0;
    /// A step implementation that workflow definitions name in `steps[].uses`.
    virtual void addWorkflowStep(WorkflowStep step) = 0;

    // ABI minor 3 (SDK v2, decision 0067).

    /// Serves a contract operation the core route table declares for a feature plugin (e.g.
    /// learning's `api_list_learning_courses_api_v1_learning_courses_get`) with `handler`. The
    /// route's path, scopes, validation and OpenAPI entry stay the core's, so /openapi.json is
    /// the same with or without the plugin. The plugin is refused when the id is not declared,
    /// is served by the core, or is already attached by another plugin.
    virtual void attachOperation(const std::string& operation_id, HttpHandler handler) = 0;
    /// A versioned migration of the plugin's own storage. A plugin with at least one gets a
    /// Postgres schema and role of its own, reached through HostServices::transact; the host
    /// applies what is missing before any of the plugin's routes are served, and refuses the
    /// plugin when one fails.
    virtual void addMigration(PluginMigration migration) = 0;
    /// A kind of durable job the plugin runs; queue one with HostServices::enqueueJob. Worker
    /// nodes run it (every node loads the same plugins).
    virtual void addJobKind(PluginJobKind kind) = 0;

    // ABI minor 6.

    /// A page of the reviewer console (see ConsolePage). The plugin is refused when a path is
    /// malformed or registered twice, the template does not parse, or there is no view.
    virtual void addConsolePage(ConsolePage page) = 0;
};

}  // namespace docintel::plugin

// The JSON-RPC methods of McpServer: lifecycle, tools, resources, logging.

#include <algorithm>
#include <array>

#include "common/clock.h"
#include "common/log.h"
#include "mcp/mcp_exchange.h"
#include "mcp/mcp_server.h"
#include "mcp/mcp_tool_kit.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;

constexpr std::array<const char*, 8> kLogLevels = {"debug", "info",     "notice", "warning",
                                                   "error", "critical", "alert",  "emergency"};

int logRank(const std::string& level) {
    for (std::size_t i = 0; i < kLogLevels.size(); ++i) {
        if (level == kLogLevels[i]) return static_cast<int>(i);
    }
    return -1;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

/// The scopes of `needed` the caller lacks.
std::vector<std::string> missingScopes(const plugin::Principal& caller,
                                       const std::vector<std::string>& needed) {
    std::vector<std::string> missing;
    for (const auto& s : needed) {
        if (!caller.hasScope(s)) missing.push_back(s);
    }
    return missing;
}

json textContent(const json& value) {
    return json::array({{{"type", "text"}, {"text", value.dump()}}});
}

/// A tool failure as a result the model can read: `{"ok": false, "error": {code, message}}`.
json errorResult(const plugin::Error& e, const std::string& trace_id) {
    const bool internal = e.http_status >= 500;
    json error = {
        {"code", internal ? "internal_error" : e.code},
        {"message", internal ? "internal error; quote trace_id when reporting it" : e.message}};
    if (internal) error["trace_id"] = trace_id;
    json structured = {{"ok", false}, {"error", std::move(error)}};
    return {
        {"content", textContent(structured)}, {"structuredContent", structured}, {"isError", true}};
}

/// Collects a running tool's progress and log messages as JSON-RPC notifications.
class CollectingContext final : public ToolContext {
  public:
    CollectingContext(std::vector<json>& out, json progress_token, std::string min_level)
        : out_(out), progress_token_(std::move(progress_token)), min_level_(std::move(min_level)) {}

    void progress(double progress, double total, const std::string& message) override {
        if (progress_token_.is_null()) return;
        json params = {
            {"progressToken", progress_token_}, {"progress", progress}, {"total", total}};
        if (!message.empty()) params["message"] = message;
        out_.push_back(
            {{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", params}});
    }

    void log(const std::string& level, const json& data) override {
        if (logRank(level) < logRank(min_level_)) return;
        out_.push_back({{"jsonrpc", "2.0"},
                        {"method", "notifications/message"},
                        {"params", {{"level", level}, {"logger", "docintel"}, {"data", data}}}});
    }

  private:
    std::vector<json>& out_;
    const json progress_token_;
    const std::string min_level_;
};

}  // namespace

json McpServer::dispatch(const std::string& method, const json& params, Exchange& x) {
    x.operation = "mcp:" + method;
    if (method == "ping") return json::object();
    if (method == "tools/list") return listTools(x);
    if (method == "tools/call") return callTool(params, x);
    if (method == "resources/list") return listResources(x, false);
    if (method == "resources/templates/list") return listResources(x, true);
    if (method == "resources/read") return readResource(params, x);
    if (method == "logging/setLevel") return setLogLevel(params, x);
    x.operation.clear();  // a client's unknown names are not labels
    return x.fail(rpc::kMethodNotFound, "method not found: " + method);
}

json McpServer::initialize(const json& params, Exchange& x) {
    const auto& supported = supportedProtocolVersions();
    const auto it = params.find("protocolVersion");
    const std::string requested =
        it != params.end() && it->is_string() ? it->get<std::string>() : "";
    // The client's version when we speak it, else ours (the client then decides).
    const std::string version =
        std::find(supported.begin(), supported.end(), requested) != supported.end()
            ? requested
            : supported.front();
    x.new_session_id = sessions_.create(x.subject, version, common::nowEpochSeconds());
    return {{"protocolVersion", version},
            {"capabilities",
             {{"tools", {{"listChanged", false}}},
              {"resources", {{"subscribe", false}, {"listChanged", false}}},
              {"logging", json::object()}}},
            {"serverInfo",
             {{"name", "docintel"},
              {"title", "docintel document intelligence"},
              {"version", options_.server_version}}},
            {"instructions",
             "docintel ingests documents and answers from them. Upload: "
             "create_document_upload, PUT the bytes to upload_url, complete_document_upload, "
             "then poll get_ingestion_status until done. Read documents with get_document and "
             "get_document_chunks or the docintel://documents/{document_id} resources. "
             "workspace_id null means the caller's personal documents. Destructive tools need "
             "confirm: true after the user agreed."}};
}

json McpServer::listTools(Exchange&) {
    const auto snapshot = catalog_.snapshot();
    json tools = json::array();
    for (const auto& t : snapshot->tools) {
        json entry = {
            {"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}};
        if (!t.title.empty()) entry["title"] = t.title;
        if (!t.output_schema.is_null()) entry["outputSchema"] = t.output_schema;
        json annotations = {{"readOnlyHint", t.read_only},
                            {"destructiveHint", t.destructive},
                            {"openWorldHint", false}};
        if (!t.title.empty()) annotations["title"] = t.title;
        entry["annotations"] = std::move(annotations);
        if (!t.scopes.empty()) entry["_meta"] = {{"docintel/scopes", t.scopes}};
        tools.push_back(std::move(entry));
    }
    return {{"tools", std::move(tools)}};
}

json McpServer::callTool(const json& params, Exchange& x) {
    const auto name = params.find("name");
    if (name == params.end() || !name->is_string()) {
        return x.fail(rpc::kInvalidParams, "params.name (the tool) is required");
    }
    x.tool = name->get<std::string>();
    const auto snapshot = catalog_.snapshot();
    const Tool* tool = snapshot->findTool(x.tool);
    if (!tool) return x.fail(rpc::kInvalidParams, "unknown tool: " + x.tool, {{"tool", x.tool}});
    x.operation += ":" + tool->name;

    json arguments = params.contains("arguments") ? params["arguments"] : json::object();
    if (arguments.is_null()) arguments = json::object();
    if (!arguments.is_object()) return x.fail(rpc::kInvalidParams, "arguments must be an object");

    if (const auto missing = missingScopes(x.principal, tool->scopes); !missing.empty()) {
        const std::string scope = joined(missing, " ");
        const std::string message = "tool " + tool->name + " needs scope " + scope;
        return x.fail(rpc::kForbidden, "insufficient_scope: " + message,
                      {{"error", "insufficient_scope"}, {"scope", scope}}, 403,
                      {{"WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"" +
                                                scope + "\", error_description=\"" + message +
                                                "\", " + x.resource_metadata}});
    }
    if (tool->validate_arguments) {
        const auto issues =
            catalog_.schemas().validate(Catalog::schemaName(tool->name), arguments, {"arguments"});
        if (!issues.empty()) {
            json details = json::array();
            for (const auto& i : issues) details.push_back(i.toJson());
            const auto& first = issues.front();
            return x.fail(
                rpc::kInvalidParams,
                "invalid arguments for " + tool->name + ": " + first.loc.dump() + " " + first.msg,
                {{"detail", details}});
        }
    }
    if (tool->requires_confirm && arguments.value("confirm", false) != true) {
        return errorResult({"confirmation_required",
                            tool->name + " changes data for good: ask the user, then call it "
                                         "again with confirm: true. Nothing was done.",
                            409},
                           x.trace_id);
    }

    if (const auto meta = params.find("_meta"); meta != params.end() && meta->is_object()) {
        if (const auto token = meta->find("progressToken"); token != meta->end()) {
            x.progress_token = *token;
        }
    }
    CollectingContext context(x.notifications, x.progress_token,
                              x.session ? x.session->log_level : "info");
    plugin::ToolCall call{tool->name, std::move(arguments), x.principal, x.trace_id};
    plugin::Result<json> out = plugin::Error::internal("not run");
    try {
        out = tool->handler(call, context);
    } catch (const std::exception& e) {
        common::log(common::LogLevel::kError, "mcp_tool_threw",
                    {{"tool", tool->name}, {"trace_id", x.trace_id}, {"what", e.what()}});
        out = plugin::Error::internal("tool failed");
    }
    if (!out) {
        // A `validation_error` (a plugin tool's, or a service's) is a bad argument too.
        const plugin::Error e = toolError(out.error());
        if (e.code == kInvalidArguments) {
            return x.fail(rpc::kInvalidParams,
                          "invalid arguments for " + tool->name + ": " + e.message);
        }
        return errorResult(e, x.trace_id);
    }
    if (tool->raw_result) return std::move(out).value();
    json structured = {{"result", std::move(out).value()}};
    return {{"content", textContent(structured)},
            {"structuredContent", std::move(structured)},
            {"isError", false}};
}

json McpServer::listResources(Exchange&, bool templates) {
    const auto snapshot = catalog_.snapshot();
    json items = json::array();
    for (const auto& r : snapshot->resources) {
        if (r.isTemplate() != templates) continue;
        json entry = {{templates ? "uriTemplate" : "uri", r.uri_template},
                      {"name", r.name},
                      {"description", r.description},
                      {"mimeType", r.mime_type}};
        if (!r.title.empty()) entry["title"] = r.title;
        items.push_back(std::move(entry));
    }
    return {{templates ? "resourceTemplates" : "resources", std::move(items)}};
}

json McpServer::readResource(const json& params, Exchange& x) {
    const auto uri_it = params.find("uri");
    if (uri_it == params.end() || !uri_it->is_string()) {
        return x.fail(rpc::kInvalidParams, "params.uri is required");
    }
    const std::string uri = uri_it->get<std::string>();
    const auto snapshot = catalog_.snapshot();
    std::map<std::string, std::string> variables;
    const Resource* resource = snapshot->findResource(uri, variables);
    if (!resource) return x.fail(rpc::kResourceNotFound, "resource not found", {{"uri", uri}});
    if (const auto missing = missingScopes(x.principal, resource->scopes); !missing.empty()) {
        const std::string scope = joined(missing, " ");
        return x.fail(rpc::kForbidden,
                      "insufficient_scope: reading " + uri + " needs scope " + scope,
                      {{"error", "insufficient_scope"}, {"scope", scope}}, 403,
                      {{"WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"" +
                                                scope + "\", " + x.resource_metadata}});
    }
    plugin::Result<json> out = plugin::Error::internal("not run");
    try {
        out = resource->reader(uri, variables, x.principal);
    } catch (const std::exception& e) {
        common::log(
            common::LogLevel::kError, "mcp_resource_threw",
            {{"uri", resource->uri_template}, {"trace_id", x.trace_id}, {"what", e.what()}});
        out = plugin::Error::internal("resource failed");
    }
    if (!out) {
        const auto& e = out.error();
        if (e.http_status == 404) {
            return x.fail(rpc::kResourceNotFound, "resource not found", {{"uri", uri}});
        }
        if (e.http_status == 401 || e.http_status == 403) {
            return x.fail(rpc::kForbidden, e.message, {{"error", e.code}});
        }
        if (e.http_status >= 400 && e.http_status < 500) {
            return x.fail(rpc::kInvalidParams, e.message, {{"error", e.code}});
        }
        return x.fail(rpc::kInternalError, "internal error; quote the trace id",
                      {{"trace_id", x.trace_id}});
    }
    if (resource->raw_contents) return {{"contents", json::array({std::move(out).value()})}};
    return {{"contents", json::array({{{"uri", uri},
                                       {"mimeType", resource->mime_type},
                                       {"text", std::move(out).value().dump()}}})}};
}

json McpServer::setLogLevel(const json& params, Exchange& x) {
    const auto it = params.find("level");
    const std::string level = it != params.end() && it->is_string() ? it->get<std::string>() : "";
    if (logRank(level) < 0) return x.fail(rpc::kInvalidParams, "unknown log level: " + level);
    if (x.session) sessions_.setLogLevel(x.session->id, level);
    return json::object();
}

}  // namespace docintel::mcp

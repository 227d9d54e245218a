#include "mcp/mcp_server.h"

#include <Poco/String.h>
#include <Poco/URI.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "common/clock.h"
#include "common/log.h"
#include "common/metrics.h"
#include "http/json_body.h"
#include "mcp/mcp_exchange.h"
#include "mcp/mcp_test_profile.h"
#include "mcp/mcp_vertical_tools.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;

constexpr const char* kMetadataPrefix = "/.well-known/oauth-protected-resource";

std::string header(const http::RawRequest& r, const char* name) {
    const auto it = r.headers.find(name);
    return it == r.headers.end() ? std::string() : it->second;
}

/// "scheme://host:port" with the port always written, or "" when `url` is not http(s).
std::string normalizeOrigin(const std::string& url) {
    try {
        Poco::URI uri(url);
        const std::string scheme = Poco::toLower(uri.getScheme());
        if ((scheme != "http" && scheme != "https") || uri.getHost().empty()) return {};
        return scheme + "://" + Poco::toLower(uri.getHost()) + ":" + std::to_string(uri.getPort());
    } catch (const std::exception&) {
        return {};
    }
}

bool isLoopbackHost(const std::string& host) {
    return host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "[::1]";
}

/// True when the comma-separated media ranges in `accept` cover `type`.
bool accepts(const std::string& accept, const std::string& type) {
    const std::string lower = Poco::toLower(accept);
    return lower.find(type) != std::string::npos || lower.find("*/*") != std::string::npos;
}

plugin::HttpResponse emptyResponse(int status) {
    plugin::HttpResponse r;
    r.status = status;
    r.content_type = "text/plain";
    return r;
}

}  // namespace

const std::vector<std::string>& McpServer::supportedProtocolVersions() {
    static const std::vector<std::string> versions = {"2025-06-18", "2025-11-25", "2025-03-26"};
    return versions;
}

McpServer::McpServer(const McpServices& services, const http::Authenticator& authenticator,
                     PluginSource plugins, McpServerOptions options)
    : catalog_(
          [&] {
              auto tools = builtinTools(services);
              if (services.workflows != nullptr) {
                  for (auto& t : verticalTools(*services.workflows)) tools.push_back(std::move(t));
              }
              if (options.test_profile) {
                  for (auto& t : testProfileTools()) tools.push_back(std::move(t));
              }
              return tools;
          }(),
          [&] {
              auto resources = builtinResources(services);
              if (services.workflows != nullptr) {
                  for (auto& r : verticalResources(*services.workflows)) {
                      resources.push_back(std::move(r));
                  }
              }
              if (options.test_profile) {
                  for (auto& r : testProfileResources()) resources.push_back(std::move(r));
              }
              return resources;
          }(),
          std::move(plugins)),
      authenticator_(authenticator),
      options_(std::move(options)),
      sessions_(options_.sessions, options_.shared_sessions),
      rate_limiter_(options_.rate_limit_per_window, options_.rate_limit_window_seconds) {
    Poco::URI uri(options_.mcp_url);
    path_ = uri.getPath().empty() ? "/mcp" : uri.getPath();
    for (const auto& url : {options_.mcp_url, options_.issuer}) {
        const std::string origin = normalizeOrigin(url);
        if (origin.empty()) continue;
        allowed_origins_.insert(origin);
        // A server addressed by a loopback name answers to each of them on the same port.
        Poco::URI u(url);
        if (isLoopbackHost(Poco::toLower(u.getHost()))) {
            for (const char* host : {"localhost", "127.0.0.1", "[::1]"}) {
                allowed_origins_.insert(Poco::toLower(u.getScheme()) + "://" + host + ":" +
                                        std::to_string(u.getPort()));
            }
        }
    }
}

std::string McpServer::resourceMetadataUrl() const {
    Poco::URI uri(options_.mcp_url);
    uri.setPath(kMetadataPrefix + path_);
    uri.setQuery("");
    return uri.toString();
}

nlohmann::json McpServer::protectedResourceMetadata() const {
    return {{"resource", options_.mcp_url},
            {"authorization_servers", json::array({options_.issuer})},
            {"scopes_supported", options_.scopes_supported},
            {"bearer_methods_supported", {"header"}},
            {"resource_signing_alg_values_supported", {"ES256"}},
            {"resource_name", "docintel MCP server"},
            {"resource_documentation", options_.issuer + "/openapi.json"}};
}

bool McpServer::originAllowed(const std::string& origin) const {
    if (origin.empty()) return true;  // not a browser: nothing to rebind
    const std::string normalized = normalizeOrigin(origin);
    return !normalized.empty() && allowed_origins_.count(normalized) > 0;
}

plugin::HttpResponse McpServer::handle(const http::RawRequest& request) {
    const auto started = std::chrono::steady_clock::now();
    Exchange x;
    x.trace_id = http::traceIdFor(request.headers);
    plugin::HttpResponse response;
    try {
        response = serve(request, x);
    } catch (const std::exception& e) {
        common::log(common::LogLevel::kError, "unhandled_exception",
                    {{"trace_id", x.trace_id}, {"what", e.what()}});
        response = x.error(500, rpc::kInternalError, "internal error; quote the trace id");
    }
    response.headers.emplace_back("X-Trace-Id", x.trace_id);
    if (!x.new_session_id.empty())
        response.headers.emplace_back("Mcp-Session-Id", x.new_session_id);
    const std::string status = std::to_string(response.status);
    const double elapsed_ms = common::millisecondsSince(started);
    const std::string duration = std::to_string(elapsed_ms);
    common::recordRequest(x.operation.empty() ? "mcp" : x.operation, request.method,
                          response.status, elapsed_ms / 1000);
    common::log(response.status >= 500 ? common::LogLevel::kError : common::LogLevel::kInfo,
                "mcp_request",
                {{"method", request.method},
                 {"rpc", x.rpc_method},
                 {"tool", x.tool},
                 {"status", status},
                 {"duration_ms", duration},
                 {"principal", x.subject},
                 {"trace_id", x.trace_id}});
    return response;
}

plugin::HttpResponse McpServer::serve(const http::RawRequest& r, Exchange& x) {
    if (r.path == kMetadataPrefix + path_ && r.method == "GET") {
        return plugin::HttpResponse::json(200, protectedResourceMetadata());
    }
    if (r.path != path_) return x.error(404, rpc::kBadRequest, "no such path: " + r.path);
    if (!originAllowed(header(r, "origin"))) {
        return x.error(403, rpc::kBadRequest, "origin not allowed: " + header(r, "origin"));
    }
    if (r.method != "POST" && r.method != "DELETE") {
        // No standalone server-to-client stream: docintel sends nothing unprompted.
        auto response = x.error(405, rpc::kBadRequest, "method " + r.method + " is not allowed");
        response.headers.emplace_back("Allow", "POST, DELETE");
        return response;
    }

    const std::string token = http::bearerToken(r.headers);
    const std::string metadata = "resource_metadata=\"" + resourceMetadataUrl() + "\"";
    if (token.empty()) {
        auto response = x.error(401, rpc::kUnauthorized, "a bearer token is required");
        response.headers.emplace_back("WWW-Authenticate", "Bearer " + metadata);
        return response;
    }
    auto principal = authenticator_.authenticate(token);
    if (!principal) {
        auto response = x.error(401, rpc::kUnauthorized, principal.error().message);
        response.headers.emplace_back("WWW-Authenticate",
                                      "Bearer error=\"invalid_token\", error_description=\"" +
                                          principal.error().message + "\", " + metadata);
        return response;
    }
    x.principal = std::move(principal).value();
    x.subject = x.principal.user_id.empty() ? x.principal.client_id : x.principal.user_id;
    x.resource_metadata = metadata;

    const auto decision = rate_limiter_.take(x.subject, common::nowEpochSeconds());
    if (!decision.allowed) {
        auto response = x.error(429, rpc::kRateLimited, "too many requests");
        response.headers.emplace_back("Retry-After", std::to_string(decision.reset_seconds));
        return response;
    }
    return r.method == "POST" ? post(r, x) : remove(r, x);
}

plugin::HttpResponse McpServer::remove(const http::RawRequest& r, Exchange& x) {
    const std::string id = header(r, "mcp-session-id");
    if (id.empty()) return x.error(400, rpc::kBadRequest, "Mcp-Session-Id header is required");
    if (!sessions_.end(id, x.subject, common::nowEpochSeconds())) {
        return x.error(404, rpc::kSessionNotFound, "session not found");
    }
    return emptyResponse(204);
}

plugin::HttpResponse McpServer::post(const http::RawRequest& r, Exchange& x) {
    const std::string content_type = Poco::toLower(header(r, "content-type"));
    if (content_type.rfind("application/json", 0) != 0) {
        return x.error(415, rpc::kBadRequest, "Content-Type must be application/json");
    }
    const std::string accept = header(r, "accept");
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
        return x.error(406, rpc::kBadRequest,
                       "Accept must list application/json and text/event-stream");
    }
    x.accepts_sse = true;

    std::vector<http::ValidationIssue> issues;
    auto parsed = http::parseJsonBody(r.body, {}, json::array(), issues);
    if (!parsed) {
        return x.error(400, rpc::kParseError,
                       "parse error: " + (issues.empty() ? std::string("the body is not JSON")
                                                         : issues.front().msg));
    }
    json message = std::move(*parsed);
    if (message.is_array()) {
        return x.error(400, rpc::kInvalidRequest, "batches are not supported; send one message");
    }
    if (!message.is_object() || message.value("jsonrpc", "") != "2.0") {
        return x.error(400, rpc::kInvalidRequest, "not a JSON-RPC 2.0 message");
    }
    const auto id = message.find("id");
    const bool has_id = id != message.end();
    if (has_id) {
        if (!id->is_string() && !id->is_number_integer()) {
            return x.error(400, rpc::kInvalidRequest, "id must be a string or an integer");
        }
        x.id = *id;
    }
    const auto method_it = message.find("method");
    if (method_it == message.end()) {
        // A response to a server request: docintel sends none, so there is nothing to match.
        if (has_id && (message.contains("result") || message.contains("error"))) {
            return emptyResponse(202);
        }
        return x.error(400, rpc::kInvalidRequest, "a message needs a method");
    }
    if (!method_it->is_string())
        return x.error(400, rpc::kInvalidRequest, "method is not a string");
    x.rpc_method = method_it->get<std::string>();
    const json params = message.contains("params") ? message["params"] : json::object();
    if (!params.is_object()) return x.error(400, rpc::kInvalidRequest, "params must be an object");

    if (x.rpc_method == "initialize") {
        x.operation = "mcp:initialize";
        if (!has_id) return x.error(400, rpc::kInvalidRequest, "initialize must be a request");
        json result = initialize(params, x);
        return x.respond(std::move(result));
    }

    const std::string session_id = header(r, "mcp-session-id");
    if (session_id.empty()) {
        return x.error(400, rpc::kBadRequest, "Mcp-Session-Id header is required");
    }
    x.session = sessions_.use(session_id, x.subject, common::nowEpochSeconds());
    if (!x.session) return x.error(404, rpc::kSessionNotFound, "session not found");
    const std::string version = header(r, "mcp-protocol-version");
    const auto& supported = supportedProtocolVersions();
    if (!version.empty() &&
        std::find(supported.begin(), supported.end(), version) == supported.end()) {
        return x.error(400, rpc::kBadRequest, "unsupported MCP-Protocol-Version: " + version);
    }

    if (!has_id) return emptyResponse(202);  // notifications (initialized, cancelled, ...)
    json result = dispatch(x.rpc_method, params, x);
    return x.respond(std::move(result));
}

}  // namespace docintel::mcp

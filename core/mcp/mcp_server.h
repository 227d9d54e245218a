#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http/api_dispatcher.h"
#include "http/rate_limiter.h"
#include "mcp/mcp_catalog.h"
#include "mcp/mcp_session_store.h"
#include "mcp/mcp_tools.h"

namespace docintel::mcp {

struct McpServerOptions {
    std::string mcp_url;  ///< the MCP resource: token audience, endpoint path, allowed origin
    std::string issuer;   ///< the authorization server (also an allowed origin)
    std::vector<std::string> scopes_supported;
    int rate_limit_per_window = 1200;
    int rate_limit_window_seconds = 60;
    SessionLimits sessions;
    /// Sessions every API node knows (decision 0072); null keeps them in this node's memory.
    storage::McpSessionRepository* shared_sessions = nullptr;
    bool test_profile = false;  ///< serve the conformance fixtures (never in a normal start)
    std::string server_version = "1.0.0";
};

/// JSON-RPC error codes the server answers with (docs/mcp.md).
namespace rpc {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kBadRequest = -32000;  ///< transport rule broken (headers, session id)
inline constexpr int kSessionNotFound = -32001;
inline constexpr int kResourceNotFound = -32002;
inline constexpr int kForbidden = -32003;  ///< refused by authorisation (403)
inline constexpr int kUnauthorized = -32010;
inline constexpr int kRateLimited = -32029;
}  // namespace rpc

/// The MCP server (streamable HTTP, protocol 2025-06-18; also 2025-03-26 and 2025-11-25) on
/// its own listener: the endpoint at the path of `mcp_url` and the RFC 9728 metadata at
/// `/.well-known/oauth-protected-resource<path>`. Per request: Origin check (DNS rebinding) →
/// bearer token for the MCP audience → rate limit → session and protocol-version headers →
/// JSON-RPC → tool or resource (scope check, argument validation, service call). Tool failures
/// are results with `isError`; protocol failures are JSON-RPC errors.
///
/// Transport-free like ApiDispatcher (a RawRequest in, an HttpResponse out). Thread-safe;
/// the services and the authenticator must outlive it.
class McpServer {
  public:
    McpServer(const McpServices& services, const http::Authenticator& authenticator,
              PluginSource plugins, McpServerOptions options);

    plugin::HttpResponse handle(const http::RawRequest& request);

    /// The protected-resource metadata document (RFC 9728).
    nlohmann::json protectedResourceMetadata() const;
    const std::string& endpointPath() const { return path_; }
    std::size_t sessionCount() const { return sessions_.size(); }
    /// The per-principal quota (shared with other nodes by server/rate_sync.h).
    http::RateLimiter& rateLimiter() { return rate_limiter_; }

    static const std::vector<std::string>& supportedProtocolVersions();

  private:
    struct Exchange;  // one HTTP request being answered (mcp_server.cpp)

    plugin::HttpResponse serve(const http::RawRequest& request, Exchange& x);
    plugin::HttpResponse post(const http::RawRequest& request, Exchange& x);
    plugin::HttpResponse remove(const http::RawRequest& request, Exchange& x);

    // JSON-RPC methods (mcp_methods.cpp). Each returns the `result`, or sets x's error.
    nlohmann::json initialize(const nlohmann::json& params, Exchange& x);
    nlohmann::json listTools(Exchange& x);
    nlohmann::json callTool(const nlohmann::json& params, Exchange& x);
    nlohmann::json listResources(Exchange& x, bool templates);
    nlohmann::json readResource(const nlohmann::json& params, Exchange& x);
    nlohmann::json setLogLevel(const nlohmann::json& params, Exchange& x);
    nlohmann::json dispatch(const std::string& method, const nlohmann::json& params, Exchange& x);

    bool originAllowed(const std::string& origin) const;
    std::string resourceMetadataUrl() const;

    Catalog catalog_;
    const http::Authenticator& authenticator_;
    const McpServerOptions options_;
    std::string path_;
    std::set<std::string> allowed_origins_;
    SessionStore sessions_;
    http::RateLimiter rate_limiter_;
};

}  // namespace docintel::mcp

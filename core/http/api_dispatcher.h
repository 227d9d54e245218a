#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "http/json_body.h"
#include "http/rate_limiter.h"
#include "http/router.h"
#include "http/schema_validator.h"
#include "plugin_api/http_types.h"

namespace docintel::http {

/// A request as it arrived, before routing.
struct RawRequest {
    std::string method;
    std::string path;                            ///< undecoded, without the query string
    std::string query;                           ///< undecoded query string, without '?'
    std::map<std::string, std::string> headers;  ///< names lower-cased
    std::string body;
    std::string remote_address;
};

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or "".
std::string bearerToken(const std::map<std::string, std::string>& headers);

/// Turns a bearer token into a principal, or an `invalid_token` Error (401).
class Authenticator {
  public:
    virtual ~Authenticator() = default;
    virtual plugin::Result<plugin::Principal> authenticate(const std::string& token) const = 0;
};

struct DispatcherOptions {
    std::string resource_metadata_url;  ///< for WWW-Authenticate on 401/403
    int rate_limit_per_window = 1200;
    int rate_limit_window_seconds = 60;
    JsonBodyLimits json_limits;  ///< what a JSON body may cost before it is built
};

/// The REST request path: trace id → encoding of path and query (400 unless percent-encoded
/// UTF-8) → route → authentication → scopes → rate limit → validation of path, query, header
/// and body (415 unless JSON; parseJsonBody's limits) → handler → error mapping. It is the one
/// place that decodes and bounds a request for every route, plugins' included. Transport-free so it
/// runs the same under Poco and in tests. Every response carries `X-Trace-Id`.
///
/// Thread-safe; holds references to the router, schemas and authenticator, which must outlive
/// it.
class ApiDispatcher {
  public:
    ApiDispatcher(const Router& router, const SchemaRegistry& schemas,
                  const Authenticator& authenticator, DispatcherOptions options);

    plugin::HttpResponse dispatch(const RawRequest& request) const;
    /// The per-principal quota (shared with other nodes by server/rate_sync.h).
    RateLimiter& rateLimiter() const { return rate_limiter_; }

  private:
    /// Who asked and which operation matched, for the request's log line and metrics.
    struct Facts {
        std::string principal_id;
        std::string operation_id;  ///< "" when no route matched
    };
    plugin::HttpResponse handle(const RawRequest& raw, const std::string& trace_id,
                                Facts& facts) const;
    /// A multipart/form-data body (RouteDefinition::file_fields) into `request.body` (text
    /// fields) and `request.files`; the Error when it is not one (415), issues when it is bad.
    std::optional<plugin::Error> readForm(const plugin::RouteDefinition& def, const RawRequest& raw,
                                          plugin::HttpRequest& request,
                                          std::vector<ValidationIssue>& issues) const;

    const Router& router_;
    const SchemaRegistry& schemas_;
    const Authenticator& authenticator_;
    const DispatcherOptions options_;
    mutable RateLimiter rate_limiter_;
};

/// The trace id of a request: the trace-id of a valid W3C `traceparent`, else a new one.
std::string traceIdFor(const std::map<std::string, std::string>& headers);

}  // namespace docintel::http

#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "plugin_api/registrar.h"
#include "plugin_api/result.h"

namespace docintel::http {

/// A route in the table: its definition plus where it came from (`tag`: the API area of a
/// built-in route, or the plugin's name) and its parsed path template.
struct Route {
    plugin::RouteDefinition def;
    std::string tag;
    std::string plugin;  ///< empty for built-in routes
    /// A built-in operation the spec does not list (a product extra, e.g. rotate-secret):
    /// OpenAPI marks it `x-docintel-extra`.
    bool extra = false;
    /// A contract operation the core declares and a feature plugin serves (decision 0067):
    /// until a plugin attaches, `def.handler` answers 503 `plugin_not_loaded`.
    bool attachable = false;
    std::string attached_plugin;        ///< the plugin whose handler serves it; empty = none
    std::vector<std::string> segments;  ///< "{name}" marks a parameter
};

struct RouteMatch {
    std::shared_ptr<const Route> route;  ///< null when nothing matched
    std::map<std::string, std::string> path_params;
    bool path_exists = false;  ///< the path matched some route, but not with this method
    std::vector<std::string> allowed_methods;
};

/// The one route table: method + path template → operation. Built-in operations are added at
/// start-up, plugin operations whenever a plugin loads; a plugin may also attach the handler of
/// a declared, attachable operation. Routes are never removed and attachments never undone.
///
/// Thread-safe: `add` and `attach` take an exclusive lock and publish a new immutable snapshot;
/// `match` and `routes` read the current snapshot.
class Router {
  public:
    /// Adds a route. Fails with `route_conflict` when the method + path shape or the operation
    /// id is already taken, or `invalid_route` when the definition is incomplete.
    plugin::Status add(plugin::RouteDefinition def, std::string tag, std::string plugin = {},
                       bool extra = false, bool attachable = false);

    /// Serves the declared operation `operation_id` with `handler` from now on; everything
    /// else about the route (path, scopes, schemas, its OpenAPI entry) stays as declared.
    /// Fails with `unknown_operation` (404) when no route has that id, `not_attachable` (409)
    /// when the core serves it itself, `operation_attached` (409) when a plugin already did.
    plugin::Status attach(const std::string& operation_id, const std::string& plugin,
                          plugin::HttpHandler handler);

    /// Checks what `attach` would check, without attaching.
    plugin::Status checkAttach(const std::string& operation_id) const;

    /// Checks what `add` would check, without adding.
    plugin::Status check(const plugin::RouteDefinition& def) const;

    RouteMatch match(const std::string& method, const std::string& path) const;

    /// The body limit of the operation `method path` names: its `max_body_bytes`, else
    /// `fallback` (also when nothing matches; the dispatcher then answers 404/405).
    std::size_t maxBodyBytes(const std::string& method, const std::string& path,
                             std::size_t fallback) const;

    /// All routes in insertion order.
    std::shared_ptr<const std::vector<std::shared_ptr<const Route>>> routes() const;

  private:
    plugin::Status checkAttachLocked(const std::string& operation_id,
                                     const std::vector<std::shared_ptr<const Route>>& table) const;
    plugin::Status checkLocked(const plugin::RouteDefinition& def,
                               const std::vector<std::shared_ptr<const Route>>& table) const;

    mutable std::shared_mutex mutex_;  // guards routes_ (the pointer, not the snapshot)
    std::shared_ptr<const std::vector<std::shared_ptr<const Route>>> routes_ =
        std::make_shared<std::vector<std::shared_ptr<const Route>>>();
};

/// Splits "/a/b/{c}" into {"a","b","{c}"}; empty segments are kept so "/a//b" does not match
/// "/a/b".
std::vector<std::string> splitPath(const std::string& path);

}  // namespace docintel::http

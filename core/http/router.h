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
    std::vector<std::string> segments;  ///< "{name}" marks a parameter
};

struct RouteMatch {
    std::shared_ptr<const Route> route;  ///< null when nothing matched
    std::map<std::string, std::string> path_params;
    bool path_exists = false;  ///< the path matched some route, but not with this method
    std::vector<std::string> allowed_methods;
};

/// The one route table: method + path template → operation. Built-in operations are added at
/// start-up, plugin operations whenever a plugin loads. Routes are never removed.
///
/// Thread-safe: `add` takes an exclusive lock and publishes a new immutable snapshot;
/// `match` and `routes` read the current snapshot.
class Router {
  public:
    /// Adds a route. Fails with `route_conflict` when the method + path shape or the operation
    /// id is already taken, or `invalid_route` when the definition is incomplete.
    plugin::Status add(plugin::RouteDefinition def, std::string tag, std::string plugin = {},
                       bool extra = false);

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

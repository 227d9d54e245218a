#include "http/router.h"

#include <algorithm>
#include <mutex>
#include <set>

namespace docintel::http {
namespace {

bool isParam(const std::string& segment) {
    return segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
}

std::string shapeOf(const std::vector<std::string>& segments) {
    std::string shape;
    for (const auto& s : segments) shape += "/" + (isParam(s) ? std::string("{}") : s);
    return shape;
}

const std::set<std::string> kMethods{"GET", "POST", "PUT", "PATCH", "DELETE"};

}  // namespace

std::vector<std::string> splitPath(const std::string& path) {
    std::vector<std::string> out;
    std::size_t start = path.empty() || path[0] != '/' ? 0 : 1;
    if (path.size() <= 1) return out;
    while (true) {
        const auto slash = path.find('/', start);
        out.push_back(path.substr(start, slash == std::string::npos ? slash : slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return out;
}

plugin::Status Router::checkLocked(const plugin::RouteDefinition& def,
                                   const std::vector<std::shared_ptr<const Route>>& table) const {
    if (!kMethods.count(def.method) || def.path.empty() || def.path[0] != '/' ||
        def.operation_id.empty() || !def.handler) {
        return plugin::Error{"invalid_route",
                             "route needs a method, a path starting with '/', an operation id "
                             "and a handler",
                             500};
    }
    const auto shape = shapeOf(splitPath(def.path));
    for (const auto& r : table) {
        if (r->def.operation_id == def.operation_id) {
            return plugin::Error{"route_conflict",
                                 "operation id " + def.operation_id + " is already registered",
                                 409};
        }
        if (r->def.method == def.method && shapeOf(r->segments) == shape) {
            return plugin::Error{
                "route_conflict",
                def.method + " " + def.path + " collides with " + r->def.method + " " + r->def.path,
                409};
        }
    }
    return {};
}

plugin::Status Router::check(const plugin::RouteDefinition& def) const {
    std::shared_lock lock(mutex_);
    return checkLocked(def, *routes_);
}

plugin::Status Router::add(plugin::RouteDefinition def, std::string tag, std::string plugin,
                           bool extra, bool attachable) {
    std::unique_lock lock(mutex_);
    if (auto status = checkLocked(def, *routes_); !status) return status;
    auto route = std::make_shared<Route>();
    route->segments = splitPath(def.path);
    route->def = std::move(def);
    route->tag = std::move(tag);
    route->plugin = std::move(plugin);
    route->extra = extra;
    route->attachable = attachable;
    auto next = std::make_shared<std::vector<std::shared_ptr<const Route>>>(*routes_);
    next->push_back(std::move(route));
    routes_ = std::move(next);
    return {};
}

plugin::Status Router::checkAttachLocked(
    const std::string& operation_id, const std::vector<std::shared_ptr<const Route>>& table) const {
    for (const auto& r : table) {
        if (r->def.operation_id != operation_id) continue;
        if (!r->attachable) {
            return plugin::Error{"not_attachable",
                                 "operation " + operation_id + " is served by the core", 409};
        }
        if (!r->attached_plugin.empty()) {
            return plugin::Error{
                "operation_attached",
                "operation " + operation_id + " is already served by plugin " + r->attached_plugin,
                409};
        }
        return {};
    }
    return plugin::Error{"unknown_operation",
                         "operation " + operation_id + " is not declared by the route table", 404};
}

plugin::Status Router::checkAttach(const std::string& operation_id) const {
    std::shared_lock lock(mutex_);
    return checkAttachLocked(operation_id, *routes_);
}

plugin::Status Router::attach(const std::string& operation_id, const std::string& plugin,
                              plugin::HttpHandler handler) {
    std::unique_lock lock(mutex_);
    if (!handler || plugin.empty()) {
        return plugin::Error{"invalid_route", "an attachment needs a plugin and a handler", 500};
    }
    if (auto status = checkAttachLocked(operation_id, *routes_); !status) return status;
    auto next = std::make_shared<std::vector<std::shared_ptr<const Route>>>(*routes_);
    for (auto& r : *next) {
        if (r->def.operation_id != operation_id) continue;
        auto attached = std::make_shared<Route>(*r);
        attached->def.handler = std::move(handler);
        attached->attached_plugin = plugin;
        r = std::move(attached);
        break;
    }
    routes_ = std::move(next);
    return {};
}

std::shared_ptr<const std::vector<std::shared_ptr<const Route>>> Router::routes() const {
    std::shared_lock lock(mutex_);
    return routes_;
}

RouteMatch Router::match(const std::string& method, const std::string& path) const {
    const auto table = routes();
    const auto segments = splitPath(path);
    RouteMatch result;
    // A path names the resource of the most literal template it matches, whatever the method
    // (/operations/catalog beats /operations/{operation_id}; `rank` is the literal/param
    // pattern). Only that resource's methods are allowed: GET /batches/uploads is a 405 with
    // `Allow: POST`, not a GET of the batch job "uploads".
    std::vector<bool> best_rank;
    std::vector<std::shared_ptr<const Route>> resource;
    for (const auto& route : *table) {
        if (route->segments.size() != segments.size()) continue;
        std::vector<bool> rank;
        bool ok = true;
        for (std::size_t i = 0; i < segments.size() && ok; ++i) {
            const bool param = isParam(route->segments[i]);
            ok = param ? !segments[i].empty() : route->segments[i] == segments[i];
            rank.push_back(!param);
        }
        if (!ok || rank < best_rank) continue;
        if (rank > best_rank) {
            best_rank = rank;
            resource.clear();
        }
        resource.push_back(route);
    }
    for (const auto& route : resource) {
        if (route->def.method == method) {
            result.route = route;
        } else {
            result.allowed_methods.push_back(route->def.method);
        }
    }
    if (!result.route) {
        result.path_exists = !resource.empty();
        return result;
    }
    const auto& tpl = result.route->segments;
    for (std::size_t i = 0; i < tpl.size(); ++i) {
        if (isParam(tpl[i])) result.path_params[tpl[i].substr(1, tpl[i].size() - 2)] = segments[i];
    }
    return result;
}

std::size_t Router::maxBodyBytes(const std::string& method, const std::string& path,
                                 std::size_t fallback) const {
    const RouteMatch m = match(method, path);
    return m.route && m.route->def.max_body_bytes > 0 ? m.route->def.max_body_bytes : fallback;
}

}  // namespace docintel::http

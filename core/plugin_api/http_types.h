#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "result.h"

namespace docintel::plugin {

/// The authenticated caller of a request, as established by the auth boundary.
struct Principal {
    std::string user_id;
    std::string email;
    std::string client_id;
    std::vector<std::string> scopes;
    std::string token_id;  ///< the access token's `jti`

    bool hasScope(const std::string& scope) const {
        for (const auto& s : scopes) {
            if (s == scope) return true;
        }
        return false;
    }
};

/// A file part of a multipart/form-data request (ABI minor 5; RouteDefinition::file_fields).
struct UploadedFile {
    std::string field;
    std::string filename;
    std::string content_type;
    std::string bytes;
};

/// A request after routing, authentication and validation. `body` holds the validated JSON
/// body with schema defaults applied (null when the operation takes no body).
struct HttpRequest {
    std::string method;
    std::string path;
    std::string operation_id;
    std::map<std::string, std::string> path_params;
    std::map<std::string, std::string> query;
    std::map<std::string, std::string> headers;  ///< names lower-cased
    nlohmann::json body;
    Principal principal;
    /// Value of X-DocIntel-Workspace-ID; empty means the personal scope.
    std::string workspace_id;
    std::string trace_id;
    /// The file parts of a multipart/form-data request, in the order sent (ABI minor 5).
    std::vector<UploadedFile> files;

    std::string header(const std::string& lower_name) const {
        auto it = headers.find(lower_name);
        return it == headers.end() ? std::string() : it->second;
    }
    std::string pathParam(const std::string& name) const {
        auto it = path_params.find(name);
        return it == path_params.end() ? std::string() : it->second;
    }
    /// The first file part named `field`; null when there is none.
    const UploadedFile* file(const std::string& field) const {
        for (const auto& f : files) {
            if (f.field == field) return &f;
        }
        return nullptr;
    }
    std::string queryParam(const std::string& name, const std::string& fallback = {}) const {
        auto it = query.find(name);
        return it == query.end() ? fallback : it->second;
    }
};

/// A response. JSON `body` is serialised unless `raw_body` is set (then `content_type` says
/// what it is). `status` 0 means the operation's declared success status.
struct HttpResponse {
    int status = 0;
    nlohmann::json body = nlohmann::json::object();
    std::string raw_body;
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;
    /// When set, the body is not `body`/`raw_body` but what this writes after the headers
    /// are sent (chunked), each piece flushed at once: server-sent events. The writer returns
    /// false once the client has gone, and the producer should stop.
    std::function<void(const std::function<bool(const std::string&)>& write)> stream;

    static HttpResponse json(nlohmann::json body) { return json(0, std::move(body)); }
    static HttpResponse json(int status, nlohmann::json body) {
        HttpResponse r;
        r.status = status;
        r.body = std::move(body);
        return r;
    }
};

using HttpHandler = std::function<Result<HttpResponse>(const HttpRequest&)>;

}  // namespace docintel::plugin

#include "http/api_dispatcher.h"

#include <Poco/String.h>
#include <Poco/URI.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <exception>
#include <optional>

#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"
#include "common/metrics.h"
#include "common/trace_context.h"
#include "common/utf8.h"
#include "http/error_mapper.h"
#include "http/json_body.h"
#include "http/multipart_form.h"

namespace docintel::http {
namespace {

constexpr const char* kWorkspaceHeader = "x-docintel-workspace-id";

bool isLowerHex(const std::string& s) {
    for (const char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
}

/// Percent-decodes `s`; nullopt when the escapes are malformed or the result is not UTF-8.
std::optional<std::string> decode(const std::string& s) {
    std::string out;
    try {
        Poco::URI::decode(s, out, true);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (!common::isValidUtf8(out)) return std::nullopt;
    return out;
}

/// Query parameters (first value of a repeated name wins); nullopt when the query is not
/// well-formed percent-encoded UTF-8.
std::optional<std::map<std::string, std::string>> parseQuery(const std::string& query) {
    std::map<std::string, std::string> out;
    if (query.empty()) return out;
    if (!decode(query)) return std::nullopt;
    try {
        for (auto& [name, value] : Poco::URI("/?" + query).getQueryParameters()) {
            out.emplace(std::move(name), std::move(value));
        }
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return out;
}

bool hasNul(const std::string& s) { return s.find('\0') != std::string::npos; }

/// JSON routes read `application/json` (or a `+json` type), with any parameters.
bool isJsonContentType(const std::map<std::string, std::string>& headers) {
    auto it = headers.find("content-type");
    if (it == headers.end()) return false;
    std::string type = it->second.substr(0, it->second.find(';'));
    while (!type.empty() && type.back() == ' ') type.pop_back();
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return type == "application/json" || (type.rfind("application/", 0) == 0 && type.size() > 5 &&
                                          type.compare(type.size() - 5, 5, "+json") == 0);
}

void validateQuery(const Route& route, std::map<std::string, std::string>& query,
                   std::vector<ValidationIssue>& issues) {
    for (const auto& param : route.def.query_params) {
        auto it = query.find(param.name);
        const nlohmann::json loc = {"query", param.name};
        if (it == query.end()) {
            if (param.required) issues.push_back({loc, "Field required", "missing"});
            continue;
        }
        if (hasNul(it->second)) {
            issues.push_back({loc, "String should not contain the NUL character", "string_nul"});
            continue;
        }
        if (param.type == "integer") {
            long long v = 0;
            std::size_t used = 0;
            try {
                v = std::stoll(it->second, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != it->second.size()) {
                issues.push_back({loc,
                                  "Input should be a valid integer, unable to parse string as an "
                                  "integer",
                                  "int_parsing"});
                continue;
            }
            if (param.minimum && v < *param.minimum) {
                issues.push_back(
                    {loc,
                     "Input should be greater than or equal to " + std::to_string(*param.minimum),
                     "greater_than_equal"});
            }
            if (param.maximum && v > *param.maximum) {
                issues.push_back(
                    {loc, "Input should be less than or equal to " + std::to_string(*param.maximum),
                     "less_than_equal"});
            }
        } else if (param.type == "boolean") {
            const auto& s = it->second;
            if (s != "true" && s != "false" && s != "1" && s != "0") {
                issues.push_back({loc, "Input should be a valid boolean, unable to interpret input",
                                  "bool_parsing"});
            }
        } else if (param.required && it->second.empty()) {
            issues.push_back({loc, "String should have at least 1 character", "string_too_short"});
        }
    }
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string bearerToken(const std::map<std::string, std::string>& headers) {
    auto it = headers.find("authorization");
    if (it == headers.end()) return {};
    const std::string& v = it->second;
    if (v.size() < 7 || Poco::icompare(v.substr(0, 7), "bearer ") != 0) return {};
    auto token = v.substr(7);
    while (!token.empty() && token.front() == ' ') token.erase(0, 1);
    return token;
}

std::optional<plugin::Error> ApiDispatcher::readForm(const plugin::RouteDefinition& def,
                                                     const RawRequest& raw,
                                                     plugin::HttpRequest& request,
                                                     std::vector<ValidationIssue>& issues) const {
    auto type = raw.headers.find("content-type");
    const std::string content_type = type == raw.headers.end() ? "" : type->second;
    if (!isMultipartForm(content_type)) {
        return plugin::Error{"unsupported_media_type", "the body must be multipart/form-data", 415};
    }
    auto form = parseMultipartForm(content_type, raw.body);
    if (!form) {
        issues.push_back(
            {{"body"}, "Input should be a complete multipart/form-data body", "multipart_parsing"});
        return std::nullopt;
    }
    for (const auto& [name, value] : form->fields.items()) {
        if (!common::isValidUtf8(value.get_ref<const std::string&>())) {
            issues.push_back({nlohmann::json::array({"body", name}),
                              "Input should be a valid UTF-8 string", "string_unicode"});
        }
    }
    for (const auto& field : def.file_fields) {
        if (std::none_of(form->files.begin(), form->files.end(),
                         [&](const auto& f) { return f.field == field; })) {
            issues.push_back({nlohmann::json::array({"body", field}), "Field required", "missing"});
        }
    }
    if (!issues.empty()) return std::nullopt;
    request.body = std::move(form->fields);
    request.files = std::move(form->files);
    if (!def.request_schema.empty()) {
        auto body_issues = schemas_.validate(def.request_schema, request.body, {"body"});
        issues.insert(issues.end(), body_issues.begin(), body_issues.end());
    }
    return std::nullopt;
}

std::string traceIdFor(const std::map<std::string, std::string>& headers) {
    auto it = headers.find("traceparent");
    if (it != headers.end()) {
        // version "-" trace-id(32) "-" parent-id(16) "-" flags(2)
        const std::string& tp = it->second;
        if (tp.size() >= 55 && tp[2] == '-' && tp[35] == '-' && tp[52] == '-') {
            const std::string id = tp.substr(3, 32);
            if (isLowerHex(id) && id != std::string(32, '0')) return id;
        }
    }
    std::string id = common::newUuid();
    std::erase(id, '-');
    return id;
}

ApiDispatcher::ApiDispatcher(const Router& router, const SchemaRegistry& schemas,
                             const Authenticator& authenticator, DispatcherOptions options)
    : router_(router),
      schemas_(schemas),
      authenticator_(authenticator),
      options_(std::move(options)),
      rate_limiter_(options_.rate_limit_per_window, options_.rate_limit_window_seconds) {}

plugin::HttpResponse ApiDispatcher::dispatch(const RawRequest& raw) const {
    const auto started = std::chrono::steady_clock::now();
    const std::string trace_id = traceIdFor(raw.headers);
    const common::TraceScope trace_scope(trace_id);  // events and jobs the request causes
    Facts facts;
    plugin::HttpResponse response;
    try {
        response = handle(raw, trace_id, facts);
    } catch (const std::exception& e) {
        common::log(common::LogLevel::kError, "unhandled_exception",
                    {{"trace_id", trace_id}, {"what", e.what()}});
        response = errorResponse(plugin::Error::internal("unexpected"), trace_id,
                                 options_.resource_metadata_url);
    }
    response.headers.emplace_back("X-Trace-Id", trace_id);
    const std::string status = std::to_string(response.status);
    const double elapsed_ms = common::millisecondsSince(started);
    const std::string duration = std::to_string(elapsed_ms);
    common::recordRequest(facts.operation_id.empty() ? "unmatched" : facts.operation_id, raw.method,
                          response.status, elapsed_ms / 1000);
    common::log(response.status >= 500 ? common::LogLevel::kError : common::LogLevel::kInfo,
                "http_request",
                {{"method", raw.method},
                 {"path", raw.path},
                 {"status", status},
                 {"duration_ms", duration},
                 {"principal", facts.principal_id},
                 {"trace_id", trace_id}});
    return response;
}

plugin::HttpResponse ApiDispatcher::handle(const RawRequest& raw, const std::string& trace_id,
                                           Facts& facts) const {
    const auto fail = [&](const plugin::Error& e) {
        return errorResponse(e, trace_id, options_.resource_metadata_url);
    };
    if (!common::isValidUtf8(raw.path) || !decode(raw.path)) {
        return fail({"invalid_encoding", "the request path is not percent-encoded UTF-8", 400});
    }
    auto query = parseQuery(raw.query);
    if (!query) {
        return fail({"invalid_encoding", "the query string is not percent-encoded UTF-8", 400});
    }
    const RouteMatch match = router_.match(raw.method, raw.path);
    if (!match.route) {
        if (match.path_exists) {
            auto r =
                fail({"method_not_allowed", "method " + raw.method + " is not allowed here", 405});
            std::string allow;
            for (const auto& m : match.allowed_methods) allow += (allow.empty() ? "" : ", ") + m;
            r.headers.emplace_back("Allow", allow);
            return r;
        }
        return fail({"not_found", "no such path: " + raw.path, 404});
    }
    const Route& route = *match.route;

    plugin::HttpRequest request;
    request.method = raw.method;
    request.path = raw.path;
    request.operation_id = route.def.operation_id;
    facts.operation_id = route.def.operation_id;
    request.headers = raw.headers;
    request.trace_id = trace_id;

    std::vector<std::pair<std::string, std::string>> rate_headers;
    if (!route.def.is_public) {
        const std::string token = bearerToken(raw.headers);
        if (token.empty()) return fail(plugin::Error::unauthorized("missing bearer token"));
        auto principal = authenticator_.authenticate(token);
        if (!principal) return fail(principal.error());
        request.principal = std::move(principal).value();
        facts.principal_id = request.principal.user_id.empty() ? request.principal.client_id
                                                               : request.principal.user_id;
        for (const auto& scope : route.def.scopes) {
            if (!request.principal.hasScope(scope)) {
                return fail({"insufficient_scope", "this operation needs scope " + scope, 403});
            }
        }
        const auto decision = rate_limiter_.take(facts.principal_id, common::nowEpochSeconds());
        const std::string limit = std::to_string(decision.limit);
        const std::string remaining = std::to_string(decision.remaining);
        const std::string reset = std::to_string(decision.reset_seconds);
        rate_headers = {
            {"RateLimit-Policy",
             "\"default\";q=" + limit + ";w=" + std::to_string(decision.window_seconds)},
            {"RateLimit", "\"default\";r=" + remaining + ";t=" + reset},
            {"X-RateLimit-Limit", limit},
            {"X-RateLimit-Remaining", remaining},
            {"X-RateLimit-Reset", reset},
        };
        if (!decision.allowed) {
            auto r = fail({"rate_limited", "too many requests; retry after " + reset + " s", 429});
            r.headers.insert(r.headers.end(), rate_headers.begin(), rate_headers.end());
            r.headers.emplace_back("Retry-After", reset);
            return r;
        }
    }

    std::vector<ValidationIssue> issues;
    for (const auto& [name, value] : match.path_params) {
        const std::string decoded = decode(value).value_or(std::string());
        if (endsWith(name, "_id") && !common::isUuid(decoded)) {
            issues.push_back({{"path", name}, "Input should be a valid UUID", "uuid_parsing"});
        } else if (hasNul(decoded)) {
            issues.push_back(
                {{"path", name}, "String should not contain the NUL character", "string_nul"});
        }
        request.path_params[name] = decoded;
    }
    request.query = std::move(*query);
    validateQuery(route, request.query, issues);
    if (auto ws = raw.headers.find(kWorkspaceHeader); ws != raw.headers.end()) {
        // An empty value is refused too: it is what a header cut by a byte the transport cannot
        // read (0xFF) leaves, and it must not fall back to the personal scope.
        if (ws->second != "personal") {
            if (!common::isUuid(ws->second)) {
                issues.push_back({{"header", kWorkspaceHeader},
                                  "Input should be a valid UUID or 'personal'",
                                  "uuid_parsing"});
            } else {
                request.workspace_id = ws->second;
            }
        }
    }
    if (!route.def.file_fields.empty()) {
        if (auto refused = readForm(route.def, raw, request, issues)) {
            auto r = fail(*refused);
            r.headers.insert(r.headers.end(), rate_headers.begin(), rate_headers.end());
            return r;
        }
    } else if (!route.def.request_schema.empty()) {
        bool body_ok = true;
        if (raw.body.empty()) {
            issues.push_back({{"body"}, "Field required", "missing"});
            body_ok = false;
        } else if (!isJsonContentType(raw.headers)) {
            auto r = fail({"unsupported_media_type", "the body must be application/json", 415});
            r.headers.insert(r.headers.end(), rate_headers.begin(), rate_headers.end());
            return r;
        } else if (auto body = parseJsonBody(raw.body, options_.json_limits,
                                             nlohmann::json::array({"body"}), issues)) {
            request.body = std::move(*body);
        } else {
            body_ok = false;
        }
        if (body_ok) {
            auto body_issues = schemas_.validate(route.def.request_schema, request.body, {"body"});
            issues.insert(issues.end(), body_issues.begin(), body_issues.end());
        }
    }
    if (!issues.empty()) {
        auto r = validationResponse(issues);
        r.headers.insert(r.headers.end(), rate_headers.begin(), rate_headers.end());
        return r;
    }

    auto result = route.def.handler(request);
    plugin::HttpResponse response = result ? std::move(result).value() : fail(result.error());
    if (response.status == 0) response.status = route.def.success_status;
    response.headers.insert(response.headers.end(), rate_headers.begin(), rate_headers.end());
    return response;
}

}  // namespace docintel::http

#include "http/openapi.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace docintel::http {
namespace {

constexpr const char* kSecurityScheme = "OAuth2";

/// Rewrites `$ref: "X.schema.json"` into `#/components/schemas/X` and drops `$schema`.
nlohmann::json toComponent(nlohmann::json schema) {
    if (schema.is_object()) {
        schema.erase("$schema");
        schema.erase("$id");
        if (auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
            std::string name = ref->get<std::string>();
            const std::string suffix = ".schema.json";
            if (name.size() > suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
                name.resize(name.size() - suffix.size());
            }
            *ref = "#/components/schemas/" + name;
        }
        for (auto& [key, value] : schema.items()) {
            if (key != "enum" && key != "default") value = toComponent(value);
        }
    } else if (schema.is_array()) {
        for (auto& item : schema) item = toComponent(item);
    }
    return schema;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

}  // namespace

const nlohmann::json& scopeDescriptions() {
    static const nlohmann::json scopes = {
        {"workspaces:read", "Read workspaces, memberships and the caller's identity"},
        {"workspaces:write", "Create, rename and delete workspaces; manage members"},
        {"documents:read", "Read documents, chunks and versions"},
        {"documents:write", "Upload, re-embed, version and delete documents"},
        {"knowledge:query", "Ask grounded questions over documents"},
        {"knowledge:generate", "Generate summaries and other derived text"},
        {"sessions:write", "Create chat sessions and conversation recordings"},
        {"video:read", "Read video transcripts, frames and timelines"},
        {"video:process", "Process videos"},
        {"batches:read", "Read batch jobs and operations"},
        {"batches:write", "Start, retry, resume and cancel batch jobs"},
        {"workflows:read", "Read workflow definitions, runs and review tasks"},
        {"workflows:write", "Start workflow runs and create review tasks"},
        {"reviews:write", "Save reviews and take review tasks"},
        {"reviews:approve", "Approve or reject runs and review tasks"},
        {"packets:write", "Generate workflow packets"},
        {"learning:read", "Read courses and their content"},
        {"learning:participate", "Take part in courses: tutor, quizzes, questions"},
        {"learning:manage", "Manage courses, curricula, members and content"},
    };
    return scopes;
}

nlohmann::json buildOpenApi(const Router& router, const SchemaRegistry& schemas,
                            const OpenApiInfo& info) {
    nlohmann::json doc = {
        {"openapi", "3.1.0"},
        {"info",
         {{"title", info.title},
          {"version", info.version},
          {"description",
           "Self-hosted document intelligence: ingestion, grounded answers with citations, "
           "workflow runs and review."}}},
        {"servers", nlohmann::json::array({{{"url", info.server_url}}})},
        {"paths", nlohmann::json::object()},
    };

    std::set<std::string> tags;
    for (const auto& route : *router.routes()) {
        const auto& def = route->def;
        nlohmann::json op = {{"operationId", def.operation_id},
                             {"summary", def.summary},
                             {"tags", nlohmann::json::array({route->tag})}};
        if (!route->plugin.empty()) op["x-docintel-plugin"] = route->plugin;
        if (route->extra) op["x-docintel-extra"] = true;
        tags.insert(route->tag);

        nlohmann::json params = nlohmann::json::array();
        for (const auto& segment : route->segments) {
            if (segment.size() < 3 || segment.front() != '{') continue;
            const std::string name = segment.substr(1, segment.size() - 2);
            nlohmann::json schema = {{"type", "string"}};
            if (name.size() > 3 && name.compare(name.size() - 3, 3, "_id") == 0) {
                schema["format"] = "uuid";
            }
            params.push_back(
                {{"name", name}, {"in", "path"}, {"required", true}, {"schema", schema}});
        }
        for (const auto& q : def.query_params) {
            nlohmann::json schema = {{"type", q.type}};
            if (q.minimum) schema["minimum"] = *q.minimum;
            if (q.maximum) schema["maximum"] = *q.maximum;
            nlohmann::json p = {
                {"name", q.name}, {"in", "query"}, {"required", q.required}, {"schema", schema}};
            if (!q.description.empty()) p["description"] = q.description;
            params.push_back(p);
        }
        if (!def.is_public && !def.path.starts_with("/.well-known")) {
            params.push_back({{"name", "X-DocIntel-Workspace-ID"},
                              {"in", "header"},
                              {"required", false},
                              {"description",
                               "Team workspace to act in; absent or 'personal' selects the "
                               "caller's personal scope"},
                              {"schema", {{"type", "string"}}}});
        }
        if (!params.empty()) op["parameters"] = params;

        if (!def.request_schema.empty()) {
            nlohmann::json schema;
            if (def.request_schema.front() == '_') {
                schema = toComponent(schemas.get(def.request_schema));
            } else {
                schema = {{"$ref", "#/components/schemas/" + def.request_schema}};
            }
            op["requestBody"] = {{"required", true},
                                 {"content", {{"application/json", {{"schema", schema}}}}}};
        }

        nlohmann::json responses = {
            {std::to_string(def.success_status),
             {{"description", "Successful Response"},
              {"content", {{"application/json", {{"schema", nlohmann::json::object()}}}}}}}};
        const bool has_params = def.path.find('{') != std::string::npos ||
                                !def.query_params.empty() || !def.request_schema.empty();
        if (has_params) {
            responses["422"] = {
                {"description", "Validation Error"},
                {"content",
                 {{"application/json",
                   {{"schema", {{"$ref", "#/components/schemas/HTTPValidationError"}}}}}}}};
        }
        if (!def.is_public) {
            const nlohmann::json error_content = {
                {"application/json",
                 {{"schema", {{"$ref", "#/components/schemas/ErrorResponse"}}}}}};
            responses["401"] = {{"description", "Missing, invalid or expired token"},
                                {"content", error_content}};
            responses["403"] = {{"description", "Insufficient scope or no access"},
                                {"content", error_content}};
            responses["429"] = {{"description", "Rate limited"}, {"content", error_content}};
            op["security"] = nlohmann::json::array({{{kSecurityScheme, def.scopes}}});
        } else {
            op["security"] = nlohmann::json::array();
        }
        op["responses"] = responses;
        doc["paths"][def.path][lower(def.method)] = op;
    }

    nlohmann::json components = nlohmann::json::object();
    for (const auto& name : schemas.names()) {
        if (name.front() == '_') continue;
        components[name] = toComponent(schemas.get(name));
    }
    components["ErrorResponse"] = {{"title", "ErrorResponse"},
                                   {"type", "object"},
                                   {"required", {"detail", "code"}},
                                   {"properties",
                                    {{"detail", {{"type", "string"}}},
                                     {"code", {{"type", "string"}}},
                                     {"trace_id", {{"type", "string"}}}}}};

    doc["components"] = {
        {"schemas", components},
        {"securitySchemes",
         {{kSecurityScheme,
           {{"type", "oauth2"},
            {"description", "OAuth 2.1 access tokens (JWT, typ at+jwt) for the REST audience"},
            {"flows",
             {{"authorizationCode",
               {{"authorizationUrl", info.issuer + "/authorize"},
                {"tokenUrl", info.issuer + "/token"},
                {"refreshUrl", info.issuer + "/token"},
                {"scopes", scopeDescriptions()}}},
              {"clientCredentials",
               {{"tokenUrl", info.issuer + "/token"}, {"scopes", scopeDescriptions()}}}}}}}}}};
    nlohmann::json tag_list = nlohmann::json::array();
    for (const auto& t : tags) tag_list.push_back({{"name", t}});
    doc["tags"] = tag_list;
    return doc;
}

}  // namespace docintel::http

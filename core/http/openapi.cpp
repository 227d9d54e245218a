#include "http/openapi.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "http/api_contract.h"

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

/// A query parameter; `allowed` (from the response contract) lists the values it may take.
nlohmann::json queryParameter(const plugin::QueryParam& q, const nlohmann::json& allowed) {
    nlohmann::json schema = {{"type", q.type}};
    if (q.minimum) schema["minimum"] = *q.minimum;
    if (q.maximum) schema["maximum"] = *q.maximum;
    // The dispatcher refuses a required string given empty (string_too_short).
    if (q.type == "string" && q.required) schema["minLength"] = 1;
    if (allowed.is_array()) schema["enum"] = allowed;
    nlohmann::json p = {
        {"name", q.name}, {"in", "query"}, {"required", q.required}, {"schema", schema}};
    if (!q.description.empty()) p["description"] = q.description;
    return p;
}

/// The success response: the contract's schema (a `data:` frame when the operation streams),
/// or an undescribed object.
nlohmann::json successResponse(const nlohmann::json& contract) {
    nlohmann::json schema = nlohmann::json::object();
    if (const std::string name = contract.value("response", ""); !name.empty()) {
        schema = {{"$ref", "#/components/schemas/" + name}};
    }
    const std::string content_type = contract.value("content_type", "application/json");
    const bool stream = content_type == "text/event-stream";
    nlohmann::json media = {{"schema", schema}};
    if (stream) {
        // One server-sent event: its `data` is the JSON text of one frame.
        media["schema"] = {{"type", "object"},
                           {"required", {"data"}},
                           {"properties",
                            {{"event", {{"type", "string"}}},
                             {"data",
                              {{"type", "string"},
                               {"contentMediaType", "application/json"},
                               {"contentSchema", schema}}}}}};
    }
    return {{"description",
             stream ? "Server-sent events: each event is `data: <frame JSON>` and a blank line"
                    : "Successful Response"},
            {"content", {{content_type, media}}}};
}

/// The error statuses an operation answers: those every request may get (400 malformed
/// request), those its shape implies, and its contract's extras.
std::set<int> errorStatuses(const Route& route, const nlohmann::json& contract) {
    const auto& def = route.def;
    std::set<int> out{400};
    if (!def.is_public) out.insert({401, 403, 422, 429});
    const bool path_params = def.path.find('{') != std::string::npos;
    if (path_params) out.insert({404, 422});
    if (!def.query_params.empty()) out.insert(422);
    if (!def.request_schema.empty() || !def.file_fields.empty()) out.insert({411, 413, 415, 422});
    for (const auto& status : contract.value("errors", nlohmann::json::array())) {
        out.insert(status.get<int>());
    }
    return out;
}

/// A multipart/form-data operation's body: its text fields (request_schema) and its file
/// parts, each a required binary string.
nlohmann::json formSchema(const plugin::RouteDefinition& def, const SchemaRegistry& schemas) {
    nlohmann::json schema = {{"type", "object"}, {"properties", nlohmann::json::object()}};
    if (!def.request_schema.empty() && schemas.has(def.request_schema)) {
        const nlohmann::json fields = toComponent(schemas.get(def.request_schema));
        schema["properties"] = fields.value("properties", nlohmann::json::object());
        if (fields.contains("required")) schema["required"] = fields["required"];
    }
    for (const auto& field : def.file_fields) {
        schema["properties"][field] = {{"type", "string"}, {"format", "binary"}};
        schema["required"].push_back(field);
    }
    return schema;
}

nlohmann::json errorResponseObject(int status) {
    static const std::map<int, std::string> descriptions = {
        {400, "Malformed request: framing, encoding or parameters"},
        {401, "Missing, invalid or expired token"},
        {403, "Insufficient scope or no access"},
        {404, "Not found, or not visible to the caller"},
        {409, "Conflicts with the resource's current state"},
        {411, "A body is expected with a Content-Length"},
        {413, "Body or declared size too large"},
        {415, "Unsupported Content-Type (JSON expected) or file type"},
        {422, "Validation Error"},
        {429, "Rate limited"},
        {501, "Not implemented on this server (see docs/API_STATUS.md)"},
        {503, "A part this operation needs is unavailable on this node"},
    };
    const auto it = descriptions.find(status);
    const std::string schema = status == 422 ? "HTTPValidationError" : "ErrorResponse";
    return {{"description", it == descriptions.end() ? "Error" : it->second},
            {"content",
             {{"application/json", {{"schema", {{"$ref", "#/components/schemas/" + schema}}}}}}}};
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
        const nlohmann::json& contract = responseContract(*route);
        const nlohmann::json query_values = contract.value("query", nlohmann::json::object());
        for (const auto& q : def.query_params) {
            params.push_back(queryParameter(q, query_values.value(q.name, nlohmann::json())));
        }
        if (!def.is_public && !def.path.starts_with("/.well-known")) {
            params.push_back(
                {{"name", "X-DocIntel-Workspace-ID"},
                 {"in", "header"},
                 {"required", false},
                 {"description",
                  "Team workspace to act in; absent or 'personal' selects the caller's "
                  "personal scope (an empty value is refused)"},
                 {"schema",
                  {{"anyOf",
                    {{{"type", "string"}, {"format", "uuid"}}, {{"const", "personal"}}}}}}});
        }
        if (!params.empty()) op["parameters"] = params;

        if (!def.file_fields.empty()) {
            op["requestBody"] = {
                {"required", true},
                {"content", {{"multipart/form-data", {{"schema", formSchema(def, schemas)}}}}}};
        } else if (!def.request_schema.empty()) {
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
            {std::to_string(def.success_status), successResponse(contract)}};
        for (const int status : errorStatuses(*route, contract)) {
            responses[std::to_string(status)] = errorResponseObject(status);
        }
        if (!def.is_public) {
            op["security"] = nlohmann::json::array({{{kSecurityScheme, def.scopes}}});
        } else {
            op["security"] = nlohmann::json::array();
        }
        op["responses"] = responses;
        const nlohmann::json fragment = contract.value("openapi", nlohmann::json::object());
        for (const auto& [key, value] : fragment.items()) op[key] = value;
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

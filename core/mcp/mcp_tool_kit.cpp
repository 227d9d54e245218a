#include "mcp/mcp_tool_kit.h"

#include "mcp/mcp_tools.h"

namespace docintel::mcp {

using nlohmann::json;

std::string workspaceArg(const json& args) {
    const auto it = args.find("workspace_id");
    if (it == args.end() || !it->is_string()) return {};
    const auto& v = it->get_ref<const std::string&>();
    return v == "personal" ? std::string() : v;
}

std::string stringArg(const json& args, const char* name) {
    const auto it = args.find(name);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

json workspaceProperty() {
    return {{"type", {"string", "null"}},
            {"description",
             "Team workspace id; null, omitted or \"personal\" selects the caller's personal "
             "documents."}};
}

json documentIdProperty(const char* what) {
    return {{"type", "string"}, {"minLength", 1}, {"description", what}};
}

json objectSchema(json properties, json required) {
    return {{"type", "object"},
            {"properties", properties.is_null() ? json::object() : std::move(properties)},
            {"required", std::move(required)}};
}

json restSchema(const http::SchemaRegistry& schemas, const std::string& name,
                const json& describe) {
    json schema = schemas.get(name);
    schema.erase("title");
    for (const auto& [field, text] : describe.items()) {
        if (schema["properties"].contains(field)) schema["properties"][field]["description"] = text;
    }
    return schema;
}

json output(json result_schema) {
    return {{"type", "object"},
            {"properties", {{"result", std::move(result_schema)}}},
            {"required", {"result"}}};
}

json output(json properties, json required) {
    return output(objectSchema(std::move(properties), std::move(required)));
}

json anyObject() { return {{"type", "object"}}; }

plugin::Error toolError(const plugin::Error& e) {
    if (e.code != "validation_error") return e;
    std::string message;
    for (const auto& d : json::parse(e.message, nullptr, false)) {
        if (!d.is_object()) continue;
        std::string where;
        for (const auto& part : d.value("loc", json::array())) {
            if (part == "body" || part == "arguments") continue;
            where += (where.empty() ? "" : ".") +
                     (part.is_string() ? part.get<std::string>() : part.dump());
        }
        message += (message.empty() ? "" : "; ") + (where.empty() ? "arguments" : where) + ": " +
                   d.value("msg", "invalid");
    }
    return plugin::Error{kInvalidArguments, message.empty() ? "invalid arguments" : message, 422};
}

}  // namespace docintel::mcp

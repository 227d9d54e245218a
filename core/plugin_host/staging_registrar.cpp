#include "plugin_host/staging_registrar.h"

#include <algorithm>
#include <set>

#include "common/mustache.h"

namespace docintel::plugin_host {

using plugin::Error;
using plugin::Status;

namespace {

constexpr const char* kRoutePrefix = "/api/v1/";

Error invalid(std::string message) {
    return Error::unprocessable("invalid_registration", std::move(message));
}

}  // namespace

Status validateSchemas(const StagingRegistrar& staged, const http::SchemaRegistry& schemas) {
    std::set<std::string> names;
    for (const auto& [name, schema] : staged.schemas) {
        if (name.empty() || !schema.is_object()) {
            return invalid("schema '" + name + "' needs a name and a JSON object");
        }
        if (auto pattern = http::SchemaRegistry::unreadablePattern(schema)) {
            return invalid("schema '" + name + "' has a pattern RE2 cannot read: " + *pattern);
        }
        if (!names.insert(name).second || schemas.has(name)) {
            return Error::conflict("schema_conflict", "schema name " + name + " is taken");
        }
    }
    return {};
}

Status validateRoutes(const StagingRegistrar& staged, const http::Router& router,
                      const http::SchemaRegistry& schemas) {
    http::Router scratch;  // catches collisions between the plugin's own routes
    for (const auto& def : staged.routes) {
        const std::string label = "route " + def.method + " " + def.path;
        if (def.path.rfind(kRoutePrefix, 0) != 0) {
            return invalid(label + ": plugin paths must start with " + kRoutePrefix);
        }
        if (def.is_public) return invalid(label + ": plugin routes cannot be public");
        if (!def.request_schema.empty() && !schemas.has(def.request_schema) &&
            std::none_of(staged.schemas.begin(), staged.schemas.end(),
                         [&](const auto& s) { return s.first == def.request_schema; })) {
            return invalid(label + ": unknown request schema " + def.request_schema);
        }
        Status status = router.check(def);
        if (status) status = scratch.add(def, {});
        if (!status) {
            const auto& e = status.error();
            return e.code == "route_conflict"
                       ? Error::conflict("route_conflict", label + ": " + e.message)
                       : invalid(label + ": " + e.message);
        }
    }
    return {};
}

Status validateMcp(const StagingRegistrar& staged, const PluginRegistry& registry) {
    std::set<std::string> tools;
    for (const auto& tool : staged.tools) {
        if (tool.name.empty() || !tool.handler) {
            return invalid("MCP tool '" + tool.name + "' needs a name and a handler");
        }
        if (!tools.insert(tool.name).second || registry.hasMcpTool(tool.name)) {
            return Error::conflict("mcp_conflict", "MCP tool " + tool.name + " is taken");
        }
    }
    std::set<std::string> resources;
    for (const auto& resource : staged.resources) {
        if (resource.uri_template.empty() || !resource.reader) {
            return invalid("MCP resource '" + resource.uri_template +
                           "' needs a URI template and a reader");
        }
        if (!resources.insert(resource.uri_template).second ||
            registry.hasMcpResource(resource.uri_template)) {
            return Error::conflict("mcp_conflict",
                                   "MCP resource " + resource.uri_template + " is taken");
        }
    }
    return {};
}

Status validateSteps(const StagingRegistrar& staged, const PluginRegistry& registry) {
    std::set<std::string> names;
    for (const auto& step : staged.steps) {
        if (step.name.empty() || !step.run) {
            return invalid("workflow step '" + step.name + "' needs a name and a function");
        }
        if (!names.insert(step.name).second || registry.hasWorkflowStep(step.name)) {
            return Error::conflict("workflow_conflict", "workflow step " + step.name + " is taken");
        }
    }
    return {};
}

Status validateWorkflows(const StagingRegistrar& staged, const PluginRegistry& registry,
                         const WorkflowValidator& validator) {
    std::set<std::string> names;
    for (const auto& definition : staged.workflows) {
        const auto it = definition.is_object() ? definition.find("name") : definition.end();
        if (!definition.is_object() || it == definition.end() || !it->is_string() ||
            it->get<std::string>().empty()) {
            return invalid("a workflow definition needs a string \"name\"");
        }
        const auto name = it->get<std::string>();
        if (!names.insert(name).second || registry.hasWorkflow(name)) {
            return Error::conflict("workflow_conflict", "workflow " + name + " is taken");
        }
        if (validator) {
            if (auto ok = validator(definition); !ok) {
                return invalid("workflow " + name + ": " + ok.error().message);
            }
        }
        // Every step a definition uses is this plugin's or an earlier plugin's.
        const auto steps = definition.find("steps");
        if (steps == definition.end() || !steps->is_array()) continue;
        for (const auto& step : *steps) {
            const std::string uses = step.is_object() ? step.value("uses", "") : "";
            const bool staged_here =
                std::any_of(staged.steps.begin(), staged.steps.end(),
                            [&](const plugin::WorkflowStep& s) { return s.name == uses; });
            if (!staged_here && !registry.hasWorkflowStep(uses)) {
                return invalid("workflow " + name + " uses unknown step '" + uses + "'");
            }
        }
    }
    return {};
}

Status validateAttachments(const StagingRegistrar& staged, const http::Router& router) {
    std::set<std::string> ids;
    for (const auto& [operation_id, handler] : staged.attachments) {
        if (operation_id.empty() || !handler) {
            return invalid("attached operation '" + operation_id + "' needs an id and a handler");
        }
        if (!ids.insert(operation_id).second) {
            return Error::conflict("attach_conflict",
                                   "operation " + operation_id + " is attached twice");
        }
        if (auto status = router.checkAttach(operation_id); !status) {
            return Error::conflict("attach_conflict", status.error().message);
        }
    }
    return {};
}

Status validateMigrations(const StagingRegistrar& staged) {
    std::set<int> versions;
    for (const auto& m : staged.migrations) {
        const std::string label = "migration " + std::to_string(m.version) + " (" + m.name + ")";
        if (m.version <= 0) return invalid(label + ": versions start at 1");
        if (m.sql.find_first_not_of(" \t\r\n") == std::string::npos) {
            return invalid(label + ": no SQL");
        }
        if (!versions.insert(m.version).second) {
            return Error::unprocessable("invalid_migration", label + ": version used twice");
        }
    }
    return {};
}

Status validateJobKinds(const StagingRegistrar& staged) {
    std::set<std::string> names;
    for (const auto& kind : staged.job_kinds) {
        const auto& n = kind.name;
        const bool well_formed =
            !n.empty() && n.size() <= 64 && n[0] >= 'a' && n[0] <= 'z' &&
            std::all_of(n.begin(), n.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
            });
        if (!well_formed || !kind.run) {
            return invalid("job kind '" + n +
                           "' needs a name ^[a-z][a-z0-9_]{0,63}$ and a function");
        }
        if (!names.insert(n).second) return invalid("job kind " + n + " is registered twice");
    }
    return {};
}

}  // namespace docintel::plugin_host

namespace docintel::plugin_host {

namespace {

/// "courses/{course_id}": segments of [a-z0-9_-] or {name} parameters, none empty.
bool validConsolePath(const std::string& path, bool* has_params) {
    *has_params = false;
    if (path.empty() || path.size() > 200) return false;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string seg = path.substr(start, end - start);
        const bool param = seg.size() > 2 && seg.front() == '{' && seg.back() == '}';
        const std::string name = param ? seg.substr(1, seg.size() - 2) : seg;
        const bool chars_ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        });
        if (!chars_ok) return false;
        *has_params = *has_params || param;
        start = end + 1;
    }
    return true;
}

}  // namespace

Status validateConsolePages(const StagingRegistrar& staged) {
    std::set<std::string> paths;
    for (const auto& page : staged.console_pages) {
        bool has_params = false;
        if (!validConsolePath(page.path, &has_params) || !page.view) {
            return invalid("console page '" + page.path +
                           "' needs a path of [a-z0-9_-] or {name} segments and a view");
        }
        if (has_params && !page.nav.empty()) {
            return invalid("console page '" + page.path +
                           "' has parameters and cannot be listed in the navigation");
        }
        if (auto parsed = common::renderMustache(page.template_text, nlohmann::json::object());
            !parsed || page.template_text.empty()) {
            return invalid("console page '" + page.path + "' has no template that parses");
        }
        if (!paths.insert(page.path).second) {
            return invalid("console page " + page.path + " is registered twice");
        }
    }
    return {};
}

}  // namespace docintel::plugin_host

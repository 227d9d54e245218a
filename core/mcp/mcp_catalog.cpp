#include "mcp/mcp_catalog.h"

#include "common/log.h"

namespace docintel::mcp {

bool matchUriTemplate(const std::string& uri_template, const std::string& uri,
                      std::map<std::string, std::string>& variables) {
    variables.clear();
    std::size_t t = 0;
    std::size_t u = 0;
    while (t < uri_template.size()) {
        if (uri_template[t] != '{') {
            if (u >= uri.size() || uri[u] != uri_template[t]) return false;
            ++t;
            ++u;
            continue;
        }
        const auto close = uri_template.find('}', t);
        if (close == std::string::npos) return false;
        const std::string name = uri_template.substr(t + 1, close - t - 1);
        t = close + 1;
        // A variable runs to the next '/' (or the end); it never spans segments.
        const auto end = uri.find('/', u);
        const std::string value = uri.substr(u, end == std::string::npos ? end : end - u);
        if (value.empty() || value.find_first_of("?#") != std::string::npos) return false;
        variables[name] = value;
        u += value.size();
    }
    return u == uri.size();
}

Tool toolFromPlugin(const std::string& plugin_name, const plugin::McpToolDefinition& d) {
    Tool t;
    t.name = d.name;
    t.description = d.description;
    t.input_schema =
        d.input_schema.is_object() ? d.input_schema : nlohmann::json{{"type", "object"}};
    t.output_schema = {{"type", "object"},
                       {"properties", {{"result", nlohmann::json::object()}}},
                       {"required", {"result"}}};
    t.scopes = d.scopes;
    t.plugin = plugin_name;
    t.handler = [handler = d.handler](const plugin::ToolCall& call, ToolContext&) {
        return handler(call);
    };
    return t;
}

Resource resourceFromPlugin(const std::string& plugin_name, const plugin::McpResourceTemplate& d) {
    Resource r;
    r.uri_template = d.uri_template;
    r.name = d.name;
    r.description = d.description;
    r.mime_type = d.mime_type;
    r.scopes = d.scopes;
    r.plugin = plugin_name;
    r.reader = [reader = d.reader](const std::string& uri,
                                   const std::map<std::string, std::string>&,
                                   const plugin::Principal& caller) { return reader(uri, caller); };
    return r;
}

const Tool* CatalogSnapshot::findTool(const std::string& name) const {
    const auto it = tool_index.find(name);
    return it == tool_index.end() ? nullptr : &tools[it->second];
}

const Resource* CatalogSnapshot::findResource(const std::string& uri,
                                              std::map<std::string, std::string>& variables) const {
    for (const auto& r : resources) {
        if (r.isTemplate() ? matchUriTemplate(r.uri_template, uri, variables)
                           : r.uri_template == uri) {
            return &r;
        }
    }
    variables.clear();
    return nullptr;
}

Catalog::Catalog(std::vector<Tool> builtin_tools, std::vector<Resource> builtin_resources,
                 PluginSource plugins)
    : builtin_tools_(std::move(builtin_tools)),
      builtin_resources_(std::move(builtin_resources)),
      plugins_(std::move(plugins)) {}

std::shared_ptr<const CatalogSnapshot> Catalog::snapshot() const {
    const std::uint64_t generation = plugins_.generation ? plugins_.generation() : 0;
    std::lock_guard lock(mutex_);
    if (!current_ || current_->generation != generation) current_ = build(generation);
    return current_;
}

std::shared_ptr<const CatalogSnapshot> Catalog::build(std::uint64_t generation) const {
    auto s = std::make_shared<CatalogSnapshot>();
    s->generation = generation;
    const auto add = [&](const Tool& tool) {
        if (s->tool_index.count(tool.name)) {
            common::log(common::LogLevel::kWarning, "mcp_tool_shadowed",
                        {{"tool", tool.name}, {"plugin", tool.plugin}});
            return;
        }
        s->tool_index.emplace(tool.name, s->tools.size());
        s->tools.push_back(tool);
        // Registered once per name; a tool's schema never changes once it is served.
        if (tool.validate_arguments) schemas_.add(schemaName(tool.name), tool.input_schema);
    };
    for (const auto& t : builtin_tools_) add(t);
    if (plugins_.tools) {
        for (const auto& t : plugins_.tools()) add(t);
    }
    s->resources = builtin_resources_;
    if (plugins_.resources) {
        for (auto& r : plugins_.resources()) s->resources.push_back(std::move(r));
    }
    return s;
}

}  // namespace docintel::mcp

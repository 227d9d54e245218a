#include "plugin_host/plugin_registry.h"

#include <algorithm>
#include <set>

namespace docintel::plugin_host {
namespace {

std::string fileName(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// True when `names` holds some value twice.
bool hasRepeats(const std::vector<std::string>& names) {
    std::set<std::string> seen;
    for (const auto& n : names) {
        if (!seen.insert(n).second) return true;
    }
    return false;
}

// The workflow's "name", or empty when it has none (or the definition is not an object).
std::string workflowName(const nlohmann::json& definition) {
    if (!definition.is_object()) return {};
    const auto it = definition.find("name");
    return it != definition.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

nlohmann::json PluginInfo::toJson() const {
    return {{"name", name},
            {"version", version},
            {"file", fileName(path)},
            {"operation_ids", operation_ids},
            {"attached_operations", attached_operations},
            {"schemas", schemas},
            {"mcp_tools", mcp_tools},
            {"mcp_resources", mcp_resources},
            {"workflows", workflows},
            {"workflow_steps", workflow_steps},
            {"console_pages", console_pages},
            {"loaded_at", loaded_at}};
}

nlohmann::json RefusedPlugin::toJson() const {
    return {{"file", fileName(path)},
            {"name", name},
            {"code", code},
            {"reason", reason},
            {"refused_at", refused_at}};
}

plugin::Status PluginRegistry::addLoaded(PluginContribution contribution) {
    std::vector<std::string> tool_names;
    std::vector<std::string> resource_uris;
    std::vector<std::string> workflow_names;
    for (const auto& t : contribution.tools) tool_names.push_back(t.name);
    for (const auto& r : contribution.resources) resource_uris.push_back(r.uri_template);
    for (const auto& w : contribution.workflows) workflow_names.push_back(workflowName(w));

    std::lock_guard lock(mutex_);
    const auto& name = contribution.info.name;
    if (std::any_of(plugins_.begin(), plugins_.end(),
                    [&](const PluginInfo& p) { return p.name == name; })) {
        return plugin::Error::conflict("duplicate_plugin",
                                       "a plugin named " + name + " is already loaded");
    }
    if (hasRepeats(tool_names) || hasRepeats(resource_uris) ||
        std::any_of(tool_names.begin(), tool_names.end(),
                    [&](const std::string& n) { return hasMcpToolLocked(n); }) ||
        std::any_of(resource_uris.begin(), resource_uris.end(),
                    [&](const std::string& u) { return hasMcpResourceLocked(u); })) {
        return plugin::Error::conflict("mcp_conflict",
                                       "an MCP tool or resource of " + name + " is taken");
    }
    if (hasRepeats(workflow_names) ||
        std::any_of(workflow_names.begin(), workflow_names.end(),
                    [&](const std::string& n) { return n.empty() || hasWorkflowLocked(n); })) {
        return plugin::Error::conflict("workflow_conflict",
                                       "a workflow of " + name + " is unnamed or taken");
    }

    for (const auto& step : contribution.steps) {
        const bool taken = std::any_of(steps_.begin(), steps_.end(),
                                       [&](const auto& s) { return s.step.name == step.name; });
        if (taken || step.name.empty()) {
            return plugin::Error::conflict("workflow_conflict",
                                           "a workflow step of " + name + " is unnamed or taken");
        }
    }

    for (auto& step : contribution.steps) steps_.push_back({name, std::move(step)});
    for (auto& page : contribution.console_pages) {
        console_pages_.push_back({name, std::move(page)});
    }
    for (auto& t : contribution.tools) tools_.push_back({name, std::move(t)});
    for (auto& r : contribution.resources) resources_.push_back({name, std::move(r)});
    for (auto& w : contribution.workflows) workflows_.push_back({name, std::move(w)});
    plugins_.push_back(std::move(contribution.info));
    ++generation_;
    return {};
}

void PluginRegistry::addRefused(RefusedPlugin refused) {
    std::lock_guard lock(mutex_);
    refused_.push_back(std::move(refused));
    ++generation_;
}

bool PluginRegistry::isLoaded(const std::string& name) const {
    std::lock_guard lock(mutex_);
    return std::any_of(plugins_.begin(), plugins_.end(),
                       [&](const PluginInfo& p) { return p.name == name; });
}

bool PluginRegistry::hasMcpTool(const std::string& name) const {
    std::lock_guard lock(mutex_);
    return hasMcpToolLocked(name);
}

bool PluginRegistry::hasMcpResource(const std::string& uri_template) const {
    std::lock_guard lock(mutex_);
    return hasMcpResourceLocked(uri_template);
}

bool PluginRegistry::hasWorkflow(const std::string& name) const {
    std::lock_guard lock(mutex_);
    return hasWorkflowLocked(name);
}

bool PluginRegistry::hasWorkflowStep(const std::string& name) const {
    std::lock_guard lock(mutex_);
    return std::any_of(steps_.begin(), steps_.end(),
                       [&](const PluginWorkflowStep& s) { return s.step.name == name; });
}

std::vector<PluginConsolePage> PluginRegistry::consolePages() const {
    std::lock_guard lock(mutex_);
    return console_pages_;
}

std::optional<PluginWorkflowStep> PluginRegistry::workflowStep(const std::string& name) const {
    std::lock_guard lock(mutex_);
    for (const auto& s : steps_) {
        if (s.step.name == name) return s;
    }
    return std::nullopt;
}

bool PluginRegistry::hasMcpToolLocked(const std::string& name) const {
    return std::any_of(tools_.begin(), tools_.end(),
                       [&](const PluginMcpTool& t) { return t.definition.name == name; });
}

bool PluginRegistry::hasMcpResourceLocked(const std::string& uri_template) const {
    return std::any_of(resources_.begin(), resources_.end(), [&](const PluginMcpResource& r) {
        return r.definition.uri_template == uri_template;
    });
}

bool PluginRegistry::hasWorkflowLocked(const std::string& name) const {
    return std::any_of(workflows_.begin(), workflows_.end(),
                       [&](const PluginWorkflow& w) { return workflowName(w.definition) == name; });
}

std::vector<PluginInfo> PluginRegistry::plugins() const {
    std::lock_guard lock(mutex_);
    return plugins_;
}

std::optional<PluginInfo> PluginRegistry::find(const std::string& name) const {
    std::lock_guard lock(mutex_);
    for (const auto& p : plugins_) {
        if (p.name == name) return p;
    }
    return std::nullopt;
}

std::vector<RefusedPlugin> PluginRegistry::refused() const {
    std::lock_guard lock(mutex_);
    return refused_;
}

std::vector<PluginMcpTool> PluginRegistry::mcpTools() const {
    std::lock_guard lock(mutex_);
    return tools_;
}

std::vector<PluginMcpResource> PluginRegistry::mcpResources() const {
    std::lock_guard lock(mutex_);
    return resources_;
}

std::vector<PluginWorkflow> PluginRegistry::workflows() const {
    std::lock_guard lock(mutex_);
    return workflows_;
}

std::uint64_t PluginRegistry::generation() const {
    std::lock_guard lock(mutex_);
    return generation_;
}

nlohmann::json PluginRegistry::toJson() const {
    std::lock_guard lock(mutex_);
    auto loaded = nlohmann::json::array();
    for (const auto& p : plugins_) loaded.push_back(p.toJson());
    auto refused = nlohmann::json::array();
    for (const auto& r : refused_) refused.push_back(r.toJson());
    return {{"plugins", std::move(loaded)}, {"refused", std::move(refused)}};
}

}  // namespace docintel::plugin_host

#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/registrar.h"
#include "plugin_api/result.h"

namespace docintel::plugin_host {

/// What a loaded plugin contributed, as the catalog (GET /api/v1) and `plugins list` show it.
struct PluginInfo {
    std::string name;
    std::string version;
    std::string path;  ///< the file it was loaded from
    std::vector<std::string> operation_ids;
    /// Declared contract operations the plugin serves (Registrar::attachOperation).
    std::vector<std::string> attached_operations;
    std::vector<std::string> schemas;
    std::vector<std::string> mcp_tools;
    std::vector<std::string> mcp_resources;  ///< URI templates
    std::vector<std::string> workflows;
    std::vector<std::string> workflow_steps;
    std::vector<std::string> console_pages;  ///< paths below /console/plugins/<name>/
    std::string loaded_at;                   ///< RFC 3339, UTC

    /// The catalog entry. Shows the file's name only, not the server's directory layout.
    nlohmann::json toJson() const;
};

/// A plugin file the host would not load, and why.
struct RefusedPlugin {
    std::string path;
    std::string name;  ///< from the descriptor when it could be read, else empty
    std::string code;  ///< e.g. abi_mismatch, registration_failed, route_conflict
    std::string reason;
    std::string refused_at;  ///< RFC 3339, UTC

    nlohmann::json toJson() const;
};

/// An MCP tool, resource or workflow definition together with the plugin that registered it.
struct PluginMcpTool {
    std::string plugin;
    plugin::McpToolDefinition definition;
};
struct PluginMcpResource {
    std::string plugin;
    plugin::McpResourceTemplate definition;
};
struct PluginWorkflow {
    std::string plugin;
    nlohmann::json definition;
};
struct PluginWorkflowStep {
    std::string plugin;
    plugin::WorkflowStep step;
};
struct PluginConsolePage {
    std::string plugin;
    plugin::ConsolePage page;
};

/// Everything one plugin registered outside the router, committed as one unit. Handlers in
/// `tools` and `resources` are expected to be wrapped by the loader already (they never throw).
struct PluginContribution {
    PluginInfo info;
    std::vector<plugin::McpToolDefinition> tools;
    std::vector<plugin::McpResourceTemplate> resources;
    std::vector<nlohmann::json> workflows;
    std::vector<plugin::WorkflowStep> steps;         ///< wrapped by the loader (never throw)
    std::vector<plugin::ConsolePage> console_pages;  ///< views wrapped by the loader
};

/// The record of plugins: which are loaded (in load order), which were refused, and the MCP
/// tools, resources and workflow definitions they registered. The MCP server and the workflow
/// engine read these through the snapshot accessors; a plugin's registrations never change
/// once it is loaded, and nothing is ever removed.
///
/// Thread-safe: every method locks `mutex_`; accessors return copies.
class PluginRegistry {
  public:
    /// Records a loaded plugin. Fails with `duplicate_plugin` when the name is already loaded,
    /// or `mcp_conflict` / `workflow_conflict` when a tool name, resource template or workflow
    /// name (or workflow step name) is already registered; nothing is recorded then.
    plugin::Status addLoaded(PluginContribution contribution);

    void addRefused(RefusedPlugin refused);

    bool isLoaded(const std::string& name) const;
    bool hasMcpTool(const std::string& name) const;
    bool hasMcpResource(const std::string& uri_template) const;
    bool hasWorkflow(const std::string& name) const;
    bool hasWorkflowStep(const std::string& name) const;

    /// Loaded plugins in load order.
    std::vector<PluginInfo> plugins() const;
    std::optional<PluginInfo> find(const std::string& name) const;
    /// Refused files, oldest first.
    std::vector<RefusedPlugin> refused() const;

    std::vector<PluginMcpTool> mcpTools() const;
    std::vector<PluginMcpResource> mcpResources() const;
    std::vector<PluginWorkflow> workflows() const;
    /// Console pages in load order (ConsolePages serves them under /console/plugins/).
    std::vector<PluginConsolePage> consolePages() const;
    /// The step registered under `name`, or nullopt.
    std::optional<PluginWorkflowStep> workflowStep(const std::string& name) const;

    /// Grows by one on every change (a plugin loaded or refused), so a cache built from the
    /// registry can tell it is stale.
    std::uint64_t generation() const;

    /// `{"plugins": [PluginInfo...], "refused": [RefusedPlugin...]}`.
    nlohmann::json toJson() const;

  private:
    bool hasMcpToolLocked(const std::string& name) const;
    bool hasMcpResourceLocked(const std::string& uri_template) const;
    bool hasWorkflowLocked(const std::string& name) const;

    mutable std::mutex mutex_;  // guards every member below
    std::vector<PluginInfo> plugins_;
    std::vector<RefusedPlugin> refused_;
    std::vector<PluginMcpTool> tools_;
    std::vector<PluginMcpResource> resources_;
    std::vector<PluginWorkflow> workflows_;
    std::vector<PluginWorkflowStep> steps_;
    std::vector<PluginConsolePage> console_pages_;
    std::uint64_t generation_ = 0;
};

}  // namespace docintel::plugin_host

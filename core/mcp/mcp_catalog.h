#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "http/schema_validator.h"
#include "mcp/mcp_types.h"

namespace docintel::mcp {

/// Where plugin tools and resources come from (the plugin registry, wired by the server).
/// `generation` grows whenever a plugin loads, so the catalog knows to rebuild.
struct PluginSource {
    std::function<std::uint64_t()> generation;
    std::function<std::vector<Tool>()> tools;
    std::function<std::vector<Resource>()> resources;
};

/// A plugin's tool or resource template as the MCP server serves it.
Tool toolFromPlugin(const std::string& plugin, const plugin::McpToolDefinition& definition);
Resource resourceFromPlugin(const std::string& plugin,
                            const plugin::McpResourceTemplate& definition);

/// An immutable view of every tool and resource at one plugin generation.
struct CatalogSnapshot {
    std::vector<Tool> tools;  ///< built-in first, then plugins in load order
    std::unordered_map<std::string, std::size_t> tool_index;
    std::vector<Resource> resources;
    std::uint64_t generation = 0;

    const Tool* findTool(const std::string& name) const;
    /// The resource whose URI (or template) matches `uri`, filling `variables`.
    const Resource* findResource(const std::string& uri,
                                 std::map<std::string, std::string>& variables) const;
};

/// Built-in tools and resources plus the plugins'. A plugin tool whose name a built-in tool
/// already has is ignored (logged). Each tool's input schema is registered in `schemas()` as
/// "mcp_tool:<name>" for argument validation.
///
/// Thread-safe: `snapshot` rebuilds under `mutex_` when the plugin generation moved and hands
/// out shared immutable snapshots.
class Catalog {
  public:
    Catalog(std::vector<Tool> builtin_tools, std::vector<Resource> builtin_resources,
            PluginSource plugins);

    std::shared_ptr<const CatalogSnapshot> snapshot() const;
    const http::SchemaRegistry& schemas() const { return schemas_; }

    static std::string schemaName(const std::string& tool) { return "mcp_tool:" + tool; }

  private:
    std::shared_ptr<const CatalogSnapshot> build(std::uint64_t generation) const;

    const std::vector<Tool> builtin_tools_;
    const std::vector<Resource> builtin_resources_;
    const PluginSource plugins_;
    mutable http::SchemaRegistry schemas_;
    mutable std::mutex mutex_;  // guards current_
    mutable std::shared_ptr<const CatalogSnapshot> current_;
};

}  // namespace docintel::mcp

#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http/schema_validator.h"
#include "plugin_api/result.h"
#include "plugin_host/plugin_registry.h"

namespace docintel::engine {

/// A workflow definition as the engine uses it: the JSON of its `*.workflow.json` plus the
/// plugin that registered it and the names under which its inputs and packet schemas are
/// registered for validation.
struct Workflow {
    std::string plugin;
    nlohmann::json definition;
    std::string inputs_schema;  ///< registered schema name
    std::string packet_schema;  ///< registered schema name

    std::string name() const { return definition.at("name").get<std::string>(); }
    std::string vertical() const { return definition.at("vertical").get<std::string>(); }
    std::string title() const { return definition.at("title").get<std::string>(); }
    /// The packet type entry named `type`, or null.
    const nlohmann::json* packetType(const std::string& type) const;
};

/// The workflows plugins registered, with their schemas registered in the SchemaRegistry
/// (`_wf.<name>.inputs`, `_wf.<name>.packet`) and the packet templates the server embeds
/// (templates/*.html.mustache). Refreshed from the PluginRegistry whenever its generation
/// moves, so a plugin dropped into a running server brings its workflows at once.
///
/// Thread-safe: `mutex_` guards the cache.
class WorkflowCatalog {
  public:
    WorkflowCatalog(const plugin_host::PluginRegistry& registry, http::SchemaRegistry& schemas);

    /// Registers the workflow meta-schemas (definition, rule, field) and the run body schemas.
    /// Call once before plugins load.
    void registerSchemas();

    /// The check the plugin loader runs on every registered definition: the definition schema,
    /// its inputs and packet schemas compile (every `$ref` resolves), and every packet type's
    /// template is embedded.
    plugin::Status validateDefinition(const nlohmann::json& definition) const;

    std::shared_ptr<const Workflow> find(const std::string& name);
    std::vector<std::shared_ptr<const Workflow>> all();

    /// The embedded template `name` (e.g. prior_auth.html.mustache), or nullopt.
    static std::optional<std::string> templateText(const std::string& name);

  private:
    void refreshLocked();

    const plugin_host::PluginRegistry& registry_;
    http::SchemaRegistry& schemas_;
    std::mutex mutex_;  // guards the members below
    std::uint64_t generation_ = ~0ULL;
    std::map<std::string, std::shared_ptr<const Workflow>> workflows_;
};

}  // namespace docintel::engine

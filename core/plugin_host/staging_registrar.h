#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/log.h"
#include "http/router.h"
#include "http/schema_validator.h"
#include "plugin_api/registrar.h"
#include "plugin_api/result.h"
#include "plugin_host/plugin_registry.h"

namespace docintel::plugin_host {

/// Checks a workflow definition a plugin registers (schema, templates) before it is accepted.
using WorkflowValidator = std::function<plugin::Status(const nlohmann::json& definition)>;

// The Registrar a plugin registers into: it only collects, so that nothing reaches the server
// before everything has been validated. It outlives `registerWith` (the plugin object keeps it
// alive) and is frozen when registerWith returns, so a plugin that kept the reference and calls
// it later is ignored (and logged) instead of touching freed memory.
//
// Thread-safe: `mutex_` guards `frozen_` and, until freeze(), the collected items; after
// freeze() only the loader touches them.
class StagingRegistrar final : public plugin::Registrar {
  public:
    explicit StagingRegistrar(std::string plugin_name) : plugin_name_(std::move(plugin_name)) {}

    void addSchema(const std::string& name, const nlohmann::json& schema) override {
        collect("schema", [&] { schemas.emplace_back(name, schema); });
    }
    void addRoute(plugin::RouteDefinition route) override {
        collect("route", [&] { routes.push_back(std::move(route)); });
    }
    void addMcpTool(plugin::McpToolDefinition tool) override {
        collect("mcp tool", [&] { tools.push_back(std::move(tool)); });
    }
    void addMcpResource(plugin::McpResourceTemplate resource) override {
        collect("mcp resource", [&] { resources.push_back(std::move(resource)); });
    }
    void addWorkflow(const nlohmann::json& definition) override {
        collect("workflow", [&] { workflows.push_back(definition); });
    }
    void addWorkflowStep(plugin::WorkflowStep step) override {
        collect("workflow step", [&] { steps.push_back(std::move(step)); });
    }
    void attachOperation(const std::string& operation_id, plugin::HttpHandler handler) override {
        collect("attached operation",
                [&] { attachments.emplace_back(operation_id, std::move(handler)); });
    }
    void addMigration(plugin::PluginMigration migration) override {
        collect("migration", [&] { migrations.push_back(std::move(migration)); });
    }
    void addJobKind(plugin::PluginJobKind kind) override {
        collect("job kind", [&] { job_kinds.push_back(std::move(kind)); });
    }

    void addConsolePage(plugin::ConsolePage page) override {
        collect("console page", [&] { console_pages.push_back(std::move(page)); });
    }

    void freeze() {
        std::lock_guard lock(mutex_);
        frozen_ = true;
    }

    // Drops whatever is left (plugin closures) while the plugin object still exists.
    void clear() {
        std::lock_guard lock(mutex_);
        frozen_ = true;
        schemas.clear();
        routes.clear();
        tools.clear();
        resources.clear();
        workflows.clear();
        steps.clear();
        attachments.clear();
        migrations.clear();
        job_kinds.clear();
        console_pages.clear();
    }

    std::vector<std::pair<std::string, nlohmann::json>> schemas;
    std::vector<plugin::RouteDefinition> routes;
    std::vector<plugin::McpToolDefinition> tools;
    std::vector<plugin::McpResourceTemplate> resources;
    std::vector<nlohmann::json> workflows;
    std::vector<plugin::WorkflowStep> steps;
    std::vector<std::pair<std::string, plugin::HttpHandler>> attachments;
    std::vector<plugin::PluginMigration> migrations;
    std::vector<plugin::PluginJobKind> job_kinds;
    std::vector<plugin::ConsolePage> console_pages;

  private:
    template <typename Fn>
    void collect(const char* what, Fn&& add) {
        std::lock_guard lock(mutex_);
        if (!frozen_) {
            add();
            return;
        }
        common::log(
            common::LogLevel::kWarning, "plugin_registration_ignored",
            {{"plugin", plugin_name_}, {"item", what}, {"reason", "registrations are frozen"}});
    }

    const std::string plugin_name_;
    std::mutex mutex_;
    bool frozen_ = false;
};

/// The checks a staged registration passes before anything of it is committed; each fails with
/// the refusal code PluginLoader documents (invalid_registration, schema_conflict,
/// route_conflict, mcp_conflict, workflow_conflict, attach_conflict, invalid_migration).
plugin::Status validateSchemas(const StagingRegistrar& staged, const http::SchemaRegistry& schemas);
plugin::Status validateRoutes(const StagingRegistrar& staged, const http::Router& router,
                              const http::SchemaRegistry& schemas);
plugin::Status validateMcp(const StagingRegistrar& staged, const PluginRegistry& registry);
plugin::Status validateSteps(const StagingRegistrar& staged, const PluginRegistry& registry);
plugin::Status validateWorkflows(const StagingRegistrar& staged, const PluginRegistry& registry,
                                 const WorkflowValidator& validator);
/// Every attached operation is declared, attachable and free, and attached once.
plugin::Status validateAttachments(const StagingRegistrar& staged, const http::Router& router);
/// Versions are positive and unique, and each migration has SQL.
plugin::Status validateMigrations(const StagingRegistrar& staged);
/// Job kind names are well formed, unique and have a function.
plugin::Status validateJobKinds(const StagingRegistrar& staged);
/// Console page paths are well formed and unique, navigation labels only on pages without
/// parameters, templates parse, and every page has a view.
plugin::Status validateConsolePages(const StagingRegistrar& staged);

}  // namespace docintel::plugin_host

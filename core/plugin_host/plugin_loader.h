#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "http/router.h"
#include "http/schema_validator.h"
#include "plugin_api/host_services.h"
#include "plugin_api/result.h"
#include "plugin_host/plugin_registry.h"
#include "plugin_host/staging_registrar.h"

namespace docintel::plugin_host {

/// A plugin file as the loader saw it: a changed file (new mtime or size) is a new identity.
struct PluginFileIdentity {
    std::string path;
    std::int64_t mtime_ns = 0;
    std::uintmax_t size = 0;

    // clang-tidy 14 misreads the defaulted comparison as a literal 0 used as a pointer.
    auto operator<=>(const PluginFileIdentity&) const = default;  // NOLINT(modernize-use-nullptr)
};

/// Gives a plugin that ships migrations its storage: its own Postgres schema and role, with the
/// migrations not applied yet applied (decision 0067). An Error refuses the plugin.
using StorageProvisioner = std::function<plugin::Status(
    const std::string& plugin, const std::vector<plugin::PluginMigration>& migrations)>;

/// Makes the job kind of `plugin` runnable on this node's job engine as
/// `plugin.<plugin>.<kind.name>` (`kind.run` is already guarded). An Error refuses the plugin.
using JobKindSink =
    std::function<plugin::Status(const std::string& plugin, plugin::PluginJobKind kind)>;

/// The HostServices lent to the plugin named so (it knows whose storage, prefix and jobs it
/// serves). The returned object must live as long as the process.
using HostFactory = std::function<plugin::HostServices&(const std::string& plugin)>;

/// How a directory load went.
struct DirectoryLoadCounts {
    int loaded = 0;
    int refused = 0;
};

/// Loads plugin shared libraries and wires what they register into the server.
///
/// For each file: dlopen (RTLD_NOW | RTLD_LOCAL), read the `docintel_plugin_descriptor`, and
/// check ABI major (equal), ABI minor (not newer than the host's), build id (equal) and name
/// (`^[a-z][a-z0-9_]{1,63}$`, not loaded yet) before creating anything. Then the plugin
/// registers into a staging registrar that only collects; every staged item is validated
/// (routes under /api/v1/, no route collisions, schema/tool/resource/workflow names free,
/// attached operations declared and free, migration versions unique). Then a plugin with
/// migrations gets its storage (the StorageProvisioner applies what is missing), and only if
/// all that passed is the plugin committed: schemas, then routes (tag and plugin = the plugin's
/// name), then attached operations, then MCP tools/resources and workflows into the
/// PluginRegistry. Otherwise nothing of it is served, the refusal is logged
/// (`event=plugin_refused`) and recorded. (Storage a refused plugin was given stays; a later
/// build of it finds its applied versions.)
///
/// Every host→plugin call (descriptor, create, registerWith, destroy, route handlers, MCP tool
/// handlers, resource readers) catches all exceptions; a throwing handler answers
/// `Error::internal` and never lets the exception reach the server.
///
/// Ownership: a loaded plugin object is kept alive by the handlers that call into it (shared
/// ownership), so it outlives every route and tool referring to it; a refused plugin object is
/// destroyed at once via the descriptor's `destroy`. Libraries are never dlclose'd, refused
/// ones included, because code or data from them may still be referenced. A library is opened
/// from a private copy of the file (PluginSnapshot), taken only from a whole file that did not
/// change while copied, so a drop still being written or a later overwrite in place never
/// touches mapped pages. A new build of a plugin must be dropped under a new file name; a
/// changed file at an opened path is refused.
///
/// Thread-safe: loads are serialised by `load_mutex_`, so the watcher thread and start-up
/// loading may overlap. The router, schemas, registry and host services must outlive it.
class PluginLoader {
  public:
    PluginLoader(http::Router& router, http::SchemaRegistry& schemas, PluginRegistry& registry,
                 plugin::HostServices& host);

    PluginLoader(const PluginLoader&) = delete;
    PluginLoader& operator=(const PluginLoader&) = delete;

    /// Loads one plugin file. Never throws; a refusal is an Error whose `code` says why
    /// (file_unreadable, file_changing, incomplete_file, load_failed, no_descriptor,
    /// abi_mismatch, build_mismatch, invalid_descriptor, duplicate_plugin, path_reused,
    /// create_failed, registration_failed, invalid_registration, route_conflict,
    /// schema_conflict, mcp_conflict, workflow_conflict, attach_conflict, invalid_migration,
    /// storage_unavailable, storage_failed, commit_failed, internal_error) and is also logged
    /// and recorded in the registry.
    plugin::Status loadFile(const std::string& path);

    /// Loads every `*.so` directly inside `dir`, in file-name order. Fails with `not_found`
    /// when `dir` is not a readable directory; individual refusals only count.
    plugin::Result<DirectoryLoadCounts> loadDirectory(const std::string& dir);

    /// True when `loadFile` has already been called on exactly this file version.
    bool attempted(const PluginFileIdentity& identity) const;

    PluginRegistry& registry() { return registry_; }

    /// Sets the check every registered workflow definition must pass (the workflow engine's);
    /// without one only the name is checked. Call before loading.
    void setWorkflowValidator(WorkflowValidator validator);
    /// Sets how plugins with migrations get storage; without one such a plugin is refused
    /// (`storage_unavailable`). Call before loading.
    void setStorageProvisioner(StorageProvisioner provisioner);
    /// Sets the per-plugin HostServices; without one every plugin gets the constructor's
    /// `host`. Call before loading.
    void setHostFactory(HostFactory factory);
    /// Sets where plugins' job kinds go; without one a plugin with job kinds is refused
    /// (`jobs_unavailable`). Call before loading.
    void setJobKindSink(JobKindSink sink);

  private:
    plugin::Status loadLocked(const std::string& path);
    plugin::Status refuse(const std::string& path, const std::string& name, plugin::Error error);
    WorkflowValidator workflowValidator() const;  // caller holds load_mutex_

    http::Router& router_;
    http::SchemaRegistry& schemas_;
    PluginRegistry& registry_;
    plugin::HostServices& host_;

    mutable std::mutex load_mutex_;  // serialises loads; guards the members below
    std::set<PluginFileIdentity> attempted_;
    std::set<std::string> opened_paths_;  // paths dlopen succeeded on
    WorkflowValidator workflow_validator_;
    StorageProvisioner storage_provisioner_;
    HostFactory host_factory_;
    JobKindSink job_kind_sink_;
};

/// The identity of `path` now, or nullopt when it cannot be stat'ed or is not a regular file.
std::optional<PluginFileIdentity> identifyPluginFile(const std::string& path);

}  // namespace docintel::plugin_host

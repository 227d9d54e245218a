#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/plugin_storage.h"
#include "plugin_api/registrar.h"
#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// Where a plugin's data lives and how it logs in (decision 0067).
struct PluginStorageLogin {
    std::string plugin;
    std::string schema;    ///< plugin_<name>
    std::string role;      ///< <database>_plugin_<name> (a hashed prefix when that is too long)
    std::string password;  ///< generated once, kept in the core table plugin_storage
    std::string url;       ///< the host's database URL with the role's user and password
};

/// Gives plugins their storage with the host's connection: creates (or brings up to date) the
/// plugin's login role, its schema owned by that role, and the few privileges it has outside:
/// REFERENCES on the `id` of public.workspaces, public.users and public.documents (so its
/// tables can cascade with them) and EXECUTE on public.docintel_plugin_emit_event. It has no
/// other privilege on core tables or other plugins' schemas. Runs under the migration lock.
///
/// The host's role needs CREATEROLE (or superuser); see docs/plugins.md. Thread-safe.
class PluginProvisioner {
  public:
    explicit PluginProvisioner(Database& host_db) : db_(host_db) {}

    /// The login of `plugin`, its role and schema created or updated. `storage_unavailable`
    /// when the names would pass Postgres's 63-byte limit; `storage_failed` when the host's
    /// role may not create roles.
    plugin::Result<PluginStorageLogin> provision(const std::string& plugin);

  private:
    Database& db_;
};

/// One plugin's storage: a small pool of connections logged in as the plugin's role (search
/// path: its schema), its migrations, and the transactions HostServices::transact runs.
///
/// Thread-safe.
class PluginStore {
  public:
    explicit PluginStore(PluginStorageLogin login, int pool_size = 4);

    const PluginStorageLogin& login() const { return login_; }

    /// Applies the migrations not applied yet, in version order, each in its own transaction
    /// holding the migration lock, recorded in `<schema>.docintel_migrations`. Returns the
    /// versions applied now; `migration_failed` names the version and Postgres's message.
    plugin::Result<std::vector<int>> migrate(std::vector<plugin::PluginMigration> migrations);

    /// Runs `fn` in one transaction as the plugin's role; committed when `fn` returns ok.
    plugin::Status transact(const std::function<plugin::Status(plugin::PluginTx&)>& fn);

  private:
    PluginStorageLogin login_;
    Database db_;
};

/// The database URL `url` logging in as `user` with `password` (a postgresql:// URI or a
/// key=value connection string).
std::string withLogin(const std::string& url, const std::string& user, const std::string& password);

/// The rows of `result` as JSON objects keyed by column name (see plugin::PluginTx::query).
nlohmann::json rowsToJson(const pqxx::result& result);

}  // namespace docintel::storage

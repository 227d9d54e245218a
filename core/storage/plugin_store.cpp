#include "storage/plugin_store.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <utility>

#include "common/id.h"
#include "common/log.h"
#include "common/trace_context.h"
#include "storage/migrator.h"

namespace docintel::storage {
namespace {

using plugin::Error;

constexpr std::size_t kMaxIdentifier = 63;  // Postgres's NAMEDATALEN - 1

constexpr Statement kCurrentDatabase{
    "plugin_storage_database",
    "SELECT current_database(), "
    "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"};
constexpr Statement kRecordLogin{
    "plugin_storage_record",
    "INSERT INTO plugin_storage (plugin, schema_name, role_name, password) "
    "VALUES ($1, $2, $3, $4) ON CONFLICT (plugin) DO NOTHING"};
constexpr Statement kFindLogin{
    "plugin_storage_find",
    "SELECT schema_name, role_name, password FROM plugin_storage WHERE plugin = $1"};
constexpr Statement kRoleExists{"plugin_storage_role_exists",
                                "SELECT 1 FROM pg_roles WHERE rolname = $1"};

std::string lockSql() {
    return "SELECT pg_advisory_xact_lock(" + std::to_string(Migrator::kLockKey) + ")";
}

std::string ident(const std::string& identifier) { return "\"" + identifier + "\""; }

// FNV-1a: a short, stable tag for a database name too long to prefix a role with.
std::string shortHash(const std::string& text) {
    std::uint32_t h = 2166136261u;
    for (const unsigned char c : text) {
        h ^= c;
        h *= 16777619u;
    }
    char out[9];
    std::snprintf(out, sizeof out, "%08x", h);
    return out;
}

bool plainIdentifier(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// Postgres's primary message: "ERROR:  permission denied for table users\n..." → the text.
std::string primaryMessage(const pqxx::sql_error& e) {
    std::string text = e.what();
    if (text.rfind("ERROR:", 0) == 0) text.erase(0, text.find_first_not_of(' ', 6));
    if (const auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
    return text;
}

// libpqxx 6.4 leaves sqlstate() empty for statements with parameters, but throws by class.
std::string sqlState(const pqxx::sql_error& e) {
    if (!e.sqlstate().empty()) return e.sqlstate();
    if (dynamic_cast<const pqxx::insufficient_privilege*>(&e)) return "42501";
    if (dynamic_cast<const pqxx::unique_violation*>(&e)) return "23505";
    if (dynamic_cast<const pqxx::foreign_key_violation*>(&e)) return "23503";
    if (dynamic_cast<const pqxx::not_null_violation*>(&e)) return "23502";
    if (dynamic_cast<const pqxx::check_violation*>(&e)) return "23514";
    if (dynamic_cast<const pqxx::undefined_table*>(&e)) return "42P01";
    if (dynamic_cast<const pqxx::undefined_column*>(&e)) return "42703";
    if (dynamic_cast<const pqxx::undefined_function*>(&e)) return "42883";
    if (dynamic_cast<const pqxx::syntax_error*>(&e)) return "42601";
    return "unknown";
}

Error sqlError(const std::string& plugin, const pqxx::sql_error& e) {
    const std::string state = sqlState(e);
    const std::string message = primaryMessage(e);
    common::log(common::LogLevel::kWarning, "plugin_sql_error",
                {{"plugin", plugin}, {"sqlstate", state}, {"message", message}});
    if (state == "23505" || state == "23503") {
        return Error::conflict("conflict", "SQLSTATE " + state + ": " + message);
    }
    if (state == "42501") {
        return Error{"storage_denied", "SQLSTATE " + state + ": " + message, 500};
    }
    return Error{"storage_error", "SQLSTATE " + state + ": " + message, 500};
}

std::vector<std::optional<std::string>> bind(const nlohmann::json& params) {
    std::vector<std::optional<std::string>> out;
    for (const auto& p : params) {
        if (p.is_null()) {
            out.emplace_back(std::nullopt);
        } else if (p.is_string()) {
            out.emplace_back(p.get<std::string>());
        } else {
            out.emplace_back(p.dump());  // numbers, booleans; objects and arrays as JSON text
        }
    }
    return out;
}

/// A plugin's transaction: its statements, and its events through the one function its role
/// may execute.
class PluginTxImpl final : public plugin::PluginTx {
  public:
    PluginTxImpl(Tx& tx, const std::string& plugin) : tx_(tx), plugin_(plugin) {}

    plugin::Result<nlohmann::json> query(const std::string& sql,
                                         const nlohmann::json& params) override {
        if (!params.is_array()) {
            return Error::badRequest("invalid_params", "query parameters must be a JSON array");
        }
        try {
            return rowsToJson(tx_.execParams(sql, bind(params)));
        } catch (const pqxx::serialization_failure&) {
            throw;  // Database::transact retries the whole transaction
        } catch (const pqxx::deadlock_detected&) {
            throw;
        } catch (const pqxx::sql_error& e) {
            return sqlError(plugin_, e);
        }
    }

    plugin::Status emitEvent(const plugin::PluginEvent& event) override {
        if (event.type.empty() || event.resource_type.empty() ||
            (event.workspace_id.empty() && event.user_id.empty())) {
            return Error::badRequest(
                "invalid_event", "an event needs a type, a resource type and a workspace or user");
        }
        const std::string user = event.user_id.empty() ? event.actor_id : event.user_id;
        auto emitted = query(
            "SELECT public.docintel_plugin_emit_event($1::uuid, $2, $3, $4, $5, $6, $7, "
            "$8::jsonb, $9)",
            {common::newUuid(), event.type, event.resource_type, event.resource_id,
             event.workspace_id, user, event.actor_id, event.payload.dump(),
             common::currentTraceId()});
        if (!emitted) return emitted.error();
        return {};
    }

  private:
    Tx& tx_;
    const std::string& plugin_;
};

}  // namespace

std::string withLogin(const std::string& url, const std::string& user,
                      const std::string& password) {
    const auto scheme = url.find("://");
    if (scheme == std::string::npos) return url + " user=" + user + " password=" + password;
    const auto start = scheme + 3;
    auto end = url.find_first_of("/?", start);
    if (end == std::string::npos) end = url.size();
    const auto at = url.rfind('@', end);
    const std::string host = at != std::string::npos && at >= start
                                 ? url.substr(at + 1, end - at - 1)
                                 : url.substr(start, end - start);
    return url.substr(0, start) + user + ":" + password + "@" + host + url.substr(end);
}

nlohmann::json rowsToJson(const pqxx::result& result) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : result) {
        nlohmann::json out = nlohmann::json::object();
        for (pqxx::row::size_type i = 0; i < row.size(); ++i) {
            const auto& field = row[i];
            const std::string name = result.column_name(i);
            if (field.is_null()) {
                out[name] = nullptr;
                continue;
            }
            switch (result.column_type(i)) {
                case 16:  // bool
                    out[name] = field.as<bool>();
                    break;
                case 20:  // int8
                case 21:  // int2
                case 23:  // int4
                    out[name] = field.as<long long>();
                    break;
                case 700:   // float4
                case 701:   // float8
                case 1700:  // numeric
                    out[name] = field.as<double>();
                    break;
                case 114:   // json
                case 3802:  // jsonb
                    out[name] = nlohmann::json::parse(field.c_str());
                    break;
                default:
                    out[name] = field.as<std::string>();
            }
        }
        rows.push_back(std::move(out));
    }
    return rows;
}

plugin::Result<PluginStorageLogin> PluginProvisioner::provision(const std::string& plugin) {
    if (!plainIdentifier(plugin)) {
        return Error::unprocessable("storage_unavailable", "plugin names are [a-z0-9_]");
    }
    return db_.transact([&](Tx& tx) -> plugin::Result<PluginStorageLogin> {
        tx.execRaw(lockSql());
        const auto about = tx.exec(kCurrentDatabase);
        const std::string database = about[0][0].as<std::string>();
        const bool superuser = !about[0][1].is_null() && about[0][1].as<bool>();
        PluginStorageLogin login;
        login.plugin = plugin;
        login.schema = "plugin_" + plugin;
        const std::string prefix =
            plainIdentifier(database) && database.size() + 8 + plugin.size() <= kMaxIdentifier
                ? database
                : "dp" + shortHash(database);
        login.role = prefix + "_plugin_" + plugin;
        if (login.role.size() > kMaxIdentifier || login.schema.size() > kMaxIdentifier) {
            return Error::unprocessable("storage_unavailable",
                                        "the plugin's name is too long for a Postgres role");
        }
        tx.exec(kRecordLogin, plugin, login.schema, login.role, common::randomToken(24));
        const auto stored = tx.exec(kFindLogin, plugin);
        login.schema = stored[0][0].as<std::string>();
        login.role = stored[0][1].as<std::string>();
        login.password = stored[0][2].as<std::string>();
        const std::string role = ident(login.role);
        const std::string schema = ident(login.schema);
        const std::string attributes =
            " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS "
            "PASSWORD '" +
            login.password + "'";
        try {
            if (tx.exec(kRoleExists, login.role).empty()) {
                tx.execRaw("CREATE ROLE " + role + attributes);
            } else {
                tx.execRaw("ALTER ROLE " + role + attributes);
            }
            // CREATE SCHEMA ... AUTHORIZATION needs membership unless the host is superuser.
            if (!superuser) tx.execRaw("GRANT " + role + " TO CURRENT_USER");
            tx.execRaw("CREATE SCHEMA IF NOT EXISTS " + schema + " AUTHORIZATION " + role);
            tx.execRaw("ALTER SCHEMA " + schema + " OWNER TO " + role);
            tx.execRaw("REVOKE ALL ON SCHEMA " + schema + " FROM PUBLIC");
            tx.execRaw("GRANT CONNECT ON DATABASE " + ident(database) + " TO " + role);
            tx.execRaw("GRANT USAGE ON SCHEMA public TO " + role);
            for (const char* table : {"workspaces", "users", "documents"}) {
                tx.execRaw("GRANT REFERENCES (id) ON public." + std::string(table) + " TO " + role);
            }
            tx.execRaw(
                "GRANT EXECUTE ON FUNCTION public.docintel_plugin_emit_event(uuid, text, text, "
                "text, text, text, text, jsonb, text) TO " +
                role);
            tx.execRaw("ALTER ROLE " + role + " IN DATABASE " + ident(database) +
                       " SET search_path = " + schema);
            tx.execRaw("ALTER ROLE " + role + " IN DATABASE " + ident(database) +
                       " SET statement_timeout = '60s'");
        } catch (const pqxx::serialization_failure&) {
            throw;
        } catch (const pqxx::sql_error& e) {
            return Error::unprocessable("storage_failed", "provisioning role " + login.role +
                                                              " failed (the server's "
                                                              "database role needs CREATEROLE): " +
                                                              primaryMessage(e));
        }
        login.url = withLogin(db_.url(), login.role, login.password);
        return login;
    });
}

PluginStore::PluginStore(PluginStorageLogin login, int pool_size)
    : login_(std::move(login)), db_(login_.url, pool_size) {}

plugin::Result<std::vector<int>> PluginStore::migrate(
    std::vector<plugin::PluginMigration> migrations) {
    std::sort(migrations.begin(), migrations.end(),
              [](const auto& a, const auto& b) { return a.version < b.version; });
    const std::string table = ident(login_.schema) + ".docintel_migrations";
    std::vector<int> applied_now;
    for (const auto& m : migrations) {
        auto step = db_.transact([&](Tx& tx) -> plugin::Result<bool> {
            tx.execRaw(lockSql());
            tx.execRaw("CREATE TABLE IF NOT EXISTS " + table +
                       " (version integer PRIMARY KEY, name text NOT NULL, "
                       "applied_at timestamptz NOT NULL DEFAULT now())");
            if (!tx.execParams("SELECT 1 FROM " + table + " WHERE version = $1",
                               {std::to_string(m.version)})
                     .empty()) {
                return false;
            }
            try {
                tx.execRaw(m.sql);
            } catch (const pqxx::serialization_failure&) {
                throw;
            } catch (const pqxx::sql_error& e) {
                return Error::unprocessable(
                    "migration_failed", "migration " + std::to_string(m.version) + " (" + m.name +
                                            ") of plugin " + login_.plugin +
                                            " failed: " + primaryMessage(e));
            }
            tx.execParams("INSERT INTO " + table + " (version, name) VALUES ($1, $2)",
                          {std::to_string(m.version), m.name});
            return true;
        });
        if (!step) return step.error();
        if (*step) {
            applied_now.push_back(m.version);
            common::log(common::LogLevel::kInfo, "plugin_migration_applied",
                        {{"plugin", login_.plugin},
                         {"version", std::to_string(m.version)},
                         {"name", m.name}});
        }
    }
    return applied_now;
}

plugin::Status PluginStore::transact(const std::function<plugin::Status(plugin::PluginTx&)>& fn) {
    return db_.transact([&](Tx& tx) -> plugin::Status {
        PluginTxImpl plugin_tx(tx, login_.plugin);
        return fn(plugin_tx);
    });
}

}  // namespace docintel::storage

#include "storage/oauth_client_repository.h"

#include <nlohmann/json.hpp>

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_CLIENT_COLUMNS                                                    \
    "client_id, kind, name, redirect_uris::text, scopes, cidrs, service_user_id, " \
    "disabled_at IS NOT NULL, created_at"

constexpr Statement kInsertPublic{
    "oauth_client_insert_public",
    "INSERT INTO oauth_clients (client_id, kind, name, redirect_uris) "
    "VALUES ($1, 'public', $2, $3::jsonb) RETURNING " DOCINTEL_CLIENT_COLUMNS};
constexpr Statement kInsertServiceUser{
    "oauth_service_user_insert",
    "INSERT INTO users (id, email, display_name, password_hash, kind) "
    "VALUES ($1, $2, $3, '!', 'service')"};
constexpr Statement kInsertConfidential{
    "oauth_client_insert_confidential",
    "INSERT INTO oauth_clients (client_id, kind, name, scopes, cidrs, service_user_id, "
    "created_by) VALUES ($1, 'confidential', $2, $3, $4, $5, NULLIF($6, '')::uuid) "
    "RETURNING " DOCINTEL_CLIENT_COLUMNS};
constexpr Statement kWorkspaceExists{"oauth_workspace_exists",
                                     "SELECT 1 FROM workspaces WHERE id = $1::uuid"};
constexpr Statement kAddMember{
    "oauth_app_add_member",
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1::uuid, $2, $3) "
    "ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role"};
constexpr Statement kInsertSecret{
    "oauth_secret_insert",
    "INSERT INTO oauth_client_secrets (id, client_id, secret_hash) VALUES ($1, $2, $3)"};
constexpr Statement kFind{"oauth_client_find", "SELECT " DOCINTEL_CLIENT_COLUMNS
                                               " FROM oauth_clients WHERE client_id = $1"};
constexpr Statement kListApps{"oauth_client_list_apps",
                              "SELECT " DOCINTEL_CLIENT_COLUMNS
                              " FROM oauth_clients WHERE kind = 'confidential' "
                              "ORDER BY created_at DESC"};
constexpr Statement kLiveSecrets{
    "oauth_secrets_live",
    "SELECT id, secret_hash, coalesce(extract(epoch FROM expires_at)::bigint, 0), created_at "
    "FROM oauth_client_secrets WHERE client_id = $1 AND (expires_at IS NULL OR expires_at > "
    "now()) ORDER BY created_at DESC, id"};
constexpr Statement kLockClient{"oauth_client_lock",
                                "SELECT 1 FROM oauth_clients WHERE client_id = $1 FOR UPDATE"};
constexpr Statement kDropOlderSecrets{
    "oauth_secrets_drop_older",
    "DELETE FROM oauth_client_secrets WHERE client_id = $1 AND id NOT IN ("
    "SELECT id FROM oauth_client_secrets WHERE client_id = $1 AND (expires_at IS NULL OR "
    "expires_at > now()) ORDER BY created_at DESC LIMIT 1)"};
constexpr Statement kExpireSecrets{
    "oauth_secrets_expire",
    "UPDATE oauth_client_secrets SET expires_at = LEAST(coalesce(expires_at, 'infinity'), "
    "to_timestamp($2)) WHERE client_id = $1"};
constexpr Statement kSetDisabled{
    "oauth_client_set_disabled",
    "UPDATE oauth_clients SET disabled_at = CASE WHEN $2 THEN coalesce(disabled_at, now()) "
    "ELSE NULL END WHERE client_id = $1"};
constexpr Statement kUpdateApp{
    "oauth_client_update_app",
    "UPDATE oauth_clients SET scopes = $2, cidrs = $3 WHERE client_id = $1 AND kind = "
    "'confidential'"};
constexpr Statement kEnsurePublic{
    "oauth_client_ensure_public",
    "INSERT INTO oauth_clients (client_id, kind, name, redirect_uris) "
    "VALUES ($1, 'public', $2, $3::jsonb) ON CONFLICT (client_id) DO UPDATE SET name = "
    "EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris WHERE oauth_clients.kind = 'public'"};
constexpr Statement kRemoveMember{
    "oauth_app_remove_member",
    "DELETE FROM workspace_members WHERE user_id = $1 AND workspace_id = $2::uuid"};
constexpr Statement kGrants{
    "oauth_app_grants",
    "SELECT workspace_id::text, role FROM workspace_members WHERE user_id = $1 "
    "ORDER BY added_at"};

#undef DOCINTEL_CLIENT_COLUMNS

OAuthClient rowToClient(const pqxx::row& r) {
    OAuthClient c;
    c.client_id = r[0].as<std::string>();
    c.kind = r[1].as<std::string>();
    c.name = r[2].as<std::string>();
    for (const auto& u : nlohmann::json::parse(r[3].as<std::string>())) {
        if (u.is_string()) c.redirect_uris.push_back(u.get<std::string>());
    }
    c.scopes = r[4].as<std::string>();
    c.cidrs = r[5].as<std::string>();
    c.service_user_id = r[6].as<std::string>("");
    c.disabled = r[7].as<bool>();
    c.created_at = isoTime(r[8]);
    return c;
}

}  // namespace

plugin::Result<OAuthClient> OAuthClientRepository::createPublic(
    const std::string& client_id, const std::string& name,
    const std::vector<std::string>& redirect_uris) {
    return db_.transact([&](Tx& tx) -> plugin::Result<OAuthClient> {
        return rowToClient(
            tx.exec(kInsertPublic, client_id, name, nlohmann::json(redirect_uris).dump())[0]);
    });
}

plugin::Result<OAuthClient> OAuthClientRepository::createConfidential(
    const std::string& client_id, const std::string& name, const std::string& scopes,
    const std::string& cidrs, const std::string& created_by, const std::string& secret_hash,
    const std::vector<WorkspaceGrant>& workspaces) {
    return db_.transact([&](Tx& tx) -> plugin::Result<OAuthClient> {
        for (const auto& g : workspaces) {
            if (!common::isUuid(g.workspace_id) ||
                tx.exec(kWorkspaceExists, g.workspace_id).empty()) {
                return plugin::Error{"workspace_not_found",
                                     "workspace " + g.workspace_id + " not found", 404};
            }
        }
        const std::string user_id = common::newUuid();
        tx.exec(kInsertServiceUser, user_id, client_id + "@applications.docintel.invalid", name);
        auto client = rowToClient(
            tx.exec(kInsertConfidential, client_id, name, scopes, cidrs, user_id, created_by)[0]);
        tx.exec(kInsertSecret, common::newUuid(), client_id, secret_hash);
        for (const auto& g : workspaces) tx.exec(kAddMember, g.workspace_id, user_id, g.role);
        return client;
    });
}

plugin::Status OAuthClientRepository::ensurePublic(const std::string& client_id,
                                                   const std::string& name,
                                                   const std::vector<std::string>& redirect_uris) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kEnsurePublic, client_id, name, nlohmann::json(redirect_uris).dump());
        return true;
    }));
}

plugin::Result<std::optional<OAuthClient>> OAuthClientRepository::find(
    const std::string& client_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<OAuthClient>> {
        auto rows = tx.exec(kFind, client_id);
        if (rows.empty()) return std::optional<OAuthClient>();
        return std::optional<OAuthClient>(rowToClient(rows[0]));
    });
}

plugin::Result<std::vector<OAuthClient>> OAuthClientRepository::listApplications() {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<OAuthClient>> {
        std::vector<OAuthClient> out;
        for (const auto& row : tx.exec(kListApps)) out.push_back(rowToClient(row));
        return out;
    });
}

plugin::Result<std::vector<ClientSecret>> OAuthClientRepository::liveSecrets(
    const std::string& client_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<ClientSecret>> {
        std::vector<ClientSecret> out;
        for (const auto& r : tx.exec(kLiveSecrets, client_id)) {
            out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::int64_t>(),
                           isoTime(r[3])});
        }
        return out;
    });
}

plugin::Status OAuthClientRepository::rotateSecret(const std::string& client_id,
                                                   const std::string& secret_hash,
                                                   std::int64_t previous_expires_epoch) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kLockClient, client_id).empty()) {
            return plugin::Error::notFound("application not found");
        }
        tx.exec(kDropOlderSecrets, client_id);
        tx.exec(kExpireSecrets, client_id, previous_expires_epoch);
        tx.exec(kInsertSecret, common::newUuid(), client_id, secret_hash);
        return true;
    }));
}

plugin::Result<bool> OAuthClientRepository::setDisabled(const std::string& client_id,
                                                        bool disabled) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kSetDisabled, client_id, disabled).affected_rows() > 0;
    });
}

plugin::Result<bool> OAuthClientRepository::updateApplication(const std::string& client_id,
                                                              const std::string& scopes,
                                                              const std::string& cidrs) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kUpdateApp, client_id, scopes, cidrs).affected_rows() > 0;
    });
}

plugin::Status OAuthClientRepository::setWorkspaceGrant(const std::string& service_user_id,
                                                        const WorkspaceGrant& grant) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (!common::isUuid(grant.workspace_id) ||
            tx.exec(kWorkspaceExists, grant.workspace_id).empty()) {
            return plugin::Error{"workspace_not_found",
                                 "workspace " + grant.workspace_id + " not found", 404};
        }
        tx.exec(kAddMember, grant.workspace_id, service_user_id, grant.role);
        return true;
    }));
}

plugin::Result<bool> OAuthClientRepository::removeWorkspaceGrant(const std::string& service_user_id,
                                                                 const std::string& workspace_id) {
    if (!common::isUuid(workspace_id)) return false;
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kRemoveMember, service_user_id, workspace_id).affected_rows() > 0;
    });
}

plugin::Result<std::vector<WorkspaceGrant>> OAuthClientRepository::workspaceGrants(
    const std::string& service_user_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<WorkspaceGrant>> {
        std::vector<WorkspaceGrant> out;
        for (const auto& r : tx.exec(kGrants, service_user_id)) {
            out.push_back({r[0].as<std::string>(), r[1].as<std::string>()});
        }
        return out;
    });
}

}  // namespace docintel::storage

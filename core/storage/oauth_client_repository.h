#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// An OAuth client: a registered public client (PKCE, redirect URIs) or a confidential
/// application (client credentials, approved scopes, source allowlist, a service account that
/// holds its workspace grants as memberships).
struct OAuthClient {
    std::string client_id;
    std::string kind;  ///< "public" | "confidential"
    std::string name;
    std::vector<std::string> redirect_uris;
    std::string scopes;  ///< space-separated
    std::string cidrs;   ///< space-separated
    std::string service_user_id;
    bool disabled = false;
    std::string created_at;
};

struct ClientSecret {
    std::string id;
    std::string secret_hash;
    std::int64_t expires_epoch = 0;  ///< 0 = no expiry
    std::string created_at;
};

struct WorkspaceGrant {
    std::string workspace_id;
    std::string role;  ///< owner | editor | viewer
};

/// Clients and applications, their secrets and workspace grants. Thread-safe (stateless over
/// the pool).
class OAuthClientRepository {
  public:
    explicit OAuthClientRepository(Database& db) : db_(db) {}

    plugin::Result<OAuthClient> createPublic(const std::string& client_id, const std::string& name,
                                             const std::vector<std::string>& redirect_uris);

    /// Creates the application, its service account, its first secret and its workspace
    /// memberships in one transaction. `workspace_not_found` (404) for an unknown workspace.
    plugin::Result<OAuthClient> createConfidential(
        const std::string& client_id, const std::string& name, const std::string& scopes,
        const std::string& cidrs, const std::string& created_by, const std::string& secret_hash,
        const std::vector<WorkspaceGrant>& workspaces);

    /// Creates or updates (name, redirect URIs) a public client with a fixed id: the
    /// server's own administration console (docs/decisions/0013).
    plugin::Status ensurePublic(const std::string& client_id, const std::string& name,
                                const std::vector<std::string>& redirect_uris);

    plugin::Result<std::optional<OAuthClient>> find(const std::string& client_id);
    /// Applications (confidential clients), newest first.
    plugin::Result<std::vector<OAuthClient>> listApplications();

    /// Secrets that have not expired, newest first.
    plugin::Result<std::vector<ClientSecret>> liveSecrets(const std::string& client_id);

    /// Adds `secret_hash` as the newest secret; the previous newest keeps working until
    /// `previous_expires_epoch`, any older one stops at once (at most two overlap).
    plugin::Status rotateSecret(const std::string& client_id, const std::string& secret_hash,
                                std::int64_t previous_expires_epoch);

    /// Sets or clears the disabled mark; false when there is no such client.
    plugin::Result<bool> setDisabled(const std::string& client_id, bool disabled);

    /// Replaces the approved scopes and allowlist of an application.
    plugin::Result<bool> updateApplication(const std::string& client_id, const std::string& scopes,
                                           const std::string& cidrs);

    /// Grants (or changes the role in) a workspace to an application's service account.
    /// `workspace_not_found` (404) for an unknown workspace.
    plugin::Status setWorkspaceGrant(const std::string& service_user_id,
                                     const WorkspaceGrant& grant);
    /// Withdraws a workspace grant; false when there was none.
    plugin::Result<bool> removeWorkspaceGrant(const std::string& service_user_id,
                                              const std::string& workspace_id);

    plugin::Result<std::vector<WorkspaceGrant>> workspaceGrants(const std::string& service_user_id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

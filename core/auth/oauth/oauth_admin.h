#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/oauth/oauth_settings.h"
#include "auth/revocation_list.h"
#include "plugin_api/http_types.h"
#include "plugin_api/result.h"
#include "storage/oauth_account_repository.h"
#include "storage/oauth_client_repository.h"
#include "storage/oauth_grant_repository.h"
#include "storage/user_repository.h"

namespace docintel::auth::oauth {

/// What an administrator (the organisation owner) manages: users (create, MFA, disable),
/// scope grants, access requests and confidential applications (one-time secret, rotation
/// with two overlapping secrets, workspace grants, approved scopes, CIDR allowlist,
/// disable/enable). Disabling a user or application revokes its refresh families and access
/// tokens at once. Used by the admin routes and by `docintel-admin`. Thread-safe.
class OAuthAdmin {
  public:
    OAuthAdmin(const OAuthSettings& settings, storage::UserRepository& users,
               storage::OAuthAccountRepository& accounts, storage::OAuthClientRepository& clients,
               storage::OAuthGrantRepository& grants, RevocationList& revocations);

    /// `forbidden` (403) unless the principal is an enabled administrator's user token.
    plugin::Status requireAdmin(const plugin::Principal& principal);

    /// Finds a user id by id or e-mail; `not_found` otherwise.
    plugin::Result<std::string> resolveUser(const std::string& id_or_email);

    plugin::Result<nlohmann::json> createUser(const nlohmann::json& body);
    /// Person accounts by e-mail: `{"items": [user...], "count"}`.
    plugin::Result<nlohmann::json> listUsers();
    plugin::Result<nlohmann::json> getUser(const std::string& user_id);
    /// Body fields (all optional): `mfa_enabled`, `disabled`.
    plugin::Result<nlohmann::json> updateUser(const std::string& user_id,
                                              const nlohmann::json& body);
    plugin::Result<nlohmann::json> grantScopes(const std::string& user_id,
                                               const std::vector<std::string>& scopes,
                                               const std::string& actor);
    plugin::Result<nlohmann::json> revokeScopes(const std::string& user_id,
                                                const std::vector<std::string>& scopes,
                                                const std::string& actor);

    plugin::Result<nlohmann::json> listAccessRequests(const std::string& status);
    /// `action`: approve | deny | revoke.
    plugin::Result<nlohmann::json> decideAccessRequest(const std::string& request_id,
                                                       const std::string& action,
                                                       const std::string& actor);

    /// Body: `name`, `scopes` (array or space-separated), `workspaces` ([{workspace_id, role}]
    /// or ids, role default `editor`), `cidrs` (array or space-separated). The answer holds
    /// `client_secret`, shown this once.
    plugin::Result<nlohmann::json> createApplication(const nlohmann::json& body,
                                                     const std::string& actor);
    plugin::Result<nlohmann::json> listApplications();
    plugin::Result<nlohmann::json> getApplication(const std::string& client_id);
    /// A new secret; the previous one keeps working for `overlap_seconds` (0 = stops now).
    plugin::Result<nlohmann::json> rotateSecret(const std::string& client_id,
                                                std::int64_t overlap_seconds);
    plugin::Result<nlohmann::json> setApplicationDisabled(const std::string& client_id,
                                                          bool disabled);
    /// Body fields (optional): `scopes` (at least one), `cidrs`. Narrowing the scopes revokes
    /// the application's access tokens at once; a new allowlist applies to the next token.
    plugin::Result<nlohmann::json> updateApplication(const std::string& client_id,
                                                     const nlohmann::json& body);
    /// Body: `workspace_id`, `role` (default `editor`). Grants or changes the role.
    plugin::Result<nlohmann::json> grantWorkspace(const std::string& client_id,
                                                  const nlohmann::json& body);
    /// Withdraws a workspace grant (effective at once: authorization reads memberships).
    plugin::Result<nlohmann::json> withdrawWorkspace(const std::string& client_id,
                                                     const std::string& workspace_id);

  private:
    plugin::Result<std::vector<std::string>> checkScopes(const std::vector<std::string>& scopes);
    nlohmann::json applicationJson(const storage::OAuthClient& c);
    plugin::Result<storage::OAuthClient> application(const std::string& client_id);
    nlohmann::json userJson(const storage::Account& a, const std::vector<std::string>& scopes);

    const OAuthSettings& settings_;
    storage::UserRepository& users_;
    storage::OAuthAccountRepository& accounts_;
    storage::OAuthClientRepository& clients_;
    storage::OAuthGrantRepository& grants_;
    RevocationList& revocations_;
};

/// A JSON array of strings, or one space/comma-separated string, as a list.
std::vector<std::string> stringList(const nlohmann::json& value);

}  // namespace docintel::auth::oauth

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// What the authorization server needs to know about a user account.
struct Account {
    std::string id;
    std::string email;
    std::string display_name;
    std::string password_hash;
    bool is_admin = false;
    std::string kind;  ///< "person" | "service"
    bool mfa_enabled = false;
    bool disabled = false;
};

struct AccessRequest {
    std::string id;
    std::string user_id;
    std::string email;
    std::string client_id;
    std::string client_name;
    std::string scope;
    std::string status;  ///< pending | approved | denied | revoked
    std::string created_at;
    std::string decided_at;
};

/// Accounts as the authorization server sees them: MFA and disabled state, the scopes an
/// administrator granted, access requests for more, and failed logins. Thread-safe.
class OAuthAccountRepository {
  public:
    explicit OAuthAccountRepository(Database& db) : db_(db) {}

    plugin::Result<std::optional<Account>> findByEmail(const std::string& email);
    plugin::Result<std::optional<Account>> findById(const std::string& id);
    /// Person accounts (not the service accounts of applications), by e-mail; at most 1000.
    plugin::Result<std::vector<Account>> listPeople();
    /// False when there is no such user.
    plugin::Result<bool> setMfa(const std::string& user_id, bool enabled);
    plugin::Result<bool> setDisabled(const std::string& user_id, bool disabled);

    plugin::Result<std::vector<std::string>> grantedScopes(const std::string& user_id);
    /// Adds scope grants (idempotent); approves any pending request for them.
    plugin::Status grantScopes(const std::string& user_id, const std::vector<std::string>& scopes,
                               const std::string& granted_by);
    /// Removes scope grants; marks approved requests for them revoked.
    plugin::Status revokeScopes(const std::string& user_id, const std::vector<std::string>& scopes,
                                const std::string& revoked_by);

    /// Files a pending request for each scope that has none pending and was not denied last.
    /// Returns the scopes now pending (new or already).
    plugin::Result<std::vector<std::string>> requestScopes(const std::string& user_id,
                                                           const std::string& client_id,
                                                           const std::vector<std::string>& scopes);
    /// Requests, newest first; `status` empty = all.
    plugin::Result<std::vector<AccessRequest>> listRequests(const std::string& status);
    /// Moves a request: pending → approved (grants the scope) | denied; approved → revoked
    /// (removes the grant). `not_found` (404) or `invalid_transition` (409) otherwise.
    plugin::Result<AccessRequest> decide(const std::string& request_id, const std::string& to,
                                         const std::string& by);

    plugin::Status recordLoginFailure(const std::string& email, const std::string& address);
    plugin::Result<int> loginFailuresSince(const std::string& email, int seconds);
    plugin::Status clearLoginFailures(const std::string& email);

  private:
    Database& db_;
};

}  // namespace docintel::storage

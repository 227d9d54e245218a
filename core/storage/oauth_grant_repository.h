#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// A browser authorization in progress (login → e-mail code → consent).
struct AuthSession {
    std::string id_hash;
    std::string csrf_token;
    std::string client_id;
    nlohmann::json request;  ///< the validated /authorize parameters
    std::string stage;       ///< login | mfa | consent | done
    std::string user_id;
    std::string mfa_code_hash;
    std::int64_t mfa_expires_epoch = 0;
    int mfa_attempts = 0;
};

struct AuthorizationCode {
    std::string code_hash;
    std::string client_id;
    std::string user_id;
    std::string redirect_uri;
    std::string code_challenge;
    std::string scope;
    std::string resource;
    std::int64_t expires_epoch = 0;
    bool used = false;
    std::string family_id;
};

struct RefreshToken {
    std::string id;
    std::string family_id;
    std::string scope;
    std::int64_t expires_epoch = 0;
    bool used = false;
    // of its family:
    std::string client_id;
    std::string user_id;
    std::string resource;
    bool family_revoked = false;
};

/// A refresh token to store: its lookup hash and its sealed text.
struct NewRefreshToken {
    std::string token_hash;
    std::string ciphertext;
    std::string scope;
    std::int64_t expires_epoch = 0;
};

/// An access token the server minted.
struct IssuedToken {
    std::string jti;
    std::string client_id;
    std::string user_id;  ///< empty for none
    std::int64_t expires_epoch = 0;
};

/// Authorization sessions, codes, refresh-token families and issued access tokens. Revoking
/// anything copies the ids of its unexpired access tokens into `revoked_tokens`, which every
/// node's RevocationList reads. Thread-safe.
class OAuthGrantRepository {
  public:
    explicit OAuthGrantRepository(Database& db) : db_(db) {}

    plugin::Status createSession(const AuthSession& s, int ttl_seconds);
    /// An unexpired session.
    plugin::Result<std::optional<AuthSession>> findSession(const std::string& id_hash);
    /// Writes stage, user and MFA fields.
    plugin::Status updateSession(const AuthSession& s);
    /// Idle timeout: an unexpired session now expires `idle_seconds` from now, but never later
    /// than `max_age_seconds` after it was created.
    plugin::Status touchSession(const std::string& id_hash, int idle_seconds, int max_age_seconds);
    plugin::Status deleteSession(const std::string& id_hash);

    plugin::Status insertCode(const AuthorizationCode& code);
    plugin::Result<std::optional<AuthorizationCode>> findCode(const std::string& code_hash);

    /// Marks the code used and starts a refresh family with its first token and access token,
    /// in one transaction. `invalid_grant` (400) when the code was used meanwhile.
    plugin::Result<std::string> redeemCode(const std::string& code_hash,
                                           const NewRefreshToken& refresh,
                                           const IssuedToken& access);

    plugin::Result<std::optional<RefreshToken>> findRefresh(const std::string& token_hash);
    /// Marks `old_id` used and adds its successor and the new access token to the family.
    /// `invalid_grant` when the old token was used meanwhile.
    plugin::Status rotateRefresh(const std::string& old_id, const std::string& family_id,
                                 const NewRefreshToken& next, const IssuedToken& access);

    /// Records an access token not tied to a family (client credentials).
    plugin::Status recordIssued(const IssuedToken& access);

    /// Revokes a family and its access tokens; the number of access tokens revoked.
    plugin::Result<int> revokeFamily(const std::string& family_id, const std::string& reason);
    /// Revokes every family and access token of a client (`client_id`) or a user.
    plugin::Result<int> revokeClient(const std::string& client_id, const std::string& reason);
    plugin::Result<int> revokeUser(const std::string& user_id, const std::string& reason);

    /// True when `jti` names an access token this server issued and it was revoked through a
    /// family (for introspection).
    plugin::Result<std::optional<IssuedToken>> findIssued(const std::string& jti);

    /// Deletes expired sessions, codes, refresh tokens and issued-token records.
    plugin::Status purgeExpired();

  private:
    Database& db_;
};

}  // namespace docintel::storage

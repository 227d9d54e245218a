#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "auth/key_set.h"
#include "plugin_api/http_types.h"
#include "plugin_api/result.h"

namespace docintel::auth {

/// What an access token says about its holder.
struct TokenClaims {
    std::string subject;  ///< user id (or client id for client credentials)
    std::string email;
    std::string client_id;
    std::vector<std::string> scopes;
    std::string audience;
    std::int64_t ttl_seconds = 3600;
    std::int64_t not_before_offset = 0;  ///< seconds from now; tests use it for "not yet valid"
};

/// Mints and verifies the server's access tokens: JWT (RFC 9068 `typ: at+jwt`) signed ES256
/// with the KeySet, `iss` = the issuer, `aud` = one resource (REST `{base_url}/api/v1` or MCP
/// `{mcp_url}`), `exp`/`nbf`/`iat`, `jti`, space-separated `scope`.
///
/// Verification accepts only ES256 with a known `kid`, `typ` at+jwt, the expected issuer and
/// audience, a current time window (30 s leeway) and a `jti` that `is_revoked` denies. A
/// verified token is cached (by its full text) until it expires, so repeat requests skip the
/// signature check; revocation is still asked every time.
///
/// Thread-safe.
class TokenService {
  public:
    using RevocationCheck = std::function<bool(const std::string& jti)>;

    TokenService(std::shared_ptr<const KeySet> keys, std::string issuer,
                 RevocationCheck is_revoked);

    /// A signed access token for `claims`; `jti_out` receives its id.
    std::string mint(const TokenClaims& claims, std::string* jti_out = nullptr) const;

    /// The principal of a valid token for `audience`, else `invalid_token` (401).
    plugin::Result<plugin::Principal> verify(const std::string& token,
                                             const std::string& audience) const;

    const std::string& issuer() const { return issuer_; }

  private:
    struct Cached {
        plugin::Principal principal;
        std::string audience;
        std::int64_t not_before = 0;
        std::int64_t expires = 0;
    };

    plugin::Result<Cached> verifyUncached(const std::string& token) const;

    std::shared_ptr<const KeySet> keys_;
    std::string issuer_;
    RevocationCheck is_revoked_;
    mutable std::shared_mutex cache_mutex_;  // guards cache_; lookups share it
    mutable std::unordered_map<std::string, Cached> cache_;
};

}  // namespace docintel::auth

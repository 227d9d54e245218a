#pragma once

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/oauth/client_registry.h"
#include "auth/oauth/oauth_settings.h"
#include "auth/oauth/token_cipher.h"
#include "auth/revocation_list.h"
#include "auth/token_service.h"
#include "plugin_api/result.h"
#include "storage/oauth_account_repository.h"
#include "storage/oauth_grant_repository.h"

namespace docintel::auth::oauth {

/// Client authentication as presented: HTTP Basic or form fields.
struct ClientCredentials {
    std::string client_id;
    std::string client_secret;
    bool via_basic = false;
};

using Form = std::map<std::string, std::string>;

/// `POST /token` (authorization_code with PKCE S256, rotating refresh_token,
/// client_credentials), `POST /revoke` (RFC 7009) and `POST /introspect` (RFC 7662).
/// Failures are Errors whose code is the RFC error code (`invalid_request`, `invalid_client`
/// (401), `invalid_grant`, `invalid_scope`, `invalid_target`, `unauthorized_client`,
/// `unsupported_grant_type`). A failed request changes nothing, except that presenting a used
/// code or refresh token revokes everything issued from it. Thread-safe.
class TokenEndpoint {
  public:
    TokenEndpoint(const OAuthSettings& settings, ClientRegistry& clients,
                  storage::OAuthAccountRepository& accounts, storage::OAuthGrantRepository& grants,
                  const TokenService& tokens, RevocationList& revocations,
                  std::shared_ptr<const TokenCipher> cipher);

    plugin::Result<nlohmann::json> token(const Form& form, const ClientCredentials& credentials,
                                         const std::string& remote_address);
    plugin::Status revoke(const Form& form, const ClientCredentials& credentials);
    plugin::Result<nlohmann::json> introspect(const Form& form,
                                              const ClientCredentials& credentials);

    /// The scopes a user may hold now: every scope for an administrator, else the granted ones.
    plugin::Result<std::vector<std::string>> grantableScopes(const storage::Account& account) const;
    /// A resource parameter checked against this server's two resources (`invalid_target`).
    plugin::Result<std::string> checkResource(const std::string& resource) const;

  private:
    plugin::Result<nlohmann::json> authorizationCode(const Form& form,
                                                     const ClientCredentials& credentials);
    plugin::Result<nlohmann::json> refreshToken(const Form& form,
                                                const ClientCredentials& credentials);
    plugin::Result<nlohmann::json> clientCredentials(const Form& form,
                                                     const ClientCredentials& credentials,
                                                     const std::string& remote_address);
    /// The client a request speaks for: an authenticated application, or a public client
    /// named by client_id.
    plugin::Result<storage::OAuthClient> callingClient(const ClientCredentials& credentials);
    void revokeFamily(const std::string& family_id, const std::string& reason);
    std::string mintAccess(const std::string& subject, const std::string& email,
                           const std::string& client_id, const std::vector<std::string>& scopes,
                           const std::string& audience, storage::IssuedToken* issued) const;
    std::string newRefresh(const std::string& scope, storage::NewRefreshToken* out) const;

    const OAuthSettings& settings_;
    ClientRegistry& clients_;
    storage::OAuthAccountRepository& accounts_;
    storage::OAuthGrantRepository& grants_;
    const TokenService& tokens_;
    RevocationList& revocations_;
    std::shared_ptr<const TokenCipher> cipher_;
};

}  // namespace docintel::auth::oauth

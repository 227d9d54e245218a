#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/oauth/oauth_settings.h"
#include "plugin_api/result.h"
#include "storage/oauth_client_repository.h"

namespace docintel::auth::oauth {

/// OAuth clients: dynamic registration of public clients (RFC 7591), redirect-URI rules and
/// client authentication. Errors carry RFC error codes (`invalid_client_metadata`,
/// `invalid_redirect_uri`, `invalid_client`). Thread-safe.
class ClientRegistry {
  public:
    explicit ClientRegistry(storage::OAuthClientRepository& clients) : clients_(clients) {}

    /// Registers a public client; the RFC 7591 response (201 body).
    plugin::Result<nlohmann::json> registerClient(const nlohmann::json& metadata);

    /// An enabled public client, else `invalid_client` (401).
    plugin::Result<storage::OAuthClient> publicClient(const std::string& client_id);
    /// An enabled confidential application whose `secret` is one of its live secrets, else
    /// `invalid_client` (401).
    plugin::Result<storage::OAuthClient> authenticate(const std::string& client_id,
                                                      const std::string& secret);

    /// True for an https URI, or an http URI on a loopback host (localhost, 127.0.0.1,
    /// [::1]); never with a fragment.
    static bool redirectUriAllowed(const std::string& uri);
    /// Exact match against a registered URI; a loopback http URI matches on any port
    /// (RFC 8252 §7.3).
    static bool redirectMatches(const std::vector<std::string>& registered, const std::string& uri);

    /// A new client secret (shown once) and the hash kept of it.
    static std::string newSecret();

  private:
    storage::OAuthClientRepository& clients_;
};

}  // namespace docintel::auth::oauth

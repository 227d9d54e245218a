#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/oauth/admin_pages.h"
#include "auth/oauth/authorization_flow.h"
#include "auth/oauth/client_registry.h"
#include "auth/oauth/oauth_admin.h"
#include "auth/oauth/oauth_settings.h"
#include "auth/oauth/smtp_mailer.h"
#include "auth/oauth/token_endpoint.h"
#include "http/api_dispatcher.h"
#include "storage/database.h"
#include "storage/user_repository.h"

namespace docintel::auth::oauth {

/// The OAuth 2.1 authorization server as served over HTTP (docs/oauth.md): discovery
/// (RFC 8414), protected-resource metadata (RFC 9728) for REST and MCP, `/authorize` and its
/// pages, `/token`, `/register` (RFC 7591), `/revoke` (RFC 7009), `/introspect` (RFC 7662),
/// the administrator routes under `/admin/api/` and the administration pages under `/admin`
/// (both kept out of the public OpenAPI).
///
/// It sits in front of the REST dispatcher because its endpoints take form bodies, answer
/// RFC 6749 error objects (`{"error","error_description"}`) and need the client's address.
/// Token endpoint responses carry `Cache-Control: no-store`; pages carry no-store, a strict
/// CSP and `X-Frame-Options: DENY`. Request logs name the path only, never a query string,
/// so codes and tokens stay out of them.
///
/// Owns its repositories and services; borrows the database, token service, revocation list
/// and user repository, which must outlive it. Thread-safe.
class OAuthServer {
  public:
    OAuthServer(OAuthSettings settings, storage::Database& db, const TokenService& tokens,
                RevocationList& revocations, storage::UserRepository& users);
    ~OAuthServer();

    /// The response for an OAuth or admin path, or nullopt for any other path.
    std::optional<plugin::HttpResponse> handle(const http::RawRequest& request);

    /// RFC 8414 metadata.
    nlohmann::json authorizationServerMetadata() const;
    /// RFC 9728 metadata of one of the two resources (REST or MCP).
    nlohmann::json protectedResourceMetadata(const std::string& resource) const;
    /// The `/.well-known/oauth-protected-resource/mcp` response, for the MCP listener to
    /// mount as well.
    plugin::HttpResponse mcpResourceMetadataResponse() const;

    OAuthAdmin& admin() { return *admin_; }
    /// The sign-in of another family of first-party pages (the reviewer console); it borrows
    /// this server's repositories, so this server must outlive it.
    std::unique_ptr<BrowserSignIn> signIn(BrowserSignInOptions options);
    const OAuthSettings& settings() const { return settings_; }

  private:
    plugin::HttpResponse route(const http::RawRequest& request, const std::string& trace_id);
    plugin::HttpResponse tokenRequest(const http::RawRequest& request);
    plugin::HttpResponse revokeRequest(const http::RawRequest& request);
    plugin::HttpResponse introspectRequest(const http::RawRequest& request);
    plugin::HttpResponse registerRequest(const http::RawRequest& request);
    plugin::HttpResponse page(const FlowStep& step) const;
    plugin::HttpResponse adminRequest(const http::RawRequest& request, const std::string& trace_id);

    const OAuthSettings settings_;
    const TokenService& tokens_;
    storage::OAuthClientRepository client_repository_;
    storage::OAuthAccountRepository accounts_;
    storage::OAuthGrantRepository grants_;
    SmtpMailer mailer_;
    ClientRegistry clients_;
    std::unique_ptr<TokenEndpoint> token_endpoint_;
    std::unique_ptr<AuthorizationFlow> flow_;
    std::unique_ptr<OAuthAdmin> admin_;
    std::unique_ptr<BrowserSignIn> admin_sign_in_;
    std::unique_ptr<AdminPages> admin_pages_;
    http::RateLimiter register_limiter_;
};

}  // namespace docintel::auth::oauth

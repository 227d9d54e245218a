#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "auth/oauth/oauth_settings.h"
#include "auth/oauth/token_endpoint.h"
#include "auth/token_service.h"
#include "http/api_dispatcher.h"
#include "plugin_api/http_types.h"
#include "plugin_api/result.h"
#include "storage/oauth_account_repository.h"
#include "storage/oauth_client_repository.h"
#include "storage/oauth_grant_repository.h"

namespace docintel::auth::oauth {

/// Who one family of server-rendered pages is, as a first-party OAuth client of this server.
struct BrowserSignInOptions {
    std::string client_id;    ///< a public client, registered on first use
    std::string client_name;  ///< shown nowhere yet; the client's registered name
    std::string path;  ///< "/admin": the cookies' path; the callback is {issuer}{path}/callback
    std::string session_cookie;
    std::string login_cookie;
    int idle_seconds = 60 * 60;  ///< a session unused this long ends
    int max_age_seconds = 0;     ///< 0: idle_seconds is also the fixed lifetime (no sliding)
};

/// A signed-in page session: a row of `oauth_auth_sessions` at stage `done`.
struct PageSession {
    std::string id_hash;
    std::string user_id;
    std::string email;
    std::string csrf_token;
    std::vector<std::string> scopes;  ///< what the sign-in granted (REST resource)

    /// The caller the services see: the session's user with the scopes of its sign-in.
    plugin::Principal principal(const std::string& client_id) const;
};

/// The sign-in of server-rendered pages (docs/decisions/0013, 0071), shared by the
/// administration pages and the reviewer console: `start()` redirects to `/authorize` with
/// PKCE (the verifier in an HttpOnly cookie, the state derived from it, so the callback is
/// bound to the browser that started it); `finish()` redeems the code, revokes the token
/// family at once (the pages keep no token) and returns the caller; `open()` makes the
/// session row (named by the SHA-256 of an HttpOnly cookie, holding the CSRF token and the
/// granted scopes); `current()` finds it again, refuses a disabled account and, with an idle
/// timeout, extends it. Cookies are `HttpOnly; SameSite=Lax`, plus `Secure` under https.
/// Thread-safe; borrows the repositories and services, which must outlive it.
class BrowserSignIn {
  public:
    BrowserSignIn(const OAuthSettings& settings, BrowserSignInOptions options,
                  storage::OAuthClientRepository& clients,
                  storage::OAuthAccountRepository& accounts, storage::OAuthGrantRepository& grants,
                  TokenEndpoint& token_endpoint, const TokenService& tokens);

    const BrowserSignInOptions& options() const { return options_; }

    /// The 303 to `/authorize`; `unavailable` (503) when the client cannot be registered.
    plugin::Result<plugin::HttpResponse> start();
    /// The caller of a callback request, its tokens already revoked. Errors: `sign_in_expired`
    /// (400: not started in this browser, or too late), `access_denied` (403: the server
    /// refused the user), `sign_in_failed` (400), `unavailable` (503).
    plugin::Result<plugin::Principal> finish(const http::RawRequest& request);
    /// A new session for `principal`; the `Set-Cookie` value that carries it.
    plugin::Result<std::string> open(const plugin::Principal& principal);
    /// The session the request's cookie names (nullopt when there is none, it expired, it
    /// belongs to another client or its account is disabled); `unavailable` (503).
    plugin::Result<std::optional<PageSession>> current(const http::RawRequest& request);
    /// Ends the session; the `Set-Cookie` value that clears its cookie.
    std::string end(const PageSession& session);

    /// True when `token` is the session's CSRF token (constant time).
    static bool csrfMatches(const PageSession& session, const std::string& token);
    /// `Set-Cookie` values that clear the login and the session cookie.
    std::string clearLoginCookie() const;
    std::string clearSessionCookie() const;

  private:
    std::string attributes() const;
    std::string redirectUri() const;
    bool ensureClient();

    const OAuthSettings& settings_;
    const BrowserSignInOptions options_;
    storage::OAuthClientRepository& clients_;
    storage::OAuthAccountRepository& accounts_;
    storage::OAuthGrantRepository& grants_;
    TokenEndpoint& token_endpoint_;
    const TokenService& tokens_;
    std::atomic<bool> client_ready_{false};
};

}  // namespace docintel::auth::oauth

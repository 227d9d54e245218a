#pragma once

#include <atomic>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/oauth/browser_sign_in.h"
#include "auth/oauth/oauth_admin.h"
#include "auth/oauth/oauth_settings.h"
#include "auth/oauth/token_endpoint.h"
#include "auth/token_service.h"
#include "http/api_dispatcher.h"
#include "storage/oauth_client_repository.h"
#include "storage/oauth_grant_repository.h"

namespace docintel::auth::oauth {

/// The server-rendered administration pages under `/admin` (not `/admin/api/`, not in the
/// OpenAPI document): users (list, create, MFA on/off, disable/enable, scope grants), access
/// requests (list, approve, deny, revoke) and applications (list, create with the secret shown
/// once, rotate the secret, scopes, CIDR allowlist, workspace grants, disable/enable). Every
/// action calls the same OAuthAdmin service as the JSON admin routes.
///
/// Sign-in (docs/decisions/0013): the pages are a first-party public OAuth client of this
/// server (`settings.admin_console_client_id`). `/admin/login` redirects to `/authorize` with
/// PKCE (the verifier lives in an HttpOnly cookie, the state is derived from it), so an
/// administrator signs in on the same login and e-mail-code pages as any user (lockout, rate
/// limit); the consent page is skipped for this client. `/admin/callback` redeems the code,
/// revokes the tokens at once (the pages keep none) and, for an enabled administrator, opens
/// an admin session: a row of `oauth_auth_sessions` at stage `done` named by the SHA-256 of
/// an HttpOnly cookie (path `/admin`), holding the CSRF token every form carries. The
/// sign-in and session machinery is BrowserSignIn, shared with the reviewer console. Each request
/// checks again that the user is an enabled administrator (403 page otherwise). Thread-safe.
class AdminPages {
  public:
    /// `sign_in` is built from signInOptions(settings) and outlives the pages.
    AdminPages(const OAuthSettings& settings, OAuthAdmin& admin, BrowserSignIn& sign_in);

    /// The pages' OAuth client, cookies and session lifetime.
    static BrowserSignInOptions signInOptions(const OAuthSettings& settings);

    /// True for `/admin` and `/admin/...` outside `/admin/api/`.
    static bool owns(const std::string& path);

    plugin::HttpResponse handle(const http::RawRequest& request);

  private:
    struct Session {
        std::string id_hash;
        std::string user_id;
        std::string csrf_token;
    };

    plugin::HttpResponse login();
    plugin::HttpResponse callback(const http::RawRequest& request);
    plugin::HttpResponse logout(const Session& session);
    plugin::HttpResponse dispatch(const http::RawRequest& request, const Session& session,
                                  const std::vector<std::string>& seg);

    plugin::HttpResponse usersPage(const Session& s, const std::string& notice,
                                   const plugin::Error* error, const nlohmann::json& form);
    plugin::HttpResponse userPage(const Session& s, const std::string& user_id,
                                  const std::string& notice, const plugin::Error* error);
    plugin::HttpResponse requestsPage(const Session& s, const std::string& status,
                                      const std::string& notice, const plugin::Error* error);
    plugin::HttpResponse applicationsPage(const Session& s, const std::string& notice,
                                          const plugin::Error* error, const nlohmann::json& form);
    plugin::HttpResponse applicationPage(const Session& s, const std::string& client_id,
                                         const std::string& notice, const plugin::Error* error);
    plugin::HttpResponse secretPage(const Session& s, const nlohmann::json& application,
                                    bool rotated);

    /// A page inside the admin frame (navigation, sign-out form).
    plugin::HttpResponse render(const Session* s, const std::string& page, nlohmann::json view,
                                int status);
    plugin::HttpResponse message(const Session* s, int status, const std::string& title,
                                 const std::string& text, bool offer_login);
    /// 303 to `location` (an absolute path on this server).
    /// Every supported scope with its description and whether `held` has it.
    nlohmann::json scopeChoices(const std::vector<std::string>& held) const;

    const OAuthSettings& settings_;
    OAuthAdmin& admin_;
    BrowserSignIn& sign_in_;
};

}  // namespace docintel::auth::oauth

#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/oauth/client_registry.h"
#include "auth/oauth/oauth_settings.h"
#include "auth/oauth/smtp_mailer.h"
#include "auth/oauth/token_endpoint.h"
#include "http/rate_limiter.h"
#include "storage/oauth_account_repository.h"
#include "storage/oauth_grant_repository.h"

namespace docintel::auth::oauth {

/// What the browser gets next: a page (template name + view data) or a redirect.
struct FlowStep {
    std::string page;  ///< template name without extension; empty for a redirect
    nlohmann::json view = nlohmann::json::object();
    int status = 200;
    std::string location;        ///< redirect target (303)
    std::string session_cookie;  ///< set when a session starts
    bool end_session = false;    ///< clear the cookie
};

/// The interactive Authorization Code + PKCE flow (spec §5.2): `GET /authorize` validates the
/// request and starts a session (login page); the login form checks e-mail and password with
/// lockout and a per-address rate limit; when MFA is on, a 6-digit code is e-mailed and
/// checked; the consent page shows the requested scopes intersected with the user's grants
/// (the rest become pending access requests); approval issues a single-use 5-minute code bound
/// to client, redirect URI, PKCE challenge, scope and resource.
///
/// Every form carries the session's CSRF token, checked in constant time. Before the client and
/// redirect URI are known to be valid, errors are shown as a page, never redirected.
/// Thread-safe.
class AuthorizationFlow {
  public:
    using Params = std::map<std::string, std::string>;

    AuthorizationFlow(const OAuthSettings& settings, ClientRegistry& clients,
                      storage::OAuthAccountRepository& accounts,
                      storage::OAuthGrantRepository& grants, TokenEndpoint& token_endpoint,
                      const SmtpMailer& mailer);

    FlowStep start(const Params& query);
    FlowStep login(const std::string& session_cookie, const Params& form,
                   const std::string& remote_address);
    FlowStep verifyMfa(const std::string& session_cookie, const Params& form,
                       const std::string& remote_address);
    FlowStep consent(const std::string& session_cookie, const Params& form);

  private:
    /// The session named by the cookie when the form's CSRF token matches it.
    plugin::Result<storage::AuthSession> session(const std::string& cookie, const Params& form,
                                                 const std::string& stage);
    FlowStep consentPage(const storage::AuthSession& s, const storage::Account& account);
    /// Ends the session and redirects with a code for the granted part of the requested
    /// scopes (`access_denied` when none is granted).
    FlowStep issueCode(const storage::AuthSession& s, const storage::Account& account);
    FlowStep loginPage(const storage::AuthSession& s, const std::string& error,
                       const std::string& email);
    FlowStep errorPage(const std::string& title, const std::string& message, int status);
    FlowStep redirectError(const nlohmann::json& request, const std::string& error,
                           const std::string& description, bool end_session);
    bool rateLimited(const std::string& remote_address);

    const OAuthSettings& settings_;
    ClientRegistry& clients_;
    storage::OAuthAccountRepository& accounts_;
    storage::OAuthGrantRepository& grants_;
    TokenEndpoint& token_endpoint_;
    const SmtpMailer& mailer_;
    http::RateLimiter form_limiter_;
    const std::string dummy_hash_;  ///< verified against when the e-mail is unknown (timing)
};

/// `base` with `params` appended to its query (values percent-encoded).
std::string appendQuery(const std::string& base,
                        const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace docintel::auth::oauth

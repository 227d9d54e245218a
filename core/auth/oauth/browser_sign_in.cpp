#include "auth/oauth/browser_sign_in.h"

#include "auth/oauth/authorization_flow.h"
#include "auth/oauth/page_renderer.h"
#include "auth/oauth/token_cipher.h"
#include "common/id.h"
#include "common/log.h"

namespace docintel::auth::oauth {
namespace {

plugin::Error unavailable() { return plugin::Error{"unavailable", "Try again shortly.", 503}; }

}  // namespace

plugin::Principal PageSession::principal(const std::string& client_id) const {
    plugin::Principal p;
    p.user_id = user_id;
    p.email = email;
    p.client_id = client_id;
    p.scopes = scopes;
    return p;
}

BrowserSignIn::BrowserSignIn(const OAuthSettings& settings, BrowserSignInOptions options,
                             storage::OAuthClientRepository& clients,
                             storage::OAuthAccountRepository& accounts,
                             storage::OAuthGrantRepository& grants, TokenEndpoint& token_endpoint,
                             const TokenService& tokens)
    : settings_(settings),
      options_(std::move(options)),
      clients_(clients),
      accounts_(accounts),
      grants_(grants),
      token_endpoint_(token_endpoint),
      tokens_(tokens) {}

std::string BrowserSignIn::attributes() const {
    const bool secure = settings_.issuer.rfind("https://", 0) == 0;
    return "; Path=" + options_.path + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
}

std::string BrowserSignIn::redirectUri() const {
    return settings_.issuer + options_.path + "/callback";
}

std::string BrowserSignIn::clearLoginCookie() const {
    return options_.login_cookie + "=" + attributes() + "; Max-Age=0";
}

std::string BrowserSignIn::clearSessionCookie() const {
    return options_.session_cookie + "=" + attributes() + "; Max-Age=0";
}

bool BrowserSignIn::ensureClient() {
    if (client_ready_.load()) return true;
    if (clients_.ensurePublic(options_.client_id, options_.client_name, {redirectUri()}).ok()) {
        client_ready_ = true;
    }
    return client_ready_.load();
}

bool BrowserSignIn::csrfMatches(const PageSession& session, const std::string& token) {
    return constantTimeEquals(token, session.csrf_token);
}

plugin::Result<plugin::HttpResponse> BrowserSignIn::start() {
    if (!ensureClient()) return unavailable();
    const std::string verifier = common::randomToken(32);
    plugin::HttpResponse r;
    r.status = 303;
    r.content_type = "text/plain";
    r.headers.emplace_back(
        "Location", appendQuery("/authorize", {{"client_id", options_.client_id},
                                               {"redirect_uri", redirectUri()},
                                               {"response_type", "code"},
                                               {"state", sha256Base64Url("state:" + verifier)},
                                               {"code_challenge", sha256Base64Url(verifier)},
                                               {"code_challenge_method", "S256"},
                                               {"resource", settings_.rest_resource}}));
    addNoStore(r);
    r.headers.emplace_back("Referrer-Policy", "no-referrer");
    r.headers.emplace_back("Set-Cookie", options_.login_cookie + "=" + verifier + attributes() +
                                             "; Max-Age=" + std::to_string(settings_.session_ttl));
    return r;
}

plugin::Result<plugin::Principal> BrowserSignIn::finish(const http::RawRequest& r) {
    const auto query = parseForm(r.query);
    const std::string verifier = cookieValue(r, options_.login_cookie);
    if (verifier.empty() ||
        !constantTimeEquals(formValue(query, "state"), sha256Base64Url("state:" + verifier))) {
        return plugin::Error{"sign_in_expired",
                             "This sign-in was not started in this browser or took too long.", 400};
    }
    if (!formValue(query, "error").empty()) {
        return plugin::Error{"access_denied", "This account cannot use these pages.", 403};
    }
    ClientCredentials client;
    client.client_id = options_.client_id;
    auto tokens = token_endpoint_.token({{"grant_type", "authorization_code"},
                                         {"code", formValue(query, "code")},
                                         {"client_id", client.client_id},
                                         {"redirect_uri", redirectUri()},
                                         {"code_verifier", verifier},
                                         {"resource", settings_.rest_resource}},
                                        client, r.remote_address);
    if (!tokens) {
        if (tokens.error().http_status >= 500) return unavailable();
        return plugin::Error{"sign_in_failed", "Start the sign-in again.", 400};
    }
    auto principal = tokens_.verify(tokens->value("access_token", ""), settings_.rest_resource);
    // The pages keep no token: the family the code started is revoked at once.
    (void)token_endpoint_.revoke(
        {{"token", tokens->value("refresh_token", "")}, {"token_type_hint", "refresh_token"}},
        client);
    if (!principal) return plugin::Error{"sign_in_failed", "Start the sign-in again.", 400};
    return *principal;
}

plugin::Result<std::string> BrowserSignIn::open(const plugin::Principal& principal) {
    storage::AuthSession s;
    const std::string cookie = common::randomToken(32);
    s.id_hash = sha256Base64Url(cookie);
    s.csrf_token = common::randomToken(24);
    s.client_id = options_.client_id;
    s.request = {{"page_session", options_.path},
                 {"scope", joinScope(principal.scopes)},
                 {"email", principal.email}};
    s.stage = "done";
    s.user_id = principal.user_id;
    if (!grants_.createSession(s, options_.idle_seconds).ok() || !grants_.updateSession(s).ok()) {
        return unavailable();
    }
    common::log(common::LogLevel::kInfo, "page_session_opened",
                {{"client_id", options_.client_id}, {"user_id", s.user_id}});
    return options_.session_cookie + "=" + cookie + attributes() +
           "; Max-Age=" + std::to_string(std::max(options_.idle_seconds, options_.max_age_seconds));
}

plugin::Result<std::optional<PageSession>> BrowserSignIn::current(const http::RawRequest& r) {
    const std::string cookie = cookieValue(r, options_.session_cookie);
    if (cookie.empty()) return std::optional<PageSession>();
    auto found = grants_.findSession(sha256Base64Url(cookie));
    if (!found) return unavailable();
    const auto& s = *found;
    if (!s || s->stage != "done" || s->client_id != options_.client_id || s->user_id.empty()) {
        return std::optional<PageSession>();
    }
    auto account = accounts_.findById(s->user_id);
    if (!account) return unavailable();
    if (!*account || (*account)->disabled) {
        (void)grants_.deleteSession(s->id_hash);
        return std::optional<PageSession>();
    }
    if (options_.max_age_seconds > 0) {
        (void)grants_.touchSession(s->id_hash, options_.idle_seconds, options_.max_age_seconds);
    }
    PageSession out{s->id_hash, s->user_id, (*account)->email, s->csrf_token,
                    splitScope(s->request.value("scope", ""))};
    return std::optional<PageSession>(std::move(out));
}

std::string BrowserSignIn::end(const PageSession& session) {
    (void)grants_.deleteSession(session.id_hash);
    common::log(common::LogLevel::kInfo, "page_session_closed",
                {{"client_id", options_.client_id}, {"user_id", session.user_id}});
    return clearSessionCookie();
}

}  // namespace docintel::auth::oauth

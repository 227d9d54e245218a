#include "auth/oauth/authorization_flow.h"

#include <Poco/URI.h>
#include <openssl/rand.h>

#include <atomic>
#include <cctype>
#include <stdexcept>

#include "auth/oauth/token_cipher.h"
#include "auth/password_hasher.h"
#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"

namespace docintel::auth::oauth {
namespace {

std::string param(const AuthorizationFlow::Params& p, const std::string& name) {
    auto it = p.find(name);
    return it == p.end() ? std::string() : it->second;
}

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
}

bool validChallenge(const std::string& c) {
    if (c.size() < 43 || c.size() > 128) return false;
    for (const char ch : c) {
        const bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                        (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
        if (!ok) return false;
    }
    return true;
}

std::string sixDigits() {
    unsigned char b[4];
    if (RAND_bytes(b, sizeof(b)) != 1) throw std::runtime_error("RAND_bytes failed");
    const std::uint32_t v = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) |
                            (std::uint32_t{b[2]} << 8) | b[3];
    std::string s = std::to_string(v % 1000000);
    return std::string(6 - s.size(), '0') + s;
}

/// "a***@example.com": enough for the user to recognise the address.
std::string maskEmail(const std::string& email) {
    const auto at = email.find('@');
    if (at == std::string::npos || at == 0) return "your e-mail address";
    return email.substr(0, 1) + "***" + email.substr(at);
}

std::string hostOf(const std::string& uri) {
    try {
        Poco::URI u(uri);
        return u.getAuthority();
    } catch (const std::exception&) {
        return uri;
    }
}

std::string mfaHash(const std::string& session_hash, const std::string& code) {
    return sha256Base64Url(session_hash + ":" + code);
}

}  // namespace

std::string appendQuery(const std::string& base,
                        const std::vector<std::pair<std::string, std::string>>& params) {
    std::string out = base;
    char sep = base.find('?') == std::string::npos ? '?' : '&';
    for (const auto& [name, value] : params) {
        std::string encoded;
        Poco::URI::encode(value, "?#/:;+@&=", encoded);
        out += sep + name + "=" + encoded;
        sep = '&';
    }
    return out;
}

AuthorizationFlow::AuthorizationFlow(const OAuthSettings& settings, ClientRegistry& clients,
                                     storage::OAuthAccountRepository& accounts,
                                     storage::OAuthGrantRepository& grants,
                                     TokenEndpoint& token_endpoint, const SmtpMailer& mailer)
    : settings_(settings),
      clients_(clients),
      accounts_(accounts),
      grants_(grants),
      token_endpoint_(token_endpoint),
      mailer_(mailer),
      form_limiter_(settings.login_rate_per_minute, 60),
      dummy_hash_(PasswordHasher::hash(common::randomToken(16))) {}

bool AuthorizationFlow::rateLimited(const std::string& remote_address) {
    return !form_limiter_.take("form:" + remote_address, common::nowEpochSeconds()).allowed;
}

FlowStep AuthorizationFlow::errorPage(const std::string& title, const std::string& message,
                                      int status) {
    FlowStep step;
    step.page = "error";
    step.status = status;
    step.view = {{"title", title}, {"message", message}};
    return step;
}

FlowStep AuthorizationFlow::redirectError(const nlohmann::json& request, const std::string& error,
                                          const std::string& description, bool end_session) {
    std::vector<std::pair<std::string, std::string>> params = {{"error", error},
                                                               {"error_description", description}};
    if (const std::string state = request.value("state", ""); !state.empty()) {
        params.emplace_back("state", state);
    }
    params.emplace_back("iss", settings_.issuer);
    FlowStep step;
    step.location = appendQuery(request.value("redirect_uri", ""), params);
    step.end_session = end_session;
    return step;
}

FlowStep AuthorizationFlow::start(const Params& q) {
    static std::atomic<std::int64_t> last_purge{0};
    const std::int64_t now = common::nowEpochSeconds();
    if (std::int64_t last = last_purge.load();
        now - last > 60 && last_purge.compare_exchange_strong(last, now)) {
        (void)grants_.purgeExpired();
    }

    auto client = clients_.publicClient(param(q, "client_id"));
    if (!client) {
        if (client.error().http_status >= 500) {
            return errorPage("Service unavailable", "Please try again shortly.", 503);
        }
        return errorPage("Unknown application",
                         "The application that sent you here is not registered with docintel.",
                         400);
    }
    const std::string redirect_uri = param(q, "redirect_uri");
    if (redirect_uri.empty() ||
        !ClientRegistry::redirectMatches(client->redirect_uris, redirect_uri)) {
        return errorPage("Invalid redirect address",
                         "The application asked to return you to an address it did not register.",
                         400);
    }
    nlohmann::json request = {{"client_id", client->client_id},
                              {"client_name", client->name},
                              {"redirect_uri", redirect_uri},
                              {"state", param(q, "state")}};
    if (param(q, "response_type") != "code") {
        return redirectError(request, "unsupported_response_type", "response_type must be code",
                             false);
    }
    const std::string challenge = param(q, "code_challenge");
    if (challenge.empty()) {
        return redirectError(request, "invalid_request", "PKCE code_challenge is required", false);
    }
    if (param(q, "code_challenge_method") != "S256") {
        return redirectError(request, "invalid_request",
                             "code_challenge_method must be S256 (plain is not accepted)", false);
    }
    if (!validChallenge(challenge)) {
        return redirectError(request, "invalid_request", "malformed code_challenge", false);
    }
    auto resource = token_endpoint_.checkResource(param(q, "resource"));
    if (!resource) {
        return redirectError(request, "invalid_target", resource.error().message, false);
    }
    const auto scopes = splitScope(param(q, "scope"));
    if (const auto unknown = difference(scopes, settings_.scopes_supported); !unknown.empty()) {
        return redirectError(request, "invalid_scope", "unknown scope " + joinScope(unknown),
                             false);
    }
    request["code_challenge"] = challenge;
    request["resource"] = *resource;
    request["scope"] = joinScope(scopes);

    storage::AuthSession s;
    const std::string cookie = common::randomToken(32);
    s.id_hash = sha256Base64Url(cookie);
    s.csrf_token = common::randomToken(24);
    s.client_id = client->client_id;
    s.request = request;
    s.stage = "login";
    if (auto created = grants_.createSession(s, settings_.session_ttl); !created) {
        return errorPage("Service unavailable", "Please try again shortly.", 503);
    }
    FlowStep step = loginPage(s, "", "");
    step.session_cookie = cookie;
    return step;
}

plugin::Result<storage::AuthSession> AuthorizationFlow::session(const std::string& cookie,
                                                                const Params& form,
                                                                const std::string& stage) {
    const plugin::Error expired{"session_expired", "session expired", 400};
    if (cookie.empty()) return expired;
    auto s = grants_.findSession(sha256Base64Url(cookie));
    if (!s) return s.error();
    if (!s->has_value()) return expired;
    if (!constantTimeEquals(param(form, "csrf_token"), (*s)->csrf_token)) {
        return plugin::Error{"csrf", "the form is not from this sign-in", 403};
    }
    if ((*s)->stage != stage) return expired;
    return **s;
}

FlowStep AuthorizationFlow::loginPage(const storage::AuthSession& s, const std::string& error,
                                      const std::string& email) {
    FlowStep step;
    step.page = "login";
    step.view = {{"csrf_token", s.csrf_token},
                 {"client_name", s.request.value("client_name", "")},
                 {"email", email},
                 {"error", error}};
    return step;
}

FlowStep AuthorizationFlow::login(const std::string& cookie, const Params& form,
                                  const std::string& remote_address) {
    auto s = session(cookie, form, "login");
    if (!s) {
        if (s.error().code == "csrf") {
            return errorPage("Request refused", "This form was not issued by this sign-in.", 403);
        }
        return errorPage("Sign-in expired", "Start the sign-in again from the application.", 400);
    }
    const std::string email = trim(param(form, "email"));
    const std::string password = param(form, "password");
    if (rateLimited(remote_address)) {
        FlowStep step = loginPage(*s, "Too many attempts. Wait a minute and try again.", email);
        step.status = 429;
        return step;
    }
    auto failures = accounts_.loginFailuresSince(email, settings_.lockout_window_seconds);
    if (!failures) return errorPage("Service unavailable", "Please try again shortly.", 503);
    if (*failures >= settings_.lockout_threshold) {
        common::log(common::LogLevel::kWarning, "oauth_login_locked",
                    {{"remote_address", remote_address}});
        FlowStep step = loginPage(
            *s,
            "This account is temporarily locked after repeated failed sign-ins. Try again later.",
            email);
        step.status = 429;
        return step;
    }
    auto account = accounts_.findByEmail(email);
    if (!account) return errorPage("Service unavailable", "Please try again shortly.", 503);
    bool ok = false;
    if (account->has_value()) {
        const auto& a = **account;
        ok = PasswordHasher::verify(password, a.password_hash) && a.kind == "person" && !a.disabled;
    } else {
        (void)PasswordHasher::verify(password, dummy_hash_);
    }
    if (!ok) {
        (void)accounts_.recordLoginFailure(email, remote_address);
        common::log(common::LogLevel::kInfo, "oauth_login_failed",
                    {{"remote_address", remote_address},
                     {"user_id", account->has_value() ? (*account)->id : ""}});
        FlowStep step = loginPage(*s, "Incorrect e-mail or password.", email);
        step.status = 401;
        return step;
    }
    const storage::Account& a = **account;
    (void)accounts_.clearLoginFailures(email);
    s->user_id = a.id;
    if (!a.mfa_enabled) {
        s->stage = "consent";
        if (auto u = grants_.updateSession(*s); !u) {
            return errorPage("Service unavailable", "Please try again shortly.", 503);
        }
        return consentPage(*s, a);
    }
    const std::string code = sixDigits();
    s->stage = "mfa";
    s->mfa_code_hash = mfaHash(s->id_hash, code);
    s->mfa_expires_epoch = common::nowEpochSeconds() + settings_.mfa_code_ttl;
    s->mfa_attempts = 0;
    if (auto u = grants_.updateSession(*s); !u) {
        return errorPage("Service unavailable", "Please try again shortly.", 503);
    }
    const std::string body =
        "Your docintel sign-in code is " + code + "\n\nIt expires in " +
        std::to_string(settings_.mfa_code_ttl / 60) + " minutes and works once, for " +
        s->request.value("client_name", "an application") +
        ".\nIf you did not try to sign in, ignore this message and tell your administrator.\n";
    if (auto sent = mailer_.send(a.email, "docintel sign-in code: " + code, body); !sent) {
        return errorPage("The sign-in code could not be sent",
                         "docintel could not send the e-mail with your sign-in code. Ask your "
                         "administrator to check the mail settings.",
                         503);
    }
    common::log(common::LogLevel::kInfo, "oauth_mfa_code_sent", {{"user_id", a.id}});
    FlowStep step;
    step.page = "mfa";
    step.view = {{"csrf_token", s->csrf_token},
                 {"client_name", s->request.value("client_name", "")},
                 {"email_hint", maskEmail(a.email)}};
    return step;
}

FlowStep AuthorizationFlow::verifyMfa(const std::string& cookie, const Params& form,
                                      const std::string& remote_address) {
    auto s = session(cookie, form, "mfa");
    if (!s) {
        if (s.error().code == "csrf") {
            return errorPage("Request refused", "This form was not issued by this sign-in.", 403);
        }
        return errorPage("Sign-in expired", "Start the sign-in again from the application.", 400);
    }
    FlowStep page;
    page.page = "mfa";
    page.view = {{"csrf_token", s->csrf_token},
                 {"client_name", s->request.value("client_name", "")}};
    if (rateLimited(remote_address)) {
        page.view["error"] = "Too many attempts. Wait a minute and try again.";
        page.status = 429;
        return page;
    }
    if (common::nowEpochSeconds() >= s->mfa_expires_epoch ||
        s->mfa_attempts >= settings_.mfa_max_attempts) {
        (void)grants_.deleteSession(s->id_hash);
        FlowStep step =
            errorPage("Code expired", "Start the sign-in again from the application.", 400);
        step.end_session = true;
        return step;
    }
    std::string code;
    for (const char c : param(form, "code")) {
        if (c >= '0' && c <= '9') code += c;
    }
    if (!constantTimeEquals(mfaHash(s->id_hash, code), s->mfa_code_hash)) {
        s->mfa_attempts += 1;
        (void)grants_.updateSession(*s);
        common::log(common::LogLevel::kInfo, "oauth_mfa_failed", {{"user_id", s->user_id}});
        const int left = settings_.mfa_max_attempts - s->mfa_attempts;
        if (left <= 0) {
            (void)grants_.deleteSession(s->id_hash);
            FlowStep step = errorPage("Too many incorrect codes",
                                      "Start the sign-in again from the application.", 400);
            step.end_session = true;
            return step;
        }
        page.view["error"] = "Incorrect code. " + std::to_string(left) + " attempt" +
                             (left == 1 ? "" : "s") + " left.";
        page.status = 401;
        return page;
    }
    auto account = accounts_.findById(s->user_id);
    if (!account || !account->has_value() || (*account)->disabled) {
        return errorPage("Sign-in refused", "This account cannot sign in.", 403);
    }
    s->stage = "consent";
    s->mfa_code_hash.clear();
    s->mfa_expires_epoch = 0;
    if (auto u = grants_.updateSession(*s); !u) {
        return errorPage("Service unavailable", "Please try again shortly.", 503);
    }
    return consentPage(*s, **account);
}

FlowStep AuthorizationFlow::consentPage(const storage::AuthSession& s,
                                        const storage::Account& account) {
    // The server's own administration pages and reviewer console are first-party: no consent
    // page and no access requests (they ask for what the user holds; decisions 0013, 0071).
    if (settings_.firstParty(s.client_id)) return issueCode(s, account);
    auto granted = token_endpoint_.grantableScopes(account);
    if (!granted) return errorPage("Service unavailable", "Please try again shortly.", 503);
    auto requested = splitScope(s.request.value("scope", ""));
    if (requested.empty()) requested = *granted;
    const auto effective = intersect(requested, *granted);
    const auto missing = difference(requested, *granted);
    std::vector<std::string> pending;
    if (!missing.empty()) {
        auto filed = accounts_.requestScopes(account.id, s.client_id, missing);
        if (!filed) return errorPage("Service unavailable", "Please try again shortly.", 503);
        pending = *filed;
    }
    const auto describe = [this](const std::vector<std::string>& names) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& n : names) {
            auto it = settings_.scope_descriptions.find(n);
            out.push_back(
                {{"name", n},
                 {"description", it == settings_.scope_descriptions.end() ? "" : it->second}});
        }
        return out;
    };
    const std::string resource = s.request.value("resource", "");
    FlowStep step;
    step.page = "consent";
    step.view = {{"csrf_token", s.csrf_token},
                 {"client_name", s.request.value("client_name", "")},
                 {"redirect_host", hostOf(s.request.value("redirect_uri", ""))},
                 {"resource", resource},
                 {"resource_label", resource == settings_.mcp_resource ? "the docintel MCP server"
                                                                       : "the docintel REST API"},
                 {"email", account.email},
                 {"scopes", describe(effective)},
                 {"pending", describe(pending)},
                 {"has_scopes", !effective.empty()}};
    return step;
}

FlowStep AuthorizationFlow::consent(const std::string& cookie, const Params& form) {
    auto s = session(cookie, form, "consent");
    if (!s) {
        if (s.error().code == "csrf") {
            return errorPage("Request refused", "This form was not issued by this sign-in.", 403);
        }
        return errorPage("Sign-in expired", "Start the sign-in again from the application.", 400);
    }
    (void)grants_.deleteSession(s->id_hash);
    if (param(form, "decision") != "approve") {
        return redirectError(s->request, "access_denied", "the user declined", true);
    }
    auto account = accounts_.findById(s->user_id);
    if (!account || !account->has_value() || (*account)->disabled) {
        return errorPage("Sign-in refused", "This account cannot sign in.", 403);
    }
    return issueCode(*s, **account);
}

FlowStep AuthorizationFlow::issueCode(const storage::AuthSession& s,
                                      const storage::Account& account) {
    const nlohmann::json& request = s.request;
    (void)grants_.deleteSession(s.id_hash);
    auto granted = token_endpoint_.grantableScopes(account);
    if (!granted) return errorPage("Service unavailable", "Please try again shortly.", 503);
    auto requested = splitScope(request.value("scope", ""));
    if (requested.empty()) requested = *granted;
    const auto effective = intersect(requested, *granted);
    if (effective.empty()) {
        return redirectError(request, "access_denied",
                             "none of the requested scopes is granted yet; an administrator must "
                             "approve the access request",
                             true);
    }
    const std::string code = common::randomToken(32);
    storage::AuthorizationCode c;
    c.code_hash = sha256Base64Url(code);
    c.client_id = s.client_id;
    c.user_id = s.user_id;
    c.redirect_uri = request.value("redirect_uri", "");
    c.code_challenge = request.value("code_challenge", "");
    c.scope = joinScope(effective);
    c.resource = request.value("resource", "");
    c.expires_epoch = common::nowEpochSeconds() + settings_.code_ttl;
    if (auto inserted = grants_.insertCode(c); !inserted) {
        return errorPage("Service unavailable", "Please try again shortly.", 503);
    }
    common::log(common::LogLevel::kInfo, "oauth_code_issued",
                {{"client_id", c.client_id}, {"user_id", c.user_id}});
    std::vector<std::pair<std::string, std::string>> params = {{"code", code}};
    if (const std::string state = request.value("state", ""); !state.empty()) {
        params.emplace_back("state", state);
    }
    params.emplace_back("iss", settings_.issuer);
    FlowStep step;
    step.location = appendQuery(c.redirect_uri, params);
    step.end_session = true;
    return step;
}

}  // namespace docintel::auth::oauth

#include "auth/oauth/token_endpoint.h"

#include "auth/oauth/cidr.h"
#include "common/base64url.h"
#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"

namespace docintel::auth::oauth {
namespace {

plugin::Error oauthError(const std::string& code, const std::string& why, int status = 400) {
    return {code, why, status};
}

std::string field(const Form& form, const std::string& name) {
    auto it = form.find(name);
    return it == form.end() ? std::string() : it->second;
}

bool validVerifier(const std::string& v) {
    if (v.size() < 43 || v.size() > 128) return false;
    for (const char c : v) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
        if (!ok) return false;
    }
    return true;
}

/// The claims of a token already verified by TokenService.
nlohmann::json payloadOf(const std::string& jwt) {
    const auto a = jwt.find('.');
    const auto b = jwt.find('.', a + 1);
    auto text = common::base64UrlDecode(std::string_view(jwt).substr(a + 1, b - a - 1));
    return text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
}

}  // namespace

TokenEndpoint::TokenEndpoint(const OAuthSettings& settings, ClientRegistry& clients,
                             storage::OAuthAccountRepository& accounts,
                             storage::OAuthGrantRepository& grants, const TokenService& tokens,
                             RevocationList& revocations, std::shared_ptr<const TokenCipher> cipher)
    : settings_(settings),
      clients_(clients),
      accounts_(accounts),
      grants_(grants),
      tokens_(tokens),
      revocations_(revocations),
      cipher_(std::move(cipher)) {}

plugin::Result<std::vector<std::string>> TokenEndpoint::grantableScopes(
    const storage::Account& account) const {
    if (account.is_admin) return settings_.scopes_supported;
    return accounts_.grantedScopes(account.id);
}

plugin::Result<std::string> TokenEndpoint::checkResource(const std::string& resource) const {
    const std::string r = withoutTrailingSlash(resource);
    if (r.empty()) return oauthError("invalid_target", "resource is required");
    if (r == withoutTrailingSlash(settings_.rest_resource)) return settings_.rest_resource;
    if (r == withoutTrailingSlash(settings_.mcp_resource)) return settings_.mcp_resource;
    return oauthError("invalid_target", "resource is not served by this authorization server");
}

plugin::Result<storage::OAuthClient> TokenEndpoint::callingClient(
    const ClientCredentials& credentials) {
    if (!credentials.client_secret.empty()) {
        return clients_.authenticate(credentials.client_id, credentials.client_secret);
    }
    if (credentials.client_id.empty()) {
        return oauthError("invalid_client", "client_id is required", 401);
    }
    return clients_.publicClient(credentials.client_id);
}

void TokenEndpoint::revokeFamily(const std::string& family_id, const std::string& reason) {
    auto n = grants_.revokeFamily(family_id, reason);
    revocations_.refresh();
    common::log(common::LogLevel::kWarning, "oauth_family_revoked",
                {{"family_id", family_id},
                 {"reason", reason},
                 {"access_tokens", n ? std::to_string(*n) : "error"}});
}

std::string TokenEndpoint::mintAccess(const std::string& subject, const std::string& email,
                                      const std::string& client_id,
                                      const std::vector<std::string>& scopes,
                                      const std::string& audience,
                                      storage::IssuedToken* issued) const {
    TokenClaims claims;
    claims.subject = subject;
    claims.email = email;
    claims.client_id = client_id;
    claims.scopes = scopes;
    claims.audience = audience;
    claims.ttl_seconds = settings_.access_token_ttl;
    std::string jti;
    std::string token = tokens_.mint(claims, &jti);
    issued->jti = jti;
    issued->client_id = client_id;
    issued->user_id = subject;
    issued->expires_epoch = common::nowEpochSeconds() + settings_.access_token_ttl;
    return token;
}

std::string TokenEndpoint::newRefresh(const std::string& scope,
                                      storage::NewRefreshToken* out) const {
    std::string token = "dir_" + common::randomToken(32);
    out->token_hash = sha256Base64Url(token);
    out->ciphertext = common::base64UrlEncode(cipher_->seal(token));
    out->scope = scope;
    out->expires_epoch = common::nowEpochSeconds() + settings_.refresh_token_ttl;
    return token;
}

plugin::Result<nlohmann::json> TokenEndpoint::token(const Form& form,
                                                    const ClientCredentials& credentials,
                                                    const std::string& remote_address) {
    const std::string grant = field(form, "grant_type");
    if (grant.empty()) return oauthError("invalid_request", "grant_type is required");
    if (grant == "authorization_code") return authorizationCode(form, credentials);
    if (grant == "refresh_token") return refreshToken(form, credentials);
    if (grant == "client_credentials") {
        return clientCredentials(form, credentials, remote_address);
    }
    return oauthError("unsupported_grant_type", "grant_type " + grant + " is not supported");
}

plugin::Result<nlohmann::json> TokenEndpoint::authorizationCode(
    const Form& form, const ClientCredentials& credentials) {
    if (!credentials.client_secret.empty()) {
        return oauthError("unauthorized_client",
                          "confidential applications use the client_credentials grant");
    }
    auto client = clients_.publicClient(credentials.client_id);
    if (!client) return client.error();
    const std::string code_text = field(form, "code");
    if (code_text.empty()) return oauthError("invalid_request", "code is required");
    const std::string code_hash = sha256Base64Url(code_text);
    auto found = grants_.findCode(code_hash);
    if (!found) return found.error();
    if (!found->has_value()) return oauthError("invalid_grant", "unknown authorization code");
    const storage::AuthorizationCode& code = **found;
    if (code.client_id != client->client_id) {
        return oauthError("invalid_grant", "the code was issued to another client");
    }
    if (code.used) {
        revokeFamily(code.family_id, "code_reuse");
        return oauthError("invalid_grant",
                          "authorization code already used; tokens issued from it are revoked");
    }
    if (field(form, "redirect_uri") != code.redirect_uri) {
        return oauthError("invalid_grant", "redirect_uri does not match the authorization");
    }
    if (common::nowEpochSeconds() >= code.expires_epoch) {
        return oauthError("invalid_grant", "authorization code expired");
    }
    const std::string verifier = field(form, "code_verifier");
    if (!validVerifier(verifier)) {
        return oauthError("invalid_request", "code_verifier must be 43-128 unreserved characters");
    }
    if (!constantTimeEquals(sha256Base64Url(verifier), code.code_challenge)) {
        return oauthError("invalid_grant", "code_verifier does not match the code_challenge");
    }
    if (const std::string r = field(form, "resource"); !r.empty()) {
        auto resource = checkResource(r);
        if (!resource) return resource.error();
        if (*resource != code.resource) {
            return oauthError("invalid_target", "resource differs from the authorization");
        }
    }
    auto account = accounts_.findById(code.user_id);
    if (!account) return account.error();
    if (!account->has_value() || (*account)->disabled) {
        return oauthError("invalid_grant", "the user can no longer sign in");
    }
    const auto scopes = splitScope(code.scope);
    storage::IssuedToken issued;
    const std::string access = mintAccess(code.user_id, (*account)->email, client->client_id,
                                          scopes, code.resource, &issued);
    storage::NewRefreshToken next;
    const std::string refresh = newRefresh(code.scope, &next);
    auto family = grants_.redeemCode(code_hash, next, issued);
    if (!family) {
        if (family.error().code == "invalid_grant") {
            auto again = grants_.findCode(code_hash);
            if (again && again->has_value()) revokeFamily((*again)->family_id, "code_reuse");
        }
        return family.error();
    }
    common::log(common::LogLevel::kInfo, "oauth_token_issued",
                {{"grant", "authorization_code"},
                 {"client_id", client->client_id},
                 {"user_id", code.user_id},
                 {"jti", issued.jti}});
    return nlohmann::json{{"access_token", access},
                          {"token_type", "Bearer"},
                          {"expires_in", settings_.access_token_ttl},
                          {"scope", code.scope},
                          {"refresh_token", refresh}};
}

plugin::Result<nlohmann::json> TokenEndpoint::refreshToken(const Form& form,
                                                           const ClientCredentials& credentials) {
    auto client = callingClient(credentials);
    if (!client) return client.error();
    const std::string text = field(form, "refresh_token");
    if (text.empty()) return oauthError("invalid_request", "refresh_token is required");
    auto found = grants_.findRefresh(sha256Base64Url(text));
    if (!found) return found.error();
    if (!found->has_value()) return oauthError("invalid_grant", "unknown refresh token");
    const storage::RefreshToken& t = **found;
    if (t.client_id != client->client_id) {
        return oauthError("invalid_grant", "the refresh token was issued to another client");
    }
    if (t.family_revoked) return oauthError("invalid_grant", "refresh token revoked");
    if (t.used) {
        revokeFamily(t.family_id, "refresh_replay");
        return oauthError("invalid_grant",
                          "refresh token already used; every token of its family is revoked");
    }
    if (common::nowEpochSeconds() >= t.expires_epoch) {
        return oauthError("invalid_grant", "refresh token expired");
    }
    const auto held = splitScope(t.scope);
    const std::string asked = field(form, "scope");
    const auto requested = asked.empty() ? held : splitScope(asked);
    if (const auto extra = difference(requested, held); !extra.empty()) {
        return oauthError("invalid_scope", "a refresh cannot add scope " + joinScope(extra));
    }
    if (const std::string r = field(form, "resource"); !r.empty()) {
        auto resource = checkResource(r);
        if (!resource) return resource.error();
        if (*resource != t.resource) {
            return oauthError("invalid_target", "a refresh cannot change the resource");
        }
    }
    auto account = accounts_.findById(t.user_id);
    if (!account) return account.error();
    if (!account->has_value() || (*account)->disabled) {
        return oauthError("invalid_grant", "the user can no longer sign in");
    }
    auto grantable = grantableScopes(**account);
    if (!grantable) return grantable.error();
    // A scope an administrator withdrew meanwhile is dropped; nothing is ever added.
    const auto scopes = intersect(requested, *grantable);
    storage::IssuedToken issued;
    const std::string access =
        mintAccess(t.user_id, (*account)->email, client->client_id, scopes, t.resource, &issued);
    storage::NewRefreshToken next;
    const std::string refresh = newRefresh(joinScope(scopes), &next);
    if (auto rotated = grants_.rotateRefresh(t.id, t.family_id, next, issued); !rotated) {
        if (rotated.error().code == "invalid_grant") revokeFamily(t.family_id, "refresh_replay");
        return rotated.error();
    }
    return nlohmann::json{{"access_token", access},
                          {"token_type", "Bearer"},
                          {"expires_in", settings_.access_token_ttl},
                          {"scope", joinScope(scopes)},
                          {"refresh_token", refresh}};
}

plugin::Result<nlohmann::json> TokenEndpoint::clientCredentials(
    const Form& form, const ClientCredentials& credentials, const std::string& remote_address) {
    if (credentials.client_secret.empty()) {
        return oauthError("invalid_client", "client authentication is required", 401);
    }
    auto app = clients_.authenticate(credentials.client_id, credentials.client_secret);
    if (!app) return app.error();
    if (!addressAllowed(app->cidrs, remote_address)) {
        common::log(common::LogLevel::kWarning, "oauth_client_address_refused",
                    {{"client_id", app->client_id}, {"remote_address", remote_address}});
        return oauthError("unauthorized_client",
                          "the application may not request tokens from this address");
    }
    auto resource = checkResource(field(form, "resource"));
    if (!resource) return resource.error();
    const auto approved = splitScope(app->scopes);
    const std::string asked = field(form, "scope");
    const auto requested = asked.empty() ? approved : splitScope(asked);
    if (const auto extra = difference(requested, approved); !extra.empty()) {
        return oauthError("invalid_scope",
                          "scope " + joinScope(extra) + " is not approved for this application");
    }
    storage::IssuedToken issued;
    const std::string access =
        mintAccess(app->service_user_id, "", app->client_id, requested, *resource, &issued);
    if (auto recorded = grants_.recordIssued(issued); !recorded) return recorded.error();
    common::log(
        common::LogLevel::kInfo, "oauth_token_issued",
        {{"grant", "client_credentials"}, {"client_id", app->client_id}, {"jti", issued.jti}});
    return nlohmann::json{{"access_token", access},
                          {"token_type", "Bearer"},
                          {"expires_in", settings_.access_token_ttl},
                          {"scope", joinScope(requested)}};
}

plugin::Status TokenEndpoint::revoke(const Form& form, const ClientCredentials& credentials) {
    auto client = callingClient(credentials);
    if (!client) return client.error();
    const std::string text = field(form, "token");
    if (text.empty()) return oauthError("invalid_request", "token is required");
    auto refresh = grants_.findRefresh(sha256Base64Url(text));
    if (!refresh) return refresh.error();
    if (refresh->has_value()) {
        if ((*refresh)->client_id == client->client_id) {
            revokeFamily((*refresh)->family_id, "revoked_by_client");
        }
        return {};
    }
    for (const auto& audience : {settings_.rest_resource, settings_.mcp_resource}) {
        auto principal = tokens_.verify(text, audience);
        if (!principal) continue;
        if (principal->client_id == client->client_id) {
            const auto claims = payloadOf(text);
            const std::int64_t exp = claims.is_object() ? claims.value("exp", std::int64_t{0}) : 0;
            return revocations_.revoke(principal->token_id,
                                       std::max(exp, common::nowEpochSeconds()) + 60);
        }
        break;
    }
    return {};
}

plugin::Result<nlohmann::json> TokenEndpoint::introspect(const Form& form,
                                                         const ClientCredentials& credentials) {
    if (credentials.client_secret.empty()) {
        return oauthError("invalid_client", "introspection requires client authentication", 401);
    }
    auto caller = clients_.authenticate(credentials.client_id, credentials.client_secret);
    if (!caller) return caller.error();
    const std::string text = field(form, "token");
    if (text.empty()) return oauthError("invalid_request", "token is required");
    const nlohmann::json inactive = {{"active", false}};
    if (std::count(text.begin(), text.end(), '.') == 2) {
        for (const auto& audience : {settings_.rest_resource, settings_.mcp_resource}) {
            auto principal = tokens_.verify(text, audience);
            if (!principal) continue;
            const auto claims = payloadOf(text);
            if (!claims.is_object()) return inactive;
            nlohmann::json out = {{"active", true},
                                  {"token_type", "Bearer"},
                                  {"scope", claims.value("scope", "")},
                                  {"sub", claims.value("sub", "")},
                                  {"aud", audience},
                                  {"iss", claims.value("iss", "")},
                                  {"exp", claims.value("exp", std::int64_t{0})},
                                  {"iat", claims.value("iat", std::int64_t{0})},
                                  {"jti", principal->token_id}};
            if (!principal->client_id.empty()) out["client_id"] = principal->client_id;
            if (!principal->email.empty()) out["username"] = principal->email;
            return out;
        }
        return inactive;
    }
    auto refresh = grants_.findRefresh(sha256Base64Url(text));
    if (!refresh) return refresh.error();
    if (!refresh->has_value()) return inactive;
    const auto& t = **refresh;
    if (t.used || t.family_revoked || common::nowEpochSeconds() >= t.expires_epoch) {
        return inactive;
    }
    return nlohmann::json{{"active", true},          {"token_type", "refresh_token"},
                          {"scope", t.scope},        {"client_id", t.client_id},
                          {"sub", t.user_id},        {"aud", t.resource},
                          {"iss", settings_.issuer}, {"exp", t.expires_epoch}};
}

}  // namespace docintel::auth::oauth

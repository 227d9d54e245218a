#include "auth/token_service.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "common/base64url.h"
#include "common/clock.h"
#include "common/id.h"

namespace docintel::auth {
namespace {

constexpr std::int64_t kLeewaySeconds = 30;
constexpr std::size_t kMaxCacheEntries = 100000;

plugin::Error invalid(const std::string& why) { return plugin::Error::unauthorized(why); }

std::vector<std::string> splitScopes(const std::string& scope) {
    std::vector<std::string> out;
    std::istringstream in(scope);
    std::string s;
    while (in >> s) out.push_back(s);
    return out;
}

}  // namespace

TokenService::TokenService(std::shared_ptr<const KeySet> keys, std::string issuer,
                           RevocationCheck is_revoked)
    : keys_(std::move(keys)), issuer_(std::move(issuer)), is_revoked_(std::move(is_revoked)) {}

std::string TokenService::mint(const TokenClaims& claims, std::string* jti_out) const {
    const std::int64_t now = common::nowEpochSeconds();
    std::string scope;
    for (const auto& s : claims.scopes) scope += (scope.empty() ? "" : " ") + s;
    const std::string jti = common::newUuid();
    nlohmann::json payload = {{"iss", issuer_},
                              {"sub", claims.subject},
                              {"aud", claims.audience},
                              {"iat", now},
                              {"nbf", now + claims.not_before_offset},
                              {"exp", now + claims.ttl_seconds},
                              {"jti", jti},
                              {"scope", scope}};
    if (!claims.email.empty()) payload["email"] = claims.email;
    if (!claims.client_id.empty()) payload["client_id"] = claims.client_id;
    const std::string kid = keys_->activeKid();
    const nlohmann::json header = {{"alg", "ES256"}, {"typ", "at+jwt"}, {"kid", kid}};
    const std::string signing_input =
        common::base64UrlEncode(header.dump()) + "." + common::base64UrlEncode(payload.dump());
    std::string used_kid;
    const std::string signature = keys_->sign(signing_input, &used_kid);
    if (jti_out) *jti_out = jti;
    return signing_input + "." + common::base64UrlEncode(signature);
}

plugin::Result<TokenService::Cached> TokenService::verifyUncached(const std::string& token) const {
    const auto dot1 = token.find('.');
    const auto dot2 = dot1 == std::string::npos ? dot1 : token.find('.', dot1 + 1);
    if (dot2 == std::string::npos || token.find('.', dot2 + 1) != std::string::npos) {
        return invalid("malformed token");
    }
    const auto header_text = common::base64UrlDecode(std::string_view(token).substr(0, dot1));
    const auto payload_text =
        common::base64UrlDecode(std::string_view(token).substr(dot1 + 1, dot2 - dot1 - 1));
    const auto signature = common::base64UrlDecode(std::string_view(token).substr(dot2 + 1));
    if (!header_text || !payload_text || !signature) return invalid("malformed token");

    nlohmann::json header;
    nlohmann::json payload;
    try {
        header = nlohmann::json::parse(*header_text);
        payload = nlohmann::json::parse(*payload_text);
    } catch (const nlohmann::json::exception&) {
        return invalid("malformed token");
    }
    if (!header.is_object() || !payload.is_object()) return invalid("malformed token");
    if (header.value("alg", "") != "ES256") return invalid("token algorithm not accepted");
    const std::string typ = header.value("typ", "");
    if (typ != "at+jwt" && typ != "application/at+jwt") return invalid("not an access token");
    const std::string kid = header.value("kid", "");
    if (!keys_->verify(kid, std::string_view(token).substr(0, dot2), *signature)) {
        return invalid("bad token signature");
    }

    if (payload.value("iss", "") != issuer_) return invalid("wrong token issuer");
    Cached c;
    const auto aud = payload.find("aud");
    if (aud != payload.end() && aud->is_string()) {
        c.audience = aud->get<std::string>();
    } else if (aud != payload.end() && aud->is_array() && aud->size() == 1 &&
               (*aud)[0].is_string()) {
        c.audience = (*aud)[0].get<std::string>();
    } else {
        return invalid("token has no single audience");
    }
    const auto exp = payload.find("exp");
    const auto nbf = payload.find("nbf");
    if (exp == payload.end() || !exp->is_number_integer()) return invalid("token has no expiry");
    c.expires = exp->get<std::int64_t>();
    c.not_before = nbf != payload.end() && nbf->is_number_integer() ? nbf->get<std::int64_t>() : 0;
    const std::string jti = payload.value("jti", "");
    const std::string sub = payload.value("sub", "");
    if (jti.empty() || sub.empty()) return invalid("token lacks jti or sub");
    c.principal.token_id = jti;
    c.principal.client_id = payload.value("client_id", "");
    c.principal.email = payload.value("email", "");
    if (c.principal.client_id.empty() || c.principal.client_id != sub) c.principal.user_id = sub;
    c.principal.scopes = splitScopes(payload.value("scope", ""));
    return c;
}

plugin::Result<plugin::Principal> TokenService::verify(const std::string& token,
                                                       const std::string& audience) const {
    Cached entry;
    bool found = false;
    {
        std::shared_lock lock(cache_mutex_);
        if (auto it = cache_.find(token); it != cache_.end()) {
            entry = it->second;
            found = true;
        }
    }
    if (!found) {
        auto verified = verifyUncached(token);
        if (!verified) return verified.error();
        entry = std::move(verified).value();
        std::unique_lock lock(cache_mutex_);
        if (cache_.size() >= kMaxCacheEntries) {
            const std::int64_t now = common::nowEpochSeconds();
            std::erase_if(cache_, [now](const auto& e) { return e.second.expires < now; });
            if (cache_.size() >= kMaxCacheEntries) cache_.clear();
        }
        cache_.emplace(token, entry);
    }
    const std::int64_t now = common::nowEpochSeconds();
    if (entry.audience != audience) return invalid("token is for another audience");
    if (now >= entry.expires + kLeewaySeconds) return invalid("token expired");
    if (now + kLeewaySeconds < entry.not_before) return invalid("token not yet valid");
    if (is_revoked_ && is_revoked_(entry.principal.token_id)) return invalid("token revoked");
    return entry.principal;
}

}  // namespace docintel::auth

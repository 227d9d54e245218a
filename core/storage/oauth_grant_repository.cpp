#include "storage/oauth_grant_repository.h"

#include "common/id.h"

namespace docintel::storage {
namespace {

constexpr Statement kInsertSession{
    "oauth_session_insert",
    "INSERT INTO oauth_auth_sessions (id_hash, csrf_token, client_id, request, stage, "
    "expires_at) VALUES ($1, $2, $3, $4::jsonb, $5, now() + make_interval(secs => $6))"};
constexpr Statement kFindSession{
    "oauth_session_find",
    "SELECT id_hash, csrf_token, client_id, request::text, stage, coalesce(user_id::text, ''), "
    "coalesce(mfa_code_hash, ''), coalesce(extract(epoch FROM mfa_expires_at)::bigint, 0), "
    "mfa_attempts FROM oauth_auth_sessions WHERE id_hash = $1 AND expires_at > now()"};
constexpr Statement kUpdateSession{
    "oauth_session_update",
    "UPDATE oauth_auth_sessions SET stage = $2, user_id = NULLIF($3, '')::uuid, mfa_code_hash = "
    "NULLIF($4, ''), mfa_expires_at = CASE WHEN $5::bigint = 0 THEN NULL ELSE "
    "to_timestamp($5::bigint) END, mfa_attempts = $6 WHERE id_hash = $1"};
constexpr Statement kTouchSession{
    "oauth_session_touch",
    "UPDATE oauth_auth_sessions SET expires_at = LEAST(now() + make_interval(secs => $2), "
    "created_at + make_interval(secs => $3)) WHERE id_hash = $1 AND expires_at > now()"};
constexpr Statement kDeleteSession{"oauth_session_delete",
                                   "DELETE FROM oauth_auth_sessions WHERE id_hash = $1"};
constexpr Statement kInsertCode{
    "oauth_code_insert",
    "INSERT INTO oauth_authorization_codes (code_hash, client_id, user_id, redirect_uri, "
    "code_challenge, scope, resource, expires_at) VALUES ($1, $2, $3::uuid, $4, $5, $6, $7, "
    "to_timestamp($8::bigint))"};
constexpr Statement kFindCode{
    "oauth_code_find",
    "SELECT code_hash, client_id, user_id::text, redirect_uri, code_challenge, scope, resource, "
    "extract(epoch FROM expires_at)::bigint, used_at IS NOT NULL, coalesce(family_id::text, '') "
    "FROM oauth_authorization_codes WHERE code_hash = $1"};
constexpr Statement kUseCode{
    "oauth_code_use",
    "UPDATE oauth_authorization_codes SET used_at = now(), family_id = $2::uuid WHERE "
    "code_hash = $1 AND used_at IS NULL RETURNING client_id, user_id::text, scope, resource"};
constexpr Statement kInsertFamily{
    "oauth_family_insert",
    "INSERT INTO oauth_refresh_families (id, client_id, user_id, scope, resource) VALUES "
    "($1::uuid, $2, $3::uuid, $4, $5)"};
constexpr Statement kInsertRefresh{
    "oauth_refresh_insert",
    "INSERT INTO oauth_refresh_tokens (id, family_id, token_hash, token_ciphertext, scope, "
    "expires_at) VALUES ($1::uuid, $2::uuid, $3, $4, $5, to_timestamp($6::bigint))"};
constexpr Statement kInsertIssued{
    "oauth_issued_insert",
    "INSERT INTO oauth_issued_tokens (jti, client_id, user_id, family_id, expires_at) VALUES "
    "($1, $2, NULLIF($3, '')::uuid, NULLIF($4, '')::uuid, to_timestamp($5::bigint))"};
constexpr Statement kFindRefresh{
    "oauth_refresh_find",
    "SELECT t.id::text, t.family_id::text, t.scope, extract(epoch FROM t.expires_at)::bigint, "
    "t.used_at IS NOT NULL, f.client_id, f.user_id::text, f.resource, f.revoked_at IS NOT NULL "
    "FROM oauth_refresh_tokens t JOIN oauth_refresh_families f ON f.id = t.family_id WHERE "
    "t.token_hash = $1"};
constexpr Statement kUseRefresh{
    "oauth_refresh_use",
    "UPDATE oauth_refresh_tokens t SET used_at = now() FROM oauth_refresh_families f WHERE "
    "t.id = $1::uuid AND t.used_at IS NULL AND f.id = t.family_id AND f.revoked_at IS NULL"};
constexpr Statement kRevokeFamily{
    "oauth_family_revoke",
    "UPDATE oauth_refresh_families SET revoked_at = coalesce(revoked_at, now()), "
    "revoked_reason = coalesce(revoked_reason, $2) WHERE id = $1::uuid"};
constexpr Statement kRevokeFamilyTokens{
    "oauth_family_revoke_tokens",
    "INSERT INTO revoked_tokens (jti, expires_at) SELECT jti, expires_at FROM "
    "oauth_issued_tokens WHERE family_id = $1::uuid AND expires_at > now() ON CONFLICT (jti) DO "
    "NOTHING"};
constexpr Statement kRevokeClientFamilies{
    "oauth_client_revoke_families",
    "UPDATE oauth_refresh_families SET revoked_at = coalesce(revoked_at, now()), "
    "revoked_reason = coalesce(revoked_reason, $2) WHERE client_id = $1"};
constexpr Statement kRevokeClientTokens{
    "oauth_client_revoke_tokens",
    "INSERT INTO revoked_tokens (jti, expires_at) SELECT jti, expires_at FROM "
    "oauth_issued_tokens WHERE client_id = $1 AND expires_at > now() ON CONFLICT (jti) DO "
    "NOTHING"};
constexpr Statement kRevokeUserFamilies{
    "oauth_user_revoke_families",
    "UPDATE oauth_refresh_families SET revoked_at = coalesce(revoked_at, now()), "
    "revoked_reason = coalesce(revoked_reason, $2) WHERE user_id = $1::uuid"};
constexpr Statement kRevokeUserTokens{
    "oauth_user_revoke_tokens",
    "INSERT INTO revoked_tokens (jti, expires_at) SELECT jti, expires_at FROM "
    "oauth_issued_tokens WHERE user_id = $1::uuid AND expires_at > now() ON CONFLICT (jti) DO "
    "NOTHING"};
constexpr Statement kFindIssued{
    "oauth_issued_find",
    "SELECT jti, client_id, coalesce(user_id::text, ''), extract(epoch FROM expires_at)::bigint "
    "FROM oauth_issued_tokens WHERE jti = $1"};
constexpr Statement kPurgeSessions{"oauth_purge_sessions",
                                   "DELETE FROM oauth_auth_sessions WHERE expires_at < now()"};
constexpr Statement kPurgeCodes{
    "oauth_purge_codes",
    "DELETE FROM oauth_authorization_codes WHERE expires_at < now() - interval '1 day'"};
constexpr Statement kPurgeRefresh{
    "oauth_purge_refresh",
    "DELETE FROM oauth_refresh_families f WHERE NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens "
    "t WHERE t.family_id = f.id AND t.expires_at > now())"};
constexpr Statement kPurgeIssued{"oauth_purge_issued",
                                 "DELETE FROM oauth_issued_tokens WHERE expires_at < now()"};

plugin::Error invalidGrant(const std::string& why) { return {"invalid_grant", why, 400}; }

void insertAccess(Tx& tx, const IssuedToken& a, const std::string& family_id) {
    tx.exec(kInsertIssued, a.jti, a.client_id, a.user_id, family_id, a.expires_epoch);
}

}  // namespace

plugin::Status OAuthGrantRepository::createSession(const AuthSession& s, int ttl_seconds) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kInsertSession, s.id_hash, s.csrf_token, s.client_id, s.request.dump(), s.stage,
                ttl_seconds);
        return true;
    }));
}

plugin::Result<std::optional<AuthSession>> OAuthGrantRepository::findSession(
    const std::string& id_hash) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<AuthSession>> {
        auto rows = tx.exec(kFindSession, id_hash);
        if (rows.empty()) return std::optional<AuthSession>();
        const auto& r = rows[0];
        AuthSession s;
        s.id_hash = r[0].as<std::string>();
        s.csrf_token = r[1].as<std::string>();
        s.client_id = r[2].as<std::string>();
        s.request = nlohmann::json::parse(r[3].as<std::string>());
        s.stage = r[4].as<std::string>();
        s.user_id = r[5].as<std::string>();
        s.mfa_code_hash = r[6].as<std::string>();
        s.mfa_expires_epoch = r[7].as<std::int64_t>();
        s.mfa_attempts = r[8].as<int>();
        return std::optional<AuthSession>(std::move(s));
    });
}

plugin::Status OAuthGrantRepository::updateSession(const AuthSession& s) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kUpdateSession, s.id_hash, s.stage, s.user_id, s.mfa_code_hash, s.mfa_expires_epoch,
                s.mfa_attempts);
        return true;
    }));
}

plugin::Status OAuthGrantRepository::touchSession(const std::string& id_hash, int idle_seconds,
                                                  int max_age_seconds) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kTouchSession, id_hash, idle_seconds, max_age_seconds);
        return true;
    }));
}

plugin::Status OAuthGrantRepository::deleteSession(const std::string& id_hash) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDeleteSession, id_hash);
        return true;
    }));
}

plugin::Status OAuthGrantRepository::insertCode(const AuthorizationCode& c) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kInsertCode, c.code_hash, c.client_id, c.user_id, c.redirect_uri, c.code_challenge,
                c.scope, c.resource, c.expires_epoch);
        return true;
    }));
}

plugin::Result<std::optional<AuthorizationCode>> OAuthGrantRepository::findCode(
    const std::string& code_hash) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<AuthorizationCode>> {
        auto rows = tx.exec(kFindCode, code_hash);
        if (rows.empty()) return std::optional<AuthorizationCode>();
        const auto& r = rows[0];
        AuthorizationCode c;
        c.code_hash = r[0].as<std::string>();
        c.client_id = r[1].as<std::string>();
        c.user_id = r[2].as<std::string>();
        c.redirect_uri = r[3].as<std::string>();
        c.code_challenge = r[4].as<std::string>();
        c.scope = r[5].as<std::string>();
        c.resource = r[6].as<std::string>();
        c.expires_epoch = r[7].as<std::int64_t>();
        c.used = r[8].as<bool>();
        c.family_id = r[9].as<std::string>();
        return std::optional<AuthorizationCode>(std::move(c));
    });
}

plugin::Result<std::string> OAuthGrantRepository::redeemCode(const std::string& code_hash,
                                                             const NewRefreshToken& refresh,
                                                             const IssuedToken& access) {
    const std::string family_id = common::newUuid();
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> {
        // The family row must exist before the code points at it.
        auto code = tx.exec(kFindCode, code_hash);
        if (code.empty() || code[0][8].as<bool>()) return invalidGrant("code already used");
        const auto& c = code[0];
        tx.exec(kInsertFamily, family_id, c[1].as<std::string>(), c[2].as<std::string>(),
                refresh.scope, c[6].as<std::string>());
        if (tx.exec(kUseCode, code_hash, family_id).empty()) {
            return invalidGrant("code already used");
        }
        tx.exec(kInsertRefresh, common::newUuid(), family_id, refresh.token_hash,
                refresh.ciphertext, refresh.scope, refresh.expires_epoch);
        insertAccess(tx, access, family_id);
        return family_id;
    });
}

plugin::Result<std::optional<RefreshToken>> OAuthGrantRepository::findRefresh(
    const std::string& token_hash) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<RefreshToken>> {
        auto rows = tx.exec(kFindRefresh, token_hash);
        if (rows.empty()) return std::optional<RefreshToken>();
        const auto& r = rows[0];
        RefreshToken t;
        t.id = r[0].as<std::string>();
        t.family_id = r[1].as<std::string>();
        t.scope = r[2].as<std::string>();
        t.expires_epoch = r[3].as<std::int64_t>();
        t.used = r[4].as<bool>();
        t.client_id = r[5].as<std::string>();
        t.user_id = r[6].as<std::string>();
        t.resource = r[7].as<std::string>();
        t.family_revoked = r[8].as<bool>();
        return std::optional<RefreshToken>(std::move(t));
    });
}

plugin::Status OAuthGrantRepository::rotateRefresh(const std::string& old_id,
                                                   const std::string& family_id,
                                                   const NewRefreshToken& next,
                                                   const IssuedToken& access) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kUseRefresh, old_id).affected_rows() == 0) {
            return invalidGrant("refresh token already used");
        }
        tx.exec(kInsertRefresh, common::newUuid(), family_id, next.token_hash, next.ciphertext,
                next.scope, next.expires_epoch);
        insertAccess(tx, access, family_id);
        return true;
    }));
}

plugin::Status OAuthGrantRepository::recordIssued(const IssuedToken& access) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        insertAccess(tx, access, "");
        return true;
    }));
}

plugin::Result<int> OAuthGrantRepository::revokeFamily(const std::string& family_id,
                                                       const std::string& reason) {
    if (!common::isUuid(family_id)) return 0;
    return db_.transact([&](Tx& tx) -> plugin::Result<int> {
        tx.exec(kRevokeFamily, family_id, reason);
        return static_cast<int>(tx.exec(kRevokeFamilyTokens, family_id).affected_rows());
    });
}

plugin::Result<int> OAuthGrantRepository::revokeClient(const std::string& client_id,
                                                       const std::string& reason) {
    return db_.transact([&](Tx& tx) -> plugin::Result<int> {
        tx.exec(kRevokeClientFamilies, client_id, reason);
        return static_cast<int>(tx.exec(kRevokeClientTokens, client_id).affected_rows());
    });
}

plugin::Result<int> OAuthGrantRepository::revokeUser(const std::string& user_id,
                                                     const std::string& reason) {
    if (!common::isUuid(user_id)) return 0;
    return db_.transact([&](Tx& tx) -> plugin::Result<int> {
        tx.exec(kRevokeUserFamilies, user_id, reason);
        return static_cast<int>(tx.exec(kRevokeUserTokens, user_id).affected_rows());
    });
}

plugin::Result<std::optional<IssuedToken>> OAuthGrantRepository::findIssued(
    const std::string& jti) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<IssuedToken>> {
        auto rows = tx.exec(kFindIssued, jti);
        if (rows.empty()) return std::optional<IssuedToken>();
        const auto& r = rows[0];
        return std::optional<IssuedToken>(
            IssuedToken{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                        r[3].as<std::int64_t>()});
    });
}

plugin::Status OAuthGrantRepository::purgeExpired() {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kPurgeSessions);
        tx.exec(kPurgeCodes);
        tx.exec(kPurgeRefresh);
        tx.exec(kPurgeIssued);
        return true;
    }));
}

}  // namespace docintel::storage

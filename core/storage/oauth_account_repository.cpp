#include "storage/oauth_account_repository.h"

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_ACCOUNT_COLUMNS                                                              \
    "id::text, email, display_name, password_hash, is_admin, kind, mfa_enabled, disabled_at " \
    "IS NOT NULL"
#define DOCINTEL_REQUEST_SELECT                                                              \
    "SELECT r.id::text, r.user_id::text, u.email, coalesce(r.client_id, ''), "               \
    "coalesce(c.name, ''), r.scope, r.status, r.created_at, r.decided_at FROM "              \
    "oauth_access_requests r JOIN users u ON u.id = r.user_id LEFT JOIN oauth_clients c ON " \
    "c.client_id = r.client_id "

constexpr Statement kByEmail{"oauth_account_by_email",
                             "SELECT " DOCINTEL_ACCOUNT_COLUMNS
                             " FROM users WHERE lower(email) = lower($1)"};
constexpr Statement kById{"oauth_account_by_id",
                          "SELECT " DOCINTEL_ACCOUNT_COLUMNS " FROM users WHERE id = $1::uuid"};
constexpr Statement kListPeople{"oauth_account_list_people",
                                "SELECT " DOCINTEL_ACCOUNT_COLUMNS
                                " FROM users WHERE kind = 'person' ORDER BY lower(email) "
                                "LIMIT 1000"};
constexpr Statement kSetMfa{"oauth_account_set_mfa",
                            "UPDATE users SET mfa_enabled = $2 WHERE id = $1::uuid"};
constexpr Statement kSetDisabled{
    "oauth_account_set_disabled",
    "UPDATE users SET disabled_at = CASE WHEN $2 THEN coalesce(disabled_at, now()) ELSE NULL "
    "END WHERE id = $1::uuid"};
constexpr Statement kScopes{"oauth_user_scopes",
                            "SELECT scope FROM oauth_user_scopes WHERE user_id = $1::uuid "
                            "ORDER BY scope"};
constexpr Statement kGrant{
    "oauth_user_scope_grant",
    "INSERT INTO oauth_user_scopes (user_id, scope, granted_by) VALUES ($1::uuid, $2, "
    "NULLIF($3, '')::uuid) ON CONFLICT DO NOTHING"};
constexpr Statement kApprovePending{
    "oauth_request_approve_pending",
    "UPDATE oauth_access_requests SET status = 'approved', decided_at = now(), decided_by = "
    "NULLIF($3, '')::uuid WHERE user_id = $1::uuid AND scope = $2 AND status = 'pending'"};
constexpr Statement kRevokeGrant{
    "oauth_user_scope_revoke",
    "DELETE FROM oauth_user_scopes WHERE user_id = $1::uuid AND scope = $2"};
constexpr Statement kRevokeApproved{
    "oauth_request_revoke_approved",
    "UPDATE oauth_access_requests SET status = 'revoked', decided_at = now(), decided_by = "
    "NULLIF($3, '')::uuid WHERE user_id = $1::uuid AND scope = $2 AND status = 'approved'"};
constexpr Statement kLastRequest{
    "oauth_request_last",
    "SELECT status FROM oauth_access_requests WHERE user_id = $1::uuid AND scope = $2 "
    "ORDER BY created_at DESC LIMIT 1"};
constexpr Statement kInsertRequest{
    "oauth_request_insert",
    "INSERT INTO oauth_access_requests (id, user_id, client_id, scope, status) VALUES ($1, "
    "$2::uuid, NULLIF($3, ''), $4, 'pending') ON CONFLICT DO NOTHING"};
constexpr Statement kListAll{"oauth_request_list_all",
                             DOCINTEL_REQUEST_SELECT "ORDER BY r.created_at DESC LIMIT 1000"};
constexpr Statement kListStatus{"oauth_request_list_status", DOCINTEL_REQUEST_SELECT
                                "WHERE r.status = $1 ORDER BY r.created_at DESC LIMIT 1000"};
constexpr Statement kRequestForUpdate{
    "oauth_request_for_update", DOCINTEL_REQUEST_SELECT "WHERE r.id = $1::uuid FOR UPDATE OF r"};
constexpr Statement kSetRequestStatus{
    "oauth_request_set_status",
    "UPDATE oauth_access_requests SET status = $2, decided_at = now(), decided_by = "
    "NULLIF($3, '')::uuid WHERE id = $1::uuid"};
constexpr Statement kRecordFailure{
    "oauth_login_failure_insert",
    "INSERT INTO oauth_login_failures (email, remote_address) VALUES (lower($1), $2)"};
constexpr Statement kFailuresSince{
    "oauth_login_failures_since",
    "SELECT count(*) FROM oauth_login_failures WHERE lower(email) = lower($1) AND failed_at > "
    "now() - make_interval(secs => $2)"};
constexpr Statement kClearFailures{
    "oauth_login_failures_clear",
    "DELETE FROM oauth_login_failures WHERE lower(email) = lower($1) OR failed_at < now() - "
    "interval '1 day'"};

#undef DOCINTEL_ACCOUNT_COLUMNS
#undef DOCINTEL_REQUEST_SELECT

Account rowToAccount(const pqxx::row& r) {
    return Account{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                   r[3].as<std::string>(), r[4].as<bool>(),        r[5].as<std::string>(),
                   r[6].as<bool>(),        r[7].as<bool>()};
}

AccessRequest rowToRequest(const pqxx::row& r) {
    return AccessRequest{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                         r[3].as<std::string>(), r[4].as<std::string>(), r[5].as<std::string>(),
                         r[6].as<std::string>(), isoTime(r[7]),          isoTime(r[8])};
}

std::optional<Account> first(const pqxx::result& rows) {
    if (rows.empty()) return std::nullopt;
    return rowToAccount(rows[0]);
}

}  // namespace

plugin::Result<std::optional<Account>> OAuthAccountRepository::findByEmail(
    const std::string& email) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Account>> {
        return first(tx.exec(kByEmail, email));
    });
}

plugin::Result<std::optional<Account>> OAuthAccountRepository::findById(const std::string& id) {
    if (!common::isUuid(id)) return std::optional<Account>();
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Account>> {
        return first(tx.exec(kById, id));
    });
}

plugin::Result<std::vector<Account>> OAuthAccountRepository::listPeople() {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Account>> {
        std::vector<Account> out;
        for (const auto& r : tx.exec(kListPeople)) out.push_back(rowToAccount(r));
        return out;
    });
}

plugin::Result<bool> OAuthAccountRepository::setMfa(const std::string& user_id, bool enabled) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kSetMfa, user_id, enabled).affected_rows() > 0;
    });
}

plugin::Result<bool> OAuthAccountRepository::setDisabled(const std::string& user_id,
                                                         bool disabled) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kSetDisabled, user_id, disabled).affected_rows() > 0;
    });
}

plugin::Result<std::vector<std::string>> OAuthAccountRepository::grantedScopes(
    const std::string& user_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<std::string>> {
        std::vector<std::string> out;
        for (const auto& r : tx.exec(kScopes, user_id)) out.push_back(r[0].as<std::string>());
        return out;
    });
}

plugin::Status OAuthAccountRepository::grantScopes(const std::string& user_id,
                                                   const std::vector<std::string>& scopes,
                                                   const std::string& granted_by) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        for (const auto& s : scopes) {
            tx.exec(kGrant, user_id, s, granted_by);
            tx.exec(kApprovePending, user_id, s, granted_by);
        }
        return true;
    }));
}

plugin::Status OAuthAccountRepository::revokeScopes(const std::string& user_id,
                                                    const std::vector<std::string>& scopes,
                                                    const std::string& revoked_by) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        for (const auto& s : scopes) {
            tx.exec(kRevokeGrant, user_id, s);
            tx.exec(kRevokeApproved, user_id, s, revoked_by);
        }
        return true;
    }));
}

plugin::Result<std::vector<std::string>> OAuthAccountRepository::requestScopes(
    const std::string& user_id, const std::string& client_id,
    const std::vector<std::string>& scopes) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::vector<std::string>> {
        std::vector<std::string> pending;
        for (const auto& s : scopes) {
            auto last = tx.exec(kLastRequest, user_id, s);
            const std::string status = last.empty() ? "" : last[0][0].as<std::string>();
            if (status == "denied") continue;
            if (status != "pending")
                tx.exec(kInsertRequest, common::newUuid(), user_id, client_id, s);
            pending.push_back(s);
        }
        return pending;
    });
}

plugin::Result<std::vector<AccessRequest>> OAuthAccountRepository::listRequests(
    const std::string& status) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<AccessRequest>> {
        std::vector<AccessRequest> out;
        auto rows = status.empty() ? tx.exec(kListAll) : tx.exec(kListStatus, status);
        for (const auto& r : rows) out.push_back(rowToRequest(r));
        return out;
    });
}

plugin::Result<AccessRequest> OAuthAccountRepository::decide(const std::string& request_id,
                                                             const std::string& to,
                                                             const std::string& by) {
    if (!common::isUuid(request_id)) return plugin::Error::notFound("access request not found");
    return db_.transact([&](Tx& tx) -> plugin::Result<AccessRequest> {
        auto rows = tx.exec(kRequestForUpdate, request_id);
        if (rows.empty()) return plugin::Error::notFound("access request not found");
        AccessRequest r = rowToRequest(rows[0]);
        const bool from_pending = r.status == "pending" && (to == "approved" || to == "denied");
        const bool from_approved = r.status == "approved" && to == "revoked";
        if (!from_pending && !from_approved) {
            return plugin::Error::conflict("invalid_transition",
                                           "a " + r.status + " request cannot become " + to);
        }
        tx.exec(kSetRequestStatus, request_id, to, by);
        if (to == "approved") tx.exec(kGrant, r.user_id, r.scope, by);
        if (to == "revoked") tx.exec(kRevokeGrant, r.user_id, r.scope);
        r.status = to;
        return r;
    });
}

plugin::Status OAuthAccountRepository::recordLoginFailure(const std::string& email,
                                                          const std::string& address) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kRecordFailure, email, address);
        return true;
    }));
}

plugin::Result<int> OAuthAccountRepository::loginFailuresSince(const std::string& email,
                                                               int seconds) {
    return db_.read([&](Tx& tx) -> plugin::Result<int> {
        return tx.exec(kFailuresSince, email, seconds)[0][0].as<int>();
    });
}

plugin::Status OAuthAccountRepository::clearLoginFailures(const std::string& email) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kClearFailures, email);
        return true;
    }));
}

}  // namespace docintel::storage

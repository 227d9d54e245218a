#include "storage/token_revocation_repository.h"

namespace docintel::storage {
namespace {

constexpr Statement kRevoke{
    "token_revoke",
    "INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, to_timestamp($2)) "
    "ON CONFLICT (jti) DO NOTHING"};
constexpr Statement kSince{
    "token_revoked_since",
    "SELECT jti, (extract(epoch FROM revoked_at) * 1000)::bigint FROM revoked_tokens "
    "WHERE revoked_at >= to_timestamp($1::double precision / 1000) AND expires_at > now() "
    "ORDER BY revoked_at"};

}  // namespace

plugin::Status TokenRevocationRepository::revoke(const std::string& jti,
                                                 std::int64_t expires_epoch) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kRevoke, jti, expires_epoch);
        return true;
    }));
}

plugin::Result<std::vector<std::string>> TokenRevocationRepository::revokedSince(
    std::int64_t since_epoch_ms, std::int64_t* max_seen_ms) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<std::string>> {
        std::vector<std::string> out;
        for (const auto& row : tx.exec(kSince, since_epoch_ms)) {
            out.push_back(row[0].as<std::string>());
            if (max_seen_ms) *max_seen_ms = std::max(*max_seen_ms, row[1].as<std::int64_t>());
        }
        return out;
    });
}

}  // namespace docintel::storage

#include "storage/mcp_session_repository.h"

namespace docintel::storage {
namespace {

constexpr Statement kSave{
    "mcp_session_save",
    "INSERT INTO mcp_sessions (id_hash, subject, protocol_version, log_level, created_at, "
    "last_used_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id_hash) DO NOTHING"};
constexpr Statement kFind{"mcp_session_find",
                          "SELECT subject, protocol_version, log_level, created_at, last_used_at "
                          "FROM mcp_sessions WHERE id_hash = $1"};
constexpr Statement kTouch{
    "mcp_session_touch",
    "UPDATE mcp_sessions SET last_used_at = greatest(last_used_at, $2) WHERE id_hash = $1"};
constexpr Statement kPurge{"mcp_session_purge", "DELETE FROM mcp_sessions WHERE last_used_at < $1"};
constexpr Statement kLogLevel{"mcp_session_log_level",
                              "UPDATE mcp_sessions SET log_level = $2 WHERE id_hash = $1"};
constexpr Statement kRemove{"mcp_session_remove", "DELETE FROM mcp_sessions WHERE id_hash = $1"};

}  // namespace

plugin::Status McpSessionRepository::save(const McpSessionRow& row) {
    return db_.transact([&](Tx& tx) -> plugin::Status {
        tx.exec(kSave, row.id_hash, row.subject, row.protocol_version, row.log_level, row.created,
                row.last_used);
        return {};
    });
}

plugin::Result<std::optional<McpSessionRow>> McpSessionRepository::find(
    const std::string& id_hash) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<McpSessionRow>> {
        const auto rows = tx.exec(kFind, id_hash);
        if (rows.empty()) return std::optional<McpSessionRow>();
        const auto& r = rows[0];
        return std::optional<McpSessionRow>(McpSessionRow{
            id_hash, r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
            r[3].as<std::int64_t>(), r[4].as<std::int64_t>()});
    });
}

plugin::Status McpSessionRepository::touch(const std::string& id_hash, std::int64_t now,
                                           std::int64_t idle_before) {
    return db_.transact([&](Tx& tx) -> plugin::Status {
        tx.exec(kTouch, id_hash, now);
        tx.exec(kPurge, idle_before);
        return {};
    });
}

plugin::Status McpSessionRepository::setLogLevel(const std::string& id_hash,
                                                 const std::string& level) {
    return db_.transact([&](Tx& tx) -> plugin::Status {
        tx.exec(kLogLevel, id_hash, level);
        return {};
    });
}

plugin::Status McpSessionRepository::remove(const std::string& id_hash) {
    return db_.transact([&](Tx& tx) -> plugin::Status {
        tx.exec(kRemove, id_hash);
        return {};
    });
}

}  // namespace docintel::storage

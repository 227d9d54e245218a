#include "storage/chat_session_repository.h"

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_SESSION_COLUMNS                                                            \
    "s.id, s.owner_id, coalesce(s.workspace_id::text, ''), s.title, s.document_ids::text, " \
    "s.created_at, s.updated_at, (SELECT count(*) FROM chat_turns t WHERE t.session_id = s.id)"

constexpr Statement kInsert{
    "chat_session_insert",
    "INSERT INTO chat_sessions (id, owner_id, workspace_id, title, document_ids) VALUES ($1, $2, "
    "NULLIF($3, '')::uuid, $4, $5::jsonb)"};
constexpr Statement kFind{"chat_session_find", "SELECT " DOCINTEL_SESSION_COLUMNS
                                               " FROM chat_sessions s WHERE s.id = $1"};
constexpr Statement kList{"chat_session_list", "SELECT " DOCINTEL_SESSION_COLUMNS
                                               " FROM chat_sessions s WHERE s.owner_id = $1 AND "
                                               "(($2 = '' AND s.workspace_id IS NULL) OR ($2 <> '' "
                                               "AND s.workspace_id = NULLIF($2, '')::uuid)) "
                                               "ORDER BY s.updated_at DESC, s.id LIMIT $3"};
constexpr Statement kTurns{
    "chat_turn_list",
    "SELECT role, content, citations::text, coalesce(trace_id, ''), created_at FROM chat_turns "
    "WHERE session_id = $1 ORDER BY id"};
constexpr Statement kRename{
    "chat_session_rename", "UPDATE chat_sessions SET title = $2, updated_at = now() WHERE id = $1"};
constexpr Statement kDelete{"chat_session_delete", "DELETE FROM chat_sessions WHERE id = $1"};
constexpr Statement kAppend{
    "chat_turn_insert",
    "INSERT INTO chat_turns (session_id, role, content, citations, trace_id) VALUES ($1, $2, $3, "
    "$4::jsonb, NULLIF($5, ''))"};
constexpr Statement kTouch{"chat_session_touch",
                           "UPDATE chat_sessions SET updated_at = now() WHERE id = $1"};

#undef DOCINTEL_SESSION_COLUMNS

ChatSession rowToSession(const pqxx::row& r) {
    ChatSession s;
    s.id = r[0].as<std::string>();
    s.owner_id = r[1].as<std::string>();
    s.workspace_id = r[2].as<std::string>();
    s.title = r[3].as<std::string>();
    s.document_ids = nlohmann::json::parse(r[4].c_str());
    s.created_at = isoTime(r[5]);
    s.updated_at = isoTime(r[6]);
    s.turn_count = r[7].as<int>();
    return s;
}

}  // namespace

plugin::Result<ChatSession> ChatSessionRepository::create(const ChatSession& session) {
    ChatSession s = session;
    if (s.id.empty()) s.id = common::newUuid();
    return db_.transact([&](Tx& tx) -> plugin::Result<ChatSession> {
        tx.exec(kInsert, s.id, s.owner_id, s.workspace_id, s.title, s.document_ids.dump());
        return rowToSession(tx.exec(kFind, s.id)[0]);
    });
}

plugin::Result<std::optional<ChatSession>> ChatSessionRepository::find(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<ChatSession>> {
        const auto rows = tx.exec(kFind, id);
        if (rows.empty()) return std::optional<ChatSession>();
        return std::optional<ChatSession>(rowToSession(rows[0]));
    });
}

plugin::Result<std::vector<ChatSession>> ChatSessionRepository::list(
    const std::string& owner_id, const std::string& workspace_id, int limit) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<ChatSession>> {
        std::vector<ChatSession> out;
        for (const auto& row : tx.exec(kList, owner_id, workspace_id, limit)) {
            out.push_back(rowToSession(row));
        }
        return out;
    });
}

plugin::Result<std::vector<ChatTurn>> ChatSessionRepository::turns(const std::string& session_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<ChatTurn>> {
        std::vector<ChatTurn> out;
        for (const auto& r : tx.exec(kTurns, session_id)) {
            ChatTurn t;
            t.role = r[0].as<std::string>();
            t.content = r[1].as<std::string>();
            t.citations = nlohmann::json::parse(r[2].c_str());
            t.trace_id = r[3].as<std::string>();
            t.created_at = isoTime(r[4]);
            out.push_back(std::move(t));
        }
        return out;
    });
}

plugin::Result<bool> ChatSessionRepository::rename(const std::string& id,
                                                   const std::string& title) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kRename, id, title).affected_rows() > 0;
    });
}

plugin::Result<bool> ChatSessionRepository::remove(const std::string& id) {
    return db_.transact(
        [&](Tx& tx) -> plugin::Result<bool> { return tx.exec(kDelete, id).affected_rows() > 0; });
}

plugin::Status ChatSessionRepository::append(const std::string& session_id,
                                             const std::vector<ChatTurn>& turns) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        for (const auto& t : turns) {
            tx.exec(kAppend, session_id, t.role, t.content, t.citations.dump(), t.trace_id);
        }
        tx.exec(kTouch, session_id);
        return true;
    }));
}

}  // namespace docintel::storage

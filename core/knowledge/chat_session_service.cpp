#include "knowledge/chat_session_service.h"

#include "common/id.h"

namespace docintel::knowledge {
namespace {

plugin::Error sessionNotFound() { return {"session_not_found", "chat session not found", 404}; }

/// `workspace_id` of arguments: null, absent, "" and "personal" mean the personal scope.
std::string workspaceOf(const nlohmann::json& args) {
    const auto it = args.find("workspace_id");
    if (it == args.end() || !it->is_string()) return {};
    const auto& v = it->get_ref<const std::string&>();
    return v == "personal" ? std::string() : v;
}

plugin::Result<std::string> checkedTitle(const nlohmann::json& value) {
    if (!value.is_string()) {
        return plugin::Error::unprocessable("invalid_title", "title must be a string");
    }
    const auto& title = value.get_ref<const std::string&>();
    if (title.empty() || title.size() > 200) {
        return plugin::Error::unprocessable("invalid_title", "title must be 1 to 200 characters");
    }
    return title;
}

}  // namespace

nlohmann::json ChatSessionService::toJson(const storage::ChatSession& s) {
    return {{"session_id", s.id},
            {"id", s.id},
            {"title", s.title},
            {"workspace_id",
             s.workspace_id.empty() ? nlohmann::json() : nlohmann::json(s.workspace_id)},
            {"document_ids", s.document_ids},
            {"turn_count", s.turn_count},
            {"created_at", s.created_at},
            {"updated_at", s.updated_at}};
}

plugin::Result<nlohmann::json> ChatSessionService::create(const plugin::Principal& caller,
                                                          const nlohmann::json& args) {
    auto title = checkedTitle(args.value("title", nlohmann::json("")));
    if (!title) return title.error();
    auto scope = access_.scope(caller.user_id, workspaceOf(args), auth::WorkspaceAction::kAsk);
    if (!scope) return scope.error();

    storage::ChatSession session;
    session.owner_id = caller.user_id;
    session.workspace_id = *scope;
    session.title = *title;
    for (const auto& id_json : args.value("document_ids", nlohmann::json::array())) {
        if (!id_json.is_string() || !common::isUuid(id_json.get<std::string>())) {
            return plugin::Error{"document_not_found", "document not found", 404};
        }
        const std::string id = id_json.get<std::string>();
        auto doc = documents_.find(id);
        if (!doc) return doc.error();
        if (!*doc) return plugin::Error{"document_not_found", "document not found", 404};
        if (auto ok = access_.require(caller.user_id, **doc, auth::WorkspaceAction::kAsk); !ok) {
            return ok.error();
        }
        session.document_ids.push_back(id);
    }
    auto created = sessions_.create(session);
    if (!created) return created.error();
    return toJson(*created);
}

plugin::Result<nlohmann::json> ChatSessionService::list(const plugin::Principal& caller,
                                                        const std::string& workspace_id) {
    const std::string ws = workspace_id == "personal" ? std::string() : workspace_id;
    auto scope = access_.scope(caller.user_id, ws, auth::WorkspaceAction::kAsk);
    if (!scope) return scope.error();
    auto rows = sessions_.list(caller.user_id, *scope, kListLimit);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& s : *rows) items.push_back(toJson(s));
    return nlohmann::json{
        {"workspace_id", scope->empty() ? nlohmann::json() : nlohmann::json(*scope)},
        {"sessions", std::move(items)}};
}

plugin::Result<storage::ChatSession> ChatSessionService::find(const plugin::Principal& caller,
                                                              const std::string& id) {
    if (caller.user_id.empty() || !common::isUuid(id)) return sessionNotFound();
    auto row = sessions_.find(id);
    if (!row) return row.error();
    if (!*row || (*row)->owner_id != caller.user_id) return sessionNotFound();
    if (!(*row)->workspace_id.empty()) {
        // Still a member who may ask there (a removed member loses the workspace's sessions).
        if (!access_.scope(caller.user_id, (*row)->workspace_id, auth::WorkspaceAction::kAsk)) {
            return sessionNotFound();
        }
    }
    return std::move(**row);
}

plugin::Result<nlohmann::json> ChatSessionService::get(const plugin::Principal& caller,
                                                       const std::string& id) {
    auto session = find(caller, id);
    if (!session) return session.error();
    auto turns = sessions_.turns(id);
    if (!turns) return turns.error();
    nlohmann::json out = toJson(*session);
    nlohmann::json items = nlohmann::json::array();
    for (const auto& t : *turns) {
        nlohmann::json turn = {
            {"role", t.role}, {"content", t.content}, {"created_at", t.created_at}};
        if (t.role == "assistant") {
            turn["citations"] = t.citations;
            turn["trace_id"] = t.trace_id;
        }
        items.push_back(std::move(turn));
    }
    out["turns"] = std::move(items);
    return out;
}

plugin::Result<nlohmann::json> ChatSessionService::rename(const plugin::Principal& caller,
                                                          const std::string& id,
                                                          const std::string& title) {
    auto checked = checkedTitle(title);
    if (!checked) return checked.error();
    auto session = find(caller, id);
    if (!session) return session.error();
    auto renamed = sessions_.rename(id, *checked);
    if (!renamed) return renamed.error();
    if (!*renamed) return sessionNotFound();
    auto now = sessions_.find(id);
    if (!now) return now.error();
    if (!*now) return sessionNotFound();
    return toJson(**now);
}

plugin::Result<nlohmann::json> ChatSessionService::remove(const plugin::Principal& caller,
                                                          const std::string& id) {
    auto session = find(caller, id);
    if (!session) return session.error();
    auto removed = sessions_.remove(id);
    if (!removed) return removed.error();
    if (!*removed) return sessionNotFound();
    return nlohmann::json{{"session_id", id}, {"deleted", true}};
}

plugin::Result<nlohmann::json> ChatSessionService::history(const std::string& session_id) {
    auto turns = sessions_.turns(session_id);
    if (!turns) return turns.error();
    nlohmann::json out = nlohmann::json::array();
    const std::size_t from =
        turns->size() > kHistoryTurns ? turns->size() - kHistoryTurns : std::size_t{0};
    for (std::size_t i = from; i < turns->size(); ++i) {
        out.push_back({{"role", (*turns)[i].role}, {"content", (*turns)[i].content}});
    }
    return out;
}

plugin::Status ChatSessionService::appendExchange(const std::string& session_id,
                                                  const std::string& question,
                                                  const std::string& answer,
                                                  const nlohmann::json& citations,
                                                  const std::string& trace_id) {
    storage::ChatTurn user{"user", question, nlohmann::json::array(), "", ""};
    storage::ChatTurn assistant{"assistant", answer, citations, trace_id, ""};
    return sessions_.append(session_id, {user, assistant});
}

}  // namespace docintel::knowledge

#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "plugin_api/http_types.h"
#include "storage/chat_session_repository.h"
#include "storage/document_repository.h"

namespace docintel::knowledge {

/// Chat sessions: a titled conversation of one user in one scope (personal or a team
/// workspace) over optional selected documents. A question asked in a session appends the
/// user's and the assistant's turns, and the earlier turns are the `history` of the next
/// question (KnowledgeService rewrites short follow-ups with it).
///
/// Authorization lives here, like the other services: a session is visible to its owner only,
/// and only while the owner may still ask in its workspace; anything else is
/// `session_not_found` (404), so session ids do not leak. Thread-safe.
class ChatSessionService {
  public:
    static constexpr int kHistoryTurns = 20;  ///< earlier turns given as history
    static constexpr int kListLimit = 200;

    ChatSessionService(storage::ChatSessionRepository& sessions,
                       storage::DocumentRepository& documents, const auth::DocumentAccess& access)
        : sessions_(sessions), documents_(documents), access_(access) {}

    /// `args`: title (1..200 chars), workspace_id (null/""/"personal" = personal),
    /// document_ids (each visible to the caller, else 404).
    plugin::Result<nlohmann::json> create(const plugin::Principal& caller,
                                          const nlohmann::json& args);
    plugin::Result<nlohmann::json> list(const plugin::Principal& caller,
                                        const std::string& workspace_id);
    /// The session with its turns.
    plugin::Result<nlohmann::json> get(const plugin::Principal& caller, const std::string& id);
    plugin::Result<nlohmann::json> rename(const plugin::Principal& caller, const std::string& id,
                                          const std::string& title);
    plugin::Result<nlohmann::json> remove(const plugin::Principal& caller, const std::string& id);

    /// The session if the caller may use it (404 otherwise).
    plugin::Result<storage::ChatSession> find(const plugin::Principal& caller,
                                              const std::string& id);
    /// The last kHistoryTurns turns as ChatRequest `history` ([{role, content}]).
    plugin::Result<nlohmann::json> history(const std::string& session_id);
    /// Appends the question and the answer (with its citations and trace id).
    plugin::Status appendExchange(const std::string& session_id, const std::string& question,
                                  const std::string& answer, const nlohmann::json& citations,
                                  const std::string& trace_id);

    static nlohmann::json toJson(const storage::ChatSession& session);

  private:
    storage::ChatSessionRepository& sessions_;
    storage::DocumentRepository& documents_;
    const auth::DocumentAccess& access_;
};

}  // namespace docintel::knowledge

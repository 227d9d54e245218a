#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct ChatTurn {
    std::string role;  ///< user | assistant
    std::string content;
    nlohmann::json citations = nlohmann::json::array();
    std::string trace_id;  ///< the answer's trace (assistant turns)
    std::string created_at;
};

struct ChatSession {
    std::string id;
    std::string owner_id;
    std::string workspace_id;  ///< empty = the owner's personal scope
    std::string title;
    nlohmann::json document_ids = nlohmann::json::array();
    std::string created_at;
    std::string updated_at;
    int turn_count = 0;
};

/// Chat sessions and their turns (migration 0050). Authorization is the service's
/// (knowledge/chat_session_service). Thread-safe.
class ChatSessionRepository {
  public:
    explicit ChatSessionRepository(Database& db) : db_(db) {}

    plugin::Result<ChatSession> create(const ChatSession& session);
    plugin::Result<std::optional<ChatSession>> find(const std::string& id);
    /// The owner's sessions in one scope (personal when `workspace_id` is empty), most
    /// recently active first.
    plugin::Result<std::vector<ChatSession>> list(const std::string& owner_id,
                                                  const std::string& workspace_id, int limit);
    plugin::Result<std::vector<ChatTurn>> turns(const std::string& session_id);
    /// False when the session is gone.
    plugin::Result<bool> rename(const std::string& id, const std::string& title);
    plugin::Result<bool> remove(const std::string& id);
    /// Appends turns in order, in one transaction, and touches the session's updated_at.
    plugin::Status append(const std::string& session_id, const std::vector<ChatTurn>& turns);

  private:
    Database& db_;
};

}  // namespace docintel::storage

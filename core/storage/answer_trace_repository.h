#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// What one answer of KnowledgeService did, kept under the trace id its `done` frame returns.
struct AnswerTrace {
    std::string id;        ///< row id (a UUID)
    std::string trace_id;  ///< the request's trace id (not unique: a client may reuse one)
    std::string user_id;
    std::string workspace_id;  ///< empty = personal scope
    std::string session_id;    ///< empty = not asked in a chat session
    std::string question;
    std::string retrieval_query;
    nlohmann::json document_ids = nlohmann::json::array();
    nlohmann::json candidates = nlohmann::json::array();
    nlohmann::json sources = nlohmann::json::array();
    std::string answer;
    nlohmann::json sentences = nlohmann::json::array();
    bool refused = false;
    bool redacted = false;
    nlohmann::json timings = nlohmann::json::object();
    nlohmann::json models = nlohmann::json::object();
    std::string created_at;

    nlohmann::json toJson() const;
};

struct AnswerEvaluation {
    std::string id;
    std::string trace_row_id;
    std::string trace_id;
    std::string evaluation_type;
    std::optional<double> score;
    nlohmann::json metrics = nlohmann::json::object();
    nlohmann::json details = nlohmann::json::object();
    std::string created_by;
    std::string created_at;

    nlohmann::json toJson() const;
};

/// Answer traces and their evaluations (migration 0050). Thread-safe.
class AnswerTraceRepository {
  public:
    explicit AnswerTraceRepository(Database& db) : db_(db) {}

    /// Stores a trace (a new row id when `id` is empty); returns the row id.
    plugin::Result<std::string> insert(const AnswerTrace& trace);
    /// The newest trace with `trace_id` asked by `user_id`.
    plugin::Result<std::optional<AnswerTrace>> findForUser(const std::string& trace_id,
                                                           const std::string& user_id);
    plugin::Result<AnswerEvaluation> insertEvaluation(const AnswerEvaluation& evaluation);

  private:
    Database& db_;
};

}  // namespace docintel::storage

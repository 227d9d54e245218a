#pragma once

// The conversations plugin's storage (docs/conversations.md "Storage"): one row a session with
// its statuses and collection state, its turns, and the workspaces' custom templates, over the
// host's PluginTx. A session references its transcript document ON DELETE CASCADE, so deleting
// the document removes the session, and a workspace's or user's deletion removes theirs.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conversations/session_rules.h"
#include "conversations/templates.h"
#include "conversations/transcript.h"
#include "plugin_api/plugin_storage.h"
#include "plugin_api/registrar.h"

namespace docintel::conversations::store {

std::vector<plugin::PluginMigration> migrations();

struct SessionRecord {
    std::string id;
    std::string document_id;
    std::string owner_id;
    std::string workspace_id;  ///< empty = the owner's personal scope
    std::string title;
    Template tmpl;
    std::string language_code;
    bool redact_pii = true;
    SessionStatus status;
    nlohmann::json state = nlohmann::json::object();  ///< the collection state
    nlohmann::json summary;                           ///< null until published
    std::string consent_by;
    std::string consent_at;
    std::string approved_by;
    std::string approved_at;
    std::string approved_transcript;
    std::string error_message;
    std::string job_id;
    std::string started_at;
    std::string ended_at;
    std::string updated_at;
};

/// A stored turn: the rules' Turn and what the turn carried.
struct TurnRecord {
    Turn turn;
    std::string source = "text";  ///< text or audio
    std::string audio_object;     ///< the audio's object name (audio turns)
    nlohmann::json collected_fields = nlohmann::json::object();
    nlohmann::json citations = nlohmann::json::array();
    std::string created_at;
};

plugin::Status insertSession(plugin::PluginTx& tx, const SessionRecord& s);
/// The session `id`; `lock` takes it FOR UPDATE (for a change).
plugin::Result<std::optional<SessionRecord>> findSession(plugin::PluginTx& tx,
                                                         const std::string& id, bool lock);
/// Writes back the statuses, collection state and the other mutable columns.
plugin::Status updateSession(plugin::PluginTx& tx, const SessionRecord& s);
/// The sessions of a workspace, or a user's personal ones, newest first.
plugin::Result<std::vector<SessionRecord>> listSessions(plugin::PluginTx& tx,
                                                        const std::string& workspace_id,
                                                        const std::string& owner_id);
plugin::Status deleteSession(plugin::PluginTx& tx, const std::string& id);

plugin::Status insertTurn(plugin::PluginTx& tx, const std::string& session_id, const TurnRecord& t);
plugin::Result<std::vector<TurnRecord>> turns(plugin::PluginTx& tx, const std::string& session_id);
/// The rules' view of stored turns (for the transcript).
std::vector<Turn> turnsOf(const std::vector<TurnRecord>& records);
/// The next free sequence number of the session's turns.
plugin::Result<int> nextSequence(plugin::PluginTx& tx, const std::string& session_id);

plugin::Status insertTemplate(plugin::PluginTx& tx, const std::string& workspace_id,
                              const Template& t, const std::string& created_by);
plugin::Result<std::vector<Template>> customTemplates(plugin::PluginTx& tx,
                                                      const std::string& workspace_id);

}  // namespace docintel::conversations::store

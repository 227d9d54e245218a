#pragma once

// The conversation-recording operations (docs/conversations.md), one function each, shared by
// the plugin's REST routes and MCP tools: start, consent, turns (text and audio), finish, get,
// list, approve (publication is a durable job), delete, and the workspace's templates. Every
// call acts as the caller: a workspace's sessions are read by its members and changed by its
// editors and owners; a personal session is its owner's alone; anything else is 404.

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "conversations/plugin/conversation_store.h"
#include "plugin_api/host_services.h"
#include "plugin_api/http_types.h"
#include "plugin_api/jobs.h"
#include "video/transcriber.h"

namespace docintel::conversations {

/// Who asks, and in which workspace (REST's X-Workspace-ID header; MCP's `ws` argument, which
/// the operations read from the body).
struct Caller {
    plugin::Principal principal;
    std::string workspace_id;
    std::string trace_id;
};

/// An audio turn's recording (REST multipart).
struct AudioInput {
    std::string filename;
    std::string content_type;
    std::string bytes;
};

class ConversationService {
  public:
    static constexpr const char* kPublishJob = "publish_transcript";
    /// The largest audio turn (15 MB).
    static constexpr std::size_t kMaxAudioBytes = 15 * 1024 * 1024;

    ConversationService(plugin::HostServices& host,
                        std::unique_ptr<video::Transcriber> transcriber);

    plugin::Result<nlohmann::json> start(const Caller& c, const nlohmann::json& body);
    plugin::Result<nlohmann::json> consent(const Caller& c, const std::string& id,
                                           const nlohmann::json& body);
    plugin::Result<nlohmann::json> addTurn(const Caller& c, const std::string& id,
                                           const nlohmann::json& body);
    plugin::Result<nlohmann::json> addAudioTurn(const Caller& c, const std::string& id,
                                                const AudioInput& audio,
                                                const nlohmann::json& fields);
    plugin::Result<nlohmann::json> finish(const Caller& c, const std::string& id);
    plugin::Result<nlohmann::json> get(const Caller& c, const std::string& id);
    plugin::Result<nlohmann::json> list(const Caller& c, const nlohmann::json& body);
    plugin::Result<nlohmann::json> approve(const Caller& c, const std::string& id,
                                           const nlohmann::json& body);
    plugin::Result<nlohmann::json> remove(const Caller& c, const std::string& id,
                                          const nlohmann::json& body);
    /// The session's transcript: the approved text once approved, else the recorded one.
    plugin::Result<nlohmann::json> transcript(const Caller& c, const std::string& id);
    plugin::Result<nlohmann::json> templates(const Caller& c, const nlohmann::json& body);
    plugin::Result<nlohmann::json> createTemplate(const Caller& c, const nlohmann::json& body);

    /// The publish_transcript job: the approved transcript becomes the document's text, one
    /// chunk per speaker segment (PII redacted when the session asks), embedded.
    plugin::Status runPublish(plugin::PluginJob& job);

  private:
    static plugin::Error sessionNotFound();
    /// 409 `confirmation_required`: `tool` `what` (e.g. "deletes for good") without confirm.
    static plugin::Error confirmationRequired(const std::string& tool, const std::string& what);
    struct Opened {
        store::SessionRecord session;
        std::string role;  ///< owner, editor or viewer (a personal session's owner: owner)
    };
    /// The session as the caller may see it (404 `session_not_found` otherwise); `change`
    /// needs the editor or owner role (403).
    plugin::Result<Opened> open(plugin::PluginTx& tx, const Caller& c, const std::string& id,
                                bool change);
    /// The session, when the caller may add a turn to it now (editor role, consent given,
    /// active): checked before anything slow (speech recognition, the answerer, an LLM).
    plugin::Result<store::SessionRecord> turnAllowed(const Caller& c, const std::string& id);
    /// The turn after its text is known (typed, or heard in audio).
    plugin::Result<nlohmann::json> recordTurn(const Caller& c, const std::string& id,
                                              const std::string& text, const std::string& speaker,
                                              const std::string& source,
                                              const std::string& audio_object,
                                              const nlohmann::json& extra);
    /// The fields an LLM reads in `text` ({key: value}; empty without an LLM).
    nlohmann::json llmFields(const Template& tmpl, const std::string& text);
    /// An answer from the session's workspace documents to a question asked in a turn.
    std::optional<nlohmann::json> answerFromDocuments(const Caller& c,
                                                      const store::SessionRecord& s,
                                                      const std::string& question);
    plugin::Result<nlohmann::json> sessionJson(plugin::PluginTx& tx, const store::SessionRecord& s);
    /// sessionJson of the session as stored now (after a change in `tx`).
    plugin::Result<nlohmann::json> storedJson(plugin::PluginTx& tx, const std::string& id);
    void emit(const store::SessionRecord& s, const std::string& type, const std::string& actor,
              nlohmann::json payload);

    plugin::HostServices& host_;
    std::unique_ptr<video::Transcriber> transcriber_;
};

}  // namespace docintel::conversations

// The conversations feature plugin (issue 18, docs/conversations.md): REST routes tagged
// `conversations`, the contract's eight MCP tools and the transcript resource, over
// ConversationService, with publication as a durable job and storage of its own (SDK,
// docs/plugins.md).

#include <string>

#include "conversations/languages.h"
#include "conversations/plugin/conversation_service.h"
#include "plugin_api/plugin.h"
#include "shared/registration.h"

namespace docintel::conversations {
namespace {

using nlohmann::json;
using plugin::HttpRequest;
using plugin::HttpResponse;
using plugin::Result;

const std::string kWrite = "sessions:write";
const std::string kApprove = "reviews:approve";

Caller restCaller(const HttpRequest& r) { return {r.principal, r.workspace_id, r.trace_id}; }
/// An MCP call's workspace is its `ws` argument, which the service reads from the arguments as
/// it reads REST bodies.
Caller mcpCaller(const plugin::ToolCall& call) { return {call.principal, "", call.trace_id}; }

using shared::respond;
using shared::schema::boolean;
using shared::schema::object;

json str(const std::string& description, int max_length = 200) {
    return shared::schema::string(description, max_length);
}

json workspaceProperties() {
    return {{"workspace_id", str("The team workspace (default: the X-DocIntel-Workspace-ID "
                                 "header; none = your personal scope).")},
            {"ws", str("Same as workspace_id.")}};
}

json startProperties() {
    json p = workspaceProperties();
    p["template_id"] = {{"type", "string"},
                        {"maxLength", 64},
                        {"description",
                         "customer-knowledge-capture (default), general-guided-conversation, "
                         "customer-intake, expert-interview, or a workspace's custom template."}};
    p["language_code"] = {{"type", "string"},
                          {"maxLength", 16},
                          {"description",
                           "en-US (default), es-ES, bn-BD, hi-IN or ar-SA (bn* → bn-BD; other "
                           "regions map to their language)."}};
    p["title"] = str("A title for the session.");
    p["redact_pii"] = boolean("Redact personal data in the published transcript (default true).");
    return p;
}

json turnProperties() {
    return {{"transcript",
             {{"type", "string"},
              {"minLength", 1},
              {"maxLength", 20000},
              {"description", "What the participant said."}}},
            {"speaker", str("The participant's display name (default Participant).", 60)}};
}

json approveProperties() {
    return {{"transcript",
             {{"type", "string"},
              {"maxLength", 500000},
              {"description",
               "The reviewed transcript, one \"Speaker: text\" line a turn (optionally "
               "\"[mm:ss-mm:ss] Speaker: text\"); empty = the recorded transcript."}}},
            {"confirm", boolean("Must be true: approval publishes the transcript.")}};
}

json templateProperties() {
    json p = workspaceProperties();
    p["id"] = str("lower-case letters, digits and dashes (default: generated)", 64);
    p["name"] = {{"type", "string"}, {"minLength", 1}, {"maxLength", 120}};
    p["description"] = str("What the template is for.", 2000);
    p["fields"] = {
        {"type", "array"},
        {"minItems", 1},
        {"maxItems", 30},
        {"items", object({{"key", {{"type", "string"}, {"pattern", "^[a-z][a-z0-9_]{0,63}$"}}},
                          {"label", {{"type", "string"}, {"minLength", 1}, {"maxLength", 120}}},
                          {"required", {{"type", "boolean"}}},
                          {"question", {{"type", "string"}, {"maxLength", 500}}}},
                         {"key", "label"})}};
    return p;
}

json withSession(json properties) {
    properties["session_id"] = {{"type", "string"}, {"description", "The session's id."}};
    properties["ws"] = str("The team workspace (optional).");
    return properties;
}

class ConversationsPlugin final : public plugin::Plugin {
  public:
    void registerWith(plugin::Registrar& r, plugin::HostServices& host) override {
        service_ = std::make_unique<ConversationService>(
            host, video::makePluginTranscriber(host.dataDir()));
        for (auto& m : store::migrations()) r.addMigration(std::move(m));
        r.addJobKind({ConversationService::kPublishJob,
                      [this](plugin::PluginJob& job) { return service_->runPublish(job); }});
        r.addSchema("ConversationStart", object(startProperties(), {}));
        r.addSchema("ConversationConsent",
                    object({{"confirmed", boolean("True records consent; false declines it.")}},
                           {"confirmed"}));
        r.addSchema("ConversationTurn", object(turnProperties(), {"transcript"}));
        r.addSchema("ConversationAudioTurn",
                    object({{"speaker", str("The participant's display name.", 60)}}, {}));
        r.addSchema("ConversationApproval", object(approveProperties(), {}));
        r.addSchema("ConversationTemplateCreate", object(templateProperties(), {"name", "fields"}));
        addRoutes(r);
        addTools(r);
        addResource(r);
    }

  private:
    void addRoutes(plugin::Registrar& r) {
        const std::string base = "/api/v1/conversations";
        const auto sid = [](const HttpRequest& q) { return q.pathParam("session_id"); };
        shared::addRoute(
            r, "POST", base, "start_conversation_recording",
            "Start a guided conversation (its transcript document is created, not yet searchable)",
            {kWrite}, "ConversationStart",
            [this](const HttpRequest& q) {
                return respond(service_->start(restCaller(q), q.body), 201);
            },
            201);
        shared::addRoute(r, "GET", base, "list_conversation_recordings",
                         "The conversations of the workspace (or your personal ones)", {kWrite}, "",
                         [this](const HttpRequest& q) {
                             return respond(service_->list(restCaller(q), json::object()));
                         });
        shared::addRoute(r, "GET", base + "/{session_id}", "get_conversation_recording",
                         "A conversation with its turns, collection state and editable transcript",
                         {kWrite}, "", [this, sid](const HttpRequest& q) {
                             return respond(service_->get(restCaller(q), sid(q)));
                         });
        shared::addRoute(r, "POST", base + "/{session_id}/consent", "confirm_conversation_consent",
                         "Record the participant's consent (or its refusal)", {kWrite},
                         "ConversationConsent", [this, sid](const HttpRequest& q) {
                             return respond(service_->consent(restCaller(q), sid(q), q.body));
                         });
        shared::addRoute(
            r, "POST", base + "/{session_id}/turns", "add_conversation_turn",
            "Add the participant's words; returns the next prompt and the collection state",
            {kWrite}, "ConversationTurn", [this, sid](const HttpRequest& q) {
                return respond(service_->addTurn(restCaller(q), sid(q), q.body));
            });
        plugin::RouteDefinition audio;
        audio.method = "POST";
        audio.path = base + "/{session_id}/audio-turns";
        audio.operation_id = "add_conversation_audio_turn";
        audio.summary =
            "Add a spoken turn (multipart/form-data `audio`: WAV, FLAC, OGG, MP3, WebM or MP4 "
            "audio, at most 15 MB), transcribed locally";
        audio.scopes = {kWrite};
        audio.request_schema = "ConversationAudioTurn";
        audio.file_fields = {"audio"};
        audio.max_body_bytes = ConversationService::kMaxAudioBytes + 64 * 1024;
        audio.handler = [this, sid](const HttpRequest& q) {
            const plugin::UploadedFile* file = q.file("audio");
            AudioInput input{file->filename, file->content_type, file->bytes};
            return respond(service_->addAudioTurn(restCaller(q), sid(q), input, q.body));
        };
        r.addRoute(std::move(audio));
        shared::addRoute(r, "POST", base + "/{session_id}/finish", "finish_conversation_recording",
                         "End the conversation; its transcript goes to review", {kWrite}, "",
                         [this, sid](const HttpRequest& q) {
                             return respond(service_->finish(restCaller(q), sid(q)));
                         });
        shared::addRoute(
            r, "POST", base + "/{session_id}/approve", "approve_conversation_transcript",
            "Approve the reviewed transcript; it is published as a searchable document",
            {kWrite, kApprove}, "ConversationApproval", [this, sid](const HttpRequest& q) {
                return respond(service_->approve(restCaller(q), sid(q), q.body));
            });
        shared::addRoute(r, "GET", base + "/{session_id}/transcript", "get_conversation_transcript",
                         "The conversation's transcript (the approved text once approved)",
                         {kWrite}, "", [this, sid](const HttpRequest& q) {
                             return respond(service_->transcript(restCaller(q), sid(q)));
                         });
        shared::addRoute(
            r, "DELETE", base + "/{session_id}", "delete_conversation_recording",
            "Delete the conversation, its turns, audio and transcript document", {kWrite}, "",
            [this, sid](const HttpRequest& q) {
                return respond(service_->remove(restCaller(q), sid(q), json{{"confirm", true}}));
            });
        shared::addRoute(r, "GET", "/api/v1/conversation-templates", "list_conversation_templates",
                         "The built-in templates and the workspace's custom ones", {kWrite}, "",
                         [this](const HttpRequest& q) {
                             return respond(service_->templates(restCaller(q), json::object()));
                         });
        shared::addRoute(
            r, "POST", "/api/v1/conversation-templates", "create_conversation_template",
            "Add a custom template to the workspace (editor)", {kWrite},
            "ConversationTemplateCreate",
            [this](const HttpRequest& q) {
                return respond(service_->createTemplate(restCaller(q), q.body), 201);
            },
            201);
    }

    void tool(plugin::Registrar& r, std::string name, std::string description, json schema,
              std::vector<std::string> scopes,
              std::function<Result<json>(ConversationService&, const plugin::ToolCall&)> fn) {
        shared::addTool(
            r, std::move(name), std::move(description), std::move(schema), std::move(scopes),
            [this, fn = std::move(fn)](const plugin::ToolCall& c) { return fn(*service_, c); });
    }

    void addTools(plugin::Registrar& r) {
        using S = ConversationService;
        using C = const plugin::ToolCall&;
        const auto sid = [](C c) { return c.arguments.value("session_id", std::string()); };
        tool(r, "start_conversation_recording",
             "Start recording a guided conversation in a workspace (ws) or your personal scope. "
             "Ask the participant for consent next (confirm_conversation_consent); nothing is "
             "recorded before it.",
             object(startProperties(), {}), {kWrite},
             [](S& s, C c) { return s.start(mcpCaller(c), c.arguments); });
        tool(r, "confirm_conversation_consent",
             "Record whether the participant consents to the recording. Declining ends the "
             "session.",
             object(withSession({{"confirmed", boolean("True if the participant consents.")}}),
                    {"session_id", "confirmed"}),
             {kWrite}, [sid](S& s, C c) { return s.consent(mcpCaller(c), sid(c), c.arguments); });
        tool(r, "add_conversation_turn",
             "Add what the participant said; returns the assistant's next prompt and the "
             "collection state (collected fields, missing required fields, ready_to_finish). A "
             "question about the workspace's documents is answered from them with citations.",
             object(withSession(turnProperties()), {"session_id", "transcript"}), {kWrite},
             [sid](S& s, C c) { return s.addTurn(mcpCaller(c), sid(c), c.arguments); });
        tool(r, "finish_conversation_recording",
             "End the conversation (after consent and at least one turn); its transcript goes "
             "to review (get_conversation_recording shows editable_transcript).",
             object(withSession(json::object()), {"session_id"}), {kWrite},
             [sid](S& s, C c) { return s.finish(mcpCaller(c), sid(c)); });
        tool(r, "get_conversation_recording",
             "A conversation: statuses, turns, collection state, editable_transcript (in "
             "review), summary and document_id.",
             object(withSession(json::object()), {"session_id"}), {kWrite},
             [sid](S& s, C c) { return s.get(mcpCaller(c), sid(c)); });
        tool(r, "approve_conversation_transcript",
             "Approve the reviewed transcript (empty = as recorded) and publish it as a "
             "searchable document. Ask the reviewer first, then call with confirm: true; "
             "without it nothing is done (confirmation_required).",
             object(withSession(approveProperties()), {"session_id"}), {kWrite, kApprove},
             [sid](S& s, C c) { return s.approve(mcpCaller(c), sid(c), c.arguments); });
        tool(r, "list_conversation_recordings",
             "The conversations of a workspace (ws) or your personal ones.",
             object(workspaceProperties(), {}), {kWrite},
             [](S& s, C c) { return s.list(mcpCaller(c), c.arguments); });
        tool(r, "delete_conversation_recording",
             "Delete a conversation with its turns, audio, transcript document, chunks and "
             "vectors. Destructive: ask the user first, then call with confirm: true; without "
             "it nothing is deleted (confirmation_required).",
             object(withSession({{"confirm", boolean("Must be true.")}}), {"session_id"}), {kWrite},
             [sid](S& s, C c) { return s.remove(mcpCaller(c), sid(c), c.arguments); });
    }

    void addResource(plugin::Registrar& r) {
        plugin::McpResourceTemplate t;
        t.uri_template = "docintel://conversations/{session_id}/transcript";
        t.name = "conversation transcript";
        t.description = "A conversation's transcript (the approved text once approved)";
        t.scopes = {kWrite};
        const std::string prefix = "docintel://conversations/";
        t.reader = [this, prefix](const std::string& uri,
                                  const plugin::Principal& p) -> Result<json> {
            return service_->transcript(Caller{p, "", ""}, shared::resourceId(uri, prefix));
        };
        r.addMcpResource(std::move(t));
    }

    std::unique_ptr<ConversationService> service_;
};

}  // namespace
}  // namespace docintel::conversations

DOCINTEL_PLUGIN(docintel::conversations::ConversationsPlugin, "conversations", "1.0.0")

#include "conversations/plugin/conversation_service.h"

#include "conversations/collection.h"
#include "conversations/languages.h"
#include "conversations/recognisers.h"
#include "shared/ids.h"
#include "shared/json_text.h"
#include "shared/problems.h"
#include "shared/study_text.h"
#include "shared/workspace_arg.h"

namespace docintel::conversations {

using nlohmann::json;
using plugin::Error;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;
using shared::textOf;

namespace {

constexpr std::size_t kMaxGroundedDocuments = 50;

Error confirmationRequired(const std::string& what) {
    return {"confirmation_required",
            what +
                " changes data for good: ask the user, then call it again with confirm: "
                "true. Nothing was done.",
            409};
}

/// The two-letter language of a session's code ("es-ES" → "es").
std::string languageOf(const std::string& code) { return code.substr(0, code.find('-')); }

json nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json turnJson(const store::TurnRecord& t) {
    return {{"sequence", t.turn.sequence},  {"role", t.turn.role},
            {"speaker", speakerOf(t.turn)}, {"transcript", t.turn.text},
            {"source", t.source},           {"collected_fields", t.collected_fields},
            {"citations", t.citations},     {"created_at", t.created_at}};
}

std::vector<Turn> rulesTurns(const std::vector<store::TurnRecord>& records) {
    std::vector<Turn> out;
    out.reserve(records.size());
    for (const auto& r : records) out.push_back(r.turn);
    return out;
}

/// The first JSON object in an LLM's reply (which may wrap it in prose or a code fence).
json firstObject(const std::string& text) {
    const auto open = text.find('{');
    const auto close = text.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close < open) return {};
    json parsed = json::parse(text.substr(open, close - open + 1), nullptr, false);
    return parsed.is_object() ? parsed : json();
}

}  // namespace

Error ConversationService::sessionNotFound() {
    return {"session_not_found", "conversation session not found", 404};
}

ConversationService::ConversationService(plugin::HostServices& host,
                                         std::unique_ptr<video::Transcriber> transcriber)
    : host_(host), transcriber_(std::move(transcriber)) {}

Result<ConversationService::Opened> ConversationService::open(PluginTx& tx, const Caller& c,
                                                              const std::string& id, bool change) {
    if (!shared::isUuid(id)) return sessionNotFound();
    auto found = store::findSession(tx, id, change);
    if (!found) return found.error();
    if (!found->has_value()) return sessionNotFound();
    Opened o{std::move(**found), "owner"};
    if (o.session.workspace_id.empty()) {
        if (o.session.owner_id != c.principal.user_id) return sessionNotFound();
        return o;
    }
    auto role = host_.workspaceRole(c.principal, o.session.workspace_id);
    if (!role) return role.error().http_status == 404 ? sessionNotFound() : role.error();
    o.role = *role;
    if (change && o.role != "owner" && o.role != "editor") {
        return Error::forbidden("forbidden",
                                "changing a workspace's conversation needs the editor role");
    }
    return o;
}

void ConversationService::emit(const store::SessionRecord& s, const std::string& type,
                               const std::string& actor, json payload) {
    plugin::PluginEvent event;
    event.type = type;
    event.resource_type = "conversation";
    event.resource_id = s.id;
    event.workspace_id = s.workspace_id;
    event.user_id = s.owner_id;
    event.actor_id = actor;
    payload["session_id"] = s.id;
    payload["document_id"] = s.document_id;
    event.payload = std::move(payload);
    (void)host_.emitEvent(event);
}

Result<json> ConversationService::sessionJson(PluginTx& tx, const store::SessionRecord& s) {
    auto turns = store::turns(tx, s.id);
    if (!turns) return turns.error();
    json items = json::array();
    for (const auto& t : *turns) items.push_back(turnJson(t));
    json state = s.state;
    state["template"] = s.tmpl.id;
    state["redact_pii"] = s.redact_pii;
    const bool reviewed = s.status.processing != ProcessingStatus::active;
    return json{{"id", s.id},
                {"session_id", s.id},
                {"document_id", s.document_id},
                {"workspace_id", nullable(s.workspace_id)},
                {"user_id", s.owner_id},
                {"title", s.title},
                {"template_id", s.tmpl.id},
                {"template", templateJson(s.tmpl)},
                {"language_code", s.language_code},
                {"redact_pii", s.redact_pii},
                {"consent_status", toString(s.status.consent)},
                {"consent_confirmed_by", nullable(s.consent_by)},
                {"consent_recorded_at", nullable(s.consent_at)},
                {"processing_status", toString(s.status.processing)},
                {"processing_step", toString(s.status.step)},
                {"review_status", toString(s.status.review)},
                {"progress_pct", s.status.progress_pct},
                {"session_state", state},
                {"summary", s.summary},
                {"published", s.status.processing == ProcessingStatus::completed},
                {"approved_by", nullable(s.approved_by)},
                {"approved_at", nullable(s.approved_at)},
                {"error_message", nullable(s.error_message)},
                {"started_at", s.started_at},
                {"ended_at", nullable(s.ended_at)},
                {"updated_at", s.updated_at},
                {"turns", items},
                {"turn_count", items.size()},
                {"editable_transcript",
                 reviewed ? json(editableTranscript(rulesTurns(*turns))) : json(nullptr)}};
}

Result<json> ConversationService::storedJson(PluginTx& tx, const std::string& id) {
    auto found = store::findSession(tx, id, false);
    if (!found) return found.error();
    if (!found->has_value()) return sessionNotFound();
    return sessionJson(tx, **found);
}

Result<json> ConversationService::start(const Caller& c, const json& body) {
    auto language = normaliseLanguage(textOf(body, "language_code"));
    if (!language) return language.error();
    const std::string ws = shared::workspaceArgument(body, c.workspace_id);
    if (!ws.empty()) {
        auto role = host_.workspaceRole(c.principal, ws);
        if (!role) return role.error();
        if (*role != "owner" && *role != "editor") {
            return Error::forbidden("forbidden", "recording a conversation needs the editor role");
        }
    }
    auto custom = host_.transact([&](PluginTx& tx) { return store::customTemplates(tx, ws); });
    if (!custom) return custom.error();
    auto tmpl = resolveTemplate(textOf(body, "template_id"), *custom);
    if (!tmpl) return tmpl.error();

    store::SessionRecord s;
    s.id = shared::newId();
    s.owner_id = c.principal.user_id;
    s.workspace_id = ws;
    s.title = study::trim(textOf(body, "title"));
    if (s.title.empty()) s.title = tmpl->name;
    s.tmpl = std::move(*tmpl);
    s.language_code = *language;
    s.redact_pii = body.value("redact_pii", true);
    s.state = newCollectionState(s.tmpl, s.redact_pii);

    plugin::PluginDocument doc;
    doc.workspace_id = ws;
    doc.filename = "conversation-" + s.id.substr(0, 8) + ".txt";
    doc.doc_type = "conversation_transcript";
    doc.redact_pii = s.redact_pii;
    auto created = host_.createPluginDocument(c.principal, doc);
    if (!created) return created.error();
    s.document_id = textOf(*created, "id");

    auto out = host_.transact([&](PluginTx& tx) -> Result<json> {
        if (auto ok = store::insertSession(tx, s); !ok) return ok.error();
        return storedJson(tx, s.id);
    });
    if (!out) {
        (void)host_.deleteDocument(c.principal, s.document_id);
        return out.error();
    }
    json result = std::move(*out);
    result["status"] = "awaiting_consent";
    emit(s, "conversation.started", c.principal.user_id,
         {{"template_id", s.tmpl.id}, {"language_code", s.language_code}});
    return result;
}

Result<json> ConversationService::consent(const Caller& c, const std::string& id,
                                          const json& body) {
    const bool confirmed = body.value("confirmed", false);
    std::string greeting_text;
    auto out = host_.transact([&](PluginTx& tx) -> Result<store::SessionRecord> {
        auto o = open(tx, c, id, true);
        if (!o) return o.error();
        auto& s = o->session;
        const bool was_pending = s.status.consent == ConsentStatus::pending;
        Status changed = confirmed ? confirmConsent(s.status) : declineConsent(s.status);
        if (!changed) return changed.error();
        if (was_pending) {
            s.consent_by = c.principal.user_id;
            auto seq = store::nextSequence(tx, s.id);
            if (!seq) return seq.error();
            store::TurnRecord t;
            t.turn = {*seq, "assistant", "",
                      confirmed ? greeting(s.tmpl, s.language_code)
                                : consentDeclinedMessage(s.language_code)};
            if (auto ok = store::insertTurn(tx, s.id, t); !ok) return ok.error();
            if (auto ok = store::updateSession(tx, s); !ok) return ok.error();
        }
        auto turns = store::turns(tx, s.id);
        if (!turns) return turns.error();
        if (!turns->empty()) greeting_text = turns->front().turn.text;
        return std::move(s);
    });
    if (!out) return out.error();
    emit(*out, confirmed ? "conversation.consent.confirmed" : "conversation.consent.declined",
         c.principal.user_id, {{"consent_status", toString(out->status.consent)}});
    return json{{"session_id", out->id},
                {"consent_status", toString(out->status.consent)},
                {"processing_status", toString(out->status.processing)},
                {"processing_step", toString(out->status.step)},
                {"progress_pct", out->status.progress_pct},
                {"consent_confirmed_by", nullable(out->consent_by)},
                {"consent_recorded_at", nullable(out->consent_at)},
                {"assistant", {{"response", greeting_text}}}};
}

Result<json> ConversationService::addTurn(const Caller& c, const std::string& id,
                                          const json& body) {
    return recordTurn(c, id, textOf(body, "transcript"), textOf(body, "speaker"), "text", "",
                      json::object());
}

std::optional<json> ConversationService::answerFromDocuments(const Caller& c,
                                                             const store::SessionRecord& s,
                                                             const std::string& question) {
    if (!c.principal.hasScope("knowledge:query")) return std::nullopt;
    auto listed = host_.listDocuments(c.principal, s.workspace_id);
    if (!listed) return std::nullopt;
    plugin::GroundedQuestion q;
    for (const auto& d : listed->value("documents", json::array())) {
        if (textOf(d, "status") == "embedded" && textOf(d, "id") != s.document_id &&
            q.document_ids.size() < kMaxGroundedDocuments) {
            q.document_ids.push_back(textOf(d, "id"));
        }
    }
    if (q.document_ids.empty()) return std::nullopt;
    q.question = question;
    q.workspace_id = s.workspace_id;
    q.response_language = languageOf(s.language_code);
    q.redact_pii = s.redact_pii;
    q.trace_id = c.trace_id;
    json done;
    auto asked = host_.askGrounded(c.principal, q, [&](const json& frame) {
        if (textOf(frame, "type") == "done") done = frame;
        return true;
    });
    if (!asked || !done.is_object()) return std::nullopt;
    return done;
}

json ConversationService::llmFields(const Template& tmpl, const std::string& text) {
    if (!host_.hasLlm()) return json::object();
    std::string keys;
    for (const auto& f : tmpl.fields) keys += "- " + f.key + ": " + f.label + "\n";
    const json messages = json::array(
        {{{"role", "system"},
          {"content",
           "You read one turn of a guided conversation and extract the fields it states. "
           "Reply with a single JSON object whose keys are among these, each value a short "
           "string taken from the text; leave out every field the text does not state.\n" +
               keys}},
         {{"role", "user"}, {"content", text}}});
    auto reply = host_.completeChat(messages);
    if (!reply) return json::object();
    json extracted = firstObject(*reply);
    return extracted.is_object() ? extracted : json::object();
}

Result<json> ConversationService::recordTurn(const Caller& c, const std::string& id,
                                             const std::string& text, const std::string& speaker,
                                             const std::string& source,
                                             const std::string& audio_object, const json& extra) {
    if (study::trim(text).empty()) {
        return shared::validationError(json::array({"body", "transcript"}),
                                       "A turn needs the participant's words", "empty_turn");
    }
    // Refusals first, before anything slow is asked.
    auto checked = host_.transact([&](PluginTx& tx) -> Result<store::SessionRecord> {
        auto o = open(tx, c, id, false);
        if (!o) return o.error();
        if (o->role == "viewer") {
            return Error::forbidden("forbidden", "recording a turn needs the editor role");
        }
        if (auto ok = checkTurn(o->session.status); !ok) return ok.error();
        return std::move(o->session);
    });
    if (!checked) return checked.error();
    const bool question = isQuestionAboutDocuments(text);
    std::optional<json> answer;
    json extracted = json::object();
    if (question) {
        answer = answerFromDocuments(c, *checked, text);
    } else {
        extracted = llmFields(checked->tmpl, text);
    }

    json filled = json::object();
    TurnOutcome outcome;
    auto saved = host_.transact([&](PluginTx& tx) -> Result<store::SessionRecord> {
        auto o = open(tx, c, id, true);
        if (!o) return o.error();
        auto& s = o->session;
        if (auto ok = checkTurn(s.status); !ok) return ok.error();
        auto applied = applyTurn(s.state, s.tmpl, text, s.language_code);
        if (!applied) return applied.error();
        outcome = std::move(*applied);
        if (!outcome.is_question && !extracted.empty()) {
            json merged = mergeLlmFields(outcome.state, s.tmpl, extracted, text);
            if (merged != outcome.state) {
                outcome.state = std::move(merged);
                const std::string next =
                    nextQuestionField(outcome.state, s.tmpl, outcome.next_question_field);
                const TemplateField* field = s.tmpl.find(next);
                if (next != outcome.next_question_field && !outcome.save_conversation) {
                    outcome.next_question_field = next;
                    outcome.prompt = field ? fieldQuestion(*field, s.language_code)
                                           : closingQuestion(s.language_code);
                    outcome.state["last_question_field"] = next;
                }
                outcome.ready_to_finish = outcome.state.value("ready_to_finish", false);
            }
        }
        for (const auto& [key, value] : outcome.state["collected_fields"].items()) {
            if (!s.state["collected_fields"].contains(key) ||
                s.state["collected_fields"][key] != value) {
                filled[key] = value.value("value", json());
            }
        }
        auto seq = store::nextSequence(tx, s.id);
        if (!seq) return seq.error();
        if (auto ok = conversations::recordTurn(s.status, *seq); !ok) return ok.error();
        s.state = outcome.state;
        store::TurnRecord user;
        user.turn = {*seq, "user", study::trim(speaker), study::trim(text)};
        user.source = source;
        user.audio_object = audio_object;
        user.collected_fields = filled;
        if (auto ok = store::insertTurn(tx, s.id, user); !ok) return ok.error();
        store::TurnRecord assistant;
        std::string response = outcome.prompt;
        if (answer) {
            response = textOf(*answer, "answer") + "\n\n" + response;
            assistant.citations = answer->value("citations", json::array());
        }
        assistant.turn = {*seq + 1, "assistant", "", response};
        if (auto ok = store::insertTurn(tx, s.id, assistant); !ok) return ok.error();
        if (outcome.save_conversation) {
            if (auto ok = conversations::finish(s.status); !ok) return ok.error();
        }
        if (auto ok = store::updateSession(tx, s); !ok) return ok.error();
        return std::move(s);
    });
    if (!saved) return saved.error();
    if (outcome.save_conversation) emit(*saved, "conversation.finished", c.principal.user_id, {});

    const bool answered = answer && !answer->value("refused", true);
    json result = {
        {"session_id", saved->id},
        {"user_transcript", study::trim(text)},
        {"assistant",
         {{"response",
           answer ? textOf(*answer, "answer") + "\n\n" + outcome.prompt : outcome.prompt},
          {"collected_fields", filled},
          {"missing_required_fields",
           outcome.state.value("missing_required_fields", json::array())},
          {"ready_to_finish", outcome.ready_to_finish},
          {"next_question_field", nullable(outcome.next_question_field)},
          {"awaiting_save_confirmation", outcome.awaiting_save_confirmation},
          {"save_conversation", outcome.save_conversation},
          {"answered_from_knowledgebase", answered},
          {"citations", answer ? answer->value("citations", json::array()) : json::array()}}},
        {"session_state", saved->state},
        {"processing_status", toString(saved->status.processing)},
        {"processing_step", toString(saved->status.step)},
        {"progress_pct", saved->status.progress_pct},
        {"source", source}};
    for (const auto& [k, v] : extra.items()) result[k] = v;
    return result;
}

Result<json> ConversationService::finish(const Caller& c, const std::string& id) {
    store::SessionRecord finished;
    auto out = host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, id, true);
        if (!o) return o.error();
        if (auto ok = conversations::finish(o->session.status); !ok) return ok.error();
        if (auto ok = store::updateSession(tx, o->session); !ok) return ok.error();
        finished = o->session;
        return storedJson(tx, id);
    });
    if (!out) return out.error();
    emit(finished, "conversation.finished", c.principal.user_id, {});
    return out;
}

Result<json> ConversationService::get(const Caller& c, const std::string& id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, id, false);
        if (!o) return o.error();
        return sessionJson(tx, o->session);
    });
}

Result<json> ConversationService::list(const Caller& c, const json& body) {
    const std::string ws = shared::workspaceArgument(body, c.workspace_id);
    if (!ws.empty()) {
        if (auto role = host_.workspaceRole(c.principal, ws); !role) return role.error();
    }
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto sessions = store::listSessions(tx, ws, c.principal.user_id);
        if (!sessions) return sessions.error();
        json items = json::array();
        for (const auto& s : *sessions) {
            items.push_back({{"id", s.id},
                             {"session_id", s.id},
                             {"document_id", s.document_id},
                             {"title", s.title},
                             {"template_id", s.tmpl.id},
                             {"language_code", s.language_code},
                             {"consent_status", toString(s.status.consent)},
                             {"processing_status", toString(s.status.processing)},
                             {"processing_step", toString(s.status.step)},
                             {"review_status", toString(s.status.review)},
                             {"progress_pct", s.status.progress_pct},
                             {"user_id", s.owner_id},
                             {"started_at", s.started_at},
                             {"ended_at", nullable(s.ended_at)}});
        }
        return json{{"workspace_id", nullable(ws)}, {"sessions", items}, {"count", items.size()}};
    });
}

Result<json> ConversationService::transcript(const Caller& c, const std::string& id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, id, false);
        if (!o) return o.error();
        const auto& s = o->session;
        auto turns = store::turns(tx, s.id);
        if (!turns) return turns.error();
        const bool approved = !s.approved_transcript.empty();
        return json{{"session_id", s.id},
                    {"document_id", s.document_id},
                    {"approved", approved},
                    {"review_status", toString(s.status.review)},
                    {"transcript",
                     approved ? s.approved_transcript : editableTranscript(rulesTurns(*turns))}};
    });
}

Result<json> ConversationService::remove(const Caller& c, const std::string& id, const json& body) {
    if (body.value("confirm", false) != true) {
        return confirmationRequired("delete_conversation_recording");
    }
    auto opened = host_.transact([&](PluginTx& tx) -> Result<store::SessionRecord> {
        auto o = open(tx, c, id, true);
        if (!o) return o.error();
        return std::move(o->session);
    });
    if (!opened) return opened.error();
    // The document's deletion takes its chunks, vectors, index entries and objects (the audio
    // of the turns is stored under it), scrubs answer traces that cited it, and cascades to the
    // session and its turns.
    auto deleted = host_.deleteDocument(c.principal, opened->document_id);
    if (!deleted && deleted.error().http_status != 404) return deleted.error();
    auto gone = host_.transact([&](PluginTx& tx) -> Result<bool> {
        if (auto ok = store::deleteSession(tx, id); !ok) return ok.error();
        return true;
    });
    if (!gone) return gone.error();
    emit(*opened, "conversation.deleted", c.principal.user_id, {});
    return json{{"deleted", true}, {"session_id", id}, {"document_id", opened->document_id}};
}

Result<json> ConversationService::templates(const Caller& c, const json& body) {
    const std::string ws = shared::workspaceArgument(body, c.workspace_id);
    if (!ws.empty()) {
        if (auto role = host_.workspaceRole(c.principal, ws); !role) return role.error();
    }
    auto custom = host_.transact([&](PluginTx& tx) { return store::customTemplates(tx, ws); });
    if (!custom) return custom.error();
    json items = json::array();
    for (const auto& t : builtInTemplates()) items.push_back(templateJson(t));
    for (const auto& t : *custom) items.push_back(templateJson(t));
    return json{{"workspace_id", nullable(ws)},
                {"default_template_id", kDefaultTemplateId},
                {"templates", items},
                {"count", items.size()}};
}

Result<json> ConversationService::createTemplate(const Caller& c, const json& body) {
    const std::string ws = shared::workspaceArgument(body, c.workspace_id);
    if (ws.empty()) {
        return shared::validationError(json::array({"body", "workspace_id"}),
                                       "Custom templates belong to a team workspace",
                                       "workspace_required");
    }
    auto role = host_.workspaceRole(c.principal, ws);
    if (!role) return role.error();
    if (*role != "owner" && *role != "editor") {
        return Error::forbidden("forbidden", "adding a template needs the editor role");
    }
    json fields = body;
    fields.erase("workspace_id");
    fields.erase("ws");
    auto parsed = parseTemplate(fields);
    if (!parsed) return parsed.error();
    Template t = std::move(*parsed);
    if (t.id.empty()) t.id = "custom-" + shared::newId().substr(0, 8);
    auto stored = host_.transact([&](PluginTx& tx) -> Result<bool> {
        if (auto ok = store::insertTemplate(tx, ws, t, c.principal.user_id); !ok) {
            return ok.error();
        }
        return true;
    });
    if (!stored) {
        if (stored.error().http_status == 409) {
            return Error::conflict("template_exists", "the workspace has a template with this id");
        }
        return stored.error();
    }
    json out = templateJson(t);
    out["workspace_id"] = ws;
    return out;
}

}  // namespace docintel::conversations

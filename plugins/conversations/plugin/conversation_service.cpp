#include "conversations/plugin/conversation_service.h"

#include "conversations/collection.h"
#include "conversations/languages.h"
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
using shared::nullable;
using shared::textOf;

namespace {

json turnJson(const store::TurnRecord& t) {
    return {{"sequence", t.turn.sequence},  {"role", t.turn.role},
            {"speaker", speakerOf(t.turn)}, {"transcript", t.turn.text},
            {"source", t.source},           {"collected_fields", t.collected_fields},
            {"citations", t.citations},     {"created_at", t.created_at}};
}

}  // namespace

Error ConversationService::confirmationRequired(const std::string& tool, const std::string& what) {
    return {"confirmation_required",
            tool + " " + what +
                ": ask the user, then call it again with confirm: true. "
                "Nothing was done.",
            409};
}

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
                 reviewed ? json(editableTranscript(store::turnsOf(*turns))) : json(nullptr)}};
}

Result<json> ConversationService::storedJson(PluginTx& tx, const std::string& id) {
    auto found = store::findSession(tx, id, false);
    if (!found) return found.error();
    if (!found->has_value()) return sessionNotFound();
    return sessionJson(tx, **found);
}

Result<json> ConversationService::start(const Caller& c, const json& body) {
    auto language = normaliseLanguage(textOf(body, "language_code"));
    if (!language) return shared::atField(language.error(), json::array({"body", "language_code"}));
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
                    {"transcript", approved ? s.approved_transcript
                                            : editableTranscript(store::turnsOf(*turns))}};
    });
}

Result<json> ConversationService::remove(const Caller& c, const std::string& id, const json& body) {
    if (body.value("confirm", false) != true) {
        return confirmationRequired("delete_conversation_recording", "deletes for good");
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

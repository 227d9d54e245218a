// Guided turns (docs/conversations.md "Collection and recognisers", "Questions in a turn"):
// the participant's words, typed or heard, move the collection state; a question is answered
// from the session's documents; with an LLM configured, the LLM reads the turn's fields too.

#include "conversations/collection.h"
#include "conversations/languages.h"
#include "conversations/plugin/conversation_service.h"
#include "conversations/recognisers.h"
#include "shared/json_text.h"
#include "shared/problems.h"
#include "shared/study_text.h"

namespace docintel::conversations {

using nlohmann::json;
using plugin::Error;
using plugin::PluginTx;
using plugin::Result;
using shared::nullable;
using shared::textOf;

namespace {

constexpr std::size_t kMaxGroundedDocuments = 50;

/// The first JSON object in an LLM's reply (which may wrap it in prose or a code fence).
json firstObject(const std::string& text) {
    const auto open = text.find('{');
    const auto close = text.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close < open) return {};
    json parsed = json::parse(text.substr(open, close - open + 1), nullptr, false);
    return parsed.is_object() ? parsed : json();
}

}  // namespace

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
    q.response_language = baseLanguage(s.language_code);
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

Result<store::SessionRecord> ConversationService::turnAllowed(const Caller& c,
                                                              const std::string& id) {
    return host_.transact([&](PluginTx& tx) -> Result<store::SessionRecord> {
        auto o = open(tx, c, id, true);
        if (!o) return o.error();
        if (auto ok = checkTurn(o->session.status); !ok) return ok.error();
        return std::move(o->session);
    });
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
    auto checked = turnAllowed(c, id);
    if (!checked) return checked.error();
    const bool question = isQuestionAboutDocuments(text);
    std::optional<json> answer;
    json extracted = json::object();
    if (question) {
        answer = answerFromDocuments(c, *checked, text);
    } else {
        extracted = llmFields(checked->tmpl, text);
    }

    const json citations = answer ? answer->value("citations", json::array()) : json::array();
    json filled = json::object();
    TurnOutcome outcome;
    std::string response;  // the assistant's words: the answer, if any, then the prompt
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
        response = answer ? textOf(*answer, "answer") + "\n\n" + outcome.prompt : outcome.prompt;
        assistant.turn = {*seq + 1, "assistant", "", response};
        assistant.citations = citations;
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
    json result = {{"session_id", saved->id},
                   {"user_transcript", study::trim(text)},
                   {"assistant",
                    {{"response", response},
                     {"collected_fields", filled},
                     {"missing_required_fields",
                      outcome.state.value("missing_required_fields", json::array())},
                     {"ready_to_finish", outcome.ready_to_finish},
                     {"next_question_field", nullable(outcome.next_question_field)},
                     {"awaiting_save_confirmation", outcome.awaiting_save_confirmation},
                     {"save_conversation", outcome.save_conversation},
                     {"answered_from_knowledgebase", answered},
                     {"citations", citations}}},
                   {"session_state", saved->state},
                   {"processing_status", toString(saved->status.processing)},
                   {"processing_step", toString(saved->status.step)},
                   {"progress_pct", saved->status.progress_pct},
                   {"source", source}};
    for (const auto& [k, v] : extra.items()) result[k] = v;
    return result;
}

}  // namespace docintel::conversations

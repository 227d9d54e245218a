#pragma once

// The collection state of a guided conversation and how a participant's turn moves it
// (docs/conversations.md "Collection and recognisers"): which template fields are collected
// (with the text they came from and the turn), which required ones are missing, whether the
// conversation is ready to finish, and the next prompt. Pure; thread-safe.
//
// State JSON: {template, collected_fields: {key: {value, source_text, turn}},
// missing_required_fields: [...], ready_to_finish, last_question_field, redact_pii,
// participant_turns, awaiting_save_confirmation}.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "conversations/templates.h"
#include "plugin_api/result.h"

namespace docintel::conversations {

/// How much of a turn (bytes) the recognisers read.
constexpr std::size_t kRecogniserWindow = 4000;

/// What a turn did to the collection state and what the assistant says next.
struct TurnOutcome {
    nlohmann::json state;                    ///< the new collection state
    std::vector<std::string> filled_fields;  ///< keys this turn set, in template order
    std::string next_question_field;         ///< "" when closing or confirming the save
    std::string prompt;  ///< the next question, the closing question or the save question
    bool ready_to_finish = false;
    bool awaiting_save_confirmation = false;  ///< the save question was asked
    bool save_conversation = false;           ///< the participant said yes to saving
    bool is_question = false;                 ///< the text asks something (answer from documents)
};

/// The state of a new session: nothing collected, every required field missing,
/// last_question_field = the template's first field (the greeting asks it).
nlohmann::json newCollectionState(const Template& tmpl, bool redact_pii);

/// Which recogniser fills a field, by its key's words: "name" (name, identity), "date" (date,
/// deadline, due, when, day), "amount" (amount, budget, price, cost, value, fee, total),
/// "urgency" (urgency, priority), "contact" (contact, callback, or a key ending in follow_up);
/// "" for none.
std::string recogniserKind(std::string_view key);

/// The required fields of `tmpl` not collected in `state`, in template order.
std::vector<std::string> missingRequired(const nlohmann::json& state, const Template& tmpl);

/// The field to ask next: the first missing required field other than `just_asked`; else
/// `just_asked` itself when it is still missing; else "" (nothing required is missing).
/// Optional fields are never asked for.
std::string nextQuestionField(const nlohmann::json& state, const Template& tmpl,
                              std::string_view just_asked);

/// A participant's text turn (400 `empty_turn` when blank). The whole trimmed text answers the
/// field last asked, unless its recogniser finds a more specific value; recognisers fill other
/// empty fields the text clearly states (in its first kRecogniserWindow bytes). A question
/// (isQuestionAboutDocuments) or a short closing phrase answers nothing. Then: the question for
/// nextQuestionField; when nothing required is missing, the closing question, or after a closing
/// phrase the save question; after the save question a yes sets save_conversation (a no goes on
/// collecting).
plugin::Result<TurnOutcome> applyTurn(const nlohmann::json& state, const Template& tmpl,
                                      const std::string& text, std::string_view language);

/// Fields an LLM extracted from a turn ({key: value}) merged into `state`: only the template's
/// keys with non-empty string values are kept (they replace earlier values); `source_text` and
/// the current turn are recorded with them. Missing fields and ready_to_finish are recomputed.
nlohmann::json mergeLlmFields(const nlohmann::json& state, const Template& tmpl,
                              const nlohmann::json& extracted, const std::string& source_text = "");

}  // namespace docintel::conversations

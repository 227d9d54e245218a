#include "conversations/collection.h"

#include <optional>
#include <set>

#include "conversations/languages.h"
#include "conversations/recognisers.h"
#include "conversations/text.h"

namespace docintel::conversations {

using nlohmann::json;

namespace {

bool collected(const json& state, const std::string& key) {
    if (!state.is_object() || !state.contains("collected_fields")) return false;
    const json& fields = state.at("collected_fields");
    if (!fields.is_object() || !fields.contains(key)) return false;
    const json& v = fields.at(key);
    return v.is_object() && v.contains("value") && v.at("value").is_string() &&
           !v.at("value").get<std::string>().empty();
}

void refresh(json& state, const Template& tmpl) {
    const auto missing = missingRequired(state, tmpl);
    state["missing_required_fields"] = missing;
    state["ready_to_finish"] = missing.empty();
}

std::optional<Recognised> recognise(const std::string& kind, const std::string& full) {
    // std::regex recurses per character on some patterns; a spoken turn states its name, date
    // or contact early, so the recognisers read its first kRecogniserWindow bytes only.
    const std::string text = full.substr(0, kRecogniserWindow);
    if (kind == "name") return recogniseName(text);
    if (kind == "date") return recogniseDate(text);
    if (kind == "amount") return recogniseAmount(text);
    if (kind == "urgency") return recogniseUrgency(text);
    if (kind == "contact") return recogniseContact(text);
    return std::nullopt;
}

/// A copy of `state` with every member the rules read present.
json normalised(const json& state, const Template& tmpl) {
    json st = state.is_object() ? state : json::object();
    if (!st.contains("template")) st["template"] = tmpl.id;
    if (!st["collected_fields"].is_object()) st["collected_fields"] = json::object();
    if (!st["last_question_field"].is_string()) st["last_question_field"] = "";
    if (!st["redact_pii"].is_boolean()) st["redact_pii"] = true;
    if (!st["participant_turns"].is_number_integer()) st["participant_turns"] = 0;
    if (!st["awaiting_save_confirmation"].is_boolean()) st["awaiting_save_confirmation"] = false;
    return st;
}

}  // namespace

json newCollectionState(const Template& tmpl, bool redact_pii) {
    json state = {{"template", tmpl.id},
                  {"collected_fields", json::object()},
                  {"last_question_field", tmpl.fields.empty() ? "" : tmpl.fields.front().key},
                  {"redact_pii", redact_pii},
                  {"participant_turns", 0},
                  {"awaiting_save_confirmation", false}};
    refresh(state, tmpl);
    return state;
}

std::string recogniserKind(std::string_view key) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : std::string(key) + "_") {
        if (c == '_') {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    const auto has = [&](std::initializer_list<const char*> any) {
        for (const auto& w : words) {
            for (const char* a : any) {
                if (w == a) return true;
            }
        }
        return false;
    };
    if (has({"name", "identity"})) return "name";
    if (has({"urgency", "priority"})) return "urgency";
    if (has({"contact", "callback"}) ||
        (words.size() >= 2 && words[words.size() - 2] == "follow" && words.back() == "up")) {
        return "contact";
    }
    if (has({"date", "deadline", "due", "when", "day"})) return "date";
    if (has({"amount", "budget", "price", "cost", "value", "fee", "total"})) return "amount";
    return "";
}

std::vector<std::string> missingRequired(const json& state, const Template& tmpl) {
    const json st = state.is_object() ? state : json::object();
    std::vector<std::string> out;
    for (const auto& f : tmpl.fields) {
        if (f.required && !collected(st, f.key)) out.push_back(f.key);
    }
    return out;
}

std::string nextQuestionField(const json& state, const Template& tmpl,
                              std::string_view just_asked) {
    const auto missing = missingRequired(state, tmpl);
    for (const auto& key : missing) {
        if (key != just_asked) return key;
    }
    return missing.empty() ? std::string() : missing.front();
}

plugin::Result<TurnOutcome> applyTurn(const json& state, const Template& tmpl,
                                      const std::string& text, std::string_view language) {
    const std::string said = trim(text);
    if (said.empty()) return plugin::Error::badRequest("empty_turn", "The turn has no text");
    TurnOutcome out;
    json st = normalised(state, tmpl);
    const int turn = st["participant_turns"].get<int>() + 1;
    st["participant_turns"] = turn;
    out.is_question = isQuestionAboutDocuments(said);

    if (st["awaiting_save_confirmation"].get<bool>()) {
        st["awaiting_save_confirmation"] = false;
        if (isAffirmative(said)) {
            refresh(st, tmpl);
            st["last_question_field"] = "";
            out.save_conversation = true;
            out.ready_to_finish = st["ready_to_finish"].get<bool>();
            out.state = std::move(st);
            return out;
        }
    }

    const bool closing = isClosingPhrase(said);
    const std::string asked = st["last_question_field"].get<std::string>();
    std::set<std::string> filled;
    const auto set = [&](const std::string& key, const std::string& value) {
        st["collected_fields"][key] = {{"value", value}, {"source_text", said}, {"turn", turn}};
        filled.insert(key);
    };
    bool answered = false;
    if (!asked.empty() && tmpl.find(asked) != nullptr && !out.is_question && !closing) {
        const auto specific = recognise(recogniserKind(asked), said);
        set(asked, specific ? specific->value : said);
        answered = true;
    }
    for (const auto& f : tmpl.fields) {
        if (f.key == asked || collected(st, f.key)) continue;
        if (const auto found = recognise(recogniserKind(f.key), said)) set(f.key, found->value);
    }
    refresh(st, tmpl);
    out.ready_to_finish = st["ready_to_finish"].get<bool>();
    if (!out.ready_to_finish) {
        out.next_question_field = nextQuestionField(st, tmpl, answered ? asked : "");
        out.prompt = fieldQuestion(*tmpl.find(out.next_question_field), language);
    } else if (closing) {
        out.awaiting_save_confirmation = true;
        out.prompt = saveConfirmationPrompt(language);
    } else {
        out.prompt = closingQuestion(language);
    }
    st["last_question_field"] = out.next_question_field;
    st["awaiting_save_confirmation"] = out.awaiting_save_confirmation;
    for (const auto& f : tmpl.fields) {
        if (filled.count(f.key)) out.filled_fields.push_back(f.key);
    }
    out.state = std::move(st);
    return out;
}

json mergeLlmFields(const json& state, const Template& tmpl, const json& extracted,
                    const std::string& source_text) {
    json st = normalised(state, tmpl);
    if (extracted.is_object()) {
        for (const auto& f : tmpl.fields) {
            if (!extracted.contains(f.key) || !extracted.at(f.key).is_string()) continue;
            const std::string value = trim(extracted.at(f.key).get<std::string>());
            if (value.empty()) continue;
            st["collected_fields"][f.key] = {
                {"value", value}, {"source_text", source_text}, {"turn", st["participant_turns"]}};
        }
    }
    refresh(st, tmpl);
    return st;
}

}  // namespace docintel::conversations

#pragma once

// A field descriptor of a workflow definition (its `fields` array,
// schemas/workflows/workflow.schema.json; docs/decisions/0064) and how its meaning phrases are
// found in a text. Header-only; pure.

#include <algorithm>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "shared/typed_values.h"

namespace docintel::plugins {

/// One `fields` entry of a workflow definition (schemas/workflows/workflow.schema.json).
struct FieldSpec {
    std::string path;
    std::string type;
    /// lower case, most specific first; a phrase ending in ":" ("to:") counts only as the label
    /// that opens a line or as a numbered clause's run-in heading
    std::vector<std::string> meaning;
    std::string role = "primary";
    std::string code;
    bool list = false;
    std::vector<std::pair<std::string, std::vector<std::string>>> values;
    std::vector<std::string> roles;
    /// for type party: other words a document uses for a role ("lessor" for landlord)
    std::vector<std::pair<std::string, std::vector<std::string>>> role_words;
    bool person = false;  ///< for type party: a person's name, not an organisation's
    std::vector<std::string> avoid;
    std::string item = "text";  ///< for type list: text, dose or measurement
    std::string key;            ///< for a text item: its key in the record ("" = the text)
    /// for a text item with a key: the key its bracketed or dashed detail goes under ("reaction"
    /// of "codeine (nausea)" and "amoxicillin - rash")
    std::string detail_key;
    std::vector<std::string> units;  ///< for a measurement item: the units its values take
    std::vector<std::string> prose;  ///< for a text item: words after which a sentence lists items
    std::string span;  ///< for a date or duration: "start", "end" or "length" of a dated range
    std::vector<std::string> span_of;  ///< for a span: words that name the range's period
    /// for money: an amount paid each period (a rent), so that an amount stated for no period
    /// beside one that has one is a total ("$11,880.00, payable in 12 monthly installments of
    /// $990.00")
    bool periodic = false;
};

/// `meaning` with each phrase that names a role ("notices to landlord") followed by the same
/// phrase with each other word for the role ("notices to lessor", "notices to ground lessor"):
/// a document names the party its own way.
inline std::vector<std::string> withRoleWords(
    const std::vector<std::string>& meaning,
    const std::vector<std::pair<std::string, std::vector<std::string>>>& role_words) {
    std::vector<std::string> out;
    auto add = [&](const std::string& p) {
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    };
    for (const auto& p : meaning) {
        add(p);
        for (const auto& [role, words] : role_words) {
            const std::regex whole("\\b" + role + "\\b");
            if (!std::regex_search(p, whole)) continue;
            for (const auto& w : words) add(std::regex_replace(p, whole, w));
        }
    }
    return out;
}

/// The descriptors of `fields` whose path starts with one of `prefixes` ({""}: all).
inline std::vector<FieldSpec> fieldSpecs(const nlohmann::json& fields,
                                         const std::vector<std::string>& prefixes = {""}) {
    std::vector<FieldSpec> out;
    if (!fields.is_array()) return out;
    auto strings = [](const nlohmann::json& a) {
        std::vector<std::string> v;
        if (a.is_array()) {
            for (const auto& s : a) {
                if (s.is_string()) v.push_back(typed::lower(s.get<std::string>()));
            }
        }
        return v;
    };
    for (const auto& f : fields) {
        FieldSpec s;
        s.path = f.value("path", "");
        if (std::none_of(prefixes.begin(), prefixes.end(),
                         [&](const std::string& p) { return s.path.rfind(p, 0) == 0; })) {
            continue;
        }
        s.type = f.value("type", "text");
        s.meaning = strings(f.value("meaning", nlohmann::json::array()));
        s.role = f.value("role", "primary");
        s.code = f.value("code", "id");
        s.list = f.value("list", false);
        const nlohmann::json values = f.value("values", nlohmann::json::object());
        for (const auto& [k, v] : values.items()) {
            auto words = strings(v);
            if (words.empty()) words.push_back(k);
            s.values.emplace_back(k, words);
        }
        s.roles = strings(f.value("roles", nlohmann::json::array()));
        const nlohmann::json role_words = f.value("role_words", nlohmann::json::object());
        for (const auto& [k, v] : role_words.items()) {
            s.role_words.emplace_back(typed::lower(k), strings(v));
        }
        if (s.roles.empty()) s.meaning = withRoleWords(s.meaning, s.role_words);
        s.person = f.value("person", false);
        s.avoid = strings(f.value("avoid", nlohmann::json::array()));
        s.item = f.value("item", "text");
        s.key = f.value("key", "");
        s.detail_key = f.value("detail_key", "");
        s.prose = strings(f.value("prose", nlohmann::json::array()));
        s.span = f.value("span", "");
        s.span_of = strings(f.value("span_of", nlohmann::json::array()));
        s.periodic = f.value("periodic", false);
        for (const auto& u : f.value("units", nlohmann::json::array())) {
            if (u.is_string()) s.units.push_back(u.get<std::string>());
        }
        out.push_back(std::move(s));
    }
    return out;
}

/// findPhrase with the phrase's words as written.
inline std::size_t findPhraseWritten(const std::string& lower_text, const std::string& phrase,
                                     std::size_t from, std::size_t* end) {
    const std::size_t n = phrase.size();
    if (n == 0) return std::string::npos;
    // Each ending keeps the phrase's first `keep` letters and adds `suffix`; as written first.
    struct Ending {
        std::size_t keep;
        std::string suffix;
    };
    std::vector<Ending> endings = {{n, ""}, {n, "s"}};
    if (n >= 4) {
        for (const char* suffix : {"es", "d", "ed", "ing"}) endings.push_back({n, suffix});
        if (phrase.back() == 'e') endings.push_back({n - 1, "ing"});
        if (phrase.back() == 'y') endings.push_back({n - 1, "ies"});
        if (phrase.compare(n - 2, 2, "is") == 0) endings.push_back({n - 2, "es"});
        // A plural phrase also names one ("skills" → "Skill", "diagnoses" → "diagnosis").
        if (phrase.back() == 's') endings.push_back({n - 1, ""});
        if (phrase.compare(n - 3, 3, "ies") == 0) endings.push_back({n - 3, "y"});
        if (phrase.compare(n - 2, 2, "es") == 0) endings.push_back({n - 2, "is"});
    }
    std::size_t stem = n;
    for (const auto& e : endings) stem = std::min(stem, e.keep);
    auto boundary = [&](std::size_t i) {
        return i >= lower_text.size() || !std::isalnum(static_cast<unsigned char>(lower_text[i]));
    };
    for (std::size_t at = lower_text.find(phrase.substr(0, stem), from); at != std::string::npos;
         at = lower_text.find(phrase.substr(0, stem), at + 1)) {
        if (at > 0 && !boundary(at - 1)) continue;
        for (const auto& e : endings) {
            if (lower_text.compare(at, e.keep, phrase, 0, e.keep) != 0) continue;
            const std::size_t stop = at + e.keep;
            if (lower_text.compare(stop, e.suffix.size(), e.suffix) != 0) continue;
            if (!boundary(stop + e.suffix.size())) continue;
            if (end != nullptr) *end = stop + e.suffix.size();
            return at;
        }
    }
    return std::string::npos;
}

/// Where `phrase` starts at a word start in `lower_text`, from `from`, its last word as written
/// or inflected ("rent" → "rents", "commence" → "commenced", "terminate" → "terminating",
/// "diagnosis" → "diagnoses", "party" → "parties", "skills" → "skill") and its first word also
/// possessive ("patient name" → "patient's name", as a claim form writes it); npos when nowhere.
/// `end`, when given, receives where the match ends.
inline std::size_t findPhrase(const std::string& lower_text, const std::string& phrase,
                              std::size_t from = 0, std::size_t* end = nullptr) {
    std::size_t plain_end = 0;
    const std::size_t plain = findPhraseWritten(lower_text, phrase, from, &plain_end);
    const std::size_t space = phrase.find(' ');
    std::size_t owned = std::string::npos, owned_end = 0;
    if (space != std::string::npos && phrase.find('\'') == std::string::npos) {
        const std::string first = phrase.substr(0, space) + "'s";
        if (lower_text.find(first, from) != std::string::npos) {
            owned = findPhraseWritten(lower_text, first + phrase.substr(space), from, &owned_end);
        }
    }
    if (owned < plain) {
        if (end != nullptr) *end = owned_end;
        return owned;
    }
    if (end != nullptr && plain != std::string::npos) *end = plain_end;
    return plain;
}

/// Whether the meaning phrase at `pos` of `lower_text` is named as a right or option the text
/// denies ("does not give you a right to renew", "Tenant has no option to extend") with no
/// condition that grants it after all ("... unless Landlord consents"), or strikes ("the early
/// termination right ... is deleted"): such a passage says there is none.
inline bool deniedRight(const std::string& lower_text, std::size_t pos) {
    // "Tenant's early termination right ... is deleted": an amendment that strikes the right.
    static const std::regex struck(
        R"(^(?:(?!\b(?:if|when|unless|after|before|until|upon|provided)\b)[^.;,]){0,80}?\b(?:is|are|shall be|has been|have been)\s+(?:hereby\s+)?(?:deleted|removed|struck|rescinded|revoked)\b)");
    if (std::regex_search(lower_text.substr(pos, 140), struck)) return true;
    std::size_t from = pos > 90 ? pos - 90 : 0;
    if (const auto stop = lower_text.rfind(". ", pos); stop != std::string::npos && stop >= from) {
        from = stop + 2;
    }
    static const std::regex denied(
        R"(\b(?:no|not|never|nor)\b[a-z' ]{0,40}\b(?:right|option|privilege)s?\s+(?:to|of)\s+(?:[a-z]+\s+){0,2}$)");
    // ... or the phrase itself names the right ("right to terminate" after "has no").
    static const std::regex names_right(R"(^(?:right|option|privilege)s?\s+(?:to|of)\b)");
    static const std::regex denial(R"(\b(?:no|not|never|nor)\b[a-z' ]{0,40}$)");
    const std::string before = lower_text.substr(from, pos - from);
    const bool named = std::regex_search(lower_text.substr(pos, 24), names_right);
    if (!std::regex_search(before, named ? denial : denied)) return false;
    std::size_t end = lower_text.find(". ", pos);
    if (end == std::string::npos) end = lower_text.size();
    static const std::regex condition(
        R"(\b(?:unless|without|except|other than|provided|if|until)\b)");
    const std::string rest = lower_text.substr(pos, end - pos);
    std::smatch c;
    if (!std::regex_search(rest, c, condition)) return true;
    // "... for any reason other than casualty or condemnation as provided in Section 14": an
    // exception for the events other clauses govern grants no right of its own.
    static const std::regex casualty(
        R"(^\s*(?:[a-z]+\s+){0,3}(?:casualty|condemnation|eminent domain|a taking)\b)");
    return std::regex_search(rest.substr(static_cast<std::size_t>(c.position(0) + c.length(0))),
                             casualty);
}

/// Whether the value after a label says there is none ("Early termination: None", "Renewal
/// option | N/A"), as the whole value: the document states the field's absence (statesNoneYet
/// reads how a value begins).
inline bool statesNone(const std::string& after_label) {
    std::string v = typed::lower(after_label);
    auto edge = [](char c) {
        return c == '.' || c == ':' || std::isspace(static_cast<unsigned char>(c));
    };
    while (!v.empty() && edge(v.back())) v.pop_back();
    while (!v.empty() && edge(v.front())) v.erase(0, 1);
    static const std::vector<std::string> none = {
        "none", "n/a", "not applicable", "nil", "no", "none stated", "-", "\xE2\x80\x94"};
    return std::find(none.begin(), none.end(), v) != none.end();
}

/// Whether a label's value `value` (the text right after the label) begins by saying that there
/// is none yet, whatever follows (statesNone reads a whole value): "Not yet issued", "None", "N/A",
/// "Pending", "Unknown", "To be assigned", "TBD".
inline bool statesNoneYet(const std::string& value) {
    static const std::regex none(
        R"(^[\s|:]*(?:not\s+(?:yet\s+)?(?:issued|assigned|available|known|scheduled|applicable)|)"
        R"(none\b|n/a\b|pending\b|unknown\b|to\s+be\s+(?:assigned|issued|determined)|tbd\b))",
        std::regex::icase);
    return std::regex_search(value, none);
}

/// Whether `lower_text` denies some right or option (deniedRight after "right to", "option of").
inline bool deniesAnyRight(const std::string& lower_text) {
    static const std::regex named(R"(\b(?:right|option|privilege)s?\s+(?:to|of)\s+)");
    for (auto it = std::sregex_iterator(lower_text.begin(), lower_text.end(), named);
         it != std::sregex_iterator(); ++it) {
        if (deniedRight(lower_text, static_cast<std::size_t>(it->position(0) + it->length(0)))) {
            return true;
        }
    }
    return false;
}

/// A SOAP note's letter heading or label at the start of a line: the section it names and the
/// length of the letter (and its colon).
struct SoapLabel {
    std::string section;  ///< "assessment" for "A", "A/P", "A&P"; "S", "O" or "P" as written
    std::size_t len = 0;  ///< 0 when the text opens with no such letter
};

/// Whether `text` (as written) opens with a SOAP letter alone or before a colon ("A", "A:",
/// "A/P: ...", "P:"). Only the assessment is named in words: it states a note's problems and
/// diagnoses, while "plan" would read as a payer's and "S" and "O" state no field; they still
/// end the section above them.
inline SoapLabel soapLabel(const std::string& text) {
    static const std::regex letter(R"(^\s*(A(?:\s*[/&+]\s*P)?|S|O|P)\s*(?::|$))");
    std::smatch m;
    if (!std::regex_search(text, m, letter)) return {};
    const std::string l = m[1].str();
    return {l[0] == 'A' ? "assessment" : l, static_cast<std::size_t>(m.length(0))};
}

}  // namespace docintel::plugins

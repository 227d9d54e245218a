#pragma once

// The records of a list field's items (docs/decisions/0064, field_lists.h): a medication's name,
// dose and directions; a measurement's name, value, unit and flag; and where such records stand
// anywhere in a text by their value type ("metformin 1000 mg", "glucose 287 mg/dL", "BP
// 136/82"). Header-only; pure.

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shared/evidence.h"
#include "shared/field_spec.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// The name written just before `pos` in `text` ("Albuterol inhaler" before "90 mcg",
/// "empagliflozin (Jardiance)"): up to three words back to punctuation or a function word;
/// where it starts in `*start`. "" when none. With `labels`, a name may also be a label before
/// its colon ("Hemoglobin (point of care): 12.1 g/dL"), as a measurement's is; a dose's column
/// label ("Dose: 40 mg") names no drug.
inline std::string nameBefore(const std::string& text, std::size_t pos, std::size_t* start,
                              bool labels = false) {
    static const std::set<std::string> function_words = {
        "a", "an", "the", "my", "his", "her", "their", "your", "our", "of", "on", "in", "at", "to",
        "for", "with", "and", "or", "take", "takes", "taking", "took", "still", "also", "start",
        "started", "sent", "was", "were", "is", "are", "been", "be", "has", "have", "had", "i",
        "we", "he", "she", "then", "plus", "by", "per", "from", "about", "than", "while", "now",
        "current", "currently", "today", "daily", "home", "refill", "resume", "continue",
        "increase", "decrease", "stop",
        // a medication table's status and column words ("... once daily NEW Ibuprofen 600 mg")
        "new", "status", "changed", "hold", "held", "stopped", "often"};
    std::size_t end = pos;
    while (end > 0 && text[end - 1] == ' ') --end;
    // "Hemoglobin (point of care): 12.1 g/dL": a label's colon, and a bracketed note at its end,
    // are no part of the name.
    if (labels && end > 0 && text[end - 1] == ':') {
        --end;
        while (end > 0 && text[end - 1] == ' ') --end;
        if (end > 0 && text[end - 1] == ')') {
            const auto open = text.rfind('(', end - 1);
            if (open != std::string::npos && end - open <= 40) {
                end = open;
                while (end > 0 && text[end - 1] == ' ') --end;
            }
        }
    }
    std::size_t from = end;
    int words = 0;
    while (words < 3 && from > 0) {
        std::size_t w = from;
        while (w > 0 && text[w - 1] == ' ') --w;
        std::size_t b = w;
        while (b > 0 && text[b - 1] != ' ') --b;
        if (b == w) break;
        const std::string word = text.substr(b, w - b);
        const char last = word.back();
        if (last == ',' || last == ';' || last == ':' || last == '.' || last == '|') break;
        std::string bare = typed::lower(word);
        if (function_words.count(bare) || bare.find_first_of("0123456789") == 0) break;
        // A lab report's run-on line ("Sodium 131 mmol/L (136-145) L Potassium 6.8 ..."): the
        // reference range and flag before a name are the previous result's, and an upper-case
        // heading folded in ("METABOLIC PANEL Sodium") is no part of the name.
        if (word[0] == '(' && word.find_first_of("0123456789") != std::string::npos) break;
        if (words > 0 && (word == "H" || word == "L" || word == "HH" || word == "LL" ||
                          word == "A" || word == "N" || word == "(H)" || word == "(L)")) {
            break;
        }
        if (words > 0 && word.size() >= 4 &&
            std::none_of(word.begin(), word.end(),
                         [](char c) { return std::islower(static_cast<unsigned char>(c)); }) &&
            from < text.size() && std::isupper(static_cast<unsigned char>(text[from])) &&
            from + 1 < text.size() && std::islower(static_cast<unsigned char>(text[from + 1]))) {
            break;
        }
        if (!std::isalpha(static_cast<unsigned char>(word[0])) && word[0] != '(' &&
            static_cast<unsigned char>(word[0]) < 0x80) {
            break;
        }
        from = b;
        ++words;
    }
    *start = from;
    return from < end ? text.substr(from, end - from) : std::string();
}

/// The name of a medicine set off by a comma before its dose at `pos` ("an albuterol inhaler,
/// 90 mcg per puff"); "" when the words before the comma are another dose's ("10 units, 5
/// units") or there is no comma.
inline std::string nameBeforeComma(const std::string& text, std::size_t pos, std::size_t* start) {
    std::size_t comma = pos;
    while (comma > 0 && text[comma - 1] == ' ') --comma;
    if (comma == 0 || text[comma - 1] != ',') return "";
    const std::string name = nameBefore(text, comma - 1, start);
    std::size_t before = *start;
    while (before > 0 && text[before - 1] == ' ') --before;
    if (before > 0 && std::isdigit(static_cast<unsigned char>(text[before - 1]))) return "";
    return name;
}

/// The status a medication table's column or a list line's last word gives ("once daily NEW",
/// "at bedtime - STOP (augmentation)", "20 mg daily - continue"): where it starts in `text` and
/// the word in capitals; npos and "" when none.
inline std::pair<std::size_t, std::string> medicationStatus(const std::string& text) {
    static const std::regex capitals(
        R"(\b(NEW|CONTINUE|CONTINUED|CHANGED|HOLD|STOP|STOPPED|DISCONTINUED)\b)");
    static const std::regex after_dash(
        R"(\s(?:-|\xE2\x80\x93)+\s*(new|continue|continued|changed|hold|stop|stopped|discontinued)\b)",
        std::regex::icase);
    std::pair<std::size_t, std::string> out{std::string::npos, ""};
    for (const auto* re : {&capitals, &after_dash}) {
        std::smatch m;
        if (std::regex_search(text, m, *re) &&
            static_cast<std::size_t>(m.position(0)) < out.first) {
            out = {static_cast<std::size_t>(m.position(0)), m[1].str()};
            for (auto& c : out.second)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
    }
    return out;
}

/// Whether a medication status says the medicine is no longer taken.
inline bool stoppedStatus(const std::string& word) {
    return word == "STOP" || word == "STOPPED" || word == "DISCONTINUED";
}

/// A medication's parts in `text`: for each dose ("500 mg", "90 mcg", a topical's strength "1%
/// cream") the name before it, also set off by a comma, and the directions after it up to the
/// next item or sentence end; [pos, len) of each.
inline std::vector<typed::Found> doses(const std::string& text) {
    static const std::regex dose(
        R"(\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(mg|mcg|g|mL|units|IU|mEq)\b(?![/\w])|\b(\d+(?:\.\d+)?)\s?%(?=\s+(?:cream|ointment|gel|lotion|solution|drops|spray|foam|shampoo|wash)\b))",
        std::regex::icase);
    std::vector<typed::Found> out;
    std::vector<std::smatch> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), dose);
         it != std::sregex_iterator(); ++it) {
        found.push_back(*it);
    }
    for (std::size_t k = 0; k < found.size(); ++k) {
        const auto& m = found[k];
        const auto at = static_cast<std::size_t>(m.position(0));
        std::size_t name_at = at;
        std::string name = nameBefore(text, at, &name_at);
        if (name.size() < 3) name = nameBeforeComma(text, at, &name_at);
        // A table flattened into one line leaves the dose before a name's bracket in front of
        // it ("CHANGED (was 20 mg) Lisinopril 20 mg"): "mg) Lisinopril" is Lisinopril. A dose in
        // brackets ("325 mg (65 mg iron)", "(was 20 mg)") restates another and names no drug.
        static const std::regex unit_left(R"(^(?:(?:mg|mcg|g|ml|units|iu|meq)\b)?\)?\s*)",
                                          std::regex::icase);
        if (std::smatch left; std::regex_search(name, left, unit_left) && left.length(0) > 0) {
            name_at += static_cast<std::size_t>(left.length(0));
            name = name.substr(static_cast<std::size_t>(left.length(0)));
        }
        if (name.size() < 3 || name.front() == '(') continue;
        const std::size_t dose_end = at + static_cast<std::size_t>(m.length(0));
        std::size_t sig_end =
            k + 1 < found.size() ? static_cast<std::size_t>(found[k + 1].position(0)) : text.size();
        for (const char* stop : {". ", ";", " and my ", " and "}) {
            const auto s = text.find(stop, dose_end);
            if (s != std::string::npos && s < sig_end) sig_end = s;
        }
        if (k + 1 < found.size()) {
            std::size_t next_name = sig_end;
            nameBefore(text, static_cast<std::size_t>(found[k + 1].position(0)), &next_name);
            sig_end = std::min(sig_end, next_name);
        }
        std::string sig = trimmed(text.substr(dose_end, sig_end - dose_end));
        // A medication table's status column ends the directions: "once daily NEW", "once daily
        // STOP (was for ...)"; a stopped medicine is not taken.
        if (const auto [at_status, word] = medicationStatus(sig); at_status != std::string::npos) {
            if (stoppedStatus(word)) continue;
            sig = trimmed(sig.substr(0, at_status));
        }
        while (!sig.empty() && (sig.back() == ',' || sig.back() == '.' || sig.back() == '-')) {
            sig.pop_back();
        }
        sig = trimmed(sig);
        while (!sig.empty() && (sig.front() == ',' || sig.front() == ' ')) sig.erase(0, 1);
        out.push_back({name_at,
                       std::max(sig_end, dose_end) - name_at,
                       {{"name", name},
                        {"dose", m[1].matched ? m[1].str() + " " + m[2].str() : m[3].str() + "%"},
                        {"sig", sig.empty() ? nlohmann::json(nullptr) : nlohmann::json(sig)}}});
    }
    return out;
}

/// The name of `values` that `name` states ("BP" → "blood pressure"), or `name` itself.
inline std::string canonicalName(const FieldSpec& spec, const std::string& name) {
    const std::string l = typed::lower(name);
    std::string best;
    std::size_t best_len = 0;
    for (const auto& [value, words] : spec.values) {
        for (const auto& w : words) {
            if (w.size() > best_len && findPhrase(l, w) != std::string::npos) {
                best = value;
                best_len = w.size();
            }
        }
    }
    return best.empty() ? name : best;
}

/// Whether `name` is one of the names of `values` ("blood pressure", not "BP").
inline bool namesValue(const FieldSpec& spec, const std::string& name) {
    return std::any_of(spec.values.begin(), spec.values.end(),
                       [&](const auto& v) { return v.first == name; });
}

/// A measurement record from "<name> <value> <unit> <flag>" ("WBC 11.8 x10^3/uL (H)", "BP
/// 132/78 mmHg", "TSH 1.9 mIU/L (normal)"); null when `text` has no name and number.
inline nlohmann::json measurement(const FieldSpec& spec, const std::string& text) {
    static const std::regex re(
        R"(^\s*([A-Za-z][A-Za-z0-9 ,/'()%-]*?)(?:\s*:\s*|\s+(?:of\s+|was\s+|is\s+)?)([<>]?\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?)\s*([^\s(\[,;]*)\s*(.*)$)");
    std::smatch m;
    if (!std::regex_match(text, m, re)) return nullptr;
    std::string name = trimmed(m[1].str());
    if (name.size() < 1 || name.size() > 40) return nullptr;
    const std::string value_text = m[2].str();
    // A date ("Results (collected 02/04/2025)") and a dose ("start empagliflozin 10 mg daily",
    // "KCl 20 mEq": a concentration is per litre) are no measurements.
    static const std::regex date_rest(R"(^/\d)");
    static const std::regex dose_unit(
        R"(^(?:mg|mcg|units?|tablets?|tabs?|capsules?|puffs?|ml|drops?|meq|mEq)$)");
    const std::string after = m[3].str();
    if (std::regex_search(after, date_rest) || std::regex_match(after, dose_unit)) return nullptr;
    nlohmann::json value = value_text;
    if (value_text.find('/') == std::string::npos && value_text[0] != '<' && value_text[0] != '>') {
        value = std::stod(value_text);
    }
    std::string unit = m[3].str();
    std::string rest = typed::lower(m[4].str());
    // A word after the number is a unit only when it is written as one ("mmHg", "C", "%"), and
    // not when it names the next measurement ("BP 118/76 Pulse 64").
    const bool lower_word =
        std::all_of(unit.begin(), unit.end(),
                    [](char c) { return std::islower(static_cast<unsigned char>(c)); }) &&
        unit != "bpm" && unit != "kg" && unit != "lb" && unit != "lbs" && unit != "cm";
    if (!unit.empty() && (lower_word || namesValue(spec, canonicalName(spec, unit)))) {
        rest = typed::lower(unit) + " " + rest;
        unit.clear();
    }
    const std::string unit_lower = typed::lower(unit);
    nlohmann::json flag = nullptr;
    static const std::regex high(R"(^\(?(?:h|hh|high)\)?\b|\bhigh\b|\(h\))");
    static const std::regex low(R"(^\(?(?:l|ll|low)\)?\b|\blow\b|\(l\))");
    static const std::regex normal(R"(\bnormal\b|^\(?n\)?\b|within (?:normal )?(?:limits|range))");
    if (std::regex_search(rest, high)) {
        flag = "H";
    } else if (std::regex_search(rest, low)) {
        flag = "L";
    } else if (std::regex_search(rest, normal)) {
        flag = "N";
    } else if (value.is_number()) {
        static const std::regex range(
            R"((?:ref(?:erence)?\.?:?\s*)?(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?))");
        std::smatch r;
        if (std::regex_search(rest, r, range)) {
            const double v = value.get<double>();
            flag = v > std::stod(r[2].str()) ? "H" : (v < std::stod(r[1].str()) ? "L" : "N");
        }
    }
    return {{"name", canonicalName(spec, name)},
            {"value", value},
            {"unit", unit.empty() ? nlohmann::json(nullptr) : nlohmann::json(unit)},
            {"flag", flag}};
}

/// Measurements anywhere in `text` by their value type: a name of the field's `values`
/// followed by a number ("Home BP 136/82"), or a number in one of its `units` with the name
/// written before it ("fasting glucose 287 mg/dL").
inline std::vector<typed::Found> measurements(const FieldSpec& spec, const std::string& text) {
    std::vector<typed::Found> out;
    const std::string lower_text = typed::lower(text);
    static const std::regex number(R"(^\s*(?::|-|\bof\b|\bwas\b|\bis\b)?\s*[<>]?\d)");
    for (const auto& [value, words] : spec.values) {
        for (const auto& w : words) {
            std::size_t end = 0;
            for (auto at = findPhrase(lower_text, w, 0, &end); at != std::string::npos;
                 at = findPhrase(lower_text, w, end, &end)) {
                if (!std::regex_search(lower_text.substr(end, 12), number)) continue;
                static const std::regex tail(
                    R"(^\s*(?::|-|\bof\b|\bwas\b|\bis\b)?\s*[<>]?\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?\s*(?:%|[A-Za-z/]+(?:\^\d+/[A-Za-z]+)?)?)");
                std::smatch m;
                const std::string after = text.substr(end);
                std::regex_search(after, m, tail);
                auto record = measurement(spec, text.substr(at, end - at) + m.str(0));
                if (record.is_null()) continue;
                record["name"] = value;
                out.push_back({at, end - at + static_cast<std::size_t>(m.length(0)), record});
            }
        }
    }
    for (const auto& unit : spec.units) {
        std::string escaped;
        for (const char c : unit) {
            if (std::string("\\^$.|?*+()[]{}/").find(c) != std::string::npos) escaped += '\\';
            escaped += c;
        }
        const std::regex re(R"(\b(\d+(?:\.\d+)?)\s?)" + escaped + R"((?![A-Za-z0-9/]))",
                            std::regex::icase);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
             it != std::sregex_iterator(); ++it) {
            const auto at = static_cast<std::size_t>(it->position(0));
            std::size_t name_at = at;
            const std::string name = nameBefore(text, at, &name_at, true);
            if (name.size() < 2) continue;
            std::size_t end = at + static_cast<std::size_t>(it->length(0));
            // The flag or reference range right after the unit belongs to the measurement.
            static const std::regex flag(
                R"(^\s*(?:\((?:h|l|hh|ll|high|low|normal|n)\)|\[[^\]]*\]|\((?:ref|reference)[^)]*\))+)",
                std::regex::icase);
            // ... as do a bare range and an upper-case flag ("(136-145) L", "(3.5-5.1) HH").
            static const std::regex bare(
                R"(^\s*(?:\(\s*[<>]?\d+(?:\.\d+)?\s*-\s*\d+(?:\.\d+)?\s*\))?(?:\s*\b(?:HH|LL|H|L|A|N)\b)?)");
            std::smatch f;
            const std::string after = text.substr(end);
            if (std::regex_search(after, f, flag)) {
                end += static_cast<std::size_t>(f.length(0));
            } else if (std::regex_search(after, f, bare)) {
                end += static_cast<std::size_t>(f.length(0));
            }
            auto record = measurement(spec, text.substr(name_at, end - name_at));
            if (record.is_null()) continue;
            out.push_back({name_at, end - name_at, record});
        }
    }
    return out;
}

}  // namespace docintel::plugins

#pragma once
// A code list's codes written after a meaning phrase anywhere in a document: "CPT 31267-50 ...",
// "ICD-10-CM: C79.51 - ..." (the rest of a label between the phrase and its code), and the
// codes of a label's value that runs on over the lines under it.
//
// Header-only, stateless; plugins link only the SDK.

#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// Whether `gap`, the text between a meaning phrase and a code, is at most two characters
/// or the rest of a label ("-CM: ", " Codes: ", a table's "CPT: | " cell break): nothing that
/// says something else.
inline bool labelTail(const std::string& gap) {
    if (gap.size() <= 2) return true;
    static const std::regex tail(R"(^[-A-Za-z]{0,6}(?: codes?)?\s*:[\s|:]*$)", std::regex::icase);
    return gap.size() <= 16 && std::regex_match(gap, tail);
}

/// The codes of `found` (codes of `unit`) that go on with the list of a label on the line
/// above: the unit states no label of its own before them, and each opens the line or an entry
/// of a code and its description ("M75.41 (impingement ...)", "H47.11 - papilledema") after the
/// end of the entry above ("... not specified as traumatic) M75.41 (impingement ...)").
inline std::vector<typed::Found> continuedCodes(const FieldUnit& unit,
                                                const std::vector<typed::Found>& found) {
    std::vector<typed::Found> out;
    const std::string& t = unit.text;
    // A numbered or bulleted entry ("2. Z80.3 Family history ...") opens after its marker.
    const std::size_t marker = bulletMarker(t);
    const std::size_t first = marker > 0 ? marker : t.find_first_not_of(" |");
    for (const auto& f : found) {
        if (t.find(':') < f.pos) break;
        const std::size_t after = f.pos + f.len;
        const bool entry = t.compare(after, 2, " (") == 0 || t.compare(after, 3, " - ") == 0 ||
                           after == t.size() || t[after] == ',';
        if (f.pos == first || entry) out.push_back(f);
    }
    return out;
}

/// Whether `unit` heads the columns of a code table whose rows OCR or a plain-text layout
/// left as lines ("HCPCS Item Qty Request" over "E0784 External insulin pump 1 YES ..."): a
/// few words without digits or a colon, the first a meaning phrase of `spec`.
inline bool codeColumnHeader(const FieldSpec& spec, const FieldUnit& unit) {
    const std::string t = trimmed(unit.text);
    if (t.empty() || t.size() > 60 || t.find_first_of("0123456789:") != std::string::npos ||
        std::count(t.begin(), t.end(), ' ') < 2 || std::count(t.begin(), t.end(), ' ') > 6) {
        return false;
    }
    const std::string lower_text = typed::lower(t);
    return std::any_of(spec.meaning.begin(), spec.meaning.end(), [&](const std::string& p) {
        std::size_t end = 0;
        return findPhrase(lower_text, p, 0, &end) == 0 && (end == t.size() || t[end] == ' ');
    });
}

/// Whether a code table's row (from its code to the next row's) says that its code is not asked
/// for: "NO - not requested now", "for information only", "not part of this request".
inline bool rowNotRequested(const std::string& row) {
    static const std::regex no(R"(\bNO\b)");
    static const std::regex words(
        R"(\bnot\s+(?:requested|ordered|part of this request|for this request)|information only)",
        std::regex::icase);
    return std::regex_search(row, no) || std::regex_search(row, words);
}

/// The words a code table's row gives after `code` in `text` ("E0784 External insulin infusion
/// pump (patch pump) 1 YES" → "External insulin infusion pump (patch pump)"): up to a column
/// gap, a cell break, the row's quantity and answer, or the line's end, as a value at [pos,
/// pos + len) of the row; none when the row has fewer than two words.
inline std::optional<typed::Found> codeRowWords(const std::string& text, const std::string& code) {
    // The code as written: a modifier's "-" or an ICD code's "." matches only itself.
    static const std::regex special(R"([.^$|()\[\]{}*+?\\-])");
    const std::regex row(
        "\\b" + std::regex_replace(code, special, "\\$&") +
        R"(\b[\s|:-]+([A-Za-z][^|\n]*?)(?=\s{2,}|\s*\||\s+\d+(?:\s+per\s+\w+(?:\s+\w+)?)?\s+(?:YES|NO|Y|N)\b|\s*$|\n))");
    std::smatch m;
    if (!std::regex_search(text, m, row)) return std::nullopt;
    const std::string words = trimmed(m[1].str());
    if (words.find(' ') == std::string::npos) return std::nullopt;
    return typed::Found{static_cast<std::size_t>(m.position(0)),
                        static_cast<std::size_t>(m.length(0)), words};
}

/// Adds to `value` (an array) every code of `spec` written right after one of its meaning
/// phrases in `units`, the codes that go on with such a label's list on the lines under it
/// (continuedCodes), and the codes that open the rows under a code table's column header
/// (codeColumnHeader) but for rows that are not requested (rowNotRequested). Returns the unit
/// of the first code added, or nullptr.
inline const FieldUnit* addCodesAfterPhrases(const FieldSpec& spec,
                                             const std::vector<FieldUnit>& units,
                                             nlohmann::json& value) {
    const FieldUnit* first = nullptr;
    const FieldUnit* at = nullptr;  // the unit being read
    const auto add = [&](const nlohmann::json& code) {
        if (std::find(value.begin(), value.end(), code) != value.end()) return;
        value.push_back(code);
        if (first == nullptr) first = at;
    };
    bool labelled = false;  // the unit above gave codes after a labelled phrase
    bool table = false;     // ... or headed a code table's columns
    int wraps = 0;          // lines without codes since (a description wrapped onto the next)
    for (const auto& u : units) {
        at = &u;
        const auto found = typed::codes(u.text, spec.code);
        if (table) {
            // Rows OCR folded into one line: each code that opens the line or follows a row's
            // "YES" / "NO" answer opens a row, which runs to the next.
            std::vector<std::size_t> opens;
            for (const auto& f : found) {
                const std::string before = trimmed(u.text.substr(0, f.pos));
                if (before.empty() || before.find_first_not_of(" |") == std::string::npos ||
                    (before.size() >= 3 && (before.compare(before.size() - 3, 3, "YES") == 0 ||
                                            before.compare(before.size() - 2, 2, "NO") == 0))) {
                    opens.push_back(f.pos);
                }
            }
            for (std::size_t k = 0; k < opens.size(); ++k) {
                const std::size_t to = k + 1 < opens.size() ? opens[k + 1] : u.text.size();
                const std::string row = u.text.substr(opens[k], to - opens[k]);
                if (!rowNotRequested(row)) add(typed::codes(row, spec.code).front().value);
            }
            if (!opens.empty()) continue;
            table = false;
        }
        if (labelled) {
            // A line of capitals that opens with a code ("H47.11 PAPILLEDEMA") reads as a
            // heading, but goes on with the list.
            const auto continued = continuedCodes(u, found);
            for (const auto& f : continued) add(f.value);
            if (!continued.empty() || (found.empty() && !u.is_heading &&
                                       u.text.find(':') == std::string::npos && ++wraps <= 1)) {
                continue;
            }
        }
        labelled = false;
        wraps = 0;
        if (codeColumnHeader(spec, u)) {
            table = true;
            continue;
        }
        if (u.is_heading) continue;
        const std::string lower_text = typed::lower(u.text);
        for (const auto& p : spec.meaning) {
            std::size_t end = 0;
            for (auto at = findPhrase(lower_text, p, 0, &end); at != std::string::npos;
                 at = findPhrase(lower_text, p, end, &end)) {
                for (const auto& f : found) {
                    if (f.pos < end || !labelTail(u.text.substr(end, f.pos - end))) continue;
                    add(f.value);
                    if (u.text.find(':', end) < f.pos) labelled = true;
                }
                // "Diagnosis codes (ICD-10-CM), in order:" with the codes on the lines under it.
                if (found.empty() && !u.text.empty() && trimmed(u.text).back() == ':') {
                    labelled = true;
                }
            }
        }
    }
    return first;
}

}  // namespace docintel::plugins

#pragma once

// The line-level reading of list fields (field_lists.h): what a line's pieces are (between ";",
// "·", "|", sentence ends and, for lists of short pieces, commas), whether a label or heading
// states a field's meaning, and the headings a parser folded into the start of their paragraph.
// Header-only; thread-safe (no state).

#include <algorithm>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// A piece of a list: [pos, pos+len) of the document text and its cleaned text.
struct ListPiece {
    std::size_t pos = 0;
    std::size_t len = 0;
    std::string text;
};

/// A line of several "Label: value" sentences ("Penicillin: throat swelling (1989). Shellfish:
/// hives.") as one piece a sentence; any other line as one piece.
inline std::vector<std::string> labelledSentences(const std::string& line) {
    static const std::regex next(R"(\.\s+(?=[A-Z][A-Za-z /-]{1,40}:))");
    std::vector<std::string> out;
    std::size_t from = 0;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), next);
         it != std::sregex_iterator(); ++it) {
        const auto at = static_cast<std::size_t>(it->position(0));
        out.push_back(line.substr(from, at + 1 - from));
        from = at + static_cast<std::size_t>(it->length(0));
    }
    out.push_back(line.substr(from));
    return out;
}

/// Whether `label` (as written) states the field's meaning and no `avoid` word; a SOAP letter
/// reads as the section it names.
inline bool statesMeaning(const FieldSpec& spec, const std::string& label) {
    std::string l = typed::lower(label);
    if (const SoapLabel soap = soapLabel(label); soap.len > 0) {  // "A/P" is the assessment
        l = soap.section + " " + l.substr(soap.len);
    }
    for (const auto& a : spec.avoid) {
        if (findPhrase(l, a) != std::string::npos) return false;
    }
    // "Fall risk: lives alone" labels one item of the list, not the list.
    for (const auto& [value, words] : spec.values) {
        if (findPhrase(l, value) != std::string::npos) return false;
        for (const auto& w : words) {
            if (findPhrase(l, w) != std::string::npos) return false;
        }
    }
    for (const auto& m : spec.meaning) {
        // A label-only phrase ("history:") is the whole label or nothing.
        if (m.back() == ':' ? trimmed(l) == m.substr(0, m.size() - 1)
                            : findPhrase(l, m) != std::string::npos) {
            return true;
        }
    }
    return false;
}

/// Whether a piece says that there is nothing to list or denies an item ("NKDA", "none known",
/// "no known allergies", "No surgeries", "N/A").
inline bool saysNone(const std::string& piece) {
    static const std::regex none(
        R"(^\s*(?:none\b|nkda\b|nka\b|no\s|nil\b|n/a\b|not applicable\b|denies\b)|\bnone (?:known|reported|stated)\b)",
        std::regex::icase);
    return std::regex_search(piece, none);
}

/// Whether a label's value says the thing was not looked at ("Not reviewed at this visit",
/// "unknown", "unable to obtain", "(section left blank)"): it states no item, and no "none"
/// either.
inline bool saysNotAssessed(const std::string& value) {
    static const std::regex unasked(
        R"(^\s*\(?\s*(?:not\s+(?:reviewed|assessed|obtained|asked|documented|recorded|known|available)|to\s+be\s+confirmed|unknown|unable\s+to\s+(?:obtain|assess)|(?:section\s+)?(?:left\s+)?blank)\b)",
        std::regex::icase);
    return std::regex_search(value, unasked);
}

/// `piece` trimmed of spaces, a final full stop and a leading "and" / "or".
inline ListPiece trimmedPiece(ListPiece p) {
    auto drop_front = [&](std::size_t n) {
        p.text.erase(0, n);
        p.pos += n;
        p.len -= std::min(p.len, n);
    };
    while (!p.text.empty() && (p.text.front() == ' ' || p.text.front() == ':')) drop_front(1);
    for (const char* lead : {"and ", "or "}) {
        if (typed::lower(p.text).rfind(lead, 0) == 0) drop_front(std::strlen(lead));
    }
    while (!p.text.empty() && (p.text.back() == ' ' || p.text.back() == '.' ||
                               p.text.back() == ',' || p.text.back() == ':')) {
        p.text.pop_back();
    }
    p.len = std::min(p.len, p.text.size());
    return p;
}

/// The pieces of one line of a list (`text` cleaned, starting at `pos` of the document):
/// its parts between ";", "·", "•", "|" and sentence ends; a leading short label ("Current:")
/// left out; commas cut too when `commas` or when the line is a list of three or more short
/// pieces ("Python, SQL, dbt"). `spec` picks the parts of a table row written with labels.
inline std::vector<ListPiece> linePieces(const std::string& text, std::size_t pos, bool commas,
                                         const FieldSpec* spec = nullptr) {
    std::vector<ListPiece> out;
    std::string t = text;
    // "·" and "•" as "|" padded to their length, so that offsets stay those of the text.
    for (const std::string dot : {"\xC2\xB7", "\xE2\x80\xA2"}) {
        for (auto at = t.find(dot); at != std::string::npos; at = t.find(dot, at + 1)) {
            t.replace(at, dot.size(), "|" + std::string(dot.size() - 1, ' '));
        }
    }
    std::size_t start = 0;
    // "Current: amlodipine 5 mg": a label of up to three words before the first item.
    if (const auto colon = t.find(':'); t.find('|') == std::string::npos &&
                                        colon != std::string::npos && colon < 30 &&
                                        colon + 1 < t.size() && t[colon + 1] == ' ') {
        const std::string label = t.substr(0, colon);
        if (std::count(label.begin(), label.end(), ' ') < 3 &&
            label.find_first_of("0123456789") == std::string::npos) {
            start = colon + 1;
        }
    }
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    int depth = 0;  // inside brackets nothing ends an item: "peanut (EpiPen Jr. 0.15 mg given)"
    for (std::size_t i = start; i <= t.size(); ++i) {
        if (i < t.size() && t[i] == '(') ++depth;
        if (i < t.size() && t[i] == ')' && depth > 0) --depth;
        const bool sentence_end = i + 2 < t.size() && t[i] == '.' && t[i + 1] == ' ' &&
                                  (std::isupper(static_cast<unsigned char>(t[i + 2])) ||
                                   std::isdigit(static_cast<unsigned char>(t[i + 2])));
        if (i == t.size() || (depth == 0 && (t[i] == ';' || t[i] == '|' || sentence_end))) {
            if (i > start) parts.emplace_back(start, i - start);
            start = i + 1;
        }
    }
    // A table row written "Skill: SQL | Level: 3": each part's short label left out, and only
    // the parts whose label states the meaning kept when one does.
    std::vector<bool> stating(parts.size(), false);
    for (std::size_t k = 0; k < parts.size() && parts.size() > 1; ++k) {
        auto& [s, n] = parts[k];
        const std::string part = t.substr(s, n);
        const auto colon = part.find(": ");
        if (colon == std::string::npos || colon > 30) continue;
        const std::string label = trimmed(part.substr(0, colon));
        if (label.empty() || std::count(label.begin(), label.end(), ' ') >= 3 ||
            label.find_first_of("0123456789") != std::string::npos) {
            continue;
        }
        stating[k] = spec != nullptr && statesMeaning(*spec, label);
        s += colon + 1;
        n -= colon + 1;
    }
    if (std::find(stating.begin(), stating.end(), true) != stating.end()) {
        std::vector<std::pair<std::size_t, std::size_t>> kept;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            if (stating[k]) kept.push_back(parts[k]);
        }
        parts = kept;
    }
    const bool one_part = parts.size() == 1;
    for (const auto& [s, n] : parts) {
        const std::string part = t.substr(s, n);
        std::vector<std::size_t> cuts;
        for (std::size_t i = 0; i < part.size(); ++i) {
            // A comma inside brackets belongs to the item ("Excel (pivot tables, XLOOKUP)"), as
            // does one between digits ("$72,000").
            if (part[i] == '(') i = std::min(part.find(')', i), part.size());
            const bool in_number = i > 0 && i + 1 < part.size() &&
                                   std::isdigit(static_cast<unsigned char>(part[i - 1])) &&
                                   std::isdigit(static_cast<unsigned char>(part[i + 1]));
            if (i < part.size() && part[i] == ',' && !in_number) cuts.push_back(i);
        }
        bool short_pieces = one_part && cuts.size() >= 2;
        for (std::size_t k = 0, from = 0; short_pieces && k <= cuts.size(); ++k) {
            const std::size_t to = k < cuts.size() ? cuts[k] : part.size();
            const std::string piece = part.substr(from, to - from);
            short_pieces = std::count(piece.begin(), piece.end(), ' ') <= 6;
            from = to + 1;
        }
        if (!commas && !short_pieces) cuts.clear();
        std::size_t from = 0;
        for (std::size_t k = 0; k <= cuts.size(); ++k) {
            const std::size_t to = k < cuts.size() ? cuts[k] : part.size();
            ListPiece p = trimmedPiece({pos + s + from, to - from, part.substr(from, to - from)});
            if (p.text.size() >= 2) out.push_back(std::move(p));
            from = to + 1;
        }
    }
    return out;
}

/// A short line that may title a section ("Skills", "Meds:", "Work history").
inline bool titleLine(const std::string& line) {
    // A note in brackets after the title ("Discharge vital signs (2027-08-06, 08:00)") is not
    // read.
    static const std::regex note(R"(\s+\([^()]*\)$)");
    const std::string t = std::regex_replace(line, note, "");
    if (t.empty() || t.size() > 40 || bulletMarker(t) > 0 || t[0] == '|') return false;
    if (t.back() == '.' || t.back() == ',' || t.back() == ';') return false;
    if (std::count(t.begin(), t.end(), ' ') > 4) return false;
    const auto colon = t.find(':');
    return colon == std::string::npos || colon + 1 == t.size();
}

/// A letter's closing line ("Yours sincerely,", "Kind regards", "Thank you").
inline bool closingLine(const std::string& t) {
    static const std::regex closing(
        R"(^(?:yours\b|sincerely\b|(?:kind |best |warm )?regards\b|thank you\b|thanks\b|respectfully\b|cordially\b))",
        std::regex::icase);
    return std::regex_search(t, closing);
}

/// The length of an upper-case heading a parser folded into the start of its paragraph
/// ("PRINCIPAL DIAGNOSIS Community-acquired pneumonia", "ALLERGIES Penicillin (hives)"): two or
/// more upper-case words, or one of six letters or more, before a word written in lower case;
/// 0 when the line does not start so.
inline std::size_t foldedCapsHeading(const std::string& t) {
    std::size_t end = 0, letters = 0, i = 0;
    int words = 0;
    while (i < t.size()) {
        std::size_t w = i;
        bool upper = true;
        std::size_t n = 0;
        while (w < t.size() && t[w] != ' ') {
            const auto c = static_cast<unsigned char>(t[w]);
            if (std::islower(c) || std::isdigit(c) || c == ':' || c == '(') upper = false;
            if (std::isupper(c)) ++n;
            ++w;
        }
        if (!upper || n == 0) {
            const bool lower_word = std::any_of(t.begin() + static_cast<std::ptrdiff_t>(i),
                                                t.begin() + static_cast<std::ptrdiff_t>(w),
                                                [](char c) { return std::islower(c); });
            return lower_word && (words >= 2 || letters >= 6) ? end : 0;
        }
        if (n < 2) return 0;  // "A", "I": no heading word
        letters += n;
        ++words;
        end = w;
        i = w + 1;
    }
    return 0;  // the whole line is upper case: a heading line of its own
}

/// The length of a section number that opens a line ("I. ", "2. ", "B) ", "Section 4 "), or 0.
inline std::size_t sectionNumberLength(const std::string& t) {
    static const std::regex number(
        R"(^(?:(?:[Ss]ection|SECTION|[Aa]rticle|ARTICLE)\s+)?(?:[IVX]{1,4}|\d{1,2}(?:\.\d{1,2})?|[A-Z])[.)]?\s+)");
    std::smatch m;
    if (!std::regex_search(t, m, number)) return 0;
    // "A. THE MEMBER": a lone letter or numeral needs its full stop or bracket.
    const std::string n = trimmed(m.str());
    if (n.back() != '.' && n.back() != ')' && n.find(' ') == std::string::npos) return 0;
    return static_cast<std::size_t>(m.length(0));
}

/// Where the content starts after a heading stating the meaning of `spec` that a parser folded
/// into its line ("Skills SAP S/4HANA; ...", "MEDICATIONS Metformin 500 mg ...", "PRINCIPAL
/// DIAGNOSIS Community-acquired ..."): the line starts with a capitalised meaning phrase
/// followed by a capitalised word or a digit, or with an upper-case heading that states it;
/// 0 when it does not.
inline std::size_t foldedHeading(const FieldSpec& spec, const std::string& t) {
    if (const std::size_t caps = foldedCapsHeading(t);
        caps > 0 && statesMeaning(spec, t.substr(0, caps))) {
        return caps + 1;
    }
    if (t.empty() || !std::isupper(static_cast<unsigned char>(t[0]))) return 0;
    const std::string l = typed::lower(t);
    // After the heading's number ("I. COVERAGE CRITERIA IN-LAB ...", "2. Requirements SQL").
    const std::size_t lead = sectionNumberLength(t);
    std::size_t best = 0;
    for (const auto& m : spec.meaning) {
        std::size_t end = 0;
        if (findPhrase(l, m, lead, &end) != lead || end + 1 >= t.size() || t[end] != ' ') {
            continue;
        }
        const char next = t[end + 1];
        if (!std::isupper(static_cast<unsigned char>(next)) &&
            !std::isdigit(static_cast<unsigned char>(next))) {
            continue;
        }
        best = std::max(best, end + 1);
    }
    if (best == 0 || !statesMeaning(spec, t.substr(0, best))) return 0;
    return best;
}

/// The items a running sentence names after one of the field's `prose` words ("Known type 2
/// diabetes and hypertension.", "a bonus if you have ISTQB certification"): the rest of the
/// sentence, cut at commas and "and", each piece of at most twelve words that is no clause of
/// its own ("I ..."). A word after a negation ("no known", "not diagnosed with") names nothing.
inline std::vector<ListPiece> prosePieces(const FieldSpec& spec, const DocText& doc) {
    std::vector<ListPiece> out;
    if (spec.prose.empty()) return out;
    const std::string lower_text = typed::lower(doc.text);
    static const std::regex negated(R"(\b(?:no|not|none|denies|without|never)\s+$)");
    for (const auto& cue : spec.prose) {
        std::size_t end = 0;
        for (auto at = findPhrase(lower_text, cue, 0, &end); at != std::string::npos;
             at = findPhrase(lower_text, cue, end, &end)) {
            if (at > 0 && doc.text[at - 1] == '-') continue;  // "well-known"
            const std::size_t from = at > 20 ? at - 20 : 0;
            if (std::regex_search(lower_text.substr(from, at - from), negated)) continue;
            // "family history of ...": another subject's words just before.
            const std::string before = lower_text.substr(at > 30 ? at - 30 : 0, at > 30 ? 30 : at);
            if (std::any_of(spec.avoid.begin(), spec.avoid.end(), [&](const std::string& a) {
                    return findPhrase(before + cue, a) != std::string::npos;
                })) {
                continue;
            }
            std::size_t stop = end;
            while (stop < doc.text.size() &&
                   std::string(".;:!?\n(").find(doc.text[stop]) == std::string::npos) {
                ++stop;
            }
            const std::string rest = doc.text.substr(end, stop - end);
            std::size_t piece_from = 0;
            auto take = [&](std::size_t to) {
                ListPiece p = trimmedPiece(
                    {end + piece_from, to - piece_from, rest.substr(piece_from, to - piece_from)});
                // A clause of its own ("I run my own research") is no item.
                static const std::regex clause(R"(^(?:i|we|you|he|she|they|it|this|that|there)\b)",
                                               std::regex::icase);
                const auto words = std::count(p.text.begin(), p.text.end(), ' ') + 1;
                if (p.text.size() >= 3 && words <= 12 && !saysNone(p.text) &&
                    !std::regex_search(p.text, clause)) {
                    out.push_back(std::move(p));
                }
            };
            for (std::size_t i = 0; i < rest.size(); ++i) {
                if (rest[i] == ',') {
                    take(i);
                    piece_from = i + 1;
                } else if (rest.compare(i, 5, " and ") == 0) {
                    take(i);
                    piece_from = i + 5;
                }
            }
            take(rest.size());
        }
    }
    return out;
}

}  // namespace docintel::plugins

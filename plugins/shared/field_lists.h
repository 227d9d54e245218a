#pragma once

// List fields (docs/decisions/0064, `"type": "list"`): a field whose value is a list of records
// (medications, vitals, labs, problems, skills, requirements), each item a field with its own
// citation. Items are read from the sections whose heading states the field's meaning
// ("DISCHARGE MEDICATIONS", "Skills", "## Problems", "Meds:") and from lines labelled with it
// ("Triage vitals: ..."): a table's rows, bulleted or numbered lines, or a line's pieces between
// ";", "·", "|" and sentence ends (its commas too when it is a list of short pieces). The field's
// `item` kind reads each piece as a record: "text" (the piece as written), "dose" (a
// medication: name, dose, sig) or "measurement" (name, value, unit, flag). Kinds with a value
// type of their own are also found by that type anywhere in the document, in any layout: a dose
// ("metformin 1000 mg"), a value in one of the field's `units` ("glucose 287 mg/dL"), a name of
// its `values` followed by a number ("BP 136/82"). Header-only; thread-safe (no state).

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/field_units.h"
#include "shared/list_records.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

/// A piece of a list: [pos, pos+len) of the document text and its cleaned text.
struct ListPiece {
    std::size_t pos = 0;
    std::size_t len = 0;
    std::string text;
};

/// Whether `label` (as written) states the field's meaning and no `avoid` word.
inline bool statesMeaning(const FieldSpec& spec, const std::string& label) {
    const std::string l = typed::lower(label);
    for (const auto& a : spec.avoid) {
        if (findPhrase(l, a) != std::string::npos) return false;
    }
    for (const auto& m : spec.meaning) {
        if (findPhrase(l, m) != std::string::npos) return true;
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
    for (std::size_t i = start; i <= t.size(); ++i) {
        const bool sentence_end = i + 2 < t.size() && t[i] == '.' && t[i + 1] == ' ' &&
                                  (std::isupper(static_cast<unsigned char>(t[i + 2])) ||
                                   std::isdigit(static_cast<unsigned char>(t[i + 2])));
        if (i == t.size() || t[i] == ';' || t[i] == '|' || sentence_end) {
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
            // A comma inside brackets belongs to the item ("Excel (pivot tables, XLOOKUP)").
            if (part[i] == '(') i = std::min(part.find(')', i), part.size());
            if (i < part.size() && part[i] == ',') cuts.push_back(i);
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
inline bool titleLine(const std::string& t) {
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
    std::size_t best = 0;
    for (const auto& m : spec.meaning) {
        std::size_t end = 0;
        if (findPhrase(l, m, 0, &end) != 0 || end + 1 >= t.size() || t[end] != ' ') continue;
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

/// A table being read: its header cells and the column whose header states the meaning (-1
/// when none does).
struct ListTable {
    std::vector<std::pair<std::size_t, std::string>> header;
    int column = -1;
};

/// The pieces of a table row: for text items the cell under the column whose header states the
/// meaning ("| Skill | Level |"), or, in a section that states it, every cell with words ("|
/// Clinical | Systems |"); other kinds read the whole row. A row outside such a section gives
/// pieces only under a column that states the meaning.
inline void tableRowPieces(const FieldSpec& spec, const DocText::Line& line, bool in_section,
                           const ListTable& table, std::vector<ListPiece>& out) {
    const auto cells = tableCells(line.text);
    auto words = [](const std::string& cell) {
        return cell.find_first_not_of("0123456789.#/- ") != std::string::npos;
    };
    auto add = [&](std::size_t offset, const std::string& cell) {
        const std::size_t c = line.text.find(cell, offset);
        out.push_back({line.pos + c, cell.size(), cell});
    };
    if (table.column >= 0) {
        const auto k = static_cast<std::size_t>(table.column);
        if (k < cells.size() && words(cells[k].second)) add(cells[k].first, cells[k].second);
        return;
    }
    if (!in_section) return;
    if (spec.item != "text") {
        std::string row;
        for (const auto& [offset, cell] : cells) row += (row.empty() ? "" : " ") + cell;
        const std::size_t at = line.text.find('|');
        out.push_back({line.pos + at, line.text.size() - at, row});
        return;
    }
    for (const auto& [offset, cell] : cells) {
        if (words(cell)) add(offset, cell);
    }
}

/// The pieces of the sections of `doc` whose heading states the meaning of `spec`, of the lines
/// labelled with it ("Allergies: NKDA") and of the table columns headed with it.
inline std::vector<ListPiece> sectionPieces(const FieldSpec& spec, const DocText& doc) {
    std::vector<ListPiece> out;
    const auto lines = doc.lines();
    const bool commas = spec.item == "measurement";
    bool inside = false, taken = false, blank_before = true, bulleted = false, caps_items = false;
    ListTable table;
    bool in_table = false;
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const auto& line = lines[li];
        const std::string clean = cleanLine(line.text);
        const std::string t = trimmed(clean);
        const std::string raw = trimmed(line.text);
        // The cleaned line with its "|" kept: a table row written "Skill: SQL | Level: 3".
        std::string bars = clean;
        for (std::size_t k = 0; k < bars.size(); ++k) {
            if (line.text[k] == '|') bars[k] = '|';
        }
        bars = trimmed(bars);
        if (raw.empty() || raw[0] != '|') in_table = false;
        if (t.empty()) {
            // A blank line ends a section that has items unless a list goes on after it.
            if (inside && taken) {
                std::size_t next = li + 1;
                while (next < lines.size() && trimmed(lines[next].text).empty()) ++next;
                const bool goes_on = next < lines.size() && (bulletMarker(lines[next].text) > 0 ||
                                                             trimmed(lines[next].text)[0] == '|');
                if (!goes_on) inside = false;
            }
            blank_before = true;
            continue;
        }
        if (raw[0] == '|') {
            blank_before = false;
            if (raw.find("---") != std::string::npos) continue;
            const bool next_is_rule =
                li + 1 < lines.size() && lines[li + 1].text.find("---") != std::string::npos;
            // The first row names the columns, unless it holds a number (a table without one).
            if (!in_table &&
                (next_is_rule || raw.find_first_of("0123456789") == std::string::npos)) {
                in_table = true;
                table = {tableCells(line.text), -1};
                for (std::size_t c = 0; c < table.header.size(); ++c) {
                    if (statesMeaning(spec, table.header[c].second)) {
                        table.column = static_cast<int>(c);
                        break;
                    }
                }
                continue;
            }
            if (!in_table) table = {};
            in_table = true;
            taken = taken || inside;
            tableRowPieces(spec, line, inside, table, out);
            continue;
        }
        // A parser that folds a heading into its paragraph ("Skills SAP S/4HANA; NetSuite")
        // leaves it at the start of the line: the rest of the line opens the section.
        if (const std::size_t folded = foldedHeading(spec, t); folded > 0 && !titleLine(t)) {
            inside = true;
            taken = true;
            bulleted = false;
            const std::size_t at = line.text.find_first_not_of(" \t") + folded;
            for (auto& p : linePieces(t.substr(folded), line.pos + at, commas)) {
                out.push_back(std::move(p));
            }
            continue;
        }
        // ... and a folded heading of another subject ("ALLERGIES Penicillin") ends the section.
        if (inside && foldedCapsHeading(t) > 0) {
            inside = false;
            taken = bulleted = caps_items = false;
            blank_before = false;
            continue;
        }
        // A Markdown title ("# Employee Skills Profile") names the document, not a section.
        const bool title = raw.rfind("# ", 0) == 0;
        const bool heading = bulletMarker(line.text) == 0 &&
                             (isHeadingLine(line.text, clean) || (blank_before && titleLine(t)) ||
                              (t.back() == ':' && t.size() <= 60) ||
                              (!inside && titleLine(t) && li + 1 < lines.size()));
        blank_before = false;
        if (heading) {
            std::string name = t;
            while (!name.empty() && (name.back() == ':' || name.back() == ' ')) name.pop_back();
            const bool opens = !title && statesMeaning(spec, name);
            // In a section whose items are written like headings (an upper-case posting), such
            // a line is one more item unless it names another subject (an `avoid` word).
            bool other_subject = false;
            for (const auto& a : spec.avoid) {
                other_subject =
                    other_subject || findPhrase(typed::lower(name), a) != std::string::npos;
            }
            // ... a long line naming it in passing ("(Manhattan preferred)") is still an item.
            other_subject = other_subject && std::count(name.begin(), name.end(), ' ') < 4;
            const bool item = inside && !opens && !other_subject && (!taken || caps_items) &&
                              t.find(':') == std::string::npos;
            if (!item &&
                (opens || (bulletMarker(line.text) == 0 && isHeadingLine(line.text, clean)) ||
                 inside)) {
                inside = opens;
                taken = bulleted = caps_items = false;
                continue;
            }
            caps_items = item;
        }
        const std::size_t at = line.text.find_first_not_of(" \t");
        if (!inside) {
            // "Meds: Albuterol HFA 90 mcg ...": a label stating the meaning opens a one-line list.
            const auto colon = bars.find(':');  // a colon written, not a cleaned "|"
            if (colon == std::string::npos || colon > 40 ||
                std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(colon), ' ') > 4 ||
                !statesMeaning(spec, t.substr(0, colon))) {
                continue;
            }
            // A table row written "Skill: SQL | Level: 3" gives the parts its label states.
            const bool row = bars.find(" | ") != std::string::npos;
            std::string rest = row ? bars : t.substr(colon + 1);
            // "PMH: Asthma. No surgeries. Meds: Albuterol ...": the list ends where a sentence
            // opens with the label of another subject.
            for (const std::size_t label : row ? std::vector<std::size_t>{} : labelStarts(rest)) {
                const std::size_t label_colon = rest.find(':', label);
                if (label >= 2 && rest.compare(label - 2, 2, ". ") == 0 &&
                    !statesMeaning(spec, rest.substr(label, label_colon - label))) {
                    rest.resize(label);
                    break;
                }
            }
            for (auto& p : linePieces(rest, line.pos + at + (row ? 0 : colon + 1), commas, &spec)) {
                out.push_back(std::move(p));
            }
            continue;
        }
        const bool plain_before = taken && !bulleted;
        taken = true;
        if (const std::size_t skip = bulletMarker(line.text); skip > 0) {
            bulleted = true;
            const std::string item = clean.substr(skip);
            if (commas) {
                for (auto& p : linePieces(item, line.pos + skip, true)) out.push_back(std::move(p));
            } else {
                out.push_back(trimmedPiece({line.pos + skip, item.size(), item}));
            }
            continue;
        }
        // Plain lines go on as a list while they are short ("Hypertension") or lists of pieces;
        // a paragraph or a closing ("Yours sincerely,") after the first line is the text going
        // on to other things.
        // The header of a table written "Skill | Level" over rows "Skill: SQL | Level: 3".
        const auto bar = bars.find(" | ");
        if (bar != std::string::npos && t.find(':') == std::string::npos && li + 1 < lines.size() &&
            lines[li + 1].text.find(bars.substr(0, bar) + ":") != std::string::npos) {
            continue;
        }
        auto pieces = linePieces(bars, line.pos + at, commas, &spec);
        const auto words = std::count(t.begin(), t.end(), ' ') + 1;
        const bool prose = (t.back() == '.' && words >= 8) || (pieces.size() == 1 && words >= 14);
        if (plain_before && (prose || closingLine(t))) {
            inside = false;
            continue;
        }
        for (auto& p : pieces) out.push_back(std::move(p));
    }
    return out;
}

/// The list field `spec` (`"type": "list"`) read from `doc`: an array of item fields; an empty
/// array when the document states the list empty or does not have it.
inline nlohmann::json extractList(const FieldSpec& spec, const DocText& doc) {
    nlohmann::json out = nlohmann::json::array();
    std::set<std::string> seen;
    auto add = [&](const nlohmann::json& value, std::size_t pos, std::size_t len, double conf) {
        const nlohmann::json& name = value.is_object() && value.contains("name") ? value["name"]
                                     : value.is_object() && !spec.key.empty()    ? value[spec.key]
                                                                                 : value;
        if (!name.is_string() || !seen.insert(typed::lower(name.get<std::string>())).second) {
            return;
        }
        out.push_back(field(value, doc.source(pos, len), conf));
    };
    for (const auto& piece : sectionPieces(spec, doc)) {
        if (saysNone(piece.text)) continue;
        if (spec.item == "dose") {
            const auto found = doses(piece.text);
            for (const auto& f : found) add(f.value, piece.pos + f.pos, f.len, 0.85);
            if (found.empty() && std::isalpha(static_cast<unsigned char>(piece.text[0]))) {
                add({{"name", piece.text}, {"dose", nullptr}, {"sig", nullptr}}, piece.pos,
                    piece.len, 0.7);
            }
        } else if (spec.item == "measurement") {
            if (auto m = measurement(spec, piece.text); !m.is_null()) {
                add(m, piece.pos, piece.len, 0.85);
            }
        } else {
            nlohmann::json value = piece.text;
            if (!spec.key.empty()) value = {{spec.key, piece.text}};
            add(value, piece.pos, piece.len, 0.8);
        }
    }
    // The kinds with a value type of their own, anywhere in the document.
    if (spec.item == "dose" || spec.item == "measurement") {
        for (const auto& line : doc.lines()) {
            const std::string clean = cleanLine(line.text);
            const auto found = spec.item == "dose" ? doses(clean) : measurements(spec, clean);
            for (const auto& f : found) add(f.value, line.pos + f.pos, f.len, 0.7);
        }
    }
    return out;
}

}  // namespace docintel::plugins

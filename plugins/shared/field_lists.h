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
#include "shared/list_pieces.h"
#include "shared/list_records.h"
#include "shared/measurement_table.h"
#include "shared/stated_items.h"
#include "shared/typed_values.h"

namespace docintel::plugins {

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
    if (table.column >= 0 && spec.item == "text") {
        const auto k = static_cast<std::size_t>(table.column);
        if (k < cells.size() && words(cells[k].second)) add(cells[k].first, cells[k].second);
        return;
    }
    if (!in_section && table.column < 0) return;
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

/// A table row as a parser writes it ("Test: TSH | Result: 7.8 | Units: mIU/L") read as one
/// record of its cells' values ("TSH 7.8 mIU/L 0.4-4.0"), for items that are records (a dose, a
/// measurement) rather than text; the piece spans the row.
inline ListPiece rowRecordPiece(const std::string& bars, std::size_t pos) {
    std::string joined;
    std::size_t start = 0;
    while (start <= bars.size()) {
        std::size_t end = bars.find(" | ", start);
        if (end == std::string::npos) end = bars.size();
        std::string cell = bars.substr(start, end - start);
        const auto colon = cell.find(": ");
        if (colon != std::string::npos && colon < 30 &&
            std::count(cell.begin(), cell.begin() + static_cast<std::ptrdiff_t>(colon), ' ') < 3) {
            cell = cell.substr(colon + 2);
        }
        cell = trimmed(cell);
        if (!cell.empty()) joined += (joined.empty() ? "" : " ") + cell;
        start = end + 3;
    }
    return {pos, bars.size(), joined};
}

/// Whether one of a parsed row's cell labels states the meaning ("Result: 7.8").
inline bool rowStatesMeaning(const FieldSpec& spec, const std::string& bars) {
    std::size_t start = 0;
    while (start <= bars.size()) {
        std::size_t end = bars.find(" | ", start);
        if (end == std::string::npos) end = bars.size();
        const std::string cell = bars.substr(start, end - start);
        const auto colon = cell.find(": ");
        if (colon != std::string::npos && colon < 30 &&
            statesMeaning(spec, cell.substr(0, colon))) {
            return true;
        }
        start = end + 3;
    }
    return false;
}

/// The pieces of each sentence of a paragraph `text` (at `pos`) that a label stating the meaning
/// of `spec` opens ("... on CPAP. Allergies: penicillin (anaphylaxis) and adhesive tape."); none
/// when the paragraph has no such sentence.
inline std::vector<ListPiece> sentenceListPieces(const FieldSpec& spec, const std::string& text,
                                                 std::size_t pos, bool commas) {
    std::vector<ListPiece> out;
    static const std::regex opened(R"([.;]\s+([A-Z][A-Za-z ]{1,30}):\s+)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), opened);
         it != std::sregex_iterator(); ++it) {
        const std::string label = (*it)[1].str();
        if (std::count(label.begin(), label.end(), ' ') > 3 || !statesMeaning(spec, label)) {
            continue;
        }
        const auto from = static_cast<std::size_t>(it->position(0) + it->length(0));
        static const std::regex sentence_end(R"(\.(?:\s+[A-Z]|\s*$))");
        std::smatch e;
        const std::string rest = text.substr(from);
        std::size_t len = std::regex_search(rest, e, sentence_end)
                              ? static_cast<std::size_t>(e.position(0))
                              : rest.size();
        // The list ends where a clause of its own follows it (", so she received ...").
        static const std::regex clause(R"(,\s+(?:so|but|which|because|although|while)\b)");
        std::smatch c;
        const std::string sentence = rest.substr(0, len);
        if (std::regex_search(sentence, c, clause)) len = static_cast<std::size_t>(c.position(0));
        // Items with a bracketed note are joined by "and" ("penicillin (anaphylaxis) and
        // adhesive tape (blisters)"): each is a piece.
        std::size_t start = 0;
        while (start < len) {
            std::size_t end = rest.find(") and ", start);
            end = end == std::string::npos || end >= len ? len : end + 1;
            for (auto& p :
                 linePieces(rest.substr(start, end - start), pos + from + start, commas, &spec)) {
                out.push_back(std::move(p));
            }
            start = end < len ? end + 5 : len;
        }
    }
    return out;
}

/// The pieces of the sections of `doc` whose heading states the meaning of `spec`, of the lines
/// labelled with it ("Allergies: NKDA") and of the table columns headed with it.
inline std::vector<ListPiece> sectionPieces(const FieldSpec& spec, const DocText& doc) {
    std::vector<ListPiece> out;
    const auto lines = doc.lines();
    const bool commas = spec.item == "measurement";
    bool inside = false, taken = false, blank_before = true, bulleted = false, caps_items = false;
    bool labelled_items = false;  // the section's first item line had a label ("Current: ...")
    // A sentence that announces the list ("... when all of the following are met:") is no item,
    // and the lines after it are items even when written as sentences.
    bool announced = false;
    auto announces = [](const std::string& text) {
        return !text.empty() && text.back() == ':' &&
               std::count(text.begin(), text.end(), ' ') >= 5;
    };
    ListTable table;
    bool in_table = false;
    for (std::size_t li = 0; li < lines.size(); ++li) {
        if (!inside) announced = false;
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
            announced = announces(t);
            if (announced) continue;
            std::size_t from = folded;
            // "... WHEN ALL OF THE FOLLOWING ARE MET: A. THE MEMBER ...": the items follow.
            if (const auto colon = t.find(": ", folded);
                colon != std::string::npos && announces(t.substr(folded, colon + 1 - folded))) {
                from = colon + 2;
            }
            const std::size_t at = line.text.find_first_not_of(" \t") + from;
            for (auto& p : linePieces(t.substr(from), line.pos + at, commas)) {
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
        // A short line right after a table titles what comes next (DOCX text has no blank lines).
        const bool after_table = li > 0 && (trimmed(lines[li - 1].text).rfind('|', 0) == 0 ||
                                            lines[li - 1].text.find(" | ") != std::string::npos);
        // A short line that opens a passage: a Markdown parser drops the "#" of a heading and
        // the blank lines around it, and its chunks start at headings.
        const bool opens_passage = doc.opensPassage(line.pos) && li + 1 < lines.size();
        const bool heading = bulletMarker(line.text) == 0 &&
                             (isHeadingLine(line.text, clean) ||
                              ((blank_before || after_table || opens_passage) && titleLine(t)) ||
                              (t.back() == ':' && t.size() <= 60) ||
                              (!inside && titleLine(t) && li + 1 < lines.size()));
        blank_before = false;
        if (heading) {
            std::string name = t;
            while (!name.empty() && (name.back() == ':' || name.back() == ' ')) name.pop_back();
            // "Allergies: (section left blank)": a label whose note says it was not filled in
            // opens no list.
            const auto raw_colon = line.text.find(':');
            const bool unassessed =
                raw_colon != std::string::npos && saysNotAssessed(line.text.substr(raw_colon + 1));
            const bool opens = !title && !unassessed && statesMeaning(spec, name);
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
        const bool record_row = spec.item != "text" && bars.find(" | ") != std::string::npos;
        if (!inside && record_row && rowStatesMeaning(spec, bars)) {
            // "Test: TSH | Result: 7.8 | Units: mIU/L": a row of a table with a column that
            // states the meaning is one record.
            out.push_back(rowRecordPiece(bars, line.pos + at));
            continue;
        }
        if (!inside) {
            // "Meds: Albuterol HFA 90 mcg ...": a label stating the meaning opens a one-line list.
            const auto colon = bars.find(':');  // a colon written, not a cleaned "|"
            const bool stating_cell = bars.find(" | ") != std::string::npos &&
                                      rowStatesMeaning(spec, bars);  // "DOB: ... | Allergies: ..."
            if (!stating_cell &&
                (colon == std::string::npos || colon > 40 ||
                 std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(colon), ' ') > 4 ||
                 !statesMeaning(spec, t.substr(0, colon)))) {
                // A folded form ("Resident: Ann Roe Age: 90 ... Diagnoses: a; b", as OCR joins
                // a form's lines): a later label of the line that states the meaning opens a
                // list up to the next label.
                bool folded = false;
                const auto labels = colon == std::string::npos || stating_cell
                                        ? std::vector<std::size_t>{}
                                        : labelStarts(t);
                for (std::size_t k = 1; k < labels.size(); ++k) {
                    const std::size_t label_colon = t.find(':', labels[k]);
                    if (!statesMeaning(spec, t.substr(labels[k], label_colon - labels[k]))) {
                        continue;
                    }
                    const std::size_t end = k + 1 < labels.size() ? labels[k + 1] : t.size();
                    for (auto& p : linePieces(t.substr(label_colon + 1, end - label_colon - 1),
                                              line.pos + at + label_colon + 1, commas, &spec)) {
                        out.push_back(std::move(p));
                    }
                    folded = true;
                }
                if (folded) continue;
                // "... and vomiting. Allergies: penicillin (anaphylaxis) and adhesive tape
                // (blisters), so ...": in a paragraph, a sentence the label opens is that list.
                for (auto& p : sentenceListPieces(spec, line.text, line.pos, commas)) {
                    out.push_back(std::move(p));
                }
                continue;
            }
            // A table row written "Skill: SQL | Level: 3" gives the parts its label states.
            const bool row = bars.find(" | ") != std::string::npos;
            std::string rest = row ? bars : t.substr(colon + 1);
            if (!row && saysNotAssessed(rest)) continue;  // "Allergies: not reviewed today"
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
        // A heading of another subject folded into its line ("Exclusions Revision ...").
        if (std::any_of(spec.avoid.begin(), spec.avoid.end(), [&](const std::string& a) {
                std::size_t end = 0;
                const std::size_t lead = sectionNumberLength(t);
                return findPhrase(typed::lower(t), a, lead, &end) == lead && end + 1 < t.size() &&
                       t[end] == ' ' && std::isupper(static_cast<unsigned char>(t[end + 1]));
            })) {
            inside = announced = false;
            continue;
        }
        if (announces(t)) {
            announced = taken = true;
            continue;
        }
        // A label of another subject ("Salary: ...", "HOW TO APPLY: ...") after items without
        // one, and a sentence after a bulleted list ("It would be a bonus if ..."), end the list.
        if (taken && bulletMarker(line.text) == 0 && bars.find(" | ") == std::string::npos &&
            std::isupper(static_cast<unsigned char>(t[0]))) {
            const auto colon = t.find(": ");
            const std::string label = colon == std::string::npos ? "" : t.substr(0, colon);
            const bool other_label = !label.empty() && label.size() <= 30 &&
                                     std::count(label.begin(), label.end(), ' ') < 3 &&
                                     !labelled_items && !statesMeaning(spec, label);
            const bool sentence =
                bulleted && t.back() == '.' && std::count(t.begin(), t.end(), ' ') >= 5;
            if (other_label || sentence) {
                inside = announced = false;
                continue;
            }
        }
        if (!taken) {
            const auto colon = t.find(": ");
            labelled_items = colon != std::string::npos && colon <= 30;
        }
        const bool plain_before = taken && !bulleted && !announced;
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
        if (bar != std::string::npos && bars.find(':') == std::string::npos &&
            li + 1 < lines.size() &&
            lines[li + 1].text.find(bars.substr(0, bar) + ":") != std::string::npos) {
            continue;
        }
        if (record_row) {
            // A labelled row is one record when a label states the meaning, and about another
            // subject when none does ("Patient: Ann Roe | DOB: ... | Allergies: ...").
            const auto colon = bars.find(": ");
            const bool labelled = colon != std::string::npos && colon < bars.find(" | ");
            if (!labelled || rowStatesMeaning(spec, bars)) {
                out.push_back(rowRecordPiece(bars, line.pos + at));
            }
            continue;
        }
        if (saysNotAssessed(t)) continue;  // "## Allergies" over "Not reviewed at this visit"
        auto pieces = linePieces(bars, line.pos + at, commas, &spec);
        const auto words = std::count(t.begin(), t.end(), ' ') + 1;
        // A table row ("Skill: SQL | Evidence: Writes queries ...") is no prose, however long.
        const bool row = bars.find(" | ") != std::string::npos;
        // A line labelled like the section's first item ("Principal: ...", then "Secondary: a;
        // b; c.") is one more item line, however long.
        const auto label_colon = t.find(": ");
        const bool like_first = labelled_items && label_colon != std::string::npos &&
                                label_colon <= 30 && pieces.size() > 1;
        const bool prose = !row && !like_first &&
                           ((t.back() == '.' && words >= 8) || (pieces.size() == 1 && words >= 14));
        if (plain_before && (prose || closingLine(t))) {
            inside = false;
            continue;
        }
        for (auto& p : pieces) out.push_back(std::move(p));
    }
    return out;
}

/// An item and its detail: "codeine (nausea)" and "amoxicillin - rash" are ("codeine", "nausea")
/// and ("amoxicillin", "rash"); an item without one has "" for its detail.
inline std::pair<std::string, std::string> itemDetail(const std::string& text) {
    const std::string t = trimmed(text);
    if (const auto open = t.find(" (");
        open != std::string::npos && !t.empty() && t.back() == ')') {
        return {trimmed(t.substr(0, open)), trimmed(t.substr(open + 2, t.size() - open - 3))};
    }
    if (const auto dash = t.find(" - "); dash != std::string::npos && dash > 0) {
        return {trimmed(t.substr(0, dash)), trimmed(t.substr(dash + 3))};
    }
    return {t, ""};
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
    // The kinds with a value type of their own also read the document line by line.
    const bool typed_items = spec.item == "dose" || spec.item == "measurement";
    const auto lines = typed_items ? doc.lines() : std::vector<DocText::Line>{};
    // A results table a PDF's text left as one line, or as its header line and a line per row
    // ("Platelets (x10^9/L) 118 131 164 150-400"), is read by its columns, not by its pieces.
    std::vector<std::pair<std::size_t, std::size_t>> flattened;  // the lines read so
    if (spec.item == "measurement") {
        static const std::regex row_line(R"(^[A-Z][A-Za-z0-9 ,'-]{0,40}? \([^()]{1,15}\) [<>]?\d)");
        for (std::size_t k = 0; k < lines.size(); ++k) {
            if (!mayHoldReferenceColumn(lines[k].text)) continue;  // no header here
            std::size_t last = k;
            while (last + 1 < lines.size() && std::regex_search(lines[last + 1].text, row_line)) {
                ++last;
            }
            const std::size_t from = lines[k].pos;
            const std::size_t to = lines[last].pos + lines[last].text.size();
            std::string block = doc.text.substr(from, to - from);
            std::replace(block.begin(), block.end(), '\n', ' ');
            const auto rows = flattenedResultRows(spec, block);
            for (const auto& f : rows) add(f.value, from + f.pos, f.len, 0.85);
            if (!rows.empty()) {
                flattened.emplace_back(from, to);
                k = last;
            }
        }
    }
    const auto inFlattened = [&](std::size_t pos) {
        return std::any_of(flattened.begin(), flattened.end(), [&](const auto& span) {
            return pos >= span.first && pos < span.second;
        });
    };
    auto pieces = sectionPieces(spec, doc);
    // No section, label or column gives any: items named in running sentences.
    if (pieces.empty() && spec.item == "text") pieces = prosePieces(spec, doc);
    // Nor any running sentence: items stated by their status or flag.
    if (pieces.empty() && spec.item == "text") pieces = statedPieces(spec, doc);
    for (const auto& piece : pieces) {
        if (saysNone(piece.text)) continue;
        if (spec.item == "dose") {
            const auto found = doses(piece.text);
            for (const auto& f : found) add(f.value, piece.pos + f.pos, f.len, 0.85);
            if (found.empty() && std::isalpha(static_cast<unsigned char>(piece.text[0])) &&
                !stoppedStatus(medicationStatus(piece.text).second)) {
                add({{"name", piece.text}, {"dose", nullptr}, {"sig", nullptr}}, piece.pos,
                    piece.len, 0.7);
            }
        } else if (spec.item == "measurement") {
            if (inFlattened(piece.pos)) continue;
            // A line's month and year ("Colorectal cancer screening: colonoscopy 06/2014") date
            // it; they measure nothing.
            static const std::regex month_year(R"(^\d{1,2}/(?:19|20)\d{2}$)");
            auto m = measurement(spec, piece.text);
            if (!m.is_null() && !(m["value"].is_string() &&
                                  std::regex_match(m["value"].get<std::string>(), month_year))) {
                add(m, piece.pos, piece.len, 0.85);
            }
        } else {
            const std::string text = valueNamed(spec, piece.text);
            nlohmann::json value = text;
            if (!spec.key.empty()) value = {{spec.key, text}};
            if (!spec.key.empty() && !spec.detail_key.empty()) {
                if (const auto [main, detail] = itemDetail(text); !detail.empty()) {
                    value = {{spec.key, main}, {spec.detail_key, detail}};
                }
            }
            add(value, piece.pos, piece.len, 0.8);
        }
    }
    // The kinds with a value type of their own: a measurement table's first row, then such
    // values anywhere in the document.
    if (typed_items) {
        if (spec.item == "measurement") {
            for (const auto& m : headedMeasurements(spec, lines)) add(m.value, m.pos, m.len, 0.7);
        }
        for (const auto& line : lines) {
            if (inFlattened(line.pos)) continue;
            const std::string clean = cleanLine(line.text);
            const auto found = spec.item == "dose" ? doses(clean) : measurements(spec, clean);
            for (const auto& f : found) add(f.value, line.pos + f.pos, f.len, 0.7);
            // A parsed table row whose first cell names a measurement of `values` ("Measure:
            // Weight | Value: 17.9 kg | Percentile: 62nd") is that measurement, under any
            // heading.
            const std::size_t at = line.text.find_first_not_of(' ');
            if (spec.item == "measurement" && at != std::string::npos &&
                line.text.find(" | ") != std::string::npos) {
                const ListPiece row = rowRecordPiece(line.text.substr(at), line.pos + at);
                const auto m = measurement(spec, row.text);
                if (m.is_object() && namesValue(spec, m.value("name", ""))) {
                    add(m, row.pos, row.len, 0.7);
                }
            }
        }
    }
    return out;
}

}  // namespace docintel::plugins

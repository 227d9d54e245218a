#pragma once

// The units a typed field is read from (docs/decisions/0064): a document's lines, long lines cut
// into sentences, each with the heading it sits under; a table's data cells read as
// "<column header>: <cell>". Markdown emphasis and dotted leaders ("Name: ..... Ann") are
// blanked so that a label reads the same in every layout; offsets into the document text are
// kept for citations. Header-only.

#include <algorithm>
#include <cctype>
#include <regex>
#include <string>
#include <vector>

#include "shared/doc_text.h"
#include "shared/field_spec.h"
#include "shared/line_cuts.h"

namespace docintel::plugins {

struct FieldUnit {
    std::size_t pos = 0;  ///< where the unit starts in DocText::text
    std::size_t len = 0;
    std::string text;     ///< the unit, cleaned (same length as the span unless synthetic)
    std::string heading;  ///< the heading line above it, cleaned; "" when none
    bool is_heading = false;
    bool caption = false;    ///< a caption line read with the line under it as its value
    bool day_first = false;  ///< the document writes its numeric dates day first
};

/// The value of `spec` in a unit and how good it is; score 0 when none.
struct Candidate {
    double score = 0;
    nlohmann::json value;
    const FieldUnit* unit = nullptr;
    std::size_t value_pos = 0;
};

/// `line` with a fax form's tick boxes drawn in underscores written as brackets, same length: a
/// mark between underscores ("ROUTINE _X_") as "[X]", and a short blank before an option's word
/// ("URGENT __ ROUTINE") as "[]". Other underscores (emphasis, a signature's line) stay.
inline void underscoreBoxes(std::string& line) {
    for (std::size_t i = line.find('_'); i != std::string::npos; i = line.find('_', i)) {
        std::size_t end = i;
        while (end < line.size() && (line[end] == '_' || line[end] == 'X' || line[end] == 'x')) {
            ++end;
        }
        const bool alone =
            (i == 0 || line[i - 1] == ' ') && (end == line.size() || line[end] == ' ');
        const std::string run = line.substr(i, end - i);
        const auto marks = std::count_if(run.begin(), run.end(), [](char c) { return c != '_'; });
        const bool ticked = marks == 1 && run.front() == '_' && run.back() == '_';
        const bool blank = marks == 0 && run.size() >= 2 && run.size() <= 4 &&
                           end + 1 < line.size() &&
                           std::isalpha(static_cast<unsigned char>(line[end + 1]));
        if (alone && (ticked || blank)) {
            for (std::size_t k = i; k < end; ++k) {
                if (line[k] == '_') line[k] = ' ';
            }
            line[i] = '[';
            line[end - 1] = ']';
        }
        i = end;
    }
}

/// `line` with "**", "#", "|" and runs of 3+ dots blanked (a run of dots or a "|" becomes ":"
/// so that it reads as a label separator) and tick boxes of underscores as brackets
/// (underscoreBoxes); same length.
inline std::string cleanLine(std::string line) {
    if (line.find('_') != std::string::npos) underscoreBoxes(line);
    for (std::size_t i = 0; i < line.size(); ++i) {
        // A unit's number after a comma ("27 Jalan Seruling, #08-14") keeps its "#".
        const bool unit_number = line[i] == '#' && i >= 2 && line[i - 2] == ',' &&
                                 i + 1 < line.size() &&
                                 std::isdigit(static_cast<unsigned char>(line[i + 1]));
        if (line[i] == '*' || (line[i] == '#' && !unit_number) ||
            (line[i] == '_' && (i == 0 || line[i - 1] == ' '))) {
            line[i] = ' ';
        } else if (line[i] == '|') {
            line[i] = ':';
        } else if (line[i] == '.' && i + 2 < line.size() && line[i + 1] == '.' &&
                   line[i + 2] == '.') {
            line[i] = ':';
            while (i + 1 < line.size() && line[i + 1] == '.') line[++i] = ' ';
        }
    }
    return line;
}

/// A heading: a short line without a closing full stop that is in capitals, numbered
/// ("ARTICLE 2. TERM", "2. RENT", "Section 4 - Deposit"), set between dashes ("-- Member
/// Information ---"), or a short title that opens a passage (`opens_passage`: the chunker starts
/// one at each heading block, whose "#" a Markdown parser drops).
inline bool isHeadingLine(const std::string& raw, const std::string& clean,
                          bool opens_passage = false) {
    const std::string t = trimmed(clean);
    // A plain-text export's divider heading ("-- Member Information -----", "== Plan ==").
    static const std::regex divider(R"(^(?:--+|==+)\s*[A-Za-z][^:\-=]{0,50}?\s*(?:--+|==+)?$)");
    if (!t.empty() && t.size() < 120 && std::regex_match(t, divider)) return true;
    // A note in brackets after a title ("Discharge vital signs (2027-08-06, 08:00)") is no
    // label's colon and no sentence's comma.
    static const std::regex note(R"(\s*\([^()]*\)$)");
    const std::string core = std::regex_replace(t, note, "");
    if (t.empty() || t.size() > 70 ||
        std::regex_replace(trimmed(raw), note, "").find(':') != std::string::npos) {
        return false;
    }
    if (raw.rfind("#", 0) == 0) return true;
    if (opens_passage && core.size() <= 40) {
        // A numbered title ("6. Early Termination") is read without its number.
        static const std::regex number(R"(^\d{1,2}\.\s+)");
        const std::string title = std::regex_replace(core, number, "");
        if (!title.empty() && std::isupper(static_cast<unsigned char>(title[0])) &&
            title.find_last_of(".,;") == std::string::npos &&
            std::count(title.begin(), title.end(), ' ') <= 4) {
            return true;
        }
    }
    if (t.back() == '.' && t.find(' ') == std::string::npos) return false;
    int upper = 0, lower_count = 0;
    // A capitals heading of two words or more may end in a note: "REQUESTING PROVIDER
    // (treating therapist)"; a line with figures ("WBC 16.2 H (4.0-11.0)") or a list item ("-
    // SQL (reporting queries)") is no heading for it.
    static const std::regex words(R"(^[A-Z][A-Z&/'-]*(?: [A-Z&/'-]+)+$)");
    std::string bare = core;
    if (!std::regex_match(bare, words)) bare = t;
    for (const char c : bare) {
        if (std::isupper(static_cast<unsigned char>(c))) ++upper;
        if (std::islower(static_cast<unsigned char>(c))) ++lower_count;
    }
    if (upper >= 3 && lower_count == 0) return true;
    static const std::regex numbered(R"(^(?:ARTICLE|Article|SECTION|Section)\s+[0-9IVX]+\b)");
    return std::regex_search(t, numbered) && t.size() < 50;
}

/// The cells of a table row "| a | b |" with their offsets in the row.
inline std::vector<std::pair<std::size_t, std::string>> tableCells(const std::string& row) {
    std::vector<std::pair<std::size_t, std::string>> out;
    std::size_t start = row.find('|');
    while (start != std::string::npos) {
        const std::size_t end = row.find('|', start + 1);
        if (end == std::string::npos) break;
        out.emplace_back(start + 1, trimmed(row.substr(start + 1, end - start - 1)));
        start = end;
    }
    return out;
}

/// Whether a unit is a message's sender or recipients line ("From: Cascade Infusion Services",
/// "To: Ann Roe, MD", "Cc:"): it names who writes and who reads, not a text of the message.
inline bool isAddressLine(const std::string& unit_text) {
    static const std::regex address(R"(^\s*(?:from|to|cc|bcc|attn|attention)\s*:)",
                                    std::regex::icase);
    return std::regex_search(unit_text, address);
}

/// Whether a unit is a line of a message's header ("From: Ann Roe <ann@x.example>", "To:",
/// "Subject:"): it names the message's sender and recipients, not the parties of what the
/// message is about.
inline bool isMessageHeader(const std::string& unit_text) {
    static const std::regex header(R"(^\s*(?:from|to|cc|bcc|sent|date|subject|reply-to)\s*:)",
                                   std::regex::icase);
    return std::regex_search(unit_text, header);
}

/// The cells of a table row as a document parser writes it ("Period: 2025 | Monthly Base
/// Rent: $4,250.00": cells between " | ", each after the first row prefixed with its column's
/// header) with their offsets in the row; empty when the line is no such row.
inline std::vector<std::pair<std::size_t, std::string>> parsedRowCells(const std::string& line) {
    std::vector<std::pair<std::size_t, std::string>> out;
    if (line.find(" | ") == std::string::npos || trimmed(line).rfind("|", 0) == 0) return out;
    std::size_t start = 0;
    while (start <= line.size()) {
        std::size_t end = line.find(" | ", start);
        if (end == std::string::npos) end = line.size();
        out.emplace_back(start, line.substr(start, end - start));
        start = end + 3;
    }
    return out;
}

/// A numbered row of three or more cells read as "<label>: <value>" ("| 4 | Premises | Suite
/// 140, ... | 1.1 |" → "Premises: Suite 140, ..."): an abstract's table of terms numbers its
/// rows and cites a section beside the term and its value. The label is the cell after the
/// row's number when it opens with a letter and holds no ":", the value the cell after it; ""
/// when the row has no such pair. `bare` are the row's cells without column headers.
inline std::string labelledRow(const std::vector<std::string>& bare) {
    if (bare.size() < 3) return {};
    static const std::regex row_number(R"(^(?:#|No\.?)?\s*\d{1,3}[.)]?$)", std::regex::icase);
    std::size_t k = 0;
    while (k < bare.size() && std::regex_match(bare[k], row_number)) ++k;
    // Only a numbered row: a table of three columns without numbers ("Interest income |
    // 1099-INT | 2,345.67") names its values by its column headers, not by its first cell.
    if (k != 1 || k + 1 >= bare.size()) return {};
    const std::string& label = bare[k];
    if (label.empty() || !std::isalpha(static_cast<unsigned char>(label[0])) ||
        label.find(':') != std::string::npos || bare[k + 1].empty()) {
        return {};
    }
    return label + ": " + bare[k + 1];
}

/// Whether a parsed table's first row is a row of data, not column names: a cell of it runs to
/// more than eight words ("Premises | the whole of the third floor of the building ..."). The
/// parser still prefixes every later cell with it, which then reads as a false label.
inline bool headerIsData(const std::vector<std::pair<std::size_t, std::string>>& header) {
    return std::any_of(header.begin(), header.end(), [](const auto& cell) {
        return std::count(cell.second.begin(), cell.second.end(), ' ') >= 8;
    });
}

/// A parsed table row's cells without the column headers the parser put before them
/// ("Patient: Date of birth" under a "Patient" header is "Date of birth"), trimmed.
inline std::vector<std::string> bareCells(
    const std::vector<std::pair<std::size_t, std::string>>& cells,
    const std::vector<std::pair<std::size_t, std::string>>& header) {
    std::vector<std::string> bare;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const std::string& cell = cells[c].second;
        std::string b = cell;
        if (c < header.size() && !header[c].second.empty() &&
            cell.rfind(header[c].second + ": ", 0) == 0) {
            b = cell.substr(header[c].second.size() + 2);
        }
        bare.push_back(trimmed(b));
    }
    return bare;
}

/// The units of a parsed table row (parsedRowCells): each cell ("Monthly Base Rent: $4,250.00")
/// and, for a row of two cells, the row read as "<first cell>: <second cell>" without the
/// column headers: a two-column table of labels and values ("| Date of birth | Nov 2, 1978 |")
/// whose first row the parser took for a header ("Patient: Date of birth | Harold Roe: Nov 2,
/// 1978"); a longer row as its term and value (labelledRow). `header` is the table's first row.
inline void parsedRowUnits(const DocText::Line& line,
                           const std::vector<std::pair<std::size_t, std::string>>& cells,
                           const std::vector<std::pair<std::size_t, std::string>>& header,
                           const std::string& heading, std::vector<FieldUnit>& out) {
    const std::vector<std::string> bare = bareCells(cells, header);
    // First, so that it wins a tie with the header-prefixed reading.
    if (cells.size() == 2 && !bare[0].empty() && !bare[1].empty() &&
        bare[0].find(':') == std::string::npos) {
        out.push_back(
            {line.pos, line.text.size(), cleanLine(bare[0] + ": " + bare[1]), heading, false});
    }
    if (const std::string pair = labelledRow(bare); !pair.empty()) {
        out.push_back({line.pos, line.text.size(), cleanLine(pair), heading, false});
    }
    // Under a first row of data (headerIsData) a cell's prefix is another row's text.
    const bool data_header = headerIsData(header);
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const auto& [offset, cell] = cells[c];
        const std::string& text = data_header ? bare[c] : cell;
        out.push_back({line.pos + offset + (cell.size() - text.size()), text.size(),
                       cleanLine(text), heading, false});
    }
}

/// The units of a document, in reading order; each knows whether the document writes its
/// numeric dates day first.
inline std::vector<FieldUnit> fieldUnits(const DocText& doc) {
    std::vector<FieldUnit> out;
    const auto lines = doc.lines();
    std::string heading;
    std::vector<std::pair<std::size_t, std::string>> header;         // of the current table
    std::vector<std::pair<std::size_t, std::string>> parsed_header;  // of a parsed table
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const auto& line = lines[li];
        const std::string t = trimmed(line.text);
        if (t.empty()) {
            header.clear();
            parsed_header.clear();
            continue;
        }
        if (const auto cells = parsedRowCells(line.text); !cells.empty()) {
            // Its cells, and the row as a whole.
            const std::size_t first = out.size();
            bool names_columns = false;
            const bool first_row = parsed_header.empty();
            if (first_row) {
                parsed_header = cells;
                // The first row of three or more cells that the next row's cells are labelled
                // with ("CPT | Service | Units" over "CPT: 96130 | Service: ...") names the
                // columns: it heads them and states no value. (A first row of two cells may be
                // a label and its value that the parser took for a header.)
                const auto next = li + 1 < lines.size() ? parsedRowCells(lines[li + 1].text)
                                                        : decltype(parsedRowCells("")){};
                names_columns = cells.size() >= 3 && next.size() == cells.size() &&
                                next[0].second.rfind(cells[0].second + ": ", 0) == 0;
            }
            parsedRowUnits(line, cells, parsed_header, heading, out);
            // The row as a whole; under a first row of data (headerIsData) without the prefixes,
            // which are another row's text.
            std::string whole = line.text;
            if (!first_row && headerIsData(parsed_header)) {
                whole.clear();
                for (const auto& cell : bareCells(cells, parsed_header)) {
                    whole += (whole.empty() ? "" : " | ") + cell;
                }
            }
            out.push_back({line.pos, line.text.size(), cleanLine(whole), heading, false});
            for (std::size_t u = first; u < out.size(); ++u) out[u].is_heading = names_columns;
            continue;
        }
        parsed_header.clear();
        if (t[0] == '|') {
            const auto cells = tableCells(line.text);
            const bool rule = t.find("---") != std::string::npos;
            const bool next_is_rule = li + 1 < lines.size() &&
                                      lines[li + 1].text.find("---") != std::string::npos &&
                                      trimmed(lines[li + 1].text).rfind("|", 0) == 0;
            if (rule) continue;
            if (next_is_rule) {
                header = cells;
            }
            // The row's term and value ("| 4 | Premises | Suite 140 | 1.1 |" → "Premises:
            // Suite 140"), first so that it wins a tie with the row as a whole ...
            if (!next_is_rule) {
                std::vector<std::string> bare;
                for (const auto& cell : cells) bare.push_back(cell.second);
                if (const std::string pair = labelledRow(bare); !pair.empty()) {
                    out.push_back({line.pos, line.text.size(), cleanLine(pair), heading, false});
                }
            }
            // ... the row as a whole ("Landlord: Greyfield Flex Parks LLC") ...
            out.push_back({line.pos, line.text.size(), cleanLine(line.text), heading, false});
            // ... and each cell under its column header ("Monthly Base Rent: $4,250.00").
            if (!next_is_rule && !header.empty()) {
                for (std::size_t c = 0; c < cells.size() && c < header.size(); ++c) {
                    if (cells[c].second.empty()) continue;
                    out.push_back({line.pos + cells[c].first, cells[c].second.size() + 2,
                                   cleanLine(header[c].second + ": " + cells[c].second), heading,
                                   false});
                }
            }
            continue;
        }
        header.clear();
        // A page's running footer ("Page 2", "Page 2 of 9", "- 2 -") states nothing and would
        // cut an article's clauses apart.
        static const std::regex page_mark(
            R"(^(?:Page\s+\d{1,4}(?:\s+of\s+\d{1,4})?|-\s*\d{1,4}\s*-)$)", std::regex::icase);
        if (std::regex_match(t, page_mark)) continue;
        const std::string clean = cleanLine(line.text);
        // A SOAP note's letter on a line of its own ("A", "A/P:") heads its section.
        if (const SoapLabel soap = soapLabel(t); soap.len >= t.size()) {
            heading = soap.section;
            out.push_back({line.pos, line.text.size(), clean, heading, true});
            continue;
        }
        // A chunk after the first opens at a heading block (the document's start is no sign).
        if (isHeadingLine(line.text, clean,
                          line.pos > 0 && doc.opensPassage(line.pos) && li + 1 < lines.size())) {
            heading = trimmed(clean);
            out.push_back({line.pos, line.text.size(), clean, heading, true});
            continue;
        }
        // A short line that opens what the next line says ("Sincerely,", "Diagnoses:") is read
        // with it; so is a caption of a few words ("Current position") as its label.
        const char last = line.text.back();
        // ... or a label broken after a joining word ("(12) Notices to" / "Landlord ....").
        static const std::regex dangling(R"(\b(?:to|of|for|and|by|the)$)", std::regex::icase);
        const bool opens = last == ':' || last == ',' || std::regex_search(t, dangling);
        // ... and a caption over tick boxes ("C. Test selection (tick one)") over its options.
        static const std::regex ticks(R"(\((?:tick|check|select|mark)\b[^()]*\)$)",
                                      std::regex::icase);
        const bool caption = (std::isupper(static_cast<unsigned char>(t[0])) &&
                              std::count(t.begin(), t.end(), ' ') < 4 &&
                              t.find_first_of(":.;|") == std::string::npos) ||
                             (last == ')' && std::regex_search(t, ticks));
        if (t.size() < 40 && (opens || caption) && li + 1 < lines.size() &&
            !trimmed(lines[li + 1].text).empty()) {
            const auto& next = lines[li + 1];
            out.push_back({line.pos, next.pos + next.text.size() - line.pos,
                           clean + (opens ? " " : ": ") + cleanLine(next.text), heading, false,
                           !opens});
        }
        for (const auto& [s, n] : sentences(clean)) {
            // A folded form ("Name: A Date of birth: B") is read one label at a time.
            const std::string sentence = clean.substr(s, n);
            std::vector<std::size_t> cuts = labelStarts(sentence);
            // "Attn: Trust Officer, 1450 Farnam Street": an address's attention line is part
            // of the address, not a field of its own.
            cuts.erase(std::remove_if(cuts.begin(), cuts.end(),
                                      [&](std::size_t at) {
                                          return typed::lower(sentence.substr(at, 5)) == "attn:" ||
                                                 typed::lower(sentence.substr(at, 10)) ==
                                                     "attention:";
                                      }),
                       cuts.end());
            if (cuts.size() < 2) cuts.clear();
            if (cuts.empty() || cuts.front() != 0) cuts.insert(cuts.begin(), 0);
            for (std::size_t k = 0; k < cuts.size(); ++k) {
                const std::size_t from = cuts[k];
                const std::size_t to = k + 1 < cuts.size() ? cuts[k + 1] : sentence.size();
                if (to <= from) continue;
                const std::size_t cut_unit = out.size();
                out.push_back({line.pos + s + from, to - from, sentence.substr(from, to - from),
                               heading, false});
                // Two columns folded into one line ("PAYER'S name: RECIPIENT'S name: Ostrander
                // LLC Rafferty Roe"): a label without a value reads the value after the next one.
                const std::size_t colon = sentence.find(':', from);
                if (k + 1 < cuts.size() && colon != std::string::npos && colon < to &&
                    trimmed(sentence.substr(colon + 1, to - colon - 1)).empty()) {
                    const std::size_t to2 = k + 2 < cuts.size() ? cuts[k + 2] : sentence.size();
                    const std::size_t colon2 = sentence.find(':', to);
                    if (colon2 != std::string::npos && colon2 < to2) {
                        out.push_back({line.pos + s + from, to2 - from,
                                       sentence.substr(from, colon + 1 - from) +
                                           sentence.substr(colon2 + 1, to2 - colon2 - 1),
                                       heading, false});
                    }
                }
                // A Title Case label may start a word or two earlier than its last capitalised
                // word ("Policy Number: X", "Monthly Base Rent: X"): read that way too.
                std::size_t wide = from;
                for (int words = 0; words < 2 && k > 0 && wide >= 2 && sentence[wide - 1] == ' ';
                     ++words) {
                    std::size_t w = wide - 1;
                    while (w > cuts[k - 1] && sentence[w - 1] != ' ' && sentence[w - 1] != ':') --w;
                    if (w <= cuts[k - 1] ||
                        !std::isupper(static_cast<unsigned char>(sentence[w]))) {
                        break;
                    }
                    wide = w;
                }
                if (wide < from) {
                    out.push_back({line.pos + s + wide, to - wide, sentence.substr(wide, to - wide),
                                   heading, false});
                }
                // The next label took a Title-case word as the head of its short code ("Member
                // ID:"), but that word may end this field's value ("Member: Ann Vasquez-Oakes
                // DOB: ..."): read this field up to the code as well.
                if (k + 1 < cuts.size()) {
                    static const std::regex head_and_code(R"(^\S+\s+([A-Z]{2,3})\s*:)");
                    std::smatch m;
                    const std::string next = sentence.substr(to);
                    if (std::regex_search(next, m, head_and_code)) {
                        const std::size_t code = to + static_cast<std::size_t>(m.position(1));
                        out.push_back({line.pos + s + from, code - from,
                                       sentence.substr(from, code - from), heading, false});
                        // The word ends a person's name when the name before it is written
                        // last name first or ends in an initial ("Name: Oduya, Fenella Margit
                        // DOB: ...", "Member: Bartholomew S. Achebe-Lindgren DOB: ..."): only
                        // the longer reading.
                        static const std::regex initial(R"(\b[A-Z]\.?$)");
                        const auto value = [&](std::size_t end) {
                            return trimmed(sentence.substr(colon + 1, end - colon - 1));
                        };
                        if (colon < to && typed::personName(value(code)) &&
                            (typed::invertedName(value(code)) ||
                             std::regex_search(value(to), initial))) {
                            out[cut_unit] = out.back();
                            out.pop_back();
                        }
                    }
                }
            }
        }
    }
    if (typed::writesDayFirst(doc.text)) {
        for (auto& u : out) u.day_first = true;
    }
    return out;
}

}  // namespace docintel::plugins

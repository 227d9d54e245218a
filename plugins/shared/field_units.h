#pragma once

// The units a typed field is read from (docs/decisions/0064): a document's lines, long lines cut
// into sentences, each with the heading it sits under; a table's data cells read as
// "<column header>: <cell>". Markdown emphasis and dotted leaders ("Name: ..... Ann") are
// blanked so that a label reads the same in every layout; offsets into the document text are
// kept for citations. Header-only.

#include <string>
#include <vector>

#include "shared/doc_text.h"

namespace docintel::plugins {

struct FieldUnit {
    std::size_t pos = 0;  ///< where the unit starts in DocText::text
    std::size_t len = 0;
    std::string text;     ///< the unit, cleaned (same length as the span unless synthetic)
    std::string heading;  ///< the heading line above it, cleaned; "" when none
    bool is_heading = false;
};

/// `line` with "**", "#", "|" and runs of 3+ dots blanked (a run of dots or a "|" becomes ":"
/// so that it reads as a label separator); same length.
inline std::string cleanLine(std::string line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '*' || line[i] == '#' ||
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
/// ("ARTICLE 2. TERM", "2. RENT", "Section 4 - Deposit") or was a Markdown heading.
inline bool isHeadingLine(const std::string& raw, const std::string& clean) {
    const std::string t = trimmed(clean);
    if (t.empty() || t.size() > 70 || raw.find(':') != std::string::npos) return false;
    if (raw.rfind("#", 0) == 0) return true;
    if (t.back() == '.' && t.find(' ') == std::string::npos) return false;
    int upper = 0, lower_count = 0;
    for (const char c : t) {
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

/// Sentences of a long line: cut after ". " before a capital, a digit or "(" unless the word
/// before is an abbreviation or an initial.
inline std::vector<std::pair<std::size_t, std::size_t>> sentences(const std::string& line) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    if (line.size() <= 260) {
        out.emplace_back(0, line.size());
        return out;
    }
    static const std::vector<std::string> abbreviations = {"Inc", "Mr", "Ms",   "Mrs", "Dr",  "No",
                                                           "St",  "Co", "Corp", "Ltd", "Ste", "vs"};
    std::size_t start = 0;
    for (std::size_t i = 1; i + 2 < line.size(); ++i) {
        if (line[i] != '.' || line[i + 1] != ' ') continue;
        const char next = line[i + 2];
        if (!std::isupper(static_cast<unsigned char>(next)) &&
            !std::isdigit(static_cast<unsigned char>(next)) && next != '(') {
            continue;
        }
        std::size_t w = i;
        while (w > 0 && std::isalpha(static_cast<unsigned char>(line[w - 1]))) --w;
        const std::string word = line.substr(w, i - w);
        if (word.size() <= 1 ||
            std::find(abbreviations.begin(), abbreviations.end(), word) != abbreviations.end()) {
            continue;
        }
        out.emplace_back(start, i + 1 - start);
        start = i + 2;
    }
    if (start < line.size()) out.emplace_back(start, line.size() - start);
    return out;
}

/// The units of a document, in reading order.
inline std::vector<FieldUnit> fieldUnits(const DocText& doc) {
    std::vector<FieldUnit> out;
    const auto lines = doc.lines();
    std::string heading;
    std::vector<std::pair<std::size_t, std::string>> header;  // of the current table
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const auto& line = lines[li];
        const std::string t = trimmed(line.text);
        if (t.empty()) {
            header.clear();
            continue;
        }
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
            // The row as a whole ("Landlord: Greyfield Flex Parks LLC") ...
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
        const std::string clean = cleanLine(line.text);
        if (isHeadingLine(line.text, clean)) {
            heading = trimmed(clean);
            out.push_back({line.pos, line.text.size(), clean, heading, true});
            continue;
        }
        // A short line that opens what the next line says ("Sincerely,", "Diagnoses:") is read
        // with it.
        const char last = line.text.back();
        if (t.size() < 40 && (last == ':' || last == ',') && li + 1 < lines.size() &&
            !trimmed(lines[li + 1].text).empty()) {
            const auto& next = lines[li + 1];
            out.push_back({line.pos, next.pos + next.text.size() - line.pos,
                           clean + " " + cleanLine(next.text), heading, false});
        }
        for (const auto& [s, n] : sentences(clean)) {
            out.push_back({line.pos + s, n, clean.substr(s, n), heading, false});
        }
    }
    return out;
}

}  // namespace docintel::plugins

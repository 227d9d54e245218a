#include "ingest/text_parser.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "ingest/line_breaks.h"
#include "ingest/text_util.h"

namespace docintel::ingest {

namespace {

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

bool isWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// A Markdown line's inline markup taken off, its text kept as a reader sees it: emphasis
/// ("**Tutor:** Chiara" is "Tutor: Chiara"; "*Passo dopo passo 1*", "__x__", "_x_" between
/// words' edges, "~~x~~"), code spans ("`apply`" is "apply"), links and images ("[the
/// guide](https://x.example/g)" is "the guide (https://x.example/g)", the address kept
/// unless it is the text or a place in the page; "![alt](img.png)" is "alt") and backslash
/// escapes ("\*" is "*"). A marker without its closing one on the line stays as written, as
/// does a list item's opening "* ".
std::string markdownInline(const std::string& line) {
    std::string out;
    out.reserve(line.size());
    const std::size_t n = line.size();
    for (std::size_t i = 0; i < n;) {
        const char c = line[i];
        if (c == '\\' && i + 1 < n && std::ispunct(static_cast<unsigned char>(line[i + 1]))) {
            out += line[i + 1];
            i += 2;
            continue;
        }
        if (c == '`') {
            const auto close = line.find('`', i + 1);
            if (close != std::string::npos && close > i + 1) {
                out.append(line, i + 1, close - i - 1);
                i = close + 1;
                continue;
            }
        }
        if (c == '[' || (c == '!' && i + 1 < n && line[i + 1] == '[')) {
            const std::size_t open = c == '!' ? i + 1 : i;
            const auto text_end = line.find("](", open);
            const auto url_end =
                text_end == std::string::npos ? text_end : line.find(')', text_end);
            if (url_end != std::string::npos && line.find(']', open) == text_end) {
                const std::string text = markdownInline(line.substr(open + 1, text_end - open - 1));
                std::string url = line.substr(text_end + 2, url_end - text_end - 2);
                if (url.rfind("mailto:", 0) == 0) url.erase(0, 7);
                out += text;
                if (c != '!' && !url.empty() && url[0] != '#' && url != text) {
                    out += (text.empty() ? "" : " (") + url + (text.empty() ? "" : ")");
                }
                i = url_end + 1;
                continue;
            }
        }
        if (c == '*' || c == '_' || c == '~') {
            std::size_t run = 1;
            while (i + run < n && line[i + run] == c && run < 2) ++run;
            if (c == '~' && run < 2) {
                out += c;
                ++i;
                continue;
            }
            const std::string marker(run, c);
            const bool opens = i + run < n &&
                               !std::isspace(static_cast<unsigned char>(line[i + run])) &&
                               !(c == '_' && i > 0 && isWordByte(line[i - 1]));
            auto close = opens ? line.find(marker, i + run + 1) : std::string::npos;
            while (close != std::string::npos &&
                   (std::isspace(static_cast<unsigned char>(line[close - 1])) ||
                    (c == '_' && close + run < n && isWordByte(line[close + run])))) {
                close = line.find(marker, close + 1);
            }
            if (close != std::string::npos) {
                out += markdownInline(line.substr(i + run, close - i - run));
                i = close + run;
                continue;
            }
            out.append(line, i, run);
            i += run;
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

/// A Markdown document's lines with their inline markup taken off (markdownInline), but those
/// of fenced code blocks, which are kept as written.
std::vector<std::string> markdownLines(std::vector<std::string> lines) {
    bool code = false;
    for (auto& line : lines) {
        if (trimmed(line).rfind("```", 0) == 0) {
            code = !code;
        } else if (!code) {
            line = markdownInline(line);
        }
    }
    return lines;
}

// "- x", "* x", "+ x", "1. x" → the item text; "" when the line is not a list item.
std::string listItemText(const std::string& line) {
    std::string t = trimmed(line);
    if (t.size() > 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ') {
        return t.substr(2);
    }
    std::size_t i = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i > 0 && i + 1 < t.size() && (t[i] == '.' || t[i] == ')') && t[i + 1] == ' ') {
        return t.substr(i + 2);
    }
    return {};
}

std::vector<std::string> pipeCells(const std::string& line) {
    std::string t = trimmed(line);
    if (!t.empty() && t.front() == '|') t.erase(0, 1);
    if (!t.empty() && t.back() == '|') t.pop_back();
    std::vector<std::string> cells;
    std::string cell;
    for (char c : t) {
        if (c == '|') {
            cells.push_back(trimmed(cell));
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells.push_back(trimmed(cell));
    return cells;
}

/// The cells of a row of a fixed-width table or form ("Test      Result   Units", "Patient: Ann
/// Roe          DOB: 1990-01-02"), split at runs of three or more spaces or at tabs, with the
/// column each starts at; empty when the line has no such gap or is a dotted leader's line.
std::vector<std::pair<std::size_t, std::string>> alignedCells(const std::string& line) {
    std::vector<std::pair<std::size_t, std::string>> cells;
    if (line.find("....") != std::string::npos) return cells;
    std::size_t i = line.find_first_not_of(" \t");
    while (i != std::string::npos && i < line.size()) {
        std::size_t end = i;
        while (end < line.size() && line[end] != '\t' && line.compare(end, 3, "   ") != 0) ++end;
        cells.emplace_back(i, trimmed(line.substr(i, end - i)));
        i = line.find_first_not_of(" \t", end);
    }
    if (cells.size() < 2) cells.clear();
    return cells;
}

/// How many columns apart two start columns are.
std::size_t columnGap(std::size_t a, std::size_t b) { return a > b ? a - b : b - a; }

/// A fixed-width row's cells placed under the columns of the table's first row (a cell starts
/// near its column's start; an empty cell leaves its column empty).
std::vector<std::string> underColumns(const std::vector<std::pair<std::size_t, std::string>>& row,
                                      const std::vector<std::size_t>& columns) {
    std::vector<std::string> out;
    if (row.size() >= columns.size()) {
        for (const auto& [at, cell] : row) out.push_back(cell);
        return out;
    }
    out.resize(columns.size());
    std::size_t next = 0;
    for (const auto& [at, cell] : row) {
        std::size_t best = next;
        for (std::size_t c = next; c < columns.size(); ++c) {
            if (columnGap(columns[c], at) < columnGap(columns[best], at)) best = c;
        }
        out[best] = cell;
        next = best + 1;
        if (next >= columns.size()) break;
    }
    return out;
}

/// A line drawn of "-", "=", "_" or "*" (a fixed-width report's rule): no text.
bool isRuler(const std::string& t) {
    return t.size() >= 3 && t.find_first_not_of("-=_* ") == std::string::npos;
}

/// A fixed-width table being read: where its columns start and its header's cells (none when
/// its first row held data).
struct FixedTable {
    std::vector<std::size_t> columns;
    std::vector<std::string> header;

    /// Whether every cell of `row` starts within two columns of one of the table's.
    bool aligns(const std::vector<std::pair<std::size_t, std::string>>& row) const {
        return !columns.empty() && std::all_of(row.begin(), row.end(), [&](const auto& cell) {
            return std::any_of(columns.begin(), columns.end(),
                               [&](std::size_t c) { return columnGap(c, cell.first) <= 2; });
        });
    }
};

/// A plain-text heading: a short line in capitals only ("EASTBROOK TOWN COUNCIL", "ARTICLE 2.
/// TERM"), not a label ("PLAN:", "SITE: RENO"), a list item, a sentence (a document written all
/// in capitals) nor an address line ("123 MAIN ST", "SPRINGFIELD, IL 62701"). Markdown says its
/// headings with "#".
bool isCapitalsHeading(const std::string& t) {
    if (t.empty() || t.size() > 80 || t.find(": ") != std::string::npos ||
        t.find(',') != std::string::npos || std::isdigit(static_cast<unsigned char>(t[0])) ||
        std::string(":,;.!?").find(t.back()) != std::string::npos || !listItemText(t).empty()) {
        return false;
    }
    int letters = 0;
    for (const char c : t) {
        const auto u = static_cast<unsigned char>(c);
        if (std::islower(u)) return false;
        letters += std::isupper(u) != 0;
    }
    return letters >= 4;
}

bool isPipeSeparator(const std::string& line) {
    std::string t = trimmed(line);
    return t.find('-') != std::string::npos && t.find('|') != std::string::npos &&
           t.find_first_not_of("|-: \t") == std::string::npos;
}

void parseLines(const std::vector<std::string>& lines, bool markdown, BlockBuilder& out) {
    const LineBreaks breaks(lines);
    std::string para;
    bool para_item = false;  // the paragraph is a list item's text
    std::string last_line;   // the paragraph's last line as written
    FixedTable fixed;        // kept over blank lines, rules and group captions
    auto flush = [&] {
        if (para.empty()) return;  // an empty paragraph would still end the table
        if (para_item) {
            out.listItem(para);
        } else {
            out.paragraph(para);
        }
        para.clear();
        para_item = false;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        std::string t = trimmed(line);
        if (markdown && t.rfind("```", 0) == 0) {
            flush();
            std::string code;
            for (++i; i < lines.size() && trimmed(lines[i]).rfind("```", 0) != 0; ++i) {
                code += lines[i] + "\n";
            }
            out.paragraph(code);
            continue;
        }
        if (t.empty()) {
            flush();
            out.endTable();
            continue;
        }
        if (isRuler(t)) {
            flush();
            continue;
        }
        if (const auto cells = alignedCells(line); !cells.empty()) {
            flush();
            std::vector<std::string> texts;
            for (const auto& c : cells) texts.push_back(c.second);
            // A row under the table's columns is labelled by its header; a row that reads as a
            // header after none, or of labels with values ("DOB: ...") after one, starts anew.
            const bool labels = std::any_of(texts.begin(), texts.end(), [](const auto& c) {
                return c.find(": ") != std::string::npos;
            });
            if (fixed.aligns(cells) && !(fixed.header.empty() && readsAsHeaderRow(texts)) &&
                !(!fixed.header.empty() && labels)) {
                out.labelledRow(underColumns(cells, fixed.columns), fixed.header);
                continue;
            }
            fixed.columns.clear();
            for (const auto& c : cells) fixed.columns.push_back(c.first);
            fixed.header = readsAsHeaderRow(texts) ? texts : std::vector<std::string>{};
            out.labelledRow(texts, {});
            continue;
        }
        // A group's caption between a table's rows ("COMPLETE BLOOD COUNT") keeps the table.
        if (t.size() > 40 || t.find(':') != std::string::npos) fixed = {};
        if (markdown && t[0] == '#') {
            std::size_t level = t.find_first_not_of('#');
            if (level != std::string::npos && level <= 6 && t[level] == ' ') {
                flush();
                out.heading(static_cast<int>(level), t.substr(level + 1));
                continue;
            }
        }
        if (markdown && t.find('|') != std::string::npos && i + 1 < lines.size() &&
            isPipeSeparator(lines[i + 1])) {
            flush();
            out.endTable();
            out.tableRow(pipeCells(line));
            ++i;
            for (; i + 1 < lines.size() && trimmed(lines[i + 1]).find('|') != std::string::npos;
                 ++i) {
                out.tableRow(pipeCells(lines[i + 1]));
            }
            out.endTable();
            continue;
        }
        // A heading opens a paragraph; lines of capitals one after another are one heading (a
        // title over two lines).
        if (!markdown && para.empty() && isCapitalsHeading(t)) {
            std::string heading = t;
            for (; i + 1 < lines.size() && isCapitalsHeading(trimmed(lines[i + 1])) &&
                   alignedCells(lines[i + 1]).empty();
                 ++i) {
                heading += " " + trimmed(lines[i + 1]);
            }
            out.heading(1, heading);
            continue;
        }
        // A list item goes on over the lines its text wraps onto ("7.  LAW. ... the State of" /
        // "    Illinois."), as a paragraph does.
        if (std::string item = listItemText(line); !item.empty()) {
            flush();
            para = std::move(item);
            para_item = true;
            last_line = line;
            continue;
        }
        if (!para.empty() && breaks.kept(last_line, line)) flush();
        if (!para.empty()) para += ' ';
        para += t;
        last_line = line;
    }
    flush();
}

std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    // Delimiter: the most frequent of , ; tab in the first line.
    std::string first = text.substr(0, text.find('\n'));
    char delim = ',';
    std::size_t best = 0;
    for (char d : {',', ';', '\t'}) {
        auto n = static_cast<std::size_t>(std::count(first.begin(), first.end(), d));
        if (n > best) best = n, delim = d;
    }
    std::vector<std::vector<std::string>> rows(1);
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == delim) {
            rows.back().push_back(std::move(cell));
            cell.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            rows.back().push_back(std::move(cell));
            cell.clear();
            rows.emplace_back();
        } else {
            cell += c;
        }
    }
    if (!cell.empty() || !rows.back().empty()) rows.back().push_back(std::move(cell));
    return rows;
}

}  // namespace

ParsedDocument parseTextString(const std::string& bytes, DocumentType type) {
    std::string text = decodeText(bytes);
    ParsedDocument doc;
    doc.doc_type_hint = toString(type);
    BlockBuilder out;
    if (type == DocumentType::kCsv) {
        for (const auto& row : parseCsv(text)) out.tableRow(row);
    } else {
        const bool markdown = type == DocumentType::kMd;
        parseLines(markdown ? markdownLines(splitLines(text)) : splitLines(text), markdown, out);
    }
    Page page;
    page.blocks = out.take();
    doc.title = firstHeading(page.blocks);
    doc.pages.push_back(std::move(page));
    return doc;
}

Result<ParsedDocument> parseText(const std::string& path, DocumentType type) {
    try {
        auto bytes = readFileBounded(path);
        if (!bytes) return bytes.error();
        return parseTextString(bytes.value(), type);
    } catch (const std::exception&) {
        return unreadableError("the text file cannot be read");
    }
}

}  // namespace docintel::ingest

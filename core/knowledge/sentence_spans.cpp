#include "knowledge/sentence_spans.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "ingest/chunker.h"

namespace docintel::knowledge {
namespace {

constexpr std::size_t kMinSentenceBytes = 12;
constexpr std::size_t kMaxSentenceBytes = 700;
/// A line this long that ends mid-phrase wrapped onto the next one.
constexpr std::size_t kWrappedLineBytes = 40;
/// A span this long may be a run of records flattened into one paragraph.
constexpr std::size_t kRecordRunBytes = 300;

using Span = std::pair<int, int>;

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Narrows [start, end) of `text` to leave out surrounding white space.
void trimSpan(const std::string& text, int& start, int& end) {
    while (start < end && isSpace(text[start])) ++start;
    while (end > start && isSpace(text[end - 1])) --end;
}

/// Whether a (trimmed) span ends in an abbreviation or an initial rather than a sentence:
/// "No.", "Vol.", "Cal.", "T.", "U.S.".
bool endsInAbbreviation(const std::string& text, const Span& span) {
    if (span.second <= span.first || text[span.second - 1] != '.') return false;
    int start = span.second - 1;
    while (start > span.first && !isSpace(text[start - 1]) && text[start - 1] != '(') --start;
    std::string token = text.substr(start, span.second - 1 - start);
    if (token.empty()) return false;
    if (token.size() == 1 && isAlpha(token[0])) return true;  // an initial
    // Dotted letters ("U.S", "D.C", "e.g").
    bool dotted = token.find('.') != std::string::npos;
    for (const char c : token) dotted = dotted && (isAlpha(c) || c == '.');
    if (dotted) return true;
    static const std::set<std::string> abbreviations = {
        "no",  "nos",  "vol", "mr",   "mrs",  "ms",   "dr",  "st",     "jr",  "sr",  "inc",
        "co",  "corp", "ltd", "cal",  "gen",  "sen",  "rep", "gov",    "esq", "vs",  "v",
        "fig", "pp",   "p",   "dept", "ave",  "blvd", "jan", "feb",    "mar", "apr", "jun",
        "jul", "aug",  "sep", "sept", "oct",  "nov",  "dec", "approx", "etc", "ref", "art",
        "sec", "par",  "ch",  "ed",   "prof", "capt", "col", "lt",     "mt",  "ft",  "op"};
    std::string lower;
    for (const char c : token)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return abbreviations.count(lower) > 0;
}

/// Whether the line of `text` starting at `start` opens with a field label ("From:",
/// "Subject:", "Fax:"): one to three words and a colon.
bool opensWithLabel(const std::string& text, int start, int end) {
    int words = 0;
    bool in_word = false;
    for (int i = start; i < end && i < start + 32; ++i) {
        const char c = text[i];
        if (c == ':') return words >= 1 && in_word;
        if (isAlpha(c) || c == '-' || c == '.') {
            if (!in_word) ++words;
            in_word = true;
        } else if (c == ' ') {
            in_word = false;
        } else {
            return false;
        }
        if (words > 3) return false;
    }
    return false;
}

bool isTableRow(const std::string& text, const Span& span) {
    return text.substr(span.first, span.second - span.first).find(" | ") != std::string::npos;
}

/// Whether `at` lies on a table row's line ("State: Oregon b/ | ... | Operating expend. ($M):
/// 301.1"): ICU ends a sentence inside a cell after an abbreviated label.
bool onTableRow(const std::string& text, int at) {
    const auto before = text.rfind('\n', at);
    const std::size_t line_start = before == std::string::npos ? 0 : before + 1;
    const std::size_t line_end = std::min(text.find('\n', at), text.size());
    return text.substr(line_start, line_end - line_start).find(" | ") != std::string::npos;
}

/// Whether `next` continues the sentence `previous` (both trimmed spans of `text`) that ICU
/// ended: after an abbreviation or inside a table row on the same line, or a wrapped line.
bool continues(const std::string& text, const Span& previous, const Span& next) {
    if (next.second - previous.first > static_cast<int>(kMaxSentenceBytes)) return false;
    const bool new_line = text.find('\n', previous.second) < static_cast<std::size_t>(next.first);
    if (!new_line) return endsInAbbreviation(text, previous) || onTableRow(text, next.first);
    // A label alone on its line ("Deliver to:") goes on with the value on the next one.
    if (text[previous.second - 1] == ':' && opensWithLabel(text, previous.first, previous.second) &&
        text.find('\n', previous.first) >= static_cast<std::size_t>(previous.second) &&
        !opensWithLabel(text, next.first, next.second) && !isTableRow(text, next)) {
        return true;
    }
    // The previous line: from its last line break.
    const auto line_break = text.rfind('\n', previous.second - 1);
    const int line_start =
        line_break == std::string::npos || static_cast<int>(line_break) < previous.first
            ? previous.first
            : static_cast<int>(line_break) + 1;
    const char last = text[previous.second - 1];
    const bool mid_phrase = isAlpha(last) || last == ',';
    // The next line goes on in lower case, or is the next numbered line of a transcript.
    int first = next.first;
    while (first < next.second && isDigit(text[first])) ++first;
    const bool goes_on = std::islower(static_cast<unsigned char>(text[next.first])) ||
                         (first > next.first && first < next.second && text[first] == ' ');
    return mid_phrase && goes_on &&
           previous.second - line_start >= static_cast<int>(kWrappedLineBytes) &&
           !opensWithLabel(text, line_start, previous.second) &&
           !opensWithLabel(text, next.first, next.second) && !isTableRow(text, previous) &&
           !isTableRow(text, next);
}

/// The identifier tokens of a span (letters and digits both, 6 bytes or more) by their first
/// four bytes: a key shape that repeats marks where flattened records begin.
std::vector<int> recordStarts(const std::string& text, const Span& span) {
    std::map<std::string, std::vector<int>> by_shape;
    int i = span.first;
    while (i < span.second) {
        while (i < span.second && isSpace(text[i])) ++i;
        const int start = i;
        bool letter = false, digit = false;
        while (i < span.second && !isSpace(text[i])) {
            letter = letter || isAlpha(text[i]);
            digit = digit || isDigit(text[i]);
            ++i;
        }
        if (letter && digit && i - start >= 6 && isAlpha(text[start])) {
            by_shape[text.substr(start, 4)].push_back(start);
        }
    }
    std::vector<int> best;
    for (auto& [shape, starts] : by_shape) {
        if (starts.size() >= 3 && starts.size() > best.size()) best = std::move(starts);
    }
    return best;
}

}  // namespace

std::vector<SentenceSpan> quotableSentences(const storage::Chunk& chunk, bool skip_heading) {
    const std::string& text = chunk.text;
    int skip = 0;
    if (skip_heading && !chunk.section_path.empty()) {
        const std::string& heading = chunk.section_path.back();
        if (text.size() >= heading.size() && text.compare(0, heading.size(), heading) == 0 &&
            (text.size() == heading.size() || isSpace(text[heading.size()]))) {
            skip = static_cast<int>(heading.size());
        }
    }
    std::vector<Span> spans;
    for (auto [start, end] : ingest::boundaries(text, true)) {
        if (end <= skip) continue;
        start = std::max(start, skip);
        trimSpan(text, start, end);
        if (start >= end) continue;
        if (!spans.empty() && continues(text, spans.back(), {start, end})) {
            spans.back().second = end;
        } else {
            spans.emplace_back(start, end);
        }
    }
    std::vector<SentenceSpan> out;
    const auto add = [&](int start, int end) {
        trimSpan(text, start, end);
        const auto length = static_cast<std::size_t>(std::max(0, end - start));
        if (length < kMinSentenceBytes || length > kMaxSentenceBytes) return;
        out.push_back(SentenceSpan{start, end, text.substr(start, length)});
    };
    for (const auto& [start, end] : spans) {
        const auto records = static_cast<std::size_t>(end - start) > kRecordRunBytes
                                 ? recordStarts(text, {start, end})
                                 : std::vector<int>{};
        int from = start;
        for (const int record : records) {
            if (record > from) add(from, record);
            from = std::max(from, record);
        }
        add(from, end);
    }
    return out;
}

}  // namespace docintel::knowledge

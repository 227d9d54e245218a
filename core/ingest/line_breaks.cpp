#include "ingest/line_breaks.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "ingest/text_util.h"

namespace docintel::ingest {
namespace {

/// Characters (UTF-8 code points) of `s`.
std::size_t columns(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// Whether `t` goes on with a lower-case word: a plain word, not an address ("ann@x.example",
/// "www.x.example") that opens a line of its own.
bool lowerStart(const std::string& t) {
    if (t.empty() || !std::islower(static_cast<unsigned char>(t[0]))) return false;
    const std::string word = t.substr(0, t.find(' '));
    const auto inner = word.find_first_of("@/.:");
    return inner == std::string::npos || inner + 1 == word.size();
}

/// Columns aligned by spaces or tabs inside the line ("Patient: Ann Roe      DOB: ..."), or a
/// dotted leader ("Hire date ........ 2019-04-15").
bool columnsOrLeader(const std::string& t) {
    if (t.find('\t') != std::string::npos || t.find("....") != std::string::npos) return true;
    for (std::size_t at = t.find("  "); at != std::string::npos; at = t.find("  ", at + 1)) {
        // Two spaces after a sentence's end are typing, not alignment.
        if (t.compare(at, 3, "   ") == 0 ||
            (at > 0 && std::string(".?!:").find(t[at - 1]) == std::string::npos)) {
            return true;
        }
    }
    return false;
}

/// "To: ...", "Member ID: ...", "D.O.B.: ...": a capitalised label of at most five words.
bool opensWithLabel(const std::string& t) {
    static const std::regex label(R"(^[A-Z][A-Za-z0-9/()#&'.\- ]{0,39}:(\s|$))");
    std::smatch m;
    if (!std::regex_search(t, m, label)) return false;
    const std::string l = m.str();
    return std::count(l.begin(), l.end(), ' ') <= 5;
}

/// A bullet or a clause marker: "A. ", "II. ", "b) ", "(c) ", "4.1 ", "• ".
bool opensWithMarker(const std::string& t) {
    static const std::regex marker(
        R"(^(?:(?:[A-Z]|[ivx]{1,4}|[IVX]{1,4}|[a-z]|\d{1,2})[.)]\s|\([A-Za-z0-9]{1,4}\)\s|\d{1,2}(?:\.\d{1,2})+\.?\s|[-*+]\s))");
    return std::regex_search(t, marker) || t.rfind("\xE2\x80\xA2", 0) == 0 ||
           t.rfind("\xC2\xB7", 0) == 0;
}

std::size_t firstWordColumns(const std::string& t) {
    const auto end = t.find(' ');
    return columns(end == std::string::npos ? t : t.substr(0, end));
}

}  // namespace

LineBreaks::LineBreaks(const std::vector<std::string>& lines) {
    std::size_t longest = 0, wrapped = 0;
    int continued = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t n = columns(trimmed(lines[i]));
        longest = std::max(longest, n);
        if (i + 1 < lines.size() && n > 0 && lowerStart(trimmed(lines[i + 1]))) {
            wrapped = std::max(wrapped, n);
            ++continued;
        }
    }
    width_ = continued >= 2 ? wrapped : longest;
}

bool LineBreaks::kept(const std::string& line, const std::string& next) const {
    const std::string a = trimmed(line);
    const std::string b = trimmed(next);
    if (a.empty() || b.empty()) return true;
    // A value wrapped under its column ("Diagnosis ...... M17.11 - Unilateral primary," /
    // "                  right knee") goes on; a heading drawn with a rule ("-- Summary ----")
    // does not.
    const std::size_t indent = next.find_first_not_of(" \t");
    if (indent >= 8 && !columnsOrLeader(b)) return false;
    if (a.size() >= 3 &&
        (a.compare(a.size() - 3, 3, "---") == 0 || a.compare(a.size() - 3, 3, "===") == 0)) {
        return true;
    }
    if (columnsOrLeader(a) || columnsOrLeader(b)) return true;
    if (opensWithMarker(b)) return true;
    if (lowerStart(b)) return false;
    if (opensWithLabel(b)) return true;
    if (std::string(".?!:").find(a.back()) != std::string::npos) return true;
    if (line.size() >= 2 && line.compare(line.size() - 2, 2, "  ") == 0) return true;
    const std::size_t n = columns(a);
    // A greedy wrapper breaks only where the next word does not fit; a balancing one (fmt)
    // leaves lines a little short, so a line near the width is read as wrapped.
    return n + 1 + firstWordColumns(b) <= width_ && n * 20 < width_ * 17;
}

}  // namespace docintel::ingest

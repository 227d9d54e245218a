#include "learning/facts.h"
#include "learning/validation.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "shared/typed_values.h"

namespace docintel::learning {

namespace {

bool isWordChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || u >= 0x80;
}

/// The word after byte `end` (skipping spaces), lower-cased, a plural "s" dropped.
std::string wordAfter(const std::string& text, std::size_t end) {
    std::size_t b = end;
    while (b < text.size() && text[b] == ' ') ++b;
    std::size_t e = b;
    while (e < text.size() && (isWordChar(text[e]) || text[e] == '-')) ++e;
    std::string w = lowered(text.substr(b, e - b));
    if (w.size() > 3 && w.back() == 's') w.pop_back();
    return w;
}

std::string wordBefore(const std::string& text, std::size_t pos) {
    std::size_t e = pos;
    while (e > 0 && text[e - 1] == ' ') --e;
    std::size_t b = e;
    while (b > 0 && isWordChar(text[b - 1])) --b;
    return lowered(text.substr(b, e - b));
}

std::string digitsOnly(const std::string& s) {
    std::string out;
    for (const char c : s) {
        if (c != ',') out += c;
    }
    return out;
}

void addMatches(const std::string& s, const std::regex& re, FactType type, std::vector<Fact>& out) {
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator();
         ++it) {
        Fact f;
        f.type = type;
        f.pos = static_cast<std::size_t>(it->position(1));
        f.len = static_cast<std::size_t>(it->length(1));
        f.text = s.substr(f.pos, f.len);
        out.push_back(std::move(f));
    }
}

bool overlaps(const Fact& a, const Fact& b) {
    return a.pos < b.pos + b.len && b.pos < a.pos + a.len;
}

const std::set<std::string>& notNames() {
    static const std::set<std::string> s = {
        "the",  "a",  "an",   "in",     "on",    "at",     "by",    "of",   "for",
        "from", "to", "with", "during", "after", "before", "and",   "but",  "he",
        "she",  "it", "they", "his",    "her",   "its",    "their", "this", "that"};
    return s;
}

const std::set<std::string>& numberScales() {
    static const std::set<std::string> s = {"hundred", "thousand", "million", "billion"};
    return s;
}

/// A name from typed::names: leading words seen in lower case dropped (sentence-initial "The",
/// "During"), a possessive dropped; none when nothing capitalised and uncommon is left.
bool cleanName(const std::string& sentence, Fact& f, const std::set<std::string>& common) {
    while (true) {
        const auto space = f.text.find(' ');
        const std::string first = lowered(f.text.substr(0, space));
        if (!notNames().count(first) && !common.count(first)) break;
        if (space == std::string::npos) return false;
        f.pos += space + 1;
        f.len -= space + 1;
        f.text = f.text.substr(space + 1);
    }
    // Trailing joiners ("Normandy and") and possessives ("Rollo's").
    for (const std::string tail : {" and", " of", " &", " de"}) {
        if (f.text.size() > tail.size() &&
            f.text.compare(f.text.size() - tail.size(), tail.size(), tail) == 0) {
            f.text.resize(f.text.size() - tail.size());
        }
    }
    if (f.text.size() > 2 && f.text.compare(f.text.size() - 2, 2, "'s") == 0)
        f.text.resize(f.text.size() - 2);
    f.len = f.text.size();
    if (f.text.size() < 3 || !std::isupper(static_cast<unsigned char>(f.text[0]))) return false;
    // Two names joined ("Delaware and Shawnee") are not one answer; a dash or other general
    // punctuation (U+2000..U+206F) inside means the scan ran past the name.
    if (f.text.find(" and ") != std::string::npos || f.text.find(" & ") != std::string::npos ||
        f.text.find("\xE2\x80") != std::string::npos) {
        return false;
    }
    const bool single = f.text.find(' ') == std::string::npos;
    // A single word that the scope also writes in lower case is a common word, not a name; so,
    // likely, is a single capitalised word opening the sentence ("Both", "How"), a month or a
    // number word ("April", "Million").
    if (single &&
        (common.count(lowered(f.text)) || f.pos == 0 || plugins::typed::monthNumber(f.text) > 0 ||
         plugins::typed::numberWord(lowered(f.text)) >= 0 ||
         numberScales().count(lowered(f.text)))) {
        return false;
    }
    // "Chinese-style", "Carolingian-based": an adjective, not a name.
    const auto dash = f.text.find('-');
    if (dash != std::string::npos && dash + 1 < f.text.size() &&
        std::islower(static_cast<unsigned char>(f.text[dash + 1]))) {
        return false;
    }
    f.value = lowered(f.text);
    const auto last = f.text.find_last_of(' ');
    if (last != std::string::npos) f.kind = lowered(f.text.substr(last + 1));
    (void)sentence;
    return true;
}

}  // namespace

std::string toString(FactType t) {
    switch (t) {
        case FactType::kDate:
            return "date";
        case FactType::kYear:
            return "year";
        case FactType::kMoney:
            return "money";
        case FactType::kPercent:
            return "percent";
        case FactType::kNumber:
            return "number";
        case FactType::kOrdinal:
            return "ordinal";
        case FactType::kName:
            return "name";
    }
    return "name";
}

std::set<std::string> lowerCaseWords(const std::vector<std::string>& texts) {
    std::set<std::string> out;
    for (const auto& t : texts) {
        std::string w;
        bool lower_start = false;
        const auto flush = [&] {
            if (!w.empty() && lower_start) out.insert(w);
            w.clear();
        };
        for (const char c : t) {
            if (std::isalpha(static_cast<unsigned char>(c)) ||
                static_cast<unsigned char>(c) >= 0x80) {
                if (w.empty()) lower_start = std::islower(static_cast<unsigned char>(c)) != 0;
                w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            } else {
                flush();
            }
        }
        flush();
    }
    return out;
}

std::vector<Fact> findFacts(const std::string& s, const std::set<std::string>& common) {
    std::vector<Fact> candidates;  // in priority order: earlier kinds win overlaps
    for (const auto& d : plugins::typed::dates(s)) {
        candidates.push_back({FactType::kDate, d.pos, d.len, s.substr(d.pos, d.len),
                              d.value.get<std::string>(), "", ""});
    }
    for (const auto& m : plugins::typed::money(s)) {
        candidates.push_back({FactType::kMoney, m.pos, m.len, s.substr(m.pos, m.len),
                              lowered(s.substr(m.pos, m.len)), "", ""});
    }
    for (const auto& p : plugins::typed::percentages(s)) {
        candidates.push_back({FactType::kPercent, p.pos, p.len, s.substr(p.pos, p.len),
                              p.value.get<std::string>(), "", ""});
    }
    static const std::regex year(R"((?:^|[^\w$.,])((?:1\d{3}|20\d{2})s?)(?![\w%]|,\d|\.\d))");
    static const std::regex ordinal(
        R"((?:^|\W)(\d+(?:st|nd|rd|th)|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth))(?=\W|$))",
        std::regex::icase);
    static const std::regex number(
        R"((?:^|[^\w$.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?: (?:million|billion|thousand|hundred))?|(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand)(?: (?:million|billion|thousand|hundred))?)(?![\w%]))",
        std::regex::icase);
    std::vector<Fact> typed;
    addMatches(s, year, FactType::kYear, typed);
    addMatches(s, ordinal, FactType::kOrdinal, typed);
    addMatches(s, number, FactType::kNumber, typed);
    for (auto& f : typed) {
        switch (f.type) {
            case FactType::kYear:
                f.value = f.text;
                if (f.text.back() == 's') f.kind = "decade";
                break;
            case FactType::kOrdinal:
                f.value = lowered(f.text);
                f.kind = wordAfter(s, f.pos + f.len);
                break;
            default:
                f.value = lowered(digitsOnly(f.text));
                f.kind = wordAfter(s, f.pos + f.len);
                // A count needs a noun to count: "20 ships", not a bare "20," ending a clause.
                if (f.kind.empty() || !std::isalpha(static_cast<unsigned char>(f.kind[0]))) {
                    f.len = 0;
                }
                break;
        }
        if (f.len) candidates.push_back(f);
    }
    for (const auto& n : plugins::typed::names(s)) {
        Fact f{FactType::kName, n.pos, n.len, s.substr(n.pos, n.len), "", "", ""};
        if (cleanName(s, f, common)) candidates.push_back(std::move(f));
    }

    std::vector<Fact> out;
    for (auto& f : candidates) {
        const bool taken =
            std::any_of(out.begin(), out.end(), [&](const Fact& o) { return overlaps(o, f); });
        if (taken) continue;
        f.before = wordBefore(s, f.pos);
        out.push_back(std::move(f));
    }
    std::sort(out.begin(), out.end(), [](const Fact& a, const Fact& b) { return a.pos < b.pos; });
    return out;
}

}  // namespace docintel::learning

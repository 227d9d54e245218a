#include "shared/study_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>

namespace docintel::study {

namespace {

bool isUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool isAlnum(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || u >= 0x80;
}

const std::set<std::string>& abbreviations() {
    static const std::set<std::string> a = {
        "mr",   "mrs", "ms",  "dr",  "st",   "jr",     "sr",  "vs",  "etc", "e.g",  "i.e",  "inc",
        "ltd",  "co",  "no",  "fig", "vol",  "approx", "ca",  "c",   "gen", "gov",  "sen",  "rep",
        "u.s",  "u.k", "mt",  "ft",  "jan",  "feb",    "mar", "apr", "jun", "jul",  "aug",  "sep",
        "sept", "oct", "nov", "dec", "prof", "rev",    "col", "lt",  "sgt", "capt", "corp", "dept"};
    return a;
}

const std::set<std::string>& stopWords() {
    static const std::set<std::string> s = {
        "a",        "about",  "above",  "after",  "again",   "against", "all",   "also",
        "am",       "an",     "and",    "any",    "are",     "as",      "at",    "be",
        "because",  "been",   "before", "being",  "below",   "between", "both",  "but",
        "by",       "can",    "could",  "did",    "do",      "does",    "doing", "down",
        "during",   "each",   "few",    "for",    "from",    "further", "had",   "has",
        "have",     "having", "he",     "her",    "here",    "hers",    "him",   "his",
        "how",      "i",      "if",     "in",     "into",    "is",      "it",    "its",
        "itself",   "just",   "me",     "more",   "most",    "my",      "no",    "nor",
        "not",      "now",    "of",     "off",    "on",      "once",    "only",  "or",
        "other",    "our",    "out",    "over",   "own",     "same",    "she",   "should",
        "so",       "some",   "such",   "than",   "that",    "the",     "their", "theirs",
        "them",     "then",   "there",  "these",  "they",    "this",    "those", "through",
        "to",       "too",    "under",  "until",  "up",      "very",    "was",   "we",
        "were",     "what",   "when",   "where",  "which",   "while",   "who",   "whom",
        "why",      "will",   "with",   "would",  "you",     "your",    "yours", "may",
        "might",    "must",   "shall",  "within", "without", "upon",    "among", "however",
        "although", "though", "since",  "via",    "per",     "s"};
    return s;
}

void trimSpan(const std::string& text, int& start, int& end) {
    while (start < end && isSpace(text[static_cast<std::size_t>(start)])) ++start;
    while (end > start && isSpace(text[static_cast<std::size_t>(end - 1)])) --end;
}

/// The word right before byte `stop` (the period), lower-cased, with inner periods kept
/// ("U.S" for "U.S.").
std::string wordBefore(const std::string& text, std::size_t stop) {
    std::size_t b = stop;
    while (b > 0 && (isAlnum(text[b - 1]) || text[b - 1] == '.')) --b;
    return lowered(text.substr(b, stop - b));
}

}  // namespace

std::vector<std::pair<int, int>> splitSentences(const std::string& text) {
    std::vector<std::pair<int, int>> out;
    const std::size_t n = text.size();
    std::size_t start = 0;
    const auto cut = [&](std::size_t end) {
        int s = static_cast<int>(start), e = static_cast<int>(end);
        trimSpan(text, s, e);
        if (e > s) out.emplace_back(s, e);
        start = end;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[i];
        if (c == '\n' && i + 1 < n && text[i + 1] == '\n') {
            cut(i);
            continue;
        }
        if (c != '.' && c != '!' && c != '?') continue;
        std::size_t j = i + 1;
        while (j < n && (text[j] == '"' || text[j] == '\'' || text[j] == ')' || text[j] == ']' ||
                         text[j] == '.')) {
            ++j;
        }
        if (j >= n) break;
        if (!isSpace(text[j])) continue;
        std::size_t k = j;
        while (k < n && isSpace(text[k])) ++k;
        if (k >= n) break;
        const char next = text[k];
        const bool opens = isUpper(next) || std::isdigit(static_cast<unsigned char>(next)) ||
                           next == '"' || next == '(' || next == '\'' ||
                           static_cast<unsigned char>(next) >= 0x80;
        if (!opens) continue;
        if (c == '.') {
            const std::string w = wordBefore(text, i);
            if (abbreviations().count(w)) continue;
            if (w.size() == 1 && isUpper(text[i - 1])) continue;  // an initial: "J. Smith"
        }
        cut(j);
    }
    cut(n);
    return out;
}

std::vector<Sentence> quotableSentences(const std::vector<Passage>& passages,
                                        const SentenceSplitter& split) {
    std::vector<Sentence> out;
    std::set<std::string> seen;
    for (std::size_t p = 0; p < passages.size(); ++p) {
        const std::string& text = passages[p].text;
        const auto spans = split ? split(text) : splitSentences(text);
        int position = 0;
        for (const auto& [s, e] : spans) {
            const auto length = static_cast<std::size_t>(e - s);
            if (length < 30 || length > 500) continue;
            std::string sentence = text.substr(static_cast<std::size_t>(s), length);
            const auto words = std::count(sentence.begin(), sentence.end(), ' ') + 1;
            if (words < 5 || !seen.insert(sentence).second) continue;
            out.push_back({p, s, e, std::move(sentence), position++});
        }
    }
    return out;
}

std::vector<std::string> contentWords(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    const auto flush = [&] {
        if (word.size() > 3 && word.back() == 's' && word[word.size() - 2] != 's') word.pop_back();
        if (!word.empty() && !stopWords().count(word)) out.push_back(word);
        word.clear();
    };
    for (const char ch : text) {
        if (isAlnum(ch)) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        } else {
            flush();
        }
    }
    flush();
    return out;
}

std::set<std::string> contentWordSet(const std::string& text) {
    const auto words = contentWords(text);
    return {words.begin(), words.end()};
}

double coverage(const std::set<std::string>& of, const std::set<std::string>& in) {
    if (of.empty()) return 0;
    std::size_t hit = 0;
    for (const auto& w : of) hit += in.count(w);
    return static_cast<double>(hit) / static_cast<double>(of.size());
}

double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
    if (a.empty() && b.empty()) return 0;
    std::size_t both = 0;
    for (const auto& w : a) both += b.count(w);
    return static_cast<double>(both) / static_cast<double>(a.size() + b.size() - both);
}

std::vector<double> centrality(const std::vector<Sentence>& sentences,
                               const std::set<std::string>& focus, double focus_weight) {
    std::vector<std::set<std::string>> words;
    std::map<std::string, int> df;
    for (const auto& s : sentences) {
        words.push_back(contentWordSet(s.text));
        for (const auto& w : words.back()) ++df[w];
    }
    std::vector<double> score;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        double sum = 0;
        for (const auto& w : words[i]) sum += std::log(static_cast<double>(df[w]));
        double v = words[i].empty() ? 0 : sum / static_cast<double>(words[i].size());
        if (sentences[i].position == 0) v *= 1.15;
        v += focus_weight * coverage(focus, words[i]);
        score.push_back(v);
    }
    return score;
}

std::vector<std::size_t> pickDiverse(const std::vector<Sentence>& sentences,
                                     const std::vector<double>& score, std::size_t k,
                                     double max_overlap) {
    std::vector<std::size_t> order(sentences.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
    std::vector<std::size_t> taken;
    std::vector<std::set<std::string>> taken_words;
    for (const std::size_t i : order) {
        if (taken.size() >= k) break;
        const auto w = contentWordSet(sentences[i].text);
        const bool redundant =
            std::any_of(taken_words.begin(), taken_words.end(),
                        [&](const auto& t) { return jaccard(w, t) >= max_overlap; });
        if (redundant) continue;
        taken.push_back(i);
        taken_words.push_back(w);
    }
    return taken;
}

std::string lowered(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string trim(const std::string& text) {
    const auto space = " \t\r\n\f\v";
    const auto first = text.find_first_not_of(space);
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(space) - first + 1);
}

std::size_t utf8Length(const std::string& text) {
    std::size_t n = 0;
    for (const char ch : text) {
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;
    }
    return n;
}

}  // namespace docintel::study

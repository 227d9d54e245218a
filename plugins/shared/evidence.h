#pragma once

// Helpers vertical plugins share for local extraction: regular expressions over the passages
// of a run's documents, extracted fields with their sources, dates, and keyword lists for the
// host's evidence finder. Header-only; plugins link nothing but the SDK.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "plugin_api/plugin.h"

namespace docintel::plugins {

/// A regex match inside one passage.
struct Match {
    const plugin::Passage* passage = nullptr;
    std::smatch groups;
    std::size_t position = 0;  ///< of the whole match in the passage text
    std::size_t length = 0;
};

inline std::string trimmed(std::string s) {
    const auto b = s.find_first_not_of(" \t\r\n;,.");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n;,");
    return s.substr(b, e - b + 1);
}

/// Up to `max` characters of `text` around [pos, pos+len), widened to word boundaries.
inline std::string excerpt(const std::string& text, std::size_t pos, std::size_t len,
                           std::size_t max = 240) {
    std::size_t start = pos;
    std::size_t end = std::min(text.size(), pos + len);
    while (end - start < max && (start > 0 || end < text.size())) {
        if (start > 0) --start;
        if (end < text.size() && end - start < max) ++end;
    }
    while (start > 0 && !std::isspace(static_cast<unsigned char>(text[start - 1]))) ++start;
    while (end < text.size() && end > start &&
           !std::isspace(static_cast<unsigned char>(text[end]))) {
        --end;
    }
    if (end <= pos) end = std::min(text.size(), pos + len);
    std::string out = text.substr(start, end - start);
    for (auto& c : out) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    return trimmed(out);
}

/// The first match of `re` in the passages, in order.
inline std::optional<Match> firstMatch(const std::vector<plugin::Passage>& passages,
                                       const std::regex& re) {
    for (const auto& p : passages) {
        std::smatch m;
        if (std::regex_search(p.text, m, re)) {
            return Match{&p, m, static_cast<std::size_t>(m.position(0)),
                         static_cast<std::size_t>(m.length(0))};
        }
    }
    return std::nullopt;
}

/// Every match of `re` in the passages.
inline std::vector<Match> allMatches(const std::vector<plugin::Passage>& passages,
                                     const std::regex& re) {
    std::vector<Match> out;
    for (const auto& p : passages) {
        for (auto it = std::sregex_iterator(p.text.begin(), p.text.end(), re);
             it != std::sregex_iterator(); ++it) {
            out.push_back(Match{&p, *it, static_cast<std::size_t>(it->position(0)),
                                static_cast<std::size_t>(it->length(0))});
        }
    }
    return out;
}

/// `{document_id, page, chunk_id, excerpt}` of a passage span.
inline nlohmann::json sourceOf(const plugin::Passage& p, std::size_t pos, std::size_t len) {
    return {{"document_id", p.document_id},
            {"page", p.page},
            {"chunk_id", p.chunk_id},
            {"excerpt", excerpt(p.text, pos, len)}};
}

/// An extracted field: `{value, source, confidence}`.
inline nlohmann::json field(nlohmann::json value, nlohmann::json source, double confidence) {
    return {{"value", std::move(value)},
            {"source", std::move(source)},
            {"confidence", std::round(confidence * 100.0) / 100.0}};
}

/// A field that the documents did not provide.
inline nlohmann::json missingField() { return field(nullptr, nullptr, 0.0); }

/// The field for group `group` of the first match of `re`, or a missing field.
inline nlohmann::json labeledField(const std::vector<plugin::Passage>& passages,
                                   const std::regex& re, int group = 1, double confidence = 0.9) {
    auto m = firstMatch(passages, re);
    if (!m) return missingField();
    return field(trimmed(m->groups[group].str()), sourceOf(*m->passage, m->position, m->length),
                 confidence);
}

/// MM/DD/YYYY (or M/D/YYYY) as ISO YYYY-MM-DD; other text unchanged.
inline std::string isoDate(const std::string& text) {
    static const std::regex us(R"(^(\d{1,2})/(\d{1,2})/(\d{4})$)");
    std::smatch m;
    if (!std::regex_match(text, m, us)) return text;
    auto two = [](const std::string& s) { return s.size() == 1 ? "0" + s : s; };
    return m[3].str() + "-" + two(m[1].str()) + "-" + two(m[2].str());
}

/// Content words of `text` for an evidence query (no stop words, at least 4 letters).
inline std::vector<std::string> contentWords(const std::string& text) {
    static const std::set<std::string> stop = {
        "with",     "that",      "this",    "have",    "from",    "will",  "such",  "least",
        "than",     "when",      "been",    "were",    "they",    "them",  "their", "there",
        "which",    "into",      "also",    "used",    "more",    "most",  "must",  "should",
        "would",    "could",     "does",    "only",    "other",   "some",  "what",  "required",
        "optional", "criterion", "qualify", "request", "patient", "member"};
    std::vector<std::string> out;
    std::string word;
    auto flush = [&] {
        if (word.size() >= 4 && !stop.count(word) &&
            std::find(out.begin(), out.end(), word) == out.end()) {
            out.push_back(word);
        }
        word.clear();
    };
    for (const char c : text) {
        if (std::isalpha(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else {
            flush();
        }
    }
    flush();
    return out;
}

/// The sentence of `text` that mentions most of `words` (for a citation excerpt); its offset
/// and length.
inline std::pair<std::size_t, std::size_t> bestSentence(const std::string& text,
                                                        const std::vector<std::string>& words) {
    std::size_t best_pos = 0, best_len = std::min<std::size_t>(text.size(), 200);
    int best = -1;
    std::size_t start = 0;
    std::string lower = text;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    while (start < text.size()) {
        std::size_t end = text.find_first_of(".!?\n", start);
        if (end == std::string::npos) end = text.size();
        const std::string sentence = lower.substr(start, end - start);
        int score = 0;
        for (const auto& w : words) {
            const std::string stem =
                w.substr(0, std::max<std::size_t>(5, w.size() > 3 ? w.size() - 3 : 0));
            if (sentence.find(stem.substr(0, std::min(stem.size(), w.size()))) !=
                std::string::npos) {
                ++score;
            }
        }
        if (score > best) {
            best = score;
            best_pos = start;
            best_len = end - start;
        }
        start = end + 1;
    }
    return {best_pos, best_len};
}

}  // namespace docintel::plugins

namespace docintel::plugins {

/// A labelled value ("Label: value") found in a passage.
struct Labeled {
    std::string value;
    const plugin::Passage* passage = nullptr;
    std::size_t position = 0;  ///< of the label
    std::size_t length = 0;    ///< label and value
};

/// The value after `label:` (or a dotted leader, "Name ........ Ann Roe") in the first passage
/// that has it, up to the end of the line or the next of `labels` (a parser may join a form's
/// lines into one paragraph).
inline std::optional<Labeled> labeled(const std::vector<plugin::Passage>& passages,
                                      const std::string& label,
                                      const std::vector<std::string>& labels) {
    auto escape = [](const std::string& s) {
        static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
        return std::regex_replace(s, special, R"(\$&)");
    };
    const std::regex start("\\b" + escape(label) + "\\s*(?::|\\.{3,})[\\s.]*", std::regex::icase);
    std::string alternatives;
    for (const auto& l : labels) {
        if (l == label) continue;
        alternatives += (alternatives.empty() ? "" : "|") + escape(l);
    }
    const std::regex next("\\s(?:" + alternatives + ")\\s*(?::|\\.{3,})", std::regex::icase);
    // A label left empty at the end of its line ("ORDERING MD NPI:") does not take the next
    // line's label ("FACILITY: ...") as its value.
    static const std::regex next_label(R"(^[A-Za-z][A-Za-z0-9 /#'.()-]{0,40}:)");
    for (const auto& p : passages) {
        std::smatch m;
        if (!std::regex_search(p.text, m, start)) continue;
        const std::size_t value_start = static_cast<std::size_t>(m.position(0) + m.length(0));
        if (m.str().find('\n') != std::string::npos &&
            std::regex_search(p.text.substr(value_start, 48), next_label)) {
            continue;
        }
        std::size_t end = p.text.find('\n', value_start);
        if (end == std::string::npos) end = p.text.size();
        std::smatch n;
        const std::string rest = p.text.substr(value_start, end - value_start);
        if (!alternatives.empty() && std::regex_search(rest, n, next)) {
            end = value_start + static_cast<std::size_t>(n.position(0));
        }
        Labeled out;
        out.value = trimmed(p.text.substr(value_start, end - value_start));
        out.passage = &p;
        out.position = static_cast<std::size_t>(m.position(0));
        out.length = end - out.position;
        if (!out.value.empty()) return out;
    }
    return std::nullopt;
}

/// The field of a labelled value (missing when absent), its value mapped by `map`.
template <typename Map>
nlohmann::json labeledField(const std::optional<Labeled>& found, Map&& map,
                            double confidence = 0.9) {
    if (!found) return missingField();
    return field(map(found->value), sourceOf(*found->passage, found->position, found->length),
                 confidence);
}

inline nlohmann::json labeledField(const std::optional<Labeled>& found, double confidence = 0.9) {
    return labeledField(
        found, [](const std::string& v) { return nlohmann::json(v); }, confidence);
}

}  // namespace docintel::plugins

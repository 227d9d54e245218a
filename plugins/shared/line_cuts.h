#pragma once

// Where a typed field's line is cut (docs/decisions/0064): into sentences, and at the labels of a
// form's fields that a parser left side by side on one line. Header-only.

#include <cctype>
#include <cstddef>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace docintel::plugins {

/// Sentences of a long line: cut after ". " before a capital, a digit or "(" unless the word
/// before is an abbreviation, an initial or a clause number ("ARTICLE 2. TERM"); a sentence
/// that closes a bracket or a quote, or ends in a figure ("... 60606. Notices"), ends there. A
/// clause's caption ("3.3 Operating Expenses.", "Section 7.01 Assignment.") stays with the
/// sentence after it.
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
        std::size_t d = i;
        while (d > 0 && std::isdigit(static_cast<unsigned char>(line[d - 1]))) --d;
        const char before = line[i - 1];
        const bool closes = before == ')' || before == '"' || before == '\'' ||
                            (static_cast<unsigned char>(before) >= 0x80 && i >= 3 &&
                             line.compare(i - 3, 3, "\xE2\x80\x9D") == 0);
        const bool figure = i - d >= 3;
        if (!closes && !figure &&
            (word.size() <= 1 ||
             std::find(abbreviations.begin(), abbreviations.end(), word) != abbreviations.end())) {
            continue;
        }
        // A caption "3.3 Operating Expenses." or "Section 7.01 Assignment and Subletting."
        static const std::regex caption(R"(^(?:(?:Section|SECTION|Article|ARTICLE|§)\s*)?\d)");
        const std::string so_far = line.substr(start, i - start);
        const auto spaces = std::count(so_far.begin(), so_far.end(), ' ');
        if (std::regex_search(so_far, caption) &&
            spaces < (std::isdigit(static_cast<unsigned char>(so_far[0])) ? 4 : 6)) {
            continue;
        }
        out.emplace_back(start, i + 1 - start);
        start = i + 2;
    }
    if (start < line.size()) out.emplace_back(start, line.size() - start);
    return out;
}

/// Where the labels of a form's fields start in `clean` ("Member name: Ann Roe Date of birth:
/// 04/17/1961 Member ID: X"): a parser that folds a paragraph's lines into one leaves them
/// side by side. A label is the words before a ":" back to the nearest capitalised word (with
/// the Title-case word before a short code such as "ID"); a ":" after a digit (a time) or with
/// no capitalised word within four words is no label.
inline std::vector<std::size_t> labelStarts(const std::string& clean) {
    std::vector<std::size_t> out;
    for (std::size_t colon = clean.find(':'); colon != std::string::npos;
         colon = clean.find(':', colon + 1)) {
        if (colon == 0 || clean[colon - 1] == ':' ||
            std::isdigit(static_cast<unsigned char>(clean[colon - 1]))) {
            continue;
        }
        std::size_t end = colon;
        while (end > 0 && clean[end - 1] == ' ') --end;
        // "Capital gain (included in box 2a):": a label may end with a bracketed note.
        if (end > 0 && clean[end - 1] == ')') {
            const auto open = clean.rfind('(', end - 1);
            if (open != std::string::npos && open > 0 && end - open <= 40 &&
                clean.find(':', open) >= end) {
                end = open;
                while (end > 0 && clean[end - 1] == ' ') --end;
            }
        }
        std::size_t start = std::string::npos;
        std::size_t w_end = end;
        for (int words = 0; words < 4 && w_end > 0; ++words) {
            std::size_t w = w_end;
            while (w > 0 && clean[w - 1] != ' ' && clean[w - 1] != ':') --w;
            if (w == w_end) break;
            const char first = clean[w];
            if (std::isupper(static_cast<unsigned char>(first))) {
                start = w;
                // "Member ID": a short upper-case word takes the Title-case word before it.
                const std::string word = clean.substr(w, w_end - w);
                bool short_code = word.size() <= 3;
                for (const char c : word)
                    short_code = short_code && std::isupper(static_cast<unsigned char>(c));
                if (short_code && w >= 2 && clean[w - 1] == ' ') {
                    std::size_t p = w - 1;
                    while (p > 0 && clean[p - 1] != ' ' && clean[p - 1] != ':') --p;
                    if (std::isupper(static_cast<unsigned char>(clean[p])) &&
                        std::islower(static_cast<unsigned char>(clean[p + 1]))) {
                        start = p;
                    }
                }
                // "Date of Service", "Name of Insured": a Title Case label goes on over a small
                // joining word to the capitalised word before it.
                static const std::vector<std::string> joiners = {"of",  "and", "for", "to",
                                                                 "the", "&",   "or"};
                for (int more = 0; more < 2 && start == w && start >= 2; ++more) {
                    std::size_t j = start - 1;
                    if (clean[j] != ' ') break;
                    while (j > 0 && clean[j - 1] != ' ' && clean[j - 1] != ':') --j;
                    const std::string joiner = clean.substr(j, start - 1 - j);
                    if (std::find(joiners.begin(), joiners.end(), joiner) == joiners.end() ||
                        j < 2 || clean[j - 1] != ' ') {
                        break;
                    }
                    std::size_t c = j - 1;
                    while (c > 0 && clean[c - 1] != ' ' && clean[c - 1] != ':') --c;
                    if (c == j - 1 || !std::isupper(static_cast<unsigned char>(clean[c]))) break;
                    start = w = c;
                }
                break;
            }
            if (!std::isalpha(static_cast<unsigned char>(first)) && first != '(') break;
            w_end = w > 0 ? w - 1 : 0;
        }
        if (start != std::string::npos) out.push_back(start);
    }
    return out;
}

}  // namespace docintel::plugins

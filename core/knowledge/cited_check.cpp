#include "knowledge/cited_check.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "ingest/chunker.h"
#include "ingest/text_util.h"

namespace docintel::knowledge {
namespace {

const std::regex& markerPattern() {
    static const std::regex pattern(R"(\[\s*(\d+(?:\s*[,;]\s*\d+)*)\s*\])");
    return pattern;
}

void addNumbers(const std::string& list, std::vector<int>& into) {
    static const std::regex number(R"(\d+)");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), number);
         it != std::sregex_iterator(); ++it) {
        const int n = std::stoi(it->str());
        if (std::find(into.begin(), into.end(), n) == into.end()) into.push_back(n);
    }
}

}  // namespace

std::vector<DraftedSentence> draftedSentences(const std::string& text) {
    std::vector<DraftedSentence> out;
    bool line_start = true;  // the piece opens a line: its leading markers are its own
    for (const auto& [a, b] : ingest::boundaries(text, true)) {
        const std::string raw =
            text.substr(static_cast<std::size_t>(a), static_cast<std::size_t>(b - a));
        std::string piece = ingest::trimmed(raw);
        const bool opens_line = line_start;
        line_start = raw.find('\n') != std::string::npos &&
                     raw.find_first_not_of(" \t\r\n", raw.find_last_of('\n')) == std::string::npos;
        std::smatch m;
        // "… rent. [1] The deposit …": a marker after the full stop cites the sentence before;
        // "[2] The deposit …" opening a line labels its own line (a list the model numbered
        // with the sources' numbers).
        while (!out.empty() && !opens_line && std::regex_search(piece, m, markerPattern()) &&
               m.position(0) == 0) {
            addNumbers(m[1].str(), out.back().cited);
            piece = ingest::trimmed(piece.substr(static_cast<std::size_t>(m.length(0))));
        }
        DraftedSentence d;
        std::string claim;
        std::size_t from = 0;
        for (auto it = std::sregex_iterator(piece.begin(), piece.end(), markerPattern());
             it != std::sregex_iterator(); ++it) {
            claim += piece.substr(from, static_cast<std::size_t>(it->position(0)) - from);
            addNumbers((*it)[1].str(), d.cited);
            from = static_cast<std::size_t>(it->position(0) + it->length(0));
        }
        claim += piece.substr(from);
        // "rent is $4,500 [1]." → "rent is $4,500."; collapse the spaces markers leave.
        std::string tidy;
        for (std::size_t i = 0; i < claim.size(); ++i) {
            const char c = claim[i];
            if (c == ' ' && (tidy.empty() || tidy.back() == ' ')) continue;
            if ((c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?') &&
                !tidy.empty() && tidy.back() == ' ') {
                tidy.pop_back();
            }
            tidy += c;
        }
        d.claim = ingest::trimmed(tidy);
        // Punctuation left alone by markers ("… Jr. [5].") is not a claim.
        const bool has_word = std::any_of(d.claim.begin(), d.claim.end(), [](char c) {
            const auto u = static_cast<unsigned char>(c);
            return std::isalnum(u) || u >= 0x80;
        });
        if (!has_word) {
            if (!out.empty()) {
                for (int n : d.cited) addNumbers(std::to_string(n), out.back().cited);
            }
            continue;
        }
        out.push_back(std::move(d));
    }
    return out;
}

plugin::Result<std::vector<CheckedSentence>> checkCitedSentences(
    const SupportChecker& checker, const std::vector<DraftedSentence>& drafted,
    const std::vector<std::string>& sources) {
    // The candidate sentences of each source, split once.
    std::vector<std::vector<std::pair<int, int>>> spans(sources.size());
    std::vector<bool> split(sources.size(), false);
    std::vector<std::vector<SupportSpan>> candidates(drafted.size());
    std::vector<SupportChecker::Claim> claims;
    std::vector<std::size_t> claim_of;  // drafted index → claims index (npos: nothing to check)
    for (std::size_t i = 0; i < drafted.size(); ++i) {
        SupportChecker::Claim claim{drafted[i].claim, {}};
        for (const int n : drafted[i].cited) {
            if (n < 1 || n > static_cast<int>(sources.size())) continue;
            const auto at = static_cast<std::size_t>(n - 1);
            const std::string& text = sources[at];
            if (!split[at]) {
                spans[at] = ingest::boundaries(text, true);
                split[at] = true;
            }
            for (const auto& [a, b] : spans[at]) {
                candidates[i].push_back(SupportSpan{n, a, b, 0, 0});
                claim.texts.push_back(
                    text.substr(static_cast<std::size_t>(a), static_cast<std::size_t>(b - a)));
            }
        }
        claim_of.push_back(claim.texts.empty() ? std::string::npos : claims.size());
        if (!claim.texts.empty()) claims.push_back(std::move(claim));
    }
    auto judged = checker.judge(claims);
    if (!judged) return judged.error();

    std::vector<CheckedSentence> out;
    for (std::size_t i = 0; i < drafted.size(); ++i) {
        CheckedSentence checked{drafted[i], false, {}, {}};
        if (claim_of[i] != std::string::npos) {
            const auto& each = (*judged)[claim_of[i]];
            auto& cands = candidates[i];
            for (std::size_t k = 0; k < each.size(); ++k) {
                cands[k].lexical = each[k].lexical;
                cands[k].cosine = each[k].cosine;
            }
            const int best_at = SupportChecker::best(each);
            if (best_at >= 0 && each[static_cast<std::size_t>(best_at)].supported) {
                checked.supported = true;
                checked.best = cands[static_cast<std::size_t>(best_at)];
                // Per supporting source, its best supported sentence.
                for (std::size_t k = 0; k < each.size(); ++k) {
                    if (!each[k].supported) continue;
                    auto same = std::find_if(checked.supporting.begin(), checked.supporting.end(),
                                             [&](const SupportSpan& s) {
                                                 return s.source_number == cands[k].source_number;
                                             });
                    if (same == checked.supporting.end()) {
                        checked.supporting.push_back(cands[k]);
                    } else if (cands[k].lexical + cands[k].cosine > same->lexical + same->cosine) {
                        *same = cands[k];
                    }
                }
                std::sort(checked.supporting.begin(), checked.supporting.end(),
                          [](const SupportSpan& a, const SupportSpan& b) {
                              return a.source_number < b.source_number;
                          });
            }
        }
        out.push_back(std::move(checked));
    }
    return out;
}

}  // namespace docintel::knowledge

#include "engine/chunk_evidence_finder.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <set>

namespace docintel::engine {
namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Lower-cased words of `text` (letters and digits).
std::set<std::string> words(const std::string& text) {
    std::set<std::string> out;
    std::string word;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            out.insert(word);
            word.clear();
        }
    }
    if (!word.empty()) out.insert(word);
    return out;
}

}  // namespace

std::string evidenceStem(const std::string& word) {
    std::string w = lower(word);
    if (w.size() > 4 && w.back() == 's') w.pop_back();
    const std::size_t keep = std::max<std::size_t>(5, w.size() > 3 ? w.size() - 3 : 0);
    return w.substr(0, std::min(keep, w.size()));
}

plugin::Result<std::vector<plugin::Passage>> ChunkEvidenceFinder::passages(
    const std::string& document_id) {
    auto chunks = documents_.chunks(document_id);
    if (!chunks) return chunks.error();
    std::vector<plugin::Passage> out;
    out.reserve(chunks->size());
    for (auto& c : *chunks) {
        out.push_back({document_id, c.id, c.page_start, c.page_end, std::move(c.text), 0,
                       c.char_start, c.char_end});
    }
    return out;
}

plugin::Result<std::vector<plugin::Passage>> ChunkEvidenceFinder::find(
    const plugin::EvidenceQuery& query) {
    std::set<std::string> stems;
    for (const auto& k : query.keywords) {
        for (const auto& w : words(k)) stems.insert(evidenceStem(w));
    }
    std::optional<std::regex> pattern;
    if (!query.pattern.empty()) {
        try {
            pattern.emplace(query.pattern, std::regex::ECMAScript | std::regex::icase);
        } catch (const std::regex_error&) {
            return plugin::Error::unprocessable("invalid_pattern",
                                                "the evidence pattern is invalid");
        }
    }
    std::vector<plugin::Passage> hits;
    for (const auto& id : query.document_ids) {
        auto all = passages(id);
        if (!all) return all.error();
        for (auto& p : all.value()) {
            if (pattern && !std::regex_search(p.text, *pattern)) continue;
            double score = pattern ? 1.0 : 0.0;
            if (!stems.empty()) {
                const auto present = words(p.text);
                std::size_t matched = 0;
                for (const auto& stem : stems) {
                    const auto it = present.lower_bound(stem);
                    if (it != present.end() && it->compare(0, stem.size(), stem) == 0) ++matched;
                }
                score = static_cast<double>(matched) / static_cast<double>(stems.size());
                if (matched == 0) continue;
            }
            p.score = score;
            hits.push_back(std::move(p));
        }
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const auto& a, const auto& b) { return a.score > b.score; });
    if (query.limit > 0 && hits.size() > static_cast<std::size_t>(query.limit)) {
        hits.resize(static_cast<std::size_t>(query.limit));
    }
    return hits;
}

}  // namespace docintel::engine

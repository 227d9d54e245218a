#include "knowledge/comparison.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <regex>

#include "common/clock.h"

namespace docintel::knowledge {
namespace {

using nlohmann::json;

/// A section of a document: its heading path and its sentences (indices, in order).
struct Section {
    std::string label;  ///< path joined by " > "; "" before the first heading
    std::vector<std::string> path;
    std::vector<std::size_t> sentences;
    std::vector<float> center;
    std::vector<float> heading;  ///< the last heading's vector; empty without one
};

std::vector<Section> sectionsOf(const LoadedDocument& doc) {
    std::vector<Section> out;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < doc.sentences.size(); ++i) {
        const auto& s = doc.sentences[i];
        auto [it, fresh] = index.try_emplace(s.section, out.size());
        if (fresh) {
            out.push_back(Section{s.section, doc.chunks[s.chunk].section_path, {}, {}, {}});
        }
        out[it->second].sentences.push_back(i);
    }
    for (auto& section : out) {
        std::vector<const std::vector<float>*> vectors;
        for (const std::size_t i : section.sentences) vectors.push_back(&doc.sentences[i].vector);
        section.center = centroid(vectors);
    }
    return out;
}

/// White space collapsed, for telling an unchanged passage from a changed one.
std::string normalised(const std::string& text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

/// What `a` has that `b` has not (multisets, order of `a`).
std::vector<std::string> minus(const std::vector<std::string>& a, std::vector<std::string> b) {
    std::vector<std::string> out;
    for (const auto& v : a) {
        const auto it = std::find(b.begin(), b.end(), v);
        if (it == b.end()) {
            out.push_back(v);
        } else {
            b.erase(it);
        }
    }
    return out;
}

/// One-to-one pairs (i, j) with score ≥ `threshold`, best first.
std::vector<std::pair<std::size_t, std::size_t>> greedyPairs(
    const std::vector<std::vector<double>>& score, double threshold) {
    struct Cell {
        double s;
        std::size_t i, j;
    };
    std::vector<Cell> cells;
    for (std::size_t i = 0; i < score.size(); ++i) {
        for (std::size_t j = 0; j < score[i].size(); ++j) {
            if (score[i][j] >= threshold) cells.push_back({score[i][j], i, j});
        }
    }
    std::stable_sort(cells.begin(), cells.end(),
                     [](const Cell& a, const Cell& b) { return a.s > b.s; });
    std::vector<bool> used_i(score.size(), false);
    std::vector<bool> used_j(score.empty() ? 0 : score[0].size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (const auto& c : cells) {
        if (used_i[c.i] || used_j[c.j]) continue;
        used_i[c.i] = used_j[c.j] = true;
        out.emplace_back(c.i, c.j);
    }
    return out;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

std::vector<std::string> extractValues(const std::string& text) {
    static const std::regex value(
        R"((?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})"
        R"(|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4})"
        R"(|[$€£]?\d[\d,]*(?:\.\d+)?%?)"
        R"(|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety)\b)",
        std::regex::icase);
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), value);
         it != std::sregex_iterator(); ++it) {
        std::string v = it->str();
        while (!v.empty() && (v.back() == ',' || v.back() == '.')) v.pop_back();
        if (!v.empty()) out.push_back(std::move(v));
    }
    return out;
}

plugin::Result<json> DocumentComparer::compare(const plugin::Principal& caller,
                                               const std::string& id_1, const std::string& id_2,
                                               bool redact_pii, const std::string& trace_id) const {
    const auto started = std::chrono::steady_clock::now();
    LoadedDocument docs[2];
    const std::string ids[2] = {id_1, id_2};
    for (int d = 0; d < 2; ++d) {
        auto doc = summarizer_.load(caller, ids[d]);
        if (!doc) return doc.error();
        docs[d] = std::move(doc).value();
        if (auto s = summarizer_.encode(docs[d], 0, docs[d].sentences.size()); !s) {
            return s.error();
        }
    }
    std::vector<Section> sections[2] = {sectionsOf(docs[0]), sectionsOf(docs[1])};
    // Heading vectors: the last heading of each section's path.
    for (auto& list : sections) {
        std::vector<std::string> headings;
        std::vector<Section*> owners;
        for (auto& s : list) {
            if (s.path.empty()) continue;
            headings.push_back(s.path.back());
            owners.push_back(&s);
        }
        if (headings.empty()) continue;
        auto vectors = summarizer_.encoder()->encode(headings, 32);
        if (!vectors) return vectors.error();
        for (std::size_t i = 0; i < owners.size(); ++i) owners[i]->heading = (*vectors)[i];
    }

    // Align sections.
    std::vector<std::vector<double>> section_score(sections[0].size(),
                                                   std::vector<double>(sections[1].size(), 0.0));
    for (std::size_t i = 0; i < sections[0].size(); ++i) {
        for (std::size_t j = 0; j < sections[1].size(); ++j) {
            const auto& a = sections[0][i];
            const auto& b = sections[1][j];
            double s = cosine(a.center, b.center);
            if (!a.heading.empty() && !b.heading.empty()) {
                s = 0.6 * s + 0.4 * cosine(a.heading, b.heading);
            }
            section_score[i][j] = s;
        }
    }
    auto aligned = greedyPairs(section_score, options_.section_match);
    std::sort(aligned.begin(), aligned.end());

    std::optional<redact::Redactor> redactor;
    if (redact_pii) redactor.emplace();
    redact::Redactor* r = redactor ? &*redactor : nullptr;
    SourceBook book;
    auto cite = [&](int d, std::size_t sentence) {
        return book.citation(docs[d], docs[d].sentences[sentence], r);
    };
    auto label = [&](const Section& s) {
        return maybeRedact(r, s.label.empty() ? "(no heading)" : s.label);
    };
    const std::string names[2] = {docs[0].document.filename, docs[1].document.filename};

    json aligned_json = json::array();
    json changes = json::array();
    std::vector<std::string> summary;
    std::vector<bool> section_aligned[2] = {std::vector<bool>(sections[0].size(), false),
                                            std::vector<bool>(sections[1].size(), false)};
    for (const auto& [i, j] : aligned) {
        section_aligned[0][i] = section_aligned[1][j] = true;
        const auto& a = sections[0][i];
        const auto& b = sections[1][j];
        std::vector<std::vector<double>> score(a.sentences.size(),
                                               std::vector<double>(b.sentences.size(), 0.0));
        for (std::size_t x = 0; x < a.sentences.size(); ++x) {
            for (std::size_t y = 0; y < b.sentences.size(); ++y) {
                const auto& sa = docs[0].sentences[a.sentences[x]];
                const auto& sb = docs[1].sentences[b.sentences[y]];
                score[x][y] = normalised(sa.span.text) == normalised(sb.span.text)
                                  ? 2.0
                                  : cosine(sa.vector, sb.vector);
            }
        }
        auto pairs = greedyPairs(score, options_.sentence_match);
        std::sort(pairs.begin(), pairs.end());
        std::vector<bool> matched_a(a.sentences.size(), false);
        std::vector<bool> matched_b(b.sentences.size(), false);
        std::size_t changed = 0;
        for (const auto& [x, y] : pairs) {
            matched_a[x] = matched_b[y] = true;
            if (score[x][y] >= 2.0) continue;  // the same text
            ++changed;
            const auto& ta = docs[0].sentences[a.sentences[x]].span.text;
            const auto& tb = docs[1].sentences[b.sentences[y]].span.text;
            const auto va = extractValues(ta);
            const auto vb = extractValues(tb);
            json c1 = cite(0, a.sentences[x]);
            json c2 = cite(1, b.sentences[y]);
            const auto removed = minus(va, vb);
            const auto added = minus(vb, va);
            std::string sentence;
            if (!removed.empty() || !added.empty()) {
                std::string before, after;
                for (const auto& v : removed) before += (before.empty() ? "" : ", ") + v;
                for (const auto& v : added) after += (after.empty() ? "" : ", ") + v;
                sentence = "In " + quoted(label(a)) + ", " + (before.empty() ? "nothing" : before) +
                           " in " + names[0] + " became " + (after.empty() ? "nothing" : after) +
                           " in " + names[1];
            } else {
                sentence = "In " + quoted(label(a)) + ", the wording changed from " +
                           quoted(c1["quote"].get<std::string>()) + " to " +
                           quoted(c2["quote"].get<std::string>());
            }
            sentence += " [" + std::to_string(c1["source_number"].get<int>()) + "][" +
                        std::to_string(c2["source_number"].get<int>()) + "].";
            summary.push_back(sentence);
            changes.push_back({{"type", "changed"},
                               {"section_1", label(a)},
                               {"section_2", label(b)},
                               {"text_1", c1["quote"]},
                               {"text_2", c2["quote"]},
                               {"similarity", score[x][y]},
                               {"values_removed", removed},
                               {"values_added", added},
                               {"citations", {c1, c2}}});
        }
        for (int d = 0; d < 2; ++d) {
            const auto& section = d == 0 ? a : b;
            const auto& matched = d == 0 ? matched_a : matched_b;
            for (std::size_t x = 0; x < section.sentences.size(); ++x) {
                if (matched[x]) continue;
                ++changed;
                json c = cite(d, section.sentences[x]);
                summary.push_back("In " + quoted(label(section)) + ", only " + names[d] +
                                  " says: " + c["quote"].get<std::string>() + " [" +
                                  std::to_string(c["source_number"].get<int>()) + "].");
                changes.push_back({{"type", d == 0 ? "removed" : "added"},
                                   {"section_1", label(a)},
                                   {"section_2", label(b)},
                                   {d == 0 ? "text_1" : "text_2", c["quote"]},
                                   {"values", extractValues(c["quote"].get<std::string>())},
                                   {"citations", {c}}});
            }
        }
        aligned_json.push_back({{"section_1", label(a)},
                                {"section_2", label(b)},
                                {"similarity", section_score[i][j]},
                                {"status", changed == 0 ? "identical" : "changed"},
                                {"changes", changed}});
    }

    json only[2] = {json::array(), json::array()};
    for (int d = 0; d < 2; ++d) {
        for (std::size_t i = 0; i < sections[d].size(); ++i) {
            if (section_aligned[d][i]) continue;
            const auto& s = sections[d][i];
            json citations = json::array();
            std::string text;
            std::string cited;
            for (const std::size_t x : s.sentences) {
                json c = cite(d, x);
                text += (text.empty() ? "" : " ") + c["quote"].get<std::string>();
                cited += (cited.empty() ? "" : " ") + c["quote"].get<std::string>() + " [" +
                         std::to_string(c["source_number"].get<int>()) + "]";
                citations.push_back(std::move(c));
            }
            summary.push_back("Only " + names[d] + " has " + quoted(label(s)) + ": " + cited);
            only[d].push_back({{"section", label(s)},
                               {"section_path", s.path},
                               {"text", text},
                               {"citations", std::move(citations)}});
        }
    }

    std::vector<const std::vector<float>*> all[2];
    for (int d = 0; d < 2; ++d) {
        for (const auto& s : docs[d].sentences) all[d].push_back(&s.vector);
    }
    const double similarity = cosine(centroid(all[0]), centroid(all[1]));
    std::string text;
    if (summary.empty()) {
        text =
            "The documents say the same thing: every passage of one has an identical passage "
            "in the other.";
    } else {
        for (const auto& s : summary) text += (text.empty() ? "" : "\n") + s;
    }
    auto describe = [&](int d) {
        return json{{"document_id", docs[d].document.id},
                    {"doc_name", docs[d].document.filename},
                    {"sections", sections[d].size()},
                    {"sentences", docs[d].sentences.size()}};
    };
    return json{{"document_1", describe(0)},
                {"document_2", describe(1)},
                {"similarity", similarity},
                {"summary", text},
                {"aligned_sections", aligned_json},
                {"only_in_document_1", only[0]},
                {"only_in_document_2", only[1]},
                {"changes", changes},
                {"sources", book.toJson(r)},
                {"redacted", redact_pii},
                {"model", summarizer_.encoder() ? summarizer_.encoder()->modelName() : ""},
                {"timings_ms", {{"total", common::millisecondsSince(started)}}},
                {"trace_id", trace_id}};
}

}  // namespace docintel::knowledge

#include "learning/generation.h"
#include "learning/generation_scope.h"

#include <algorithm>
#include <map>
#include <optional>

#include "learning/facts.h"
#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

/// The term a definitional sentence defines ("Photosynthesis is the process ..." →
/// "Photosynthesis"); none when the sentence does not open with "<term> is a/an/the ...",
/// "are", "refers to", "is defined as", "means", "is known as", "consists of".
std::optional<std::string> definedTerm(const std::string& sentence) {
    static const std::vector<std::string> verbs = {
        " is a ",   " is an ",       " is the ",       " are ",         " was a ",
        " was an ", " was the ",     " were ",         " refers to ",   " is defined as ",
        " means ",  " is known as ", " are known as ", " consists of ", " describes "};
    std::size_t at = std::string::npos;
    for (const auto& v : verbs) at = std::min(at, sentence.find(v));
    if (at == std::string::npos || at == 0 || at > 80) return std::nullopt;
    std::string term = sentence.substr(0, at);
    for (const std::string article : {"The ", "A ", "An "}) {
        if (term.rfind(article, 0) == 0) term = term.substr(article.size());
    }
    if (term.find_first_of(",;:()\"") != std::string::npos) return std::nullopt;
    const auto words = std::count(term.begin(), term.end(), ' ') + 1;
    if (words > 6 || term.empty()) return std::nullopt;
    static const std::set<std::string> openers = {
        "it",   "this", "these", "there", "they", "he",    "she",  "that", "those",   "such",
        "its",  "one",  "some",  "many",  "most", "all",   "each", "both", "another", "here",
        "what", "who",  "which", "his",   "her",  "their", "we",   "i",    "you",     "our"};
    const std::string first = lowered(term.substr(0, term.find(' ')));
    if (openers.count(first) || contentWords(term).empty()) return std::nullopt;
    return term;
}

struct Definition {
    std::string term;
    std::size_t sentence = 0;
};

/// Definitional sentences by descending centrality, one a term.
std::vector<Definition> definitions(const ScopeText& scope) {
    std::vector<std::size_t> order(scope.sentences.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return scope.centrality[a] > scope.centrality[b];
    });
    std::vector<Definition> out;
    std::set<std::string> terms;
    for (const std::size_t i : order) {
        const auto term = definedTerm(scope.sentences[i].text);
        if (!term) continue;
        if (terms.insert(lowered(*term)).second) out.push_back({*term, i});
    }
    return out;
}

/// Sentences `picked` in document order (passage, then place).
std::vector<std::size_t> inSourceOrder(std::vector<std::size_t> picked) {
    std::sort(picked.begin(), picked.end());
    return picked;
}

GeneratedArtifact summary(const ScopeText& scope, const GenerationRequest& request,
                          const GenerationTools& tools) {
    GeneratedArtifact out;
    const auto picked =
        inSourceOrder(pickDiverse(scope.sentences, scope.centrality, wanted(request, 6)));
    std::vector<std::pair<std::string, std::size_t>> items;
    for (const auto s : picked) items.emplace_back(scope.sentences[s].text, s);
    SourceList sources;
    std::string text;
    for (const auto i : supportedItems(scope, tools, items, out.dropped)) {
        const std::size_t s = items[i].second;
        text += (text.empty() ? "" : " ") + scope.sentences[s].text + cite(sources, scope, s);
        out.items.push_back({{"text", scope.sentences[s].text},
                             {"citation", citationJson(scope, scope.sentences[s])}});
        addSources(out, scope, s);
    }
    out.content = text + sources.render();
    return out;
}

GeneratedArtifact keyConcepts(const ScopeText& scope, const GenerationRequest& request,
                              const GenerationTools& tools, bool as_flashcards) {
    GeneratedArtifact out;
    const std::size_t k = wanted(request, as_flashcards ? 10 : 8);
    std::vector<std::pair<std::string, std::size_t>> items;
    std::vector<std::string> terms;
    for (const auto& d : definitions(scope)) {
        if (items.size() >= k) break;
        items.emplace_back(scope.sentences[d.sentence].text, d.sentence);
        terms.push_back(d.term);
    }
    SourceList sources;
    std::string text;
    for (const auto i : supportedItems(scope, tools, items, out.dropped)) {
        const std::size_t s = items[i].second;
        const json citation = citationJson(scope, scope.sentences[s]);
        if (as_flashcards) {
            out.items.push_back(
                {{"front", terms[i]}, {"back", scope.sentences[s].text}, {"citation", citation}});
            text += "Q: " + terms[i] + "\nA: " + scope.sentences[s].text + cite(sources, scope, s) +
                    "\n\n";
        } else {
            out.items.push_back({{"term", terms[i]},
                                 {"definition", scope.sentences[s].text},
                                 {"citation", citation}});
            text += "- **" + terms[i] + "**: " + scope.sentences[s].text + cite(sources, scope, s) +
                    "\n";
        }
        addSources(out, scope, s);
    }
    out.content = text + sources.render();
    return out;
}

GeneratedArtifact studyGuide(const ScopeText& scope, const GenerationRequest& request,
                             const GenerationTools& tools) {
    GeneratedArtifact out;
    const std::size_t k = wanted(request, 5);
    const auto overview = inSourceOrder(pickDiverse(scope.sentences, scope.centrality, k));
    std::set<std::size_t> used(overview.begin(), overview.end());
    std::vector<std::pair<std::string, std::size_t>> items;  // statement, sentence
    std::vector<std::pair<std::string, std::string>> where;  // section, term
    for (const auto s : overview) {
        items.emplace_back(scope.sentences[s].text, s);
        where.emplace_back("overview", "");
    }
    std::size_t n = 0;
    for (const auto& d : definitions(scope)) {
        if (n >= k || used.count(d.sentence)) continue;
        used.insert(d.sentence);
        items.emplace_back(scope.sentences[d.sentence].text, d.sentence);
        where.emplace_back("key_terms", d.term);
        ++n;
    }
    // Key facts: the most central sentences stating a date, figure or amount.
    std::vector<std::size_t> order(scope.sentences.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return scope.centrality[a] > scope.centrality[b];
    });
    n = 0;
    for (const auto s : order) {
        if (n >= k || used.count(s)) continue;
        const auto facts = findFacts(scope.sentences[s].text, scope.common_words);
        const bool figure = std::any_of(facts.begin(), facts.end(),
                                        [](const Fact& f) { return f.type != FactType::kName; });
        if (!figure) continue;
        used.insert(s);
        items.emplace_back(scope.sentences[s].text, s);
        where.emplace_back("key_facts", "");
        ++n;
    }
    SourceList sources;
    std::map<std::string, std::string> sections;
    for (const auto i : supportedItems(scope, tools, items, out.dropped)) {
        const std::size_t s = items[i].second;
        const auto& [section, term] = where[i];
        sections[section] += "- " + (term.empty() ? "" : "**" + term + "**: ") +
                             scope.sentences[s].text + cite(sources, scope, s) + "\n";
        json item = {{"section", section},
                     {"text", scope.sentences[s].text},
                     {"citation", citationJson(scope, scope.sentences[s])}};
        if (!term.empty()) item["term"] = term;
        out.items.push_back(std::move(item));
        addSources(out, scope, s);
    }
    std::string text;
    for (const auto& [key, heading] : std::vector<std::pair<std::string, std::string>>{
             {"overview", "Overview"}, {"key_terms", "Key terms"}, {"key_facts", "Key facts"}}) {
        if (sections.count(key)) text += "## " + heading + "\n" + sections[key] + "\n";
    }
    out.content = text + sources.render();
    return out;
}

}  // namespace

std::vector<std::size_t> supportedItems(
    const ScopeText& scope, const GenerationTools& tools,
    const std::vector<std::pair<std::string, std::size_t>>& items, int& dropped) {
    std::vector<SupportClaim> claims;
    for (const auto& [statement, s] : items) {
        claims.push_back({statement, {scope.sentences[s].text}});
    }
    const auto ok = checkSupport(tools, claims);
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (ok[i]) {
            kept.push_back(i);
        } else {
            ++dropped;
        }
    }
    return kept;
}

std::string cite(SourceList& sources, const ScopeText& scope, std::size_t s) {
    const Sentence& sentence = scope.sentences[s];
    return " [" + std::to_string(sources.number((*scope.passages)[sentence.passage])) + "]";
}

void addSources(GeneratedArtifact& out, const ScopeText& scope, std::size_t s) {
    const std::string& id = (*scope.passages)[scope.sentences[s].passage].document_id;
    if (std::find(out.source_document_ids.begin(), out.source_document_ids.end(), id) ==
        out.source_document_ids.end()) {
        out.source_document_ids.push_back(id);
    }
}

std::size_t wanted(const GenerationRequest& r, std::size_t fallback) {
    return r.max_items > 0 ? static_cast<std::size_t>(r.max_items) : fallback;
}

std::string defaultTitle(ArtifactType type, const std::string& scope_label) {
    static const std::map<ArtifactType, std::string> names = {
        {ArtifactType::kSummary, "Summary"},
        {ArtifactType::kStudyGuide, "Study guide"},
        {ArtifactType::kKeyConcepts, "Key concepts"},
        {ArtifactType::kFlashcards, "Flashcards"},
        {ArtifactType::kPracticeQuestions, "Practice questions"}};
    return names.at(type) + (scope_label.empty() ? "" : " - " + scope_label);
}

ScopeText readScope(const std::vector<Passage>& passages, const std::string& custom_instruction,
                    const SentenceSplitter& split) {
    ScopeText scope;
    scope.passages = &passages;
    scope.sentences = quotableSentences(passages, split);
    const auto focus = contentWordSet(custom_instruction);
    scope.centrality = centrality(scope.sentences, focus);
    // The instruction also ranks whole passages: a sentence of a passage about the focus rises.
    if (!focus.empty()) {
        std::vector<double> passage_focus;
        for (const auto& p : passages)
            passage_focus.push_back(coverage(focus, contentWordSet(p.text)));
        for (std::size_t i = 0; i < scope.sentences.size(); ++i) {
            scope.centrality[i] += passage_focus[scope.sentences[i].passage];
        }
    }
    std::vector<std::string> texts;
    for (const auto& p : passages) texts.push_back(p.text);
    scope.common_words = lowerCaseWords(texts);
    return scope;
}

json citationJson(const ScopeText& scope, const Sentence& s) {
    const Passage& p = (*scope.passages)[s.passage];
    return {{"document_id", p.document_id},
            {"document_name", p.document_name},
            {"page", p.page},
            {"chunk_id", p.chunk_id},
            {"char_start", s.start},
            {"char_end", s.end},
            {"quote", s.text}};
}

std::vector<bool> checkSupport(const GenerationTools& tools,
                               const std::vector<SupportClaim>& claims) {
    if (!tools.support || claims.empty()) return std::vector<bool>(claims.size(), true);
    auto judged = tools.support(claims);
    judged.resize(claims.size(), false);  // a short answer supports nothing more
    return judged;
}

plugin::Result<GeneratedArtifact> generateArtifact(const std::vector<Passage>& passages,
                                                   const GenerationRequest& request,
                                                   const GenerationTools& tools) {
    const ScopeText scope = readScope(passages, request.custom_instruction, tools.split);
    if (scope.sentences.empty()) {
        return plugin::Error::conflict("content_not_ready",
                                       "the scope holds no embedded text to generate from");
    }
    plugin::Result<GeneratedArtifact> out = GeneratedArtifact{};
    switch (request.type) {
        case ArtifactType::kSummary:
            out = summary(scope, request, tools);
            break;
        case ArtifactType::kStudyGuide:
            out = studyGuide(scope, request, tools);
            break;
        case ArtifactType::kKeyConcepts:
            out = keyConcepts(scope, request, tools, false);
            break;
        case ArtifactType::kFlashcards:
            out = keyConcepts(scope, request, tools, true);
            break;
        case ArtifactType::kPracticeQuestions:
            out = generatePracticeQuestions(scope, request, tools);
            break;
    }
    if (!out) return out;
    if (out->items.empty()) {
        return plugin::Error::unprocessable(
            "insufficient_content",
            "the scope's documents hold nothing to make " + toString(request.type) + " from");
    }
    out->type = request.type;
    out->title =
        request.title.empty() ? defaultTitle(request.type, request.scope_label) : request.title;
    return out;
}

}  // namespace docintel::learning

#pragma once

// What the generators (generation.cpp, generation_questions.cpp) share: the scope read once,
// citations and the support check call. Internal to docintel_learning_logic; the plugin calls
// generateArtifact (generation.h). Pure given the injected functions.

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/generation.h"

namespace docintel::learning {

/// The scope read once: sentences, their centrality under the instruction's focus, the words
/// the scope writes in lower case.
struct ScopeText {
    const std::vector<Passage>* passages = nullptr;
    std::vector<Sentence> sentences;
    std::vector<double> centrality;
    std::set<std::string> common_words;
};
ScopeText readScope(const std::vector<Passage>& passages, const std::string& custom_instruction,
                    const SentenceSplitter& split);

/// The citation of sentence `s` of the scope.
nlohmann::json citationJson(const ScopeText& scope, const Sentence& s);

/// Runs `tools.support` over `claims` (all true when there is no check).
std::vector<bool> checkSupport(const GenerationTools& tools,
                               const std::vector<SupportClaim>& claims);

/// Numbers the (document, page) pairs items cite, [1], [2], ... in order of first citation.
class SourceList {
  public:
    int number(const Passage& p) {
        const auto key = std::make_pair(p.document_id, p.page);
        const auto it = numbers_.find(key);
        if (it != numbers_.end()) return it->second;
        const int n = static_cast<int>(numbers_.size()) + 1;
        numbers_[key] = n;
        lines_.push_back("[" + std::to_string(n) + "] " + p.document_name + ", page " +
                         std::to_string(p.page));
        return n;
    }
    std::string render() const {
        std::string out = "\n\nSources:\n";
        for (const auto& l : lines_) out += l + "\n";
        return out;
    }

  private:
    std::map<std::pair<std::string, int>, int> numbers_;
    std::vector<std::string> lines_;
};

/// " [n]": the source number of sentence `s`'s passage.
std::string cite(SourceList& sources, const ScopeText& scope, std::size_t s);
/// Adds sentence `s`'s document to the artifact's sources (each once).
void addSources(GeneratedArtifact& out, const ScopeText& scope, std::size_t s);
/// Keeps the items whose statement their cited sentence supports; counts the rest in
/// `dropped`. Each item is {statement, sentence index}.
std::vector<std::size_t> supportedItems(
    const ScopeText& scope, const GenerationTools& tools,
    const std::vector<std::pair<std::string, std::size_t>>& items, int& dropped);
/// The items the request asks for, else `fallback`.
std::size_t wanted(const GenerationRequest& r, std::size_t fallback);

/// Practice questions (generation_questions.cpp): the quiz JSON as content.
plugin::Result<GeneratedArtifact> generatePracticeQuestions(const ScopeText& scope,
                                                            const GenerationRequest& request,
                                                            const GenerationTools& tools);

}  // namespace docintel::learning

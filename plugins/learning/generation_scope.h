#pragma once

// What the generators (generation.cpp, generation_questions.cpp) share: the scope read once,
// citations and the support check call. Internal to docintel_learning_logic; the plugin calls
// generateArtifact (generation.h). Pure given the injected functions.

#include <set>
#include <string>
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

/// Practice questions (generation_questions.cpp): the quiz JSON as content.
plugin::Result<GeneratedArtifact> generatePracticeQuestions(const ScopeText& scope,
                                                            const GenerationRequest& request,
                                                            const GenerationTools& tools);

}  // namespace docintel::learning

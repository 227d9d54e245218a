#pragma once

// Study artifacts written by an LLM and kept only where the scope supports them (issue 16 item
// 7): the prompt that asks for one item a line, each ending with the number of its source
// passage, and the reading of the reply, where every item is checked against the sentence of
// that passage it is closest to and dropped when that sentence does not support it. Practice
// questions stay extractive (generation.h): a question's answer must be a fact of the text.
// Pure given the injected support check; thread-safe.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/generation.h"
#include "plugin_api/result.h"

namespace docintel::learning {

/// Passages the prompt carries at most, and their characters at most in all (small local
/// models have small context windows).
constexpr std::size_t kMaxLlmPassages = 12;
constexpr std::size_t kMaxLlmPromptChars = 6000;

/// Whether an LLM writes this type (all but practice questions).
bool llmWrites(ArtifactType type);

/// The OpenAI `messages` asking for `request.type` over `passages` (numbered [1]..[n] in the
/// order given, cut to the limits above; the custom instruction steers the focus).
nlohmann::json llmMessages(const std::vector<Passage>& passages, const GenerationRequest& request);

/// The artifact from the LLM's `reply` to llmMessages(passages, request): each line ending in
/// "[n]" is an item of passage n ("term :: definition" for key concepts, "front :: back" for
/// flashcards, the sentence itself otherwise); lines without a known source are dropped, and so
/// are items `tools.support` finds unsupported by the passage's sentence they are closest to
/// (the citation). 422 `insufficient_content` when nothing is left.
plugin::Result<GeneratedArtifact> artifactFromLlm(const std::string& reply,
                                                  const std::vector<Passage>& passages,
                                                  const GenerationRequest& request,
                                                  const GenerationTools& tools = {});

}  // namespace docintel::learning

#pragma once

// Study artifacts generated from a scope's passages without an LLM (docs/learning.md
// "Generation"): every item quotes or blanks a sentence of its source and cites its document
// and page; an injected support check (the host's) drops any item its source does not support.
// Pure given the injected functions; thread-safe when they are.

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/learning_enums.h"
#include "learning/study_text.h"
#include "plugin_api/result.h"

namespace docintel::learning {

/// A sentence and the texts that may support it (the host's SupportChecker::Claim).
struct SupportClaim {
    std::string sentence;
    std::vector<std::string> texts;
};
/// For each claim, whether any of its texts supports its sentence. The plugin passes the
/// host's check (lexical share + encoder cosine + stated numbers); tests pass their own.
using SupportCheck = std::function<std::vector<bool>(const std::vector<SupportClaim>&)>;

/// What generation may call on. An empty `support` skips the support check (the items are then
/// exactly as the rules below make them); an empty `split` uses splitSentences.
struct GenerationTools {
    SupportCheck support;
    SentenceSplitter split;
};

struct GenerationRequest {
    ArtifactType type = ArtifactType::kSummary;
    std::string scope_label;         ///< the default title is "{Type} - {scope_label}"
    std::string title;               ///< overrides the default title when set
    std::string custom_instruction;  ///< steers focus: passages and sentences sharing its words
    /// Items wanted; 0 = the type's default (summary 6 sentences, study guide 5 + 5 + 5,
    /// key concepts 8, flashcards 10, practice questions 10; at most 20 questions).
    int max_items = 0;
};

struct GeneratedArtifact {
    ArtifactType type = ArtifactType::kSummary;
    std::string title;
    /// ArtifactCreate.content: Markdown with [n] citations for the text types, the quiz JSON
    /// (schema_version 1) for practice_questions.
    std::string content;
    /// The items with their citations ({document_id, document_name, page, chunk_id,
    /// char_start, char_end, quote}).
    nlohmann::json items = nlohmann::json::array();
    std::vector<std::string> source_document_ids;
    int dropped = 0;  ///< items the support check dropped
};

/// Generates `request.type` from `passages` (the scope's chunks). 409 `content_not_ready` when
/// they hold no quotable sentence; 422 `insufficient_content` when no item survives.
plugin::Result<GeneratedArtifact> generateArtifact(const std::vector<Passage>& passages,
                                                   const GenerationRequest& request,
                                                   const GenerationTools& tools = {});

/// The title an artifact of `type` over `scope_label` gets: "Practice questions - Biology".
std::string defaultTitle(ArtifactType type, const std::string& scope_label);

}  // namespace docintel::learning

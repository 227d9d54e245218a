#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "knowledge/question_analysis.h"
#include "plugin_api/http_types.h"
#include "plugin_api/result.h"

namespace docintel::knowledge {

/// One extracted field of a vertical workflow run's review packet, as agent_mode adds it to
/// an answer's sources (docs/knowledge.md "agent_mode", decision 0055).
struct RunFact {
    std::string workflow;
    std::string vertical;
    std::string run_id;
    std::string status;      ///< pending_review, changes_requested or approved
    std::string updated_at;  ///< of the run
    std::string field;       ///< JSON pointer into the packet: /abstract/base_rent
    std::string label;       ///< the field's own words: "base rent", "critical dates Expiration"
    std::string section;     ///< the words of the packet sections above it: "abstract"
    nlohmann::json value;    ///< the field's `value` (never null here)
    double confidence = 0;
    // The field's own citation (empty document_id = a value a reviewer typed without one).
    std::string document_id;
    std::string doc_name;
    int page = 1;
    std::string chunk_id;
    std::string excerpt;
};

/// The runs whose results may join an answer: those of `workspace_ids` ("" = the caller's
/// personal scope) that the caller may read; with `document_ids`, only runs over at least one
/// of them (as `document_ids` or a document input).
struct RunFactQuery {
    std::vector<std::string> workspace_ids;
    std::vector<std::string> document_ids;
};

/// Reads the extracted fields of the usable runs (the workflow engine provides it; the
/// knowledge library does not link the engine). Must apply the caller's visibility exactly
/// like documents: personal runs of the caller, team runs of workspaces the caller can read.
using RunFactsFn = std::function<plugin::Result<std::vector<RunFact>>(const plugin::Principal&,
                                                                      const RunFactQuery&)>;

/// The extracted fields of a review packet: every object holding `value` and `confidence`
/// (the _WorkflowField shape), anywhere in the packet, in document order; null values are
/// left out (the documents did not provide them). `label` is the last path segment's words
/// ("base_rent" → "base rent"); an array item is its array's words and its descriptor member
/// (`event`, `term`, `name` …) or position; `section` the words of the segments above.
std::vector<RunFact> packetFacts(const nlohmann::json& packet);

/// The sentence a fact is shown and quoted as:
/// "Base rent (lease_intelligence run, abstract, pending review): $24,650.00 per month."
std::string runFactText(const RunFact& fact);

/// How well a fact's label matches a question: the share of the label's content words that
/// the question contains, or of the section's and label's together when that is higher (0..1);
/// words of five letters or more match on their first five ("expire" / "expiration").
double labelMatch(const QuestionAnalysis& question, const RunFact& fact);

/// agent_mode's choice of facts, at most `max`, best first: `off` none; `auto` the facts whose
/// label matches the question (labelMatch ≥ kAutoLabelMatch), or every fact when the question
/// asks about the workflows' results (has "workflow", "extracted" or "extraction"); `force` every
/// fact, ranked by label match then the question's words in the fact's text.
/// The question is read as retrieval and the answerer read it (QuestionAnalysis::word_set).
std::vector<std::size_t> chooseRunFacts(const std::string& mode, const QuestionAnalysis& question,
                                        const std::vector<RunFact>& facts, std::size_t max);

constexpr double kAutoLabelMatch = 0.5;

}  // namespace docintel::knowledge

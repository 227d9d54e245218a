#pragma once

#include <string>

#include "classify/document_classifier.h"
#include "knowledge/llm_client.h"

namespace docintel::classify {

/// A classification and where it came from (docs/classification.md "LLM mode").
struct SourcedClassification {
    Classification classification;
    std::string source = "local";  ///< `local` | `llm`
    std::string llm_answer;        ///< what the LLM said (trimmed), empty when not asked
    std::string llm_model;
    std::string rejected;  ///< why the LLM's answer was not used (error code or `not_a_label`)
};

/// doc_type by an LLM when DOCINTEL_LLM_* is configured: the model reads the first part of
/// the document and names one label of the fixed list (DocClass names). Its answer is
/// validated against the list; anything else — an unknown label, prose, an error, a timeout —
/// keeps the local classifier's result (`source` = `local`). Confidence: the one the model
/// states (0..1) when it states one, else kLlmDefaultConfidence. Thread-safe.
class LlmClassifier {
  public:
    static constexpr double kLlmDefaultConfidence = 0.75;
    static constexpr std::size_t kTextBytes = 6000;  ///< of the first chunks, sent to the LLM

    LlmClassifier(const DocumentClassifier& local, knowledge::LlmConfig config)
        : local_(local), llm_(std::move(config)) {}

    SourcedClassification classify(const ClassifierInput& input) const;

    /// The label (and confidence, when stated) in an LLM reply: a JSON object
    /// {"doc_type": "...", "confidence": 0.9} or a bare label; nullopt for anything else.
    static std::optional<std::pair<DocClass, std::optional<double>>> parseReply(
        const std::string& reply);

  private:
    const DocumentClassifier& local_;
    knowledge::LlmClient llm_;
};

}  // namespace docintel::classify

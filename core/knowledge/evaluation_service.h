#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "embed/sentence_encoder.h"
#include "plugin_api/http_types.h"
#include "storage/answer_trace_repository.h"

namespace docintel::knowledge {

/// Thresholds of the groundedness evaluation (docs/knowledge.md "Traces and evaluations").
struct EvaluationThresholds {
    /// A sentence is supported by a text when it shares this share of its content words with
    /// it and the encoder cosine of the two reaches `cosine_with_lexical`...
    double lexical = 0.5;
    double cosine_with_lexical = 0.5;
    /// ...or, whatever the wording, when the cosine alone reaches this (a close paraphrase).
    double cosine_alone = 0.8;
    /// Without an encoder: the lexical share alone must reach this.
    double lexical_alone = 0.6;
    /// Retrieval agreement looks at the first max(top_k, cited sources) fused candidates.
    int top_k = 3;
};

/// How well one text supports one sentence.
struct SentenceSupport {
    double lexical = 0;  ///< share of the sentence's content words in the text
    double cosine = 0;   ///< encoder cosine of the two (0 without an encoder)
    bool supported = false;
};

/// The sentence-support check (lexical share + encoder cosine under EvaluationThresholds; and
/// every number the sentence states, statedNumbers, must be in the text):
/// the groundedness evaluation scores stored answers with it, and LLM mode checks every
/// generated sentence against the source it cites with it (docs/knowledge.md "LLM mode").
/// Thread-safe (the encoder is).
class SupportChecker {
  public:
    /// A sentence and the texts that may support it.
    struct Claim {
        std::string sentence;
        std::vector<std::string> texts;
    };

    explicit SupportChecker(const embed::SentenceEncoder* encoder,
                            EvaluationThresholds thresholds = {})
        : encoder_(encoder), thresholds_(thresholds) {}

    /// For each claim, the support of its sentence by each of its texts (same order); every
    /// distinct text is encoded once. An empty sentence or text supports nothing.
    plugin::Result<std::vector<std::vector<SentenceSupport>>> judge(
        const std::vector<Claim>& claims) const;

    /// The best of `each` (supported first, then the larger lexical + cosine); -1 when none
    /// beats an unsupported zero.
    static int best(const std::vector<SentenceSupport>& each);

    const EvaluationThresholds& thresholds() const { return thresholds_; }

  private:
    const embed::SentenceEncoder* encoder_;
    const EvaluationThresholds thresholds_;
};

/// `POST /api/v1/evaluations`: scores a stored answer trace. Every evaluation computes the
/// three metrics; `evaluation_type` names the one reported as `score`:
/// - `groundedness`: share of answer sentences supported by the span they cite;
/// - `citation`: citation precision — share of citations whose source (any sentence of its
///   excerpt) supports the sentence citing it;
/// - `retrieval`: retrieval agreement — share of the distinct cited sources that first-stage
///   retrieval (fused BM25 + vector ranking, before re-ranking) put in its top k.
/// A refused answer has nothing to score: the metrics are null.
///
/// A trace is visible to the user who asked, while they may still ask in its workspace;
/// anything else is `trace_not_found` (404). Thread-safe.
class EvaluationService {
  public:
    static constexpr const char* kTypes[] = {"groundedness", "citation", "retrieval"};

    EvaluationService(storage::AnswerTraceRepository& traces, const auth::DocumentAccess& access,
                      const embed::SentenceEncoder* encoder, EvaluationThresholds thresholds = {})
        : traces_(traces), access_(access), encoder_(encoder), thresholds_(thresholds) {}

    /// EvaluationInput → the stored evaluation (201 on REST).
    plugin::Result<nlohmann::json> evaluate(const plugin::Principal& caller,
                                            const nlohmann::json& input);

  private:
    storage::AnswerTraceRepository& traces_;
    const auth::DocumentAccess& access_;
    const embed::SentenceEncoder* encoder_;
    const EvaluationThresholds thresholds_;
};

}  // namespace docintel::knowledge

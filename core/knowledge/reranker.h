#pragma once

#include <set>
#include <string>
#include <vector>

#include "knowledge/question_analysis.h"
#include "search/hybrid_retriever.h"

namespace docintel::knowledge {

/// Weights of the re-ranker's linear score (see rerank()), fit on the SciFact train queries
/// (bench/retrieval/fit_rerank.py, docs/decisions/0044).
struct RerankWeights {
    double similarity = 0.70;  ///< cosine of the chunk to the question
    double bm25 = 0.25;        ///< BM25 over the best BM25 among the candidates
    double coverage = 0.05;    ///< share of the question's content words in the chunk
};

/// Re-scores fused candidates (best first, as HybridRetriever returns them) with a linear
/// combination of their cosine, normalised BM25 and question-word coverage, sets each one's
/// `rerank_score`, and returns their indices best first (ties keep the fused order).
/// `words[i]` are the content words (refusalWords, as QuestionAnalysis::word_set) of candidate
/// i's text.
std::vector<std::size_t> rerank(const QuestionAnalysis& question,
                                std::vector<search::Candidate>& candidates,
                                const std::vector<std::set<std::string>>& words,
                                const RerankWeights& weights = {});

}  // namespace docintel::knowledge

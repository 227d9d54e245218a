#include "knowledge/reranker.h"

#include <algorithm>
#include <numeric>

#include "knowledge/extractive_answerer.h"

namespace docintel::knowledge {

std::vector<std::size_t> rerank(const QuestionAnalysis& question,
                                std::vector<search::Candidate>& candidates,
                                const std::vector<std::set<std::string>>& words,
                                const RerankWeights& weights) {
    double max_bm25 = 1e-9;
    for (const auto& c : candidates) max_bm25 = std::max(max_bm25, c.bm25.value_or(0));
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        auto& c = candidates[i];
        c.rerank_score = weights.similarity * c.similarity.value_or(0) +
                         weights.bm25 * c.bm25.value_or(0) / max_bm25 +
                         weights.coverage * coverage(question.word_set, words[i]);
    }
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return candidates[a].rerank_score > candidates[b].rerank_score;
    });
    return order;
}

}  // namespace docintel::knowledge

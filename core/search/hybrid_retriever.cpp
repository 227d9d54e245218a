#include "search/hybrid_retriever.h"

#include <algorithm>
#include <map>
#include <set>

namespace docintel::search {
namespace {

/// The `k` nearest chunks of `scope` over every model's index (each with its own question
/// vector), best first.
std::vector<VectorHit> searchModels(const ModelVectors& vectors, const QueryVectors& query,
                                    const SearchScope& scope, int k) {
    std::vector<VectorHit> hits;
    for (const auto& [model, vector] : query) {
        const VectorIndex* index = vectors.find(model);
        if (!index) continue;
        auto found = index->search(vector, scope, k);
        hits.insert(hits.end(), std::make_move_iterator(found.begin()),
                    std::make_move_iterator(found.end()));
    }
    if (query.size() > 1) {
        std::stable_sort(hits.begin(), hits.end(), [](const VectorHit& a, const VectorHit& b) {
            return a.similarity > b.similarity;
        });
        if (hits.size() > static_cast<std::size_t>(k)) hits.resize(static_cast<std::size_t>(k));
    }
    return hits;
}

}  // namespace

std::vector<std::string> HybridRetriever::modelsIn(const SearchScope& scope) const {
    return vectors_ ? vectors_->modelsIn(scope) : std::vector<std::string>{};
}

plugin::Result<std::vector<Candidate>> HybridRetriever::retrieve(
    const std::string& question, const QueryVectors& query, const SearchScope& scope,
    const RetrievalOptions& options) const {
    auto keyword_hits = keywords_.search(question, scope, options.candidates);
    if (!keyword_hits) return keyword_hits.error();
    std::vector<VectorHit> vector_hits;
    const bool dense = vectors_ && !query.empty();
    if (dense) vector_hits = searchModels(*vectors_, query, scope, options.candidates);

    std::map<std::pair<std::string, int>, Candidate> by_key;
    auto at = [&](const std::string& doc, int chunk) -> Candidate& {
        Candidate& c = by_key[{doc, chunk}];
        c.document_id = doc;
        c.chunk_index = chunk;
        return c;
    };
    const double max_bm25 = keyword_hits->empty() ? 1.0 : keyword_hits->front().bm25;
    for (std::size_t rank = 0; rank < keyword_hits->size(); ++rank) {
        const auto& h = (*keyword_hits)[rank];
        Candidate& c = at(h.document_id, h.chunk_index);
        c.bm25 = h.bm25;
        c.fused += options.fusion == Fusion::kRrf
                       ? 1.0 / (options.rrf_k + static_cast<double>(rank) + 1)
                       : (1 - options.alpha) * h.bm25 / std::max(max_bm25, 1e-9);
    }
    for (std::size_t rank = 0; rank < vector_hits.size(); ++rank) {
        const auto& h = vector_hits[rank];
        Candidate& c = at(h.document_id, h.chunk_index);
        c.similarity = h.similarity;
        c.fused += options.fusion == Fusion::kRrf
                       ? 1.0 / (options.rrf_k + static_cast<double>(rank) + 1)
                       : options.alpha * h.similarity;
    }
    for (auto& [_, c] : by_key) {
        c.match_type = c.bm25 && c.similarity ? "hybrid" : c.bm25 ? "keyword" : "vector";
    }

    // Keyword-only hits get their cosine too: score the rows of their documents.
    if (dense) {
        std::set<std::string> docs;
        for (const auto& [_, c] : by_key) {
            if (!c.similarity) docs.insert(c.document_id);
        }
        if (!docs.empty()) {
            const SearchScope those{{docs.begin(), docs.end()}, ""};
            for (const auto& h : searchModels(*vectors_, query, those, 1 << 20)) {
                const auto it = by_key.find({h.document_id, h.chunk_index});
                if (it != by_key.end() && !it->second.similarity) {
                    it->second.similarity = h.similarity;
                    if (options.fusion == Fusion::kConvex) {
                        it->second.fused += options.alpha * h.similarity;
                    }
                }
            }
        }
    }

    std::vector<Candidate> out;
    out.reserve(by_key.size());
    for (auto& [_, c] : by_key) out.push_back(std::move(c));
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& b) { return a.fused > b.fused; });
    return out;
}

}  // namespace docintel::search

#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "search/keyword_index.h"
#include "search/model_vectors.h"

namespace docintel::search {

enum class Fusion {
    kRrf,     ///< reciprocal rank fusion, 1/(rrf_k + rank) from each list
    kConvex,  ///< alpha·cosine + (1 − alpha)·bm25/max(bm25)
};

/// The defaults were chosen on the SciFact train queries (docs/decisions/0044).
struct RetrievalOptions {
    int candidates = 300;  ///< taken from each index before fusion
    Fusion fusion = Fusion::kConvex;
    double alpha = 0.70;  ///< weight of the vector score in kConvex
    double rrf_k = 60;    ///< the rank offset of kRrf
};

/// A question encoded by each model whose vectors it is to be compared with (model name →
/// unit vector).
using QueryVectors = std::map<std::string, std::vector<float>>;

/// A chunk found for a question, with every score it earned.
struct Candidate {
    std::string document_id;
    int chunk_index = 0;
    std::optional<double> similarity;  ///< cosine to the question (when the chunk has a vector)
    std::optional<double> bm25;        ///< when the keyword index matched it
    double fused = 0;
    double rerank_score = 0;
    std::string match_type;  ///< hybrid | vector | keyword
};

/// Keyword top-k and vector top-k over the scope, fused into one ranking (best first). The
/// vector top-k compares each model's question vector with that model's vectors (a scope moving
/// to another model has some of each). The similarity of keyword-only hits is filled in from
/// the vector indexes, so every candidate carries both scores where they exist. Thread-safe.
class HybridRetriever {
  public:
    /// `vectors` null: keywords only.
    HybridRetriever(const KeywordIndex& keywords, const ModelVectors* vectors)
        : keywords_(keywords), vectors_(vectors) {}

    /// The models whose vectors `scope` holds: what a question must be encoded by.
    std::vector<std::string> modelsIn(const SearchScope& scope) const;

    /// `query` empty: keyword only.
    plugin::Result<std::vector<Candidate>> retrieve(const std::string& question,
                                                    const QueryVectors& query,
                                                    const SearchScope& scope,
                                                    const RetrievalOptions& options) const;

  private:
    const KeywordIndex& keywords_;
    const ModelVectors* vectors_;
};

}  // namespace docintel::search

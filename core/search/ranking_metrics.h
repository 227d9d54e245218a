#pragma once

// Ranking quality measures with binary relevance, for the retrieval bench and the test that
// guards the retrieval defaults. Header-only.

#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace docintel::search {

/// nDCG@k of a document ranking (binary gains).
inline double ndcgAt(std::size_t k, const std::vector<std::string>& ranking,
                     const std::set<std::string>& relevant) {
    double dcg = 0, ideal = 0;
    for (std::size_t i = 0; i < ranking.size() && i < k; ++i) {
        if (relevant.count(ranking[i])) dcg += 1 / std::log2(static_cast<double>(i) + 2);
    }
    for (std::size_t i = 0; i < relevant.size() && i < k; ++i) {
        ideal += 1 / std::log2(static_cast<double>(i) + 2);
    }
    return ideal > 0 ? dcg / ideal : 0;
}

/// Share of the relevant documents among the first k of the ranking.
inline double recallAt(std::size_t k, const std::vector<std::string>& ranking,
                       const std::set<std::string>& relevant) {
    std::size_t found = 0;
    for (std::size_t i = 0; i < ranking.size() && i < k; ++i) found += relevant.count(ranking[i]);
    return relevant.empty() ? 0 : static_cast<double>(found) / relevant.size();
}

/// The documents of chunk hits (anything with a `document_id`) in the order of their best hit.
template <typename Hits>
std::vector<std::string> documentsInOrder(const Hits& hits) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& h : hits) {
        if (seen.insert(h.document_id).second) out.push_back(h.document_id);
    }
    return out;
}

}  // namespace docintel::search

#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "search/vector_index.h"

namespace docintel::search {

/// The node's vector indexes, one per embedding model (docs/decisions/0075): a chunk's vector
/// goes to the index of the model that embedded it (chunks.model), so a question is compared
/// only with vectors of the model that encoded it. A scope keeps its vectors in one model
/// (storage::EmbeddingSpaceRepository) except while it moves to another, when its documents
/// are in both until each is re-embedded.
///
/// Owns the indexes; an index, once made, lives as long as this. Thread-safe.
class ModelVectors {
  public:
    /// Replaces the document's vectors in every model's index.
    void put(const storage::IndexedDocument& doc);
    void remove(const std::string& document_id);

    /// The models holding vectors of `scope`'s documents.
    std::vector<std::string> modelsIn(const SearchScope& scope) const;
    /// The index of `model`; null when no vector of it was ever put.
    const VectorIndex* find(const std::string& model) const;

    /// Vectors held, all models together.
    std::size_t size() const;

  private:
    mutable std::shared_mutex mutex_;  // guards the map (each index guards itself)
    std::map<std::string, std::unique_ptr<VectorIndex>> indexes_;
};

}  // namespace docintel::search

#pragma once

#include "plugin_api/workflow.h"
#include "storage/document_repository.h"

namespace docintel::engine {

/// The first EvidenceFinder: reads the documents' chunks from Postgres and scores each by the
/// share of query keywords it mentions (a light stem: trailing "s" dropped, then a prefix of
/// max(5, length − 3) characters matched at a word start), keeping chunks that match
/// `pattern` when one is given. Hybrid retrieval replaces it behind the same interface.
/// Thread-safe.
class ChunkEvidenceFinder final : public plugin::EvidenceFinder {
  public:
    explicit ChunkEvidenceFinder(storage::DocumentRepository& documents) : documents_(documents) {}

    plugin::Result<std::vector<plugin::Passage>> passages(const std::string& document_id) override;
    plugin::Result<std::vector<plugin::Passage>> find(const plugin::EvidenceQuery& query) override;

  private:
    storage::DocumentRepository& documents_;
};

/// The stem of `word` that ChunkEvidenceFinder matches (lower-cased).
std::string evidenceStem(const std::string& word);

}  // namespace docintel::engine

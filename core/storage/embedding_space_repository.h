#pragma once

#include <string>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// The model each scope (a workspace, or an owner's personal documents) keeps its vectors in
/// (migration 0094, docs/decisions/0075). Thread-safe.
class EmbeddingSpaceRepository {
  public:
    explicit EmbeddingSpaceRepository(Database& db) : db_(db) {}

    /// The model document `document_id` is to be embedded with: its scope's. The first document
    /// embedded in a scope settles the scope on `wanted`. When `wanted` is `preferred` and the
    /// scope is settled on another model, the scope moves to `preferred` and, in the same
    /// transaction, every other embedded document of the scope is queued for re-embedding
    /// (a `job_kind` job); until its job runs, such a document is found by its keywords and its
    /// old vectors. `document_not_found` (404) for an unknown document.
    plugin::Result<std::string> settle(const std::string& document_id, const std::string& wanted,
                                       const std::string& preferred, const std::string& job_kind);

    /// The model of the document's scope; empty when none is settled yet.
    plugin::Result<std::string> modelOf(const std::string& document_id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

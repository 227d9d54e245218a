#pragma once

#include "jobs/worker_pool.h"
#include "objects/object_store.h"
#include "plugin_api/result.h"
#include "storage/document_repository.h"

namespace docintel::services {

/// The `ingest_document` job: parse the stored file page by page, chunk it, and store the
/// chunks — replacing any from an earlier, interrupted attempt in the same transaction that
/// sets the status, so a killed worker never leaves duplicates. Files that cannot be read end
/// the document in `error` with the parser's code (encrypted_document, unreadable_document,
/// unsupported_type). Thread-safe.
class IngestionService {
  public:
    IngestionService(storage::DocumentRepository& documents, objects::ObjectStore& objects)
        : documents_(documents), objects_(objects) {}

    plugin::Status run(jobs::JobContext& context);

  private:
    storage::DocumentRepository& documents_;
    objects::ObjectStore& objects_;
};

}  // namespace docintel::services

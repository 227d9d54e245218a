#pragma once

#include "embed/sentence_encoder.h"
#include "jobs/worker_pool.h"
#include "objects/object_store.h"
#include "plugin_api/result.h"
#include "storage/document_repository.h"

namespace docintel::services {

/// The `ingest_document` job: parse the stored file page by page, chunk it (token counts from
/// the encoder's tokenizer), store the chunks — replacing any from an earlier, interrupted
/// attempt in the same transaction that sets `chunked`, so a killed worker never leaves
/// duplicates — then embed them (`embedding` → `embedded`). Files that cannot be read end the
/// document in `error` with the parser's code (encrypted_document, unreadable_document,
/// unsupported_type). The `embed_document` job re-embeds a chunked document. Without an
/// encoder (no model installed) documents stop at `chunked`. Thread-safe.
class IngestionService {
  public:
    static constexpr const char* kEmbedJob = "embed_document";

    /// `encoder` may be null; it must outlive the service.
    IngestionService(storage::DocumentRepository& documents, objects::ObjectStore& objects,
                     const embed::SentenceEncoder* encoder)
        : documents_(documents), objects_(objects), encoder_(encoder) {}

    plugin::Status ingest(jobs::JobContext& context);
    plugin::Status embed(jobs::JobContext& context);

  private:
    plugin::Status chunk(const storage::Document& d, jobs::JobContext& context);
    plugin::Status embedChunks(const std::string& id, jobs::JobContext& context);

    storage::DocumentRepository& documents_;
    objects::ObjectStore& objects_;
    const embed::SentenceEncoder* encoder_;
};

}  // namespace docintel::services

#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "classify/document_classifier.h"
#include "classify/llm_classifier.h"
#include "embed/batching_encoder.h"
#include "embed/encoder_set.h"
#include "jobs/worker_pool.h"
#include "objects/object_store.h"
#include "plugin_api/result.h"
#include "storage/document_repository.h"
#include "storage/embedding_space_repository.h"

namespace docintel::services {

/// The `ingest_document` job: parse the stored file page by page, chunk it (token counts from
/// the encoder's tokenizer), store the chunks — replacing any from an earlier, interrupted
/// attempt in the same transaction that sets `chunked`, so a killed worker never leaves
/// duplicates — then embed them (`embedding` → `embedded`). Files that cannot be read end the
/// document in `error` with the parser's code (encrypted_document, unreadable_document,
/// unsupported_type). The `embed_document` job re-embeds a chunked document. Without an
/// encoder (no model installed) documents stop at `chunked`. Documents uploaded with
/// `redact_pii` have personal data replaced by placeholders before chunking
/// (docs/redaction.md). After embedding (or chunking, without an encoder) each document is
/// classified: `doc_type` and its confidence (docs/classification.md). The jobs' chunks are
/// encoded by the service's encoding threads (embed::BatchingEncoder, one per encoder thread)
/// while the job threads do the rest. Thread-safe.
class IngestionService {
  public:
    static constexpr const char* kEmbedJob = "embed_document";

    /// `encoders` (whose primary may be absent) and `spaces` must outlive the service. Each
    /// document is embedded by its scope's model (docs/decisions/0075), settled in `spaces`
    /// from the document's language.
    IngestionService(storage::DocumentRepository& documents, objects::ObjectStore& objects,
                     const embed::EncoderSet& encoders, storage::EmbeddingSpaceRepository& spaces)
        : documents_(documents),
          objects_(objects),
          encoders_(encoders),
          spaces_(spaces),
          encoder_(encoders.primary()) {}

    /// doc_type by the LLM when `config` is enabled (docs/classification.md "LLM mode"); the
    /// local classifier stays the default and the fallback. Set once before serving.
    void enableLlm(const knowledge::LlmConfig& config) {
        if (config.enabled()) llm_config_ = config;
    }

    plugin::Status ingest(jobs::JobContext& context);
    plugin::Status embed(jobs::JobContext& context);
    /// Encodes the document's stored chunks in the calling thread (`embedding` → `embedded`,
    /// then classified): what the jobs run, for a feature plugin that chunked a media document
    /// itself (HostServices::embedDocument).
    plugin::Status embedStored(const std::string& document_id);
    /// Classifies a chunked document again (its first chunks, encoded afresh) and stores
    /// doc_type; returns `{doc_type, confidence}`. `not_chunked` (409) before chunking.
    plugin::Result<nlohmann::json> reclassify(const std::string& document_id);

    /// The encoding threads' totals so far, all models together; nullopt before any encoding.
    std::optional<embed::BatchingEncoder::Stats> encoderStats() const;

  private:
    plugin::Status chunk(const storage::Document& d, jobs::JobContext& context);
    plugin::Status embedChunks(const std::string& id, jobs::JobContext& context);
    /// The encoder of the document's scope: the scope's model, settled by the language of
    /// `first_chunks` (the document's first) when it is the scope's first.
    plugin::Result<const embed::SentenceEncoder*> encoderFor(
        const std::string& id, const std::vector<storage::Chunk>& first_chunks);
    /// Encodes and stores every chunk of the document with `encoder`, `first_page` (its first
    /// kEmbedPage chunks, read by the caller) and the pages after it, setting `status` with the
    /// last page (empty: unchanged); classifies the document when `classify`. Returns the
    /// chunks encoded.
    plugin::Result<std::size_t> storeVectors(const std::string& id,
                                             const embed::SentenceEncoder& encoder,
                                             std::vector<storage::Chunk> first_page,
                                             const std::string& status, bool classify);
    /// The primary model's vectors of the chunks the classifier reads (the first few).
    plugin::Result<std::vector<std::vector<float>>> classifierVectors(
        const std::vector<storage::Chunk>& chunks) const;
    /// The encoding threads of `encoder`'s model, started on first use.
    embed::BatchingEncoder& batcher(const embed::SentenceEncoder& encoder);
    /// Sets doc_type from the first chunks (and their vectors, when given). A failure is
    /// logged, never fatal: a document without a class is still searchable.
    void classifyDocument(const std::string& id, const std::vector<storage::Chunk>& chunks,
                          const std::vector<std::vector<float>>& vectors);
    const classify::DocumentClassifier* classifier();

    storage::DocumentRepository& documents_;
    objects::ObjectStore& objects_;
    const embed::EncoderSet& encoders_;
    storage::EmbeddingSpaceRepository& spaces_;
    const embed::SentenceEncoder* encoder_;  ///< the primary: chunk sizes and classification
    mutable std::mutex batchers_mutex_;      // guards batchers_
    std::map<std::string, std::unique_ptr<embed::BatchingEncoder>> batchers_;  ///< by model
    /// Built on first use (it embeds the class descriptions); guarded by classifier_once_.
    std::once_flag classifier_once_;
    std::unique_ptr<classify::DocumentClassifier> classifier_;
    knowledge::LlmConfig llm_config_;  ///< not enabled() = local classifier only
    std::unique_ptr<classify::LlmClassifier> llm_classifier_;  ///< built with classifier_
};

}  // namespace docintel::services

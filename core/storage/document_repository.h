#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct Document {
    std::string id;
    std::string owner_id;
    std::string workspace_id;  ///< empty = the owner's personal scope
    std::string filename;
    std::string content_type;
    std::int64_t declared_size = 0;
    std::optional<std::int64_t> size_bytes;
    std::string sha256;
    std::string storage_key;
    std::string detected_type;
    std::string doc_type;                       ///< classify::DocClass name; empty until classified
    std::optional<double> doc_type_confidence;  ///< the classifier's confidence in doc_type
    std::string status;
    std::string error_code;
    std::string error_message;
    std::optional<int> pages;
    bool redact_pii = false;
    int version = 1;
    std::string previous_document_id;
    std::string change_summary;
    std::vector<int> changed_pages;
    bool is_latest = true;
    std::string created_at;
    std::string updated_at;
};

struct Chunk {
    std::string id;
    int chunk_index = 0;
    std::string text;
    int page_start = 1;
    int page_end = 1;
    std::vector<std::string> section_path;
    int char_start = 0;
    int char_end = 0;
    int token_count = 0;
    std::string model;
    std::string model_version;
    /// The time span of a media document's chunk (seconds from its start); unset for pages.
    std::optional<double> start_seconds;
    std::optional<double> end_seconds;
};

/// A chunk with its document's id and name, for citing it.
struct Passage {
    std::string document_id;
    std::string filename;
    Chunk chunk;
};

/// Documents and their chunks. Lists take the scope they may show (an owner's personal
/// documents, or one workspace's). Thread-safe.
class DocumentRepository {
  public:
    explicit DocumentRepository(Database& db) : db_(db) {}

    plugin::Result<Document> create(const Document& d);
    plugin::Result<std::optional<Document>> find(const std::string& id);
    plugin::Result<std::vector<Document>> listPersonal(const std::string& owner_id);
    plugin::Result<std::vector<Document>> listWorkspace(const std::string& workspace_id);

    /// Records the uploaded object and, in the same transaction, enqueues `job_kind` for the
    /// document — unless the upload was already completed (then returns false, nothing done).
    /// With no `job_kind` (a media document, which a plugin processes) it becomes `uploaded`.
    /// `redact_pii` can only turn redaction on (a completion cannot undo the session's request).
    plugin::Result<bool> completeUpload(const std::string& id, std::int64_t size,
                                        const std::string& sha256, const std::string& detected_type,
                                        const std::string& job_kind, bool redact_pii = false);
    /// Queues `job_kind` to (re-)embed a chunked or embedded document, atomically with moving
    /// it to `embedding`; `not_chunked` (409) otherwise.
    plugin::Result<std::string> requestEmbedding(const std::string& id,
                                                 const std::string& job_kind);
    /// Marks the document failed with a machine code and a message, and removes its chunks.
    plugin::Status fail(const std::string& id, const std::string& code, const std::string& message);
    plugin::Status setStatus(const std::string& id, const std::string& status);
    /// Records the bytes a plugin wrote for its document (size, digest) and the doc_type it
    /// gave it (classified with full confidence).
    plugin::Status storeContent(const std::string& id, std::int64_t size, const std::string& sha256,
                                const std::string& doc_type);
    /// Records the document's class (doc_type) and the classifier's confidence in it, unless
    /// the server gave it a type of its own (a packet: doc_type set, no confidence).
    plugin::Status setClassification(const std::string& id, const std::string& doc_type,
                                     double confidence);
    /// Chunks are stored as a document is read, a page at a time (a large file's text is never
    /// held whole): startChunking removes what an interrupted attempt stored and sets
    /// `chunking`, appendChunks adds a batch, finishChunking sets the page count and status.
    plugin::Status startChunking(const std::string& id);
    plugin::Status appendChunks(const std::string& id, const std::vector<Chunk>& chunks);
    plugin::Status finishChunking(const std::string& id, int pages, const std::string& status);
    /// The chunks with index >= `first_index`, at most `count` of them, in index order.
    plugin::Result<std::vector<Chunk>> chunks(const std::string& id, int first_index = 0,
                                              int count = std::numeric_limits<int>::max());
    /// The chunks named by (document id, chunk index), in no particular order; missing ones
    /// are left out.
    plugin::Result<std::vector<Passage>> passages(
        const std::vector<std::pair<std::string, int>>& keys);
    /// Stores the vectors of the chunks `first_index`, `first_index + 1`, ... with the model
    /// that made them and, when `status` is not empty, sets the status in the same transaction.
    /// Fails with `conflict` when the chunks changed meanwhile.
    plugin::Status storeEmbeddings(const std::string& id, int first_index,
                                   const std::vector<std::vector<float>>& vectors,
                                   const std::string& model, const std::string& model_version,
                                   const std::string& status = "");
    /// Links `id` as the next version of `previous_id` (version = previous + 1). Fails with
    /// `version_conflict` (409) when `previous_id` already has a successor.
    plugin::Status linkVersion(const std::string& id, const std::string& previous_id,
                               const std::string& change_summary,
                               const std::vector<int>& changed_pages);
    /// Sets the change summary of a document without a predecessor (the first version).
    plugin::Status describeVersion(const std::string& id, const std::string& change_summary,
                                   const std::vector<int>& changed_pages);
    /// The whole chain `id` belongs to, oldest first.
    plugin::Result<std::vector<Document>> versionChain(const std::string& id);
    /// Deletes the document (chunks cascade) and returns its storage key.
    plugin::Result<std::string> remove(const std::string& id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

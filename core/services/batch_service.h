#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "auth/workspace_access.h"
#include "embed/sentence_encoder.h"
#include "jobs/worker_pool.h"
#include "knowledge/summarizer.h"
#include "plugin_api/http_types.h"
#include "services/document_service.h"
#include "services/ingestion_service.h"
#include "services/upload_service.h"
#include "storage/batch_repository.h"
#include "storage/document_repository.h"

namespace docintel::services {

/// Batch jobs (spec §1 "Batch jobs", docs/documents.md "Batches") and the operations view over
/// the caller's long-running work (docs/decisions/0053). A batch is a set of items, one per
/// document, worked by one durable `batch_run` job on the shared job queue: each run records
/// the outcome of items that finished, starts pending ones up to `concurrency` in flight, and
/// runs again a moment later while items remain. Upload and embedding items start the
/// existing ingestion jobs (ingest_document, embed_document) and follow their documents to
/// `embedded` or `error`; classification and workspace-summary items are worked inside the
/// run. Batches are owned like documents: personal (owner only) or in a workspace (viewers
/// read, editors start and control); another scope's batch is `batch_not_found` (404).
/// Thread-safe.
class BatchService {
  public:
    struct Parts {
        storage::BatchRepository& batches;
        storage::DocumentRepository& documents;
        UploadService& uploads;
        DocumentService& document_service;
        const auth::WorkspaceAccess& workspaces;
        const auth::DocumentAccess& document_access;
        const embed::SentenceEncoder* encoder;  ///< null: documents stop at `chunked`
    };

    static constexpr const char* kRunJob = storage::BatchRepository::kRunJob;

    explicit BatchService(Parts parts) : p_(parts) {}

    /// Called after a `batch_run` is queued (wakes this node's workers).
    void setWake(std::function<void()> wake) { wake_ = std::move(wake); }
    /// The worker side: classification items and the workspace summary need these.
    void setIngestion(IngestionService* ingestion) { ingestion_ = ingestion; }
    void setSummarizer(const knowledge::Summarizer* summarizer) { summarizer_ = summarizer; }
    /// Seconds between two runs of a batch whose items are still in flight.
    void setTickSeconds(double seconds) { tick_seconds_ = seconds; }

    /// POST /batches/uploads (a validated BatchUploadRequest; `header_workspace` the selected
    /// workspace). One upload session per file, as POST /uploads makes it.
    plugin::Result<nlohmann::json> createUpload(const plugin::Principal& caller,
                                                const std::string& header_workspace,
                                                const nlohmann::json& body);
    /// POST /batches/{id}/uploads/complete: the named documents (all when none) are completed
    /// by the batch's run, at most `concurrency` at a time.
    plugin::Result<nlohmann::json> completeUpload(const plugin::Principal& caller,
                                                  const std::string& id,
                                                  const nlohmann::json& body);
    /// POST /batches/classification and /batches/embedding (`kind` classification|embedding).
    plugin::Result<nlohmann::json> startDocuments(const plugin::Principal& caller,
                                                  const std::string& header_workspace,
                                                  const std::string& kind,
                                                  const nlohmann::json& body);
    /// POST /batches/workspace-summary.
    plugin::Result<nlohmann::json> startWorkspaceSummary(const plugin::Principal& caller,
                                                         const nlohmann::json& body);
    plugin::Result<nlohmann::json> list(const plugin::Principal& caller,
                                        const std::string& workspace_id,
                                        const std::string& operation, const std::string& status,
                                        int limit);
    plugin::Result<nlohmann::json> get(const plugin::Principal& caller, const std::string& id);
    plugin::Result<nlohmann::json> results(const plugin::Principal& caller, const std::string& id);
    /// Pending items are cancelled; running ones finish.
    plugin::Result<nlohmann::json> cancel(const plugin::Principal& caller, const std::string& id);
    /// Cancelled items (and those of an interrupted run) continue.
    plugin::Result<nlohmann::json> resume(const plugin::Principal& caller, const std::string& id);
    /// Items that ended in `error` run again.
    plugin::Result<nlohmann::json> retry(const plugin::Principal& caller, const std::string& id);

    /// GET /operations and /operations/{id} (decision 0053).
    plugin::Result<nlohmann::json> listOperations(const plugin::Principal& caller,
                                                  const std::string& workspace_id,
                                                  const std::string& status, int limit);
    plugin::Result<nlohmann::json> getOperation(const plugin::Principal& caller,
                                                const std::string& id);

    /// The `batch_run` job handler.
    plugin::Status run(jobs::JobContext& context);

  private:
    plugin::Result<storage::BatchJob> load(const plugin::Principal& caller, const std::string& id,
                                           auth::WorkspaceAction action);
    plugin::Result<std::string> scopeOf(const plugin::Principal& caller,
                                        const std::string& workspace_id,
                                        auth::WorkspaceAction action) const;
    /// The job as the API shows it (after a fresh read).
    plugin::Result<nlohmann::json> view(const std::string& id);
    storage::ItemOutcome startItem(const storage::BatchJob& b, const storage::BatchItem& item);
    /// The outcome of a running upload or embedding item from its document (status `running`
    /// when it is still in flight).
    storage::ItemOutcome checkItem(const storage::BatchJob& b, const storage::BatchItem& item);
    plugin::Status summarize(const storage::BatchJob& b);
    /// Moves the items at `positions` (all when empty) whose status is in `from` to `queued`,
    /// starts the job, and returns its view with the number moved under `count_field`.
    plugin::Result<nlohmann::json> requeue(const std::string& id, const std::vector<int>& positions,
                                           const std::vector<std::string>& from,
                                           const char* count_field,
                                           std::optional<int> concurrency = std::nullopt);
    void wake() const {
        if (wake_) wake_();
    }

    Parts p_;
    std::function<void()> wake_;
    IngestionService* ingestion_ = nullptr;
    const knowledge::Summarizer* summarizer_ = nullptr;
    double tick_seconds_ = 1.0;
};

/// A batch job as JSON: id, kind, status, counts, progress, timestamps and links.
nlohmann::json batchJson(const storage::BatchJob& b);

}  // namespace docintel::services

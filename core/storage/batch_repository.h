#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// One item of a batch: a document and what became of it.
struct BatchItem {
    int position = 0;
    std::string document_id;
    std::string filename;
    std::string status;  ///< awaiting_upload|queued|running|succeeded|skipped|failed|cancelled
    std::string error_code;
    std::string error_message;
    nlohmann::json result;  ///< null until the item finished
    int attempts = 0;
    std::string started_at;
    std::string finished_at;
    std::string updated_at;
};

/// A batch job (docs/documents.md "Batches"). `counts` is the number of items per status.
struct BatchJob {
    std::string id;
    std::string kind;  ///< upload|classification|embedding|workspace_summary
    std::string owner_id;
    std::string workspace_id;  ///< empty = the owner's personal scope
    /// awaiting_upload|queued|running|cancelling|completed|completed_with_errors|failed|
    /// cancelled
    std::string status;
    int concurrency = 3;
    bool force = false;
    nlohmann::json options = nlohmann::json::object();
    nlohmann::json result;  ///< null until stored (workspace summaries)
    std::string error_code;
    std::string error_message;
    std::string idempotency_key;
    std::string job_id;  ///< the durable `batch_run` job working it now
    std::string created_at;
    std::string updated_at;
    std::string finished_at;
    std::map<std::string, int> counts;
};

/// What a finished item records.
struct ItemOutcome {
    std::string status;  ///< succeeded|skipped|failed (or running: started, not finished)
    std::string error_code;
    std::string error_message;
    nlohmann::json result;
};

/// Batch jobs and their items. Each change that may start work enqueues the durable job in the
/// same transaction that records it. Thread-safe.
class BatchRepository {
  public:
    static constexpr const char* kRunJob = "batch_run";

    explicit BatchRepository(Database& db) : db_(db) {}

    /// Inserts the job and its items, enqueuing `batch_run` when `start` is set. With an
    /// idempotency key already used by the owner, nothing is inserted and the existing job is
    /// returned with `created` false.
    plugin::Result<std::pair<BatchJob, bool>> create(const BatchJob& job,
                                                     const std::vector<BatchItem>& items,
                                                     bool start);
    plugin::Result<std::optional<BatchJob>> find(const std::string& id);
    plugin::Result<std::optional<BatchJob>> findByKey(const std::string& owner_id,
                                                      const std::string& key);
    /// Jobs of one scope (owner's personal or a workspace), newest first; empty filters = all.
    plugin::Result<std::vector<BatchJob>> list(const std::string& owner_id,
                                               const std::string& workspace_id,
                                               const std::string& kind, const std::string& status,
                                               int limit);
    plugin::Result<std::vector<BatchItem>> items(const std::string& batch_id);

    /// Moves the items at `positions` (all when empty) from `from` to `to` (clearing errors;
    /// counting an attempt when `to` is queued and `from` is failed), sets the job's status
    /// to `job_status` (unless empty) and, when `start` and no `batch_run` is working the job,
    /// enqueues one; when starting and no item moved, nothing else. Returns the number moved.
    plugin::Result<int> moveItems(const std::string& batch_id, const std::vector<int>& positions,
                                  const std::vector<std::string>& from, const std::string& to,
                                  const std::string& job_status, bool start,
                                  std::optional<int> concurrency = std::nullopt);
    /// Records an item's start (running) or outcome, if it is still queued or running.
    plugin::Status recordItem(const std::string& batch_id, int position, const ItemOutcome& o);
    /// queued → running; false when the item was not queued (another run took it).
    plugin::Result<bool> claimItem(const std::string& batch_id, int position);
    /// Up to `n` queued items, in order.
    plugin::Result<std::vector<BatchItem>> pending(const std::string& batch_id, int n);
    /// queued → running (a run started); other statuses stay.
    plugin::Status markRunning(const std::string& batch_id);
    plugin::Status setResult(const std::string& batch_id, const nlohmann::json& result,
                             const std::string& error_code, const std::string& error_message);
    /// Under the job's row lock: when items are still queued or running returns false (more
    /// to do); otherwise sets the final status from the item counts (a cancelling job turns
    /// cancelled; only items waiting for their upload left: awaiting_upload) and returns true.
    plugin::Result<bool> settle(const std::string& batch_id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

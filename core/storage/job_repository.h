#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct Job {
    std::string id;
    std::string kind;
    nlohmann::json payload;
    int attempts = 0;
    int max_attempts = 5;
    nlohmann::json checkpoint;
};

/// The durable job table (ARCHITECTURE.md §8). Workers claim with FOR UPDATE SKIP LOCKED and
/// hold a lease; an expired lease makes the job claimable again. Thread-safe.
class JobRepository {
  public:
    explicit JobRepository(Database& db) : db_(db) {}

    /// Inserts a queued job inside the caller's transaction.
    static std::string enqueue(Tx& tx, const std::string& kind, const nlohmann::json& payload);
    plugin::Result<std::string> enqueue(const std::string& kind, const nlohmann::json& payload);

    /// Claims the oldest runnable job of `kinds` (queued and due, or running with an expired
    /// lease) for `worker` for `lease_seconds`, counting an attempt.
    plugin::Result<std::optional<Job>> claim(const std::string& worker,
                                             const std::vector<std::string>& kinds,
                                             int lease_seconds);
    /// Extends the lease; false when the worker no longer holds it.
    plugin::Result<bool> heartbeat(const std::string& job_id, const std::string& worker,
                                   int lease_seconds);
    /// Records a finished step (merged into `checkpoint`) while the worker holds the lease.
    plugin::Result<bool> checkpoint(const std::string& job_id, const std::string& worker,
                                    const nlohmann::json& step);
    plugin::Status succeed(const std::string& job_id, const std::string& worker);
    /// Queues the job again to run after `seconds` — at once when something woke it while it
    /// ran (`woken_at`, set by the webhook senders' wake) — not counting the run as an attempt.
    plugin::Status defer(const std::string& job_id, const std::string& worker, double seconds);
    /// Requeues with exponential backoff, or marks failed after max attempts.
    plugin::Status failAttempt(const std::string& job_id, const std::string& worker,
                               const std::string& error, bool permanent);
    /// Drops the worker's leases so others pick the jobs up at once (graceful shutdown).
    plugin::Status releaseLeases(const std::string& worker);

  private:
    Database& db_;
};

}  // namespace docintel::storage

#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "plugin_api/result.h"
#include "storage/job_repository.h"

namespace docintel::jobs {

/// What a handler sees of its job: the payload and the checkpoint of steps already done (by
/// this or an earlier, killed attempt).
class JobContext {
  public:
    JobContext(storage::JobRepository& jobs, storage::Job job, std::string worker)
        : jobs_(jobs), job_(std::move(job)), worker_(std::move(worker)) {}

    const storage::Job& job() const { return job_; }
    const nlohmann::json& payload() const { return job_.payload; }
    bool done(const std::string& step) const { return job_.checkpoint.contains(step); }
    /// Records `step` as finished; fails when this worker lost the lease.
    plugin::Status mark(const std::string& step, const nlohmann::json& data = true);
    /// A job that waits on other work (a batch watching its items): when the handler returns
    /// ok, the pool queues the job again to run after `seconds` instead of finishing it, and
    /// the run does not count as an attempt.
    void runAgainAfter(double seconds) { again_after_ = seconds; }
    double againAfter() const { return again_after_; }

  private:
    storage::JobRepository& jobs_;
    storage::Job job_;
    const std::string worker_;
    double again_after_ = -1;
};

/// A handler finishes its job (ok), fails it for good (an Error with a 4xx status: the input
/// is bad and retrying cannot help) or for now (5xx: retried with backoff).
using JobHandler = std::function<plugin::Status(JobContext&)>;

/// Threads that claim jobs from Postgres (FOR UPDATE SKIP LOCKED), renew their leases while
/// the handler runs, and record the outcome. Any number of pools on any number of machines may
/// share one database. Handlers may be added at any time (plugins loaded later add theirs);
/// start/stop from one thread.
class WorkerPool {
  public:
    WorkerPool(storage::JobRepository& jobs, std::string worker_id, int threads,
               int lease_seconds = 30, int poll_ms = 500);
    ~WorkerPool();

    void handle(const std::string& kind, JobHandler handler);
    void start();
    /// Stops claiming, waits up to `grace_ms` for running jobs, then releases the leases of
    /// jobs still running so other workers take them over at once.
    void stop(int grace_ms = 10000);
    /// Wakes idle threads (after an enqueue on this node).
    void wake();

    const std::string& workerId() const { return worker_id_; }

  private:
    void runThread();
    void heartbeatLoop();

    storage::JobRepository& jobs_;
    const std::string worker_id_;
    const int threads_;
    const int lease_seconds_;
    const int poll_ms_;
    std::map<std::string, JobHandler> handlers_;
    std::vector<std::string> kinds_;

    std::mutex mutex_;  // guards stopping_, running_, handlers_, kinds_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::set<std::string> running_;
    std::vector<std::thread> workers_;
    std::thread heartbeat_;
};

}  // namespace docintel::jobs

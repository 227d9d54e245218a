#include "jobs/worker_pool.h"

#include <chrono>

#include "common/log.h"
#include "common/trace_context.h"

namespace docintel::jobs {

using common::LogLevel;

plugin::Status JobContext::mark(const std::string& step, const nlohmann::json& data) {
    auto ok = jobs_.checkpoint(job_.id, worker_, {{step, data}});
    if (!ok) return ok.error();
    if (!*ok) return plugin::Error::conflict("lease_lost", "this worker no longer holds the job");
    job_.checkpoint[step] = data;
    return {};
}

WorkerPool::WorkerPool(storage::JobRepository& jobs, std::string worker_id, int threads,
                       int lease_seconds, int poll_ms)
    : jobs_(jobs),
      worker_id_(std::move(worker_id)),
      threads_(threads),
      lease_seconds_(lease_seconds),
      poll_ms_(poll_ms) {}

WorkerPool::~WorkerPool() { stop(0); }

void WorkerPool::handle(const std::string& kind, JobHandler handler) {
    std::lock_guard lock(mutex_);
    if (handlers_.count(kind) == 0) kinds_.push_back(kind);
    handlers_[kind] = std::move(handler);
}

void WorkerPool::start() {
    for (int i = 0; i < threads_; ++i) workers_.emplace_back([this] { runThread(); });
    heartbeat_ = std::thread([this] { heartbeatLoop(); });
}

void WorkerPool::wake() { wake_.notify_all(); }

void WorkerPool::stop(int grace_ms) {
    bool leftover = false;
    {
        std::unique_lock lock(mutex_);
        if (stopping_ && workers_.empty()) return;
        stopping_ = true;
        wake_.notify_all();
        wake_.wait_for(lock, std::chrono::milliseconds(grace_ms),
                       [this] { return running_.empty(); });
        leftover = !running_.empty();
    }
    if (leftover) (void)jobs_.releaseLeases(worker_id_);
    for (auto& t : workers_) {
        if (t.joinable()) t.join();
    }
    workers_.clear();
    if (heartbeat_.joinable()) heartbeat_.join();
}

void WorkerPool::runThread() {
    while (true) {
        std::vector<std::string> kinds;
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return;
            kinds = kinds_;
        }
        auto claimed = jobs_.claim(worker_id_, kinds, lease_seconds_);
        if (!claimed || !claimed->has_value()) {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, std::chrono::milliseconds(poll_ms_));
            continue;
        }
        storage::Job job = std::move(**claimed);
        {
            std::lock_guard lock(mutex_);
            running_.insert(job.id);
        }
        const std::string id = job.id;
        const std::string kind = job.kind;
        common::log(LogLevel::kInfo, "job_started",
                    {{"job_id", id}, {"kind", kind}, {"attempt", std::to_string(job.attempts)}});
        const common::TraceScope trace_scope(
            job.payload.is_object() ? job.payload.value("trace_id", std::string()) : std::string());
        JobContext context(jobs_, std::move(job), worker_id_);
        plugin::Status outcome = plugin::Error::internal("no handler");
        JobHandler handler;
        {
            std::lock_guard lock(mutex_);
            handler = handlers_.at(kind);
        }
        try {
            outcome = handler(context);
        } catch (const std::exception& e) {
            common::log(LogLevel::kError, "job_threw", {{"job_id", id}, {"what", e.what()}});
            outcome = plugin::Error::internal("job handler failed");
        }
        if (outcome && context.againAfter() >= 0) {
            (void)jobs_.defer(id, worker_id_, context.againAfter());
        } else if (outcome) {
            (void)jobs_.succeed(id, worker_id_);
            common::log(LogLevel::kInfo, "job_succeeded", {{"job_id", id}, {"kind", kind}});
        } else {
            const bool permanent =
                outcome.error().http_status >= 400 && outcome.error().http_status < 500;
            (void)jobs_.failAttempt(id, worker_id_, outcome.error().message, permanent);
            common::log(LogLevel::kWarning, "job_failed",
                        {{"job_id", id},
                         {"kind", kind},
                         {"code", outcome.error().code},
                         {"permanent", permanent ? "true" : "false"}});
        }
        std::lock_guard lock(mutex_);
        running_.erase(id);
        wake_.notify_all();
    }
}

void WorkerPool::heartbeatLoop() {
    const auto interval = std::chrono::milliseconds(lease_seconds_ * 1000 / 3);
    std::unique_lock lock(mutex_);
    while (!stopping_ || !running_.empty()) {
        wake_.wait_for(lock, interval);
        if (stopping_ && running_.empty()) break;
        const std::set<std::string> ids = running_;
        lock.unlock();
        for (const auto& id : ids) (void)jobs_.heartbeat(id, worker_id_, lease_seconds_);
        lock.lock();
        if (stopping_) break;
    }
}

}  // namespace docintel::jobs

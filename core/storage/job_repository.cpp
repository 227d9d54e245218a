#include "storage/job_repository.h"

#include "common/id.h"
#include "common/trace_context.h"

namespace docintel::storage {
namespace {

constexpr Statement kEnqueue{
    "job_enqueue",
    "INSERT INTO jobs (id, kind, payload, status) VALUES ($1, $2, $3::jsonb, 'queued')"};
constexpr Statement kClaim{
    "job_claim",
    "UPDATE jobs SET status = 'running', lease_owner = $1, "
    "lease_expires_at = now() + make_interval(secs => $3), attempts = attempts + 1, "
    "woken_at = NULL, updated_at = now() "
    "WHERE id = (SELECT id FROM jobs WHERE kind = ANY(string_to_array($2, ',')) AND "
    "((status = 'queued' AND run_after <= now()) OR "
    " (status = 'running' AND lease_expires_at < now())) "
    "ORDER BY run_after, created_at FOR UPDATE SKIP LOCKED LIMIT 1) "
    "RETURNING id, kind, payload::text, attempts, max_attempts, checkpoint::text"};
constexpr Statement kHeartbeat{
    "job_heartbeat",
    "UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3), updated_at = now() "
    "WHERE id = $1 AND lease_owner = $2 AND status = 'running'"};
constexpr Statement kCheckpoint{
    "job_checkpoint",
    "UPDATE jobs SET checkpoint = checkpoint || $3::jsonb, updated_at = now() "
    "WHERE id = $1 AND lease_owner = $2 AND status = 'running'"};
constexpr Statement kSucceed{
    "job_succeed",
    "UPDATE jobs SET status = 'succeeded', lease_owner = NULL, lease_expires_at = NULL, "
    "updated_at = now() WHERE id = $1 AND lease_owner = $2"};
/// Queued again after `$3` seconds — at once when it was woken while it ran (woken_at).
constexpr Statement kDefer{
    "job_defer",
    "UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, "
    "attempts = greatest(attempts - 1, 0), run_after = CASE WHEN woken_at IS NULL THEN now() + "
    "make_interval(secs => $3) ELSE now() END, woken_at = NULL, "
    "updated_at = now() WHERE id = $1 AND lease_owner = $2"};
constexpr Statement kFailAttempt{
    "job_fail_attempt",
    "UPDATE jobs SET last_error = $3, lease_owner = NULL, lease_expires_at = NULL, "
    "updated_at = now(), "
    "status = CASE WHEN $4 OR attempts >= max_attempts THEN 'failed' ELSE 'queued' END, "
    "run_after = now() + make_interval(secs => least(300, 2 ^ attempts)) "
    "WHERE id = $1 AND lease_owner = $2"};
constexpr Statement kRelease{
    "job_release",
    "UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, "
    "attempts = greatest(attempts - 1, 0), run_after = now(), updated_at = now() "
    "WHERE lease_owner = $1 AND status = 'running'"};

}  // namespace

std::string JobRepository::enqueue(Tx& tx, const std::string& kind, const nlohmann::json& payload) {
    const std::string id = common::newUuid();
    // The job carries the trace of the request that caused it, for the events it emits.
    if (!common::currentTraceId().empty() && payload.is_object() && !payload.contains("trace_id")) {
        nlohmann::json traced = payload;
        traced["trace_id"] = common::currentTraceId();
        tx.exec(kEnqueue, id, kind, traced.dump());
        return id;
    }
    tx.exec(kEnqueue, id, kind, payload.dump());
    return id;
}

plugin::Result<std::string> JobRepository::enqueue(const std::string& kind,
                                                   const nlohmann::json& payload) {
    return db_.transact(
        [&](Tx& tx) -> plugin::Result<std::string> { return enqueue(tx, kind, payload); });
}

plugin::Result<std::optional<Job>> JobRepository::claim(const std::string& worker,
                                                        const std::vector<std::string>& kinds,
                                                        int lease_seconds) {
    std::string kind_list;
    for (const auto& k : kinds) kind_list += (kind_list.empty() ? "" : ",") + k;
    return db_.transact([&](Tx& tx) -> plugin::Result<std::optional<Job>> {
        const auto rows = tx.exec(kClaim, worker, kind_list, lease_seconds);
        if (rows.empty()) return std::optional<Job>();
        const auto& r = rows[0];
        return std::optional<Job>(Job{r[0].as<std::string>(), r[1].as<std::string>(),
                                      nlohmann::json::parse(r[2].c_str()), r[3].as<int>(),
                                      r[4].as<int>(), nlohmann::json::parse(r[5].c_str())});
    });
}

plugin::Result<bool> JobRepository::heartbeat(const std::string& job_id, const std::string& worker,
                                              int lease_seconds) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kHeartbeat, job_id, worker, lease_seconds).affected_rows() == 1;
    });
}

plugin::Result<bool> JobRepository::checkpoint(const std::string& job_id, const std::string& worker,
                                               const nlohmann::json& step) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kCheckpoint, job_id, worker, step.dump()).affected_rows() == 1;
    });
}

plugin::Status JobRepository::succeed(const std::string& job_id, const std::string& worker) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kSucceed, job_id, worker);
        return true;
    }));
}

plugin::Status JobRepository::defer(const std::string& job_id, const std::string& worker,
                                    double seconds) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDefer, job_id, worker, seconds);
        return true;
    }));
}

plugin::Status JobRepository::failAttempt(const std::string& job_id, const std::string& worker,
                                          const std::string& error, bool permanent) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kFailAttempt, job_id, worker, error, permanent);
        return true;
    }));
}

plugin::Status JobRepository::releaseLeases(const std::string& worker) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kRelease, worker);
        return true;
    }));
}

}  // namespace docintel::storage

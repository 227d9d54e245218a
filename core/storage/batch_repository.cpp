#include "storage/batch_repository.h"

#include "storage/event_repository.h"
#include "storage/job_repository.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_BATCH_COLUMNS                                                                \
    "b.id, b.kind, b.owner_id, coalesce(b.workspace_id::text, ''), b.status, b.concurrency, " \
    "b.force, b.options::text, coalesce(b.result::text, ''), coalesce(b.error_code, ''), "    \
    "coalesce(b.error_message, ''), coalesce(b.idempotency_key, ''), "                        \
    "coalesce(b.job_id::text, ''), b.created_at, b.updated_at, b.finished_at, "               \
    "(SELECT coalesce(jsonb_object_agg(s.status, s.n), '{}')::text FROM "                     \
    "(SELECT status, count(*) AS n FROM batch_items WHERE batch_id = b.id GROUP BY status) s)"

#define DOCINTEL_ITEM_COLUMNS                                                         \
    "position, document_id, filename, status, coalesce(error_code, ''), "             \
    "coalesce(error_message, ''), coalesce(result::text, ''), attempts, started_at, " \
    "finished_at, updated_at"

constexpr Statement kInsertJob{
    "batch_insert",
    "INSERT INTO batch_jobs (id, kind, owner_id, workspace_id, status, concurrency, force, "
    "options, idempotency_key) VALUES ($1, $2, $3, NULLIF($4, '')::uuid, $5, $6, $7, $8::jsonb, "
    "NULLIF($9, '')) ON CONFLICT (owner_id, idempotency_key) WHERE idempotency_key IS NOT NULL "
    "DO NOTHING"};
constexpr Statement kFindByKey{"batch_find_key",
                               "SELECT " DOCINTEL_BATCH_COLUMNS
                               " FROM batch_jobs b WHERE owner_id = $1 AND idempotency_key = $2"};
constexpr Statement kInsertItem{
    "batch_item_insert",
    "INSERT INTO batch_items (batch_id, position, document_id, filename, status, result) "
    "VALUES ($1, $2, $3, $4, $5, NULLIF($6, '')::jsonb)"};
constexpr Statement kFind{"batch_find",
                          "SELECT " DOCINTEL_BATCH_COLUMNS " FROM batch_jobs b WHERE id = $1"};
constexpr Statement kList{"batch_list", "SELECT " DOCINTEL_BATCH_COLUMNS
                                        " FROM batch_jobs b WHERE "
                                        "(($2 = '' AND owner_id = $1 AND workspace_id IS NULL) OR "
                                        " ($2 <> '' AND workspace_id = NULLIF($2, '')::uuid)) "
                                        "AND ($3 = '' OR kind = $3) AND ($4 = '' OR status = $4) "
                                        "ORDER BY created_at DESC, id LIMIT $5"};
constexpr Statement kItems{"batch_items",
                           "SELECT " DOCINTEL_ITEM_COLUMNS
                           " FROM batch_items WHERE batch_id = $1 ORDER BY position"};
constexpr Statement kPending{"batch_items_pending",
                             "SELECT " DOCINTEL_ITEM_COLUMNS
                             " FROM batch_items WHERE batch_id = $1 AND status = 'queued' "
                             "ORDER BY position LIMIT $2"};
constexpr Statement kLock{"batch_lock",
                          "SELECT status, coalesce(job_id::text, ''), "
                          "coalesce((SELECT status FROM jobs WHERE id = batch_jobs.job_id), ''), "
                          "coalesce(error_code, '') FROM batch_jobs WHERE id = $1 FOR UPDATE"};
constexpr Statement kMove{
    "batch_items_move",
    "UPDATE batch_items SET status = $4, error_code = NULL, error_message = NULL, "
    "result = CASE WHEN $4 = 'queued' THEN NULL ELSE result END, "
    "attempts = attempts + CASE WHEN status = 'failed' AND $4 = 'queued' THEN 1 ELSE 0 END, "
    "finished_at = CASE WHEN $4 = 'cancelled' THEN now() ELSE NULL END, updated_at = now() "
    "WHERE batch_id = $1 AND status = ANY(string_to_array($3, ',')) "
    "AND ($2 = '' OR position = ANY(string_to_array($2, ',')::int[]))"};
constexpr Statement kSetJob{
    "batch_set_job",
    "UPDATE batch_jobs SET status = CASE WHEN $2 = '' THEN status ELSE $2 END, "
    "job_id = CASE WHEN $3 = '' THEN job_id ELSE $3::uuid END, "
    "concurrency = CASE WHEN $4 > 0 THEN $4 ELSE concurrency END, "
    "finished_at = CASE WHEN $2 IN ('awaiting_upload', 'queued', 'running', 'cancelling') THEN "
    "NULL ELSE finished_at END, "
    "updated_at = now() WHERE id = $1"};
constexpr Statement kRecordItem{
    "batch_item_record",
    "UPDATE batch_items SET status = $3, error_code = NULLIF($4, ''), "
    "error_message = NULLIF($5, ''), result = NULLIF($6, '')::jsonb, "
    "started_at = CASE WHEN $3 = 'running' THEN now() ELSE coalesce(started_at, now()) END, "
    "finished_at = CASE WHEN $3 = 'running' THEN NULL ELSE now() END, updated_at = now() "
    "WHERE batch_id = $1 AND position = $2 AND status IN ('queued', 'running')"};
constexpr Statement kMarkRunning{"batch_mark_running",
                                 "UPDATE batch_jobs SET status = 'running', updated_at = now() "
                                 "WHERE id = $1 AND status = 'queued'"};
constexpr Statement kClaimItem{
    "batch_item_claim",
    "UPDATE batch_items SET status = 'running', started_at = now(), finished_at = NULL, "
    "updated_at = now() WHERE batch_id = $1 AND position = $2 AND status = 'queued'"};
constexpr Statement kSetResult{
    "batch_set_result",
    "UPDATE batch_jobs SET result = NULLIF($2, '')::jsonb, error_code = NULLIF($3, ''), "
    "error_message = NULLIF($4, ''), updated_at = now() WHERE id = $1"};
constexpr Statement kCounts{
    "batch_item_counts",
    "SELECT status, count(*) FROM batch_items WHERE batch_id = $1 GROUP BY status"};
constexpr Statement kEventFacts{
    "batch_event_facts",
    "SELECT owner_id::text, coalesce(workspace_id::text, ''), kind, status, "
    "(SELECT count(*) FROM batch_items i WHERE i.batch_id = b.id) FROM batch_jobs b "
    "WHERE id = $1"};
constexpr Statement kFinish{
    "batch_finish",
    "UPDATE batch_jobs SET status = $2, job_id = NULL, updated_at = now(), "
    "finished_at = CASE WHEN $2 = 'awaiting_upload' THEN NULL ELSE now() END WHERE id = $1"};

nlohmann::json parseOrNull(const pqxx::field& f) {
    const std::string text = f.as<std::string>();
    return text.empty() ? nlohmann::json() : nlohmann::json::parse(text);
}

BatchJob jobFrom(const pqxx::row& r) {
    BatchJob b;
    b.id = r[0].as<std::string>();
    b.kind = r[1].as<std::string>();
    b.owner_id = r[2].as<std::string>();
    b.workspace_id = r[3].as<std::string>();
    b.status = r[4].as<std::string>();
    b.concurrency = r[5].as<int>();
    b.force = r[6].as<bool>();
    b.options = nlohmann::json::parse(r[7].as<std::string>());
    b.result = parseOrNull(r[8]);
    b.error_code = r[9].as<std::string>();
    b.error_message = r[10].as<std::string>();
    b.idempotency_key = r[11].as<std::string>();
    b.job_id = r[12].as<std::string>();
    b.created_at = isoTime(r[13]);
    b.updated_at = isoTime(r[14]);
    b.finished_at = isoTime(r[15]);
    const auto counts = nlohmann::json::parse(r[16].as<std::string>());
    for (const auto& [status, n] : counts.items()) b.counts[status] = n.get<int>();
    return b;
}

BatchItem itemFrom(const pqxx::row& r) {
    BatchItem i;
    i.position = r[0].as<int>();
    i.document_id = r[1].as<std::string>();
    i.filename = r[2].as<std::string>();
    i.status = r[3].as<std::string>();
    i.error_code = r[4].as<std::string>();
    i.error_message = r[5].as<std::string>();
    i.result = parseOrNull(r[6]);
    i.attempts = r[7].as<int>();
    i.started_at = isoTime(r[8]);
    i.finished_at = isoTime(r[9]);
    i.updated_at = isoTime(r[10]);
    return i;
}

/// Emits `type` for batch `id` in `tx` (the transaction of the change it reports), with the
/// item counts by status when `counts` is given.
void emitBatchEvent(Tx& tx, const std::string& id, const char* type, bool by_owner,
                    const std::map<std::string, int>* counts = nullptr) {
    const auto rows = tx.exec(kEventFacts, id);
    if (rows.empty()) return;
    const auto& r = rows[0];
    Event e;
    e.type = type;
    e.resource_type = "batch_job";
    e.resource_id = id;
    e.user_id = r[0].as<std::string>();
    e.workspace_id = r[1].as<std::string>();
    if (by_owner) e.actor_id = e.user_id;
    e.payload = {{"batch_id", id},
                 {"job_id", id},
                 {"operation", r[2].as<std::string>()},
                 {"status", r[3].as<std::string>()},
                 {"total_items", r[4].as<long long>()}};
    if (counts) e.payload["counts"] = *counts;
    EventRepository::emit(tx, e);
}

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
    return out;
}

}  // namespace

plugin::Result<std::pair<BatchJob, bool>> BatchRepository::create(
    const BatchJob& job, const std::vector<BatchItem>& items, bool start) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::pair<BatchJob, bool>> {
        const auto inserted =
            tx.exec(kInsertJob, job.id, job.kind, job.owner_id, job.workspace_id, job.status,
                    job.concurrency, job.force, job.options.dump(), job.idempotency_key);
        if (inserted.affected_rows() == 0) {
            const auto rows = tx.exec(kFindByKey, job.owner_id, job.idempotency_key);
            if (rows.empty()) return plugin::Error::internal("idempotent batch vanished");
            return std::pair<BatchJob, bool>{jobFrom(rows[0]), false};
        }
        for (const auto& i : items) {
            tx.exec(kInsertItem, job.id, i.position, i.document_id, i.filename, i.status,
                    i.result.is_null() ? std::string() : i.result.dump());
        }
        if (start) {
            const std::string run = JobRepository::enqueue(tx, kRunJob, {{"batch_id", job.id}});
            tx.exec(kSetJob, job.id, "", run, 0);
        }
        emitBatchEvent(tx, job.id, "batch.created", true);
        const auto rows = tx.exec(kFind, job.id);
        return std::pair<BatchJob, bool>{jobFrom(rows[0]), true};
    });
}

plugin::Result<std::optional<BatchJob>> BatchRepository::findByKey(const std::string& owner_id,
                                                                   const std::string& key) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<BatchJob>> {
        const auto rows = tx.exec(kFindByKey, owner_id, key);
        if (rows.empty()) return std::optional<BatchJob>();
        return std::optional<BatchJob>(jobFrom(rows[0]));
    });
}

plugin::Result<std::optional<BatchJob>> BatchRepository::find(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<BatchJob>> {
        const auto rows = tx.exec(kFind, id);
        if (rows.empty()) return std::optional<BatchJob>();
        return std::optional<BatchJob>(jobFrom(rows[0]));
    });
}

plugin::Result<std::vector<BatchJob>> BatchRepository::list(const std::string& owner_id,
                                                            const std::string& workspace_id,
                                                            const std::string& kind,
                                                            const std::string& status, int limit) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<BatchJob>> {
        std::vector<BatchJob> out;
        for (const auto& r : tx.exec(kList, owner_id, workspace_id, kind, status, limit)) {
            out.push_back(jobFrom(r));
        }
        return out;
    });
}

plugin::Result<std::vector<BatchItem>> BatchRepository::items(const std::string& batch_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<BatchItem>> {
        std::vector<BatchItem> out;
        for (const auto& r : tx.exec(kItems, batch_id)) out.push_back(itemFrom(r));
        return out;
    });
}

plugin::Result<std::vector<BatchItem>> BatchRepository::pending(const std::string& batch_id,
                                                                int n) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<BatchItem>> {
        std::vector<BatchItem> out;
        for (const auto& r : tx.exec(kPending, batch_id, n)) out.push_back(itemFrom(r));
        return out;
    });
}

plugin::Result<int> BatchRepository::moveItems(const std::string& batch_id,
                                               const std::vector<int>& positions,
                                               const std::vector<std::string>& from,
                                               const std::string& to, const std::string& job_status,
                                               bool start, std::optional<int> concurrency) {
    std::vector<std::string> where;
    for (const int p : positions) where.push_back(std::to_string(p));
    return db_.transact([&](Tx& tx) -> plugin::Result<int> {
        const auto lock = tx.exec(kLock, batch_id);
        if (lock.empty()) return plugin::Error{"batch_not_found", "batch job not found", 404};
        const int moved = static_cast<int>(
            tx.exec(kMove, batch_id, joined(where), joined(from), to).affected_rows());
        if (moved == 0 && start) return 0;
        std::string run;
        // A batch_run is working the job unless none was recorded (the last one settled) or
        // the recorded one failed for good; settle() clears job_id under the same row lock.
        const std::string run_status = lock[0][2].as<std::string>();
        if (start && (lock[0][1].as<std::string>().empty() || run_status == "failed" ||
                      run_status == "succeeded" || run_status.empty())) {
            run = JobRepository::enqueue(tx, kRunJob, {{"batch_id", batch_id}});
        }
        tx.exec(kSetJob, batch_id, job_status, run, concurrency.value_or(0));
        // Work taken up again after a stop (cancel, failure, completion with errors); an upload
        // batch leaving awaiting_upload is started, not resumed.
        const std::string before = lock[0][0].as<std::string>();
        if (start && moved > 0 && before != "awaiting_upload" && before != "queued" &&
            before != "running") {
            emitBatchEvent(tx, batch_id, "batch.resumed", true);
        }
        return moved;
    });
}

plugin::Status BatchRepository::recordItem(const std::string& batch_id, int position,
                                           const ItemOutcome& o) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kRecordItem, batch_id, position, o.status, o.error_code, o.error_message,
                o.result.is_null() ? std::string() : o.result.dump());
        return true;
    }));
}

plugin::Result<bool> BatchRepository::claimItem(const std::string& batch_id, int position) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kClaimItem, batch_id, position).affected_rows() == 1;
    });
}

plugin::Status BatchRepository::markRunning(const std::string& batch_id) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kMarkRunning, batch_id).affected_rows() == 1) {
            emitBatchEvent(tx, batch_id, "batch.started", false);
        }
        return true;
    }));
}

plugin::Status BatchRepository::setResult(const std::string& batch_id, const nlohmann::json& result,
                                          const std::string& error_code,
                                          const std::string& error_message) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kSetResult, batch_id, result.is_null() ? std::string() : result.dump(), error_code,
                error_message);
        return true;
    }));
}

plugin::Result<bool> BatchRepository::settle(const std::string& batch_id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        const auto lock = tx.exec(kLock, batch_id);
        if (lock.empty()) return true;
        std::map<std::string, int> counts;
        for (const auto& r : tx.exec(kCounts, batch_id)) {
            counts[r[0].as<std::string>()] = r[1].as<int>();
        }
        if (counts["queued"] + counts["running"] > 0) return false;
        std::string status = lock[0][0].as<std::string>();
        if (status == "cancelling" || status == "cancelled") {
            status = "cancelled";
        } else {
            const int ok = counts["succeeded"] + counts["skipped"];
            const int errors = counts["failed"];
            if (!lock[0][3].as<std::string>().empty()) {
                status = "failed";
            } else if (counts["awaiting_upload"] > 0) {
                status = "awaiting_upload";
            } else if (errors == 0) {
                status = "completed";
            } else {
                status = ok > 0 ? "completed_with_errors" : "failed";
            }
        }
        tx.exec(kFinish, batch_id, status);
        if (status != lock[0][0].as<std::string>() && status != "awaiting_upload") {
            emitBatchEvent(tx, batch_id,
                           status == "cancelled" ? "batch.cancelled" : "batch.completed", false,
                           &counts);
        }
        return true;
    });
}

}  // namespace docintel::storage

#include "storage/workflow_run_repository.h"

#include "common/id.h"
#include "storage/event_repository.h"
#include "storage/job_repository.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_RUN_COLUMNS                                                                     \
    "id, workflow, vertical, owner_id, workspace_id, status, document_ids::text, inputs::text, " \
    "packet::text, steps::text, error_code, error_message, review_notes, revision, created_at, " \
    "updated_at, completed_at, approved_by, approved_at"

constexpr Statement kInsertRun{
    "workflow_run_insert",
    "INSERT INTO workflow_runs (id, workflow, vertical, owner_id, workspace_id, status, "
    "document_ids, inputs, packet, steps) VALUES ($1, $2, $3, $4, NULLIF($5, '')::uuid, $6, "
    "$7::jsonb, $8::jsonb, $9::jsonb, $10::jsonb)"};
constexpr Statement kFindRun{"workflow_run_find",
                             "SELECT " DOCINTEL_RUN_COLUMNS " FROM workflow_runs WHERE id = $1"};
constexpr Statement kLockRun{"workflow_run_lock", "SELECT " DOCINTEL_RUN_COLUMNS
                                                  " FROM workflow_runs WHERE id = $1 FOR UPDATE"};
#define DOCINTEL_RUN_SCOPE                                      \
    "(($2 = '' AND owner_id = $1 AND workspace_id IS NULL) OR " \
    " ($2 <> '' AND workspace_id = NULLIF($2, '')::uuid)) "
#define DOCINTEL_RUN_LIST_WHERE                                                                   \
    " FROM workflow_runs WHERE " DOCINTEL_RUN_SCOPE                                               \
    "AND ($3 = '' OR vertical = $3) AND ($4 = '' OR workflow = $4) AND ($5 = '' OR status = $5) " \
    "ORDER BY created_at DESC, id LIMIT $6"
constexpr Statement kListRuns{"workflow_run_list",
                              "SELECT " DOCINTEL_RUN_COLUMNS DOCINTEL_RUN_LIST_WHERE};
// The same rows without the packet (a list page reads and parses no field).
constexpr Statement kListRunSummaries{
    "workflow_run_list_summaries",
    "SELECT id, workflow, vertical, owner_id, workspace_id, status, document_ids::text, "
    "inputs::text, '{}', steps::text, error_code, error_message, review_notes, revision, "
    "created_at, updated_at, completed_at, approved_by, approved_at" DOCINTEL_RUN_LIST_WHERE};
constexpr Statement kCountRuns{
    "workflow_run_counts",
    "SELECT status, count(*) FROM workflow_runs WHERE " DOCINTEL_RUN_SCOPE "GROUP BY status"};
constexpr Statement kUpdateRun{
    "workflow_run_update",
    "UPDATE workflow_runs SET status = $2, packet = $3::jsonb, steps = $4::jsonb, "
    "error_code = NULLIF($5, ''), error_message = NULLIF($6, ''), review_notes = $7, "
    "revision = $8, updated_at = now(), "
    "completed_at = CASE WHEN $9 THEN coalesce(completed_at, now()) ELSE completed_at END, "
    "approved_by = NULLIF($10, '')::uuid, "
    "approved_at = CASE WHEN $10 = '' THEN NULL ELSE coalesce(approved_at, now()) END "
    "WHERE id = $1"};
constexpr Statement kInsertChange{
    "workflow_change_insert",
    "INSERT INTO workflow_field_changes (run_id, revision, path, old_value, new_value, "
    "changed_by) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, NULLIF($6, '')::uuid)"};
constexpr Statement kChanges{
    "workflow_change_list",
    "SELECT path, old_value::text, new_value::text, coalesce(changed_by::text, ''), changed_at, "
    "revision FROM workflow_field_changes WHERE run_id = $1 ORDER BY id"};
constexpr Statement kEvents{
    "event_list_resource",
    "SELECT type, resource_type, resource_id, coalesce(workspace_id::text, ''), "
    "coalesce(actor_id::text, ''), payload::text FROM events "
    "WHERE resource_type = $1 AND resource_id = $2 ORDER BY seq, created_at, id"};
constexpr Statement kInsertPacket{
    "workflow_packet_insert",
    "INSERT INTO workflow_packets (id, run_id, packet_type, document_id, revision, created_by) "
    "VALUES ($1, $2, $3, $4, $5, NULLIF($6, '')::uuid)"};
constexpr Statement kMarkPacketDocument{
    "workflow_packet_document",
    "UPDATE documents SET doc_type = 'packet', updated_at = now() WHERE id = $1"};
constexpr Statement kPackets{
    "workflow_packet_list",
    "SELECT id, run_id, packet_type, coalesce(document_id::text, ''), revision, "
    "coalesce(created_by::text, ''), created_at FROM workflow_packets WHERE run_id = $1 "
    "ORDER BY created_at, id"};

#define DOCINTEL_TASK_COLUMNS                                                           \
    "id, vertical, run_id, title, coalesce(workspace_id::text, ''), priority, due_at, " \
    "metadata::text, status, coalesce(assigned_to::text, ''), coalesce(decision, ''), " \
    "reviewer_notes, coalesce(created_by::text, ''), coalesce(decided_by::text, ''), "  \
    "created_at, updated_at, decided_at"

constexpr Statement kInsertTask{
    "review_task_insert",
    "INSERT INTO review_tasks (id, vertical, run_id, title, workspace_id, priority, due_at, "
    "metadata, status, created_by) VALUES ($1, $2, $3, $4, NULLIF($5, '')::uuid, $6, "
    "NULLIF($7, '')::timestamptz, $8::jsonb, $9, NULLIF($10, '')::uuid) "
    "RETURNING " DOCINTEL_TASK_COLUMNS};
constexpr Statement kFindTask{"review_task_find",
                              "SELECT " DOCINTEL_TASK_COLUMNS " FROM review_tasks WHERE id = $1"};
constexpr Statement kListTasks{
    "review_task_list",
    "SELECT " DOCINTEL_TASK_COLUMNS
    " FROM review_tasks t WHERE "
    "((t.workspace_id IS NULL AND EXISTS (SELECT 1 FROM workflow_runs r WHERE r.id = t.run_id "
    "AND r.owner_id = $1)) OR t.workspace_id IN "
    "(SELECT workspace_id FROM workspace_members WHERE user_id = $1)) "
    "AND ($2 = '' OR t.status = $2) ORDER BY t.created_at DESC, t.id LIMIT $3"};
constexpr Statement kAssignTask{
    "review_task_assign",
    "UPDATE review_tasks SET assigned_to = $2, status = 'in_review', updated_at = now() "
    "WHERE id = $1 AND status IN ('pending', 'in_review')"};
constexpr Statement kCloseTasks{
    "review_task_close",
    "UPDATE review_tasks SET status = $2, decision = NULLIF($3, ''), "
    "decided_by = NULLIF($4, '')::uuid, reviewer_notes = $5, decided_at = now(), "
    "updated_at = now() WHERE run_id = $1 AND status IN ('pending', 'in_review')"};

#undef DOCINTEL_RUN_COLUMNS
#undef DOCINTEL_TASK_COLUMNS

nlohmann::json parseJson(const pqxx::field& f) {
    return f.is_null() ? nlohmann::json() : nlohmann::json::parse(f.c_str());
}

WorkflowRun rowToRun(const pqxx::row& r) {
    WorkflowRun run;
    run.id = r[0].as<std::string>();
    run.workflow = r[1].as<std::string>();
    run.vertical = r[2].as<std::string>();
    run.owner_id = r[3].as<std::string>();
    run.workspace_id = r[4].as<std::string>("");
    run.status = r[5].as<std::string>();
    run.document_ids = parseJson(r[6]);
    run.inputs = parseJson(r[7]);
    run.packet = parseJson(r[8]);
    run.steps = parseJson(r[9]);
    run.error_code = r[10].as<std::string>("");
    run.error_message = r[11].as<std::string>("");
    run.review_notes = r[12].as<std::string>();
    run.revision = r[13].as<int>();
    run.created_at = isoTime(r[14]);
    run.updated_at = isoTime(r[15]);
    run.completed_at = isoTime(r[16]);
    run.approved_by = r[17].as<std::string>("");
    run.approved_at = isoTime(r[18]);
    return run;
}

ReviewTask rowToTask(const pqxx::row& r) {
    ReviewTask t;
    t.id = r[0].as<std::string>();
    t.vertical = r[1].as<std::string>();
    t.run_id = r[2].as<std::string>();
    t.title = r[3].as<std::string>();
    t.workspace_id = r[4].as<std::string>();
    t.priority = r[5].as<std::string>();
    t.due_at = isoTime(r[6]);
    t.metadata = parseJson(r[7]);
    t.status = r[8].as<std::string>();
    t.assigned_to = r[9].as<std::string>();
    t.decision = r[10].as<std::string>();
    t.reviewer_notes = r[11].as<std::string>();
    t.created_by = r[12].as<std::string>();
    t.decided_by = r[13].as<std::string>();
    t.created_at = isoTime(r[14]);
    t.updated_at = isoTime(r[15]);
    t.decided_at = isoTime(r[16]);
    return t;
}

/// A run's events go through the one event log API (the run's scope: its workspace, or the
/// personal scope of the actor, who owns a personal run).
void insertEvent(Tx& tx, const EventRecord& e) {
    Event event;
    event.type = e.type;
    event.resource_type = e.resource_type;
    event.resource_id = e.resource_id;
    event.workspace_id = e.workspace_id;
    event.actor_id = e.actor_id;
    event.payload = e.payload;
    EventRepository::emit(tx, event);
}

ReviewTask insertTask(Tx& tx, const ReviewTask& t) {
    return rowToTask(tx.exec(kInsertTask, t.id.empty() ? common::newUuid() : t.id, t.vertical,
                             t.run_id, t.title, t.workspace_id, t.priority, t.due_at,
                             t.metadata.dump(), t.status, t.created_by)[0]);
}

}  // namespace

plugin::Result<std::string> WorkflowRunRepository::create(const WorkflowRun& run,
                                                          const std::string& job_kind) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> {
        tx.exec(kInsertRun, run.id, run.workflow, run.vertical, run.owner_id, run.workspace_id,
                run.status, run.document_ids.dump(), run.inputs.dump(), run.packet.dump(),
                run.steps.dump());
        return JobRepository::enqueue(tx, job_kind, {{"run_id", run.id}});
    });
}

plugin::Result<std::optional<WorkflowRun>> WorkflowRunRepository::find(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<WorkflowRun>> {
        const auto rows = tx.exec(kFindRun, id);
        if (rows.empty()) return std::optional<WorkflowRun>();
        return std::optional<WorkflowRun>(rowToRun(rows[0]));
    });
}

plugin::Result<std::vector<WorkflowRun>> WorkflowRunRepository::list(
    const std::string& owner_id, const std::string& workspace_id, const std::string& vertical,
    const std::string& workflow, const std::string& status, int limit, bool with_packet) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<WorkflowRun>> {
        std::vector<WorkflowRun> out;
        for (const auto& row : tx.exec(with_packet ? kListRuns : kListRunSummaries, owner_id,
                                       workspace_id, vertical, workflow, status, limit)) {
            out.push_back(rowToRun(row));
        }
        return out;
    });
}

plugin::Result<std::map<std::string, long long>> WorkflowRunRepository::countByStatus(
    const std::string& owner_id, const std::string& workspace_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::map<std::string, long long>> {
        std::map<std::string, long long> out;
        for (const auto& row : tx.exec(kCountRuns, owner_id, workspace_id)) {
            out[row[0].as<std::string>()] = row[1].as<long long>();
        }
        return out;
    });
}

plugin::Result<WorkflowRun> WorkflowRunRepository::transition(
    const std::string& id,
    const std::function<plugin::Result<RunTransition>(const WorkflowRun&)>& decide) {
    return db_.transact([&](Tx& tx) -> plugin::Result<WorkflowRun> {
        const auto rows = tx.exec(kLockRun, id);
        if (rows.empty()) return plugin::Error{"run_not_found", "workflow run not found", 404};
        auto decided = decide(rowToRun(rows[0]));
        if (!decided) return decided.error();
        const RunTransition& t = *decided;
        const WorkflowRun& r = t.run;
        const bool finished = r.status != "running";
        tx.exec(kUpdateRun, id, r.status, r.packet.dump(), r.steps.dump(), r.error_code,
                r.error_message, r.review_notes, r.revision, finished, r.approved_by);
        for (const auto& c : t.changes) {
            tx.exec(kInsertChange, id, r.revision, c.path, c.old_value.dump(), c.new_value.dump(),
                    c.changed_by);
        }
        if (!t.close_tasks_status.empty()) {
            tx.exec(kCloseTasks, id, t.close_tasks_status, t.close_tasks_decision, t.close_tasks_by,
                    t.close_tasks_notes);
        }
        if (t.new_task) insertTask(tx, *t.new_task);
        for (const auto& e : t.events) insertEvent(tx, e);
        return rowToRun(tx.exec(kFindRun, id)[0]);
    });
}

plugin::Result<std::vector<FieldChange>> WorkflowRunRepository::changes(const std::string& run_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<FieldChange>> {
        std::vector<FieldChange> out;
        for (const auto& r : tx.exec(kChanges, run_id)) {
            out.push_back({r[0].as<std::string>(), parseJson(r[1]), parseJson(r[2]),
                           r[3].as<std::string>(), isoTime(r[4]), r[5].as<int>()});
        }
        return out;
    });
}

plugin::Status WorkflowRunRepository::addPacket(const PacketRecord& p, const EventRecord& event) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kInsertPacket, p.id, p.run_id, p.packet_type, p.document_id, p.revision,
                p.created_by);
        tx.exec(kMarkPacketDocument, p.document_id);
        insertEvent(tx, event);
        return true;
    }));
}

plugin::Result<std::vector<PacketRecord>> WorkflowRunRepository::packets(
    const std::string& run_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<PacketRecord>> {
        std::vector<PacketRecord> out;
        for (const auto& r : tx.exec(kPackets, run_id)) {
            out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                           r[3].as<std::string>(), r[4].as<int>(), r[5].as<std::string>(),
                           isoTime(r[6])});
        }
        return out;
    });
}

plugin::Result<ReviewTask> WorkflowRunRepository::createTask(const ReviewTask& task) {
    return db_.transact([&](Tx& tx) -> plugin::Result<ReviewTask> { return insertTask(tx, task); });
}

plugin::Result<std::optional<ReviewTask>> WorkflowRunRepository::findTask(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<ReviewTask>> {
        const auto rows = tx.exec(kFindTask, id);
        if (rows.empty()) return std::optional<ReviewTask>();
        return std::optional<ReviewTask>(rowToTask(rows[0]));
    });
}

plugin::Result<std::vector<ReviewTask>> WorkflowRunRepository::listTasks(const std::string& user_id,
                                                                         const std::string& status,
                                                                         int limit) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<ReviewTask>> {
        std::vector<ReviewTask> out;
        for (const auto& r : tx.exec(kListTasks, user_id, status, limit)) {
            out.push_back(rowToTask(r));
        }
        return out;
    });
}

plugin::Result<bool> WorkflowRunRepository::assignTask(const std::string& id,
                                                       const std::string& user_id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        return tx.exec(kAssignTask, id, user_id).affected_rows() == 1;
    });
}

plugin::Result<std::vector<EventRecord>> WorkflowRunRepository::events(
    const std::string& resource_type, const std::string& resource_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<EventRecord>> {
        std::vector<EventRecord> out;
        for (const auto& r : tx.exec(kEvents, resource_type, resource_id)) {
            out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                           r[3].as<std::string>(), r[4].as<std::string>(), parseJson(r[5])});
        }
        return out;
    });
}

}  // namespace docintel::storage

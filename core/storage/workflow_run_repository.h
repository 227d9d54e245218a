#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct WorkflowRun {
    std::string id;
    std::string workflow;
    std::string vertical;
    std::string owner_id;
    std::string workspace_id;  ///< empty = the owner's personal scope
    std::string status;
    nlohmann::json document_ids = nlohmann::json::array();
    nlohmann::json inputs = nlohmann::json::object();
    nlohmann::json packet = nlohmann::json::object();
    nlohmann::json steps = nlohmann::json::array();  ///< [{id, title, status}]
    std::string error_code;
    std::string error_message;
    std::string review_notes;
    int revision = 0;
    std::string created_at;
    std::string updated_at;
    std::string completed_at;
    std::string approved_by;
    std::string approved_at;
};

struct FieldChange {
    std::string path;  ///< JSON pointer into the review packet
    nlohmann::json old_value;
    nlohmann::json new_value;
    std::string changed_by;
    std::string changed_at;
    int revision = 0;
};

/// One row of the event log.
struct EventRecord {
    std::string type;
    std::string resource_type;
    std::string resource_id;
    std::string workspace_id;
    std::string actor_id;
    nlohmann::json payload = nlohmann::json::object();
};

struct ReviewTask {
    std::string id;
    std::string vertical;
    std::string run_id;
    std::string title;
    std::string workspace_id;
    std::string priority = "normal";
    std::string due_at;  ///< empty = none
    nlohmann::json metadata = nlohmann::json::object();
    std::string status = "pending";
    std::string assigned_to;
    std::string decision;
    std::string reviewer_notes;
    std::string created_by;
    std::string decided_by;
    std::string created_at;
    std::string updated_at;
    std::string decided_at;
};

struct PacketRecord {
    std::string id;
    std::string run_id;
    std::string packet_type;
    std::string document_id;
    int revision = 0;
    std::string created_by;
    std::string created_at;
};

/// What one state change of a run writes, atomically: the run's new state, the audited field
/// changes, event rows, and (optionally) a review task to create or the run's open tasks to
/// close with a status and decision.
struct RunTransition {
    WorkflowRun run;
    std::vector<FieldChange> changes;
    std::vector<EventRecord> events;
    std::optional<ReviewTask> new_task;
    std::string close_tasks_status;  ///< empty = leave the run's open tasks alone
    std::string close_tasks_decision;
    std::string close_tasks_by;
    std::string close_tasks_notes;
};

/// Workflow runs, their field audit, packets, review tasks and the event log. Every write of
/// a run goes through `transition`, which locks the row, so concurrent saves and approvals
/// serialise. Thread-safe.
class WorkflowRunRepository {
  public:
    explicit WorkflowRunRepository(Database& db) : db_(db) {}

    /// Inserts the run and enqueues `job_kind` with `{run_id}` in one transaction; returns the
    /// job id.
    plugin::Result<std::string> create(const WorkflowRun& run, const std::string& job_kind);
    plugin::Result<std::optional<WorkflowRun>> find(const std::string& id);
    /// Runs of a scope (personal: owner_id with no workspace; else workspace_id), newest first.
    /// `with_packet` false: `packet` is left empty (lists that show no field read less).
    plugin::Result<std::vector<WorkflowRun>> list(
        const std::string& owner_id, const std::string& workspace_id, const std::string& vertical,
        const std::string& workflow, const std::string& status, int limit, bool with_packet = true);
    /// The number of runs of a scope per status (statuses without runs are absent).
    plugin::Result<std::map<std::string, long long>> countByStatus(const std::string& owner_id,
                                                                   const std::string& workspace_id);

    /// Locks the run, asks `decide` for the transition from its current state and writes it.
    /// `decide` may run more than once (serialization retry) and must only compute. Returns
    /// the run as written. `not_found` when the run is gone.
    plugin::Result<WorkflowRun> transition(
        const std::string& id,
        const std::function<plugin::Result<RunTransition>(const WorkflowRun&)>& decide);

    plugin::Result<std::vector<FieldChange>> changes(const std::string& run_id);

    /// Records a packet and marks its document as `doc_type` 'packet', with an event.
    plugin::Status addPacket(const PacketRecord& packet, const EventRecord& event);
    plugin::Result<std::vector<PacketRecord>> packets(const std::string& run_id);

    plugin::Result<ReviewTask> createTask(const ReviewTask& task);
    plugin::Result<std::optional<ReviewTask>> findTask(const std::string& id);
    /// Tasks the user can see: personal runs' tasks they own, and tasks of workspaces they
    /// belong to; `status` filters when not empty.
    plugin::Result<std::vector<ReviewTask>> listTasks(const std::string& user_id,
                                                      const std::string& status, int limit);
    /// Takes a pending task (or re-takes one in review); false when it is decided already.
    plugin::Result<bool> assignTask(const std::string& id, const std::string& user_id);

    plugin::Result<std::vector<EventRecord>> events(const std::string& resource_type,
                                                    const std::string& resource_id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

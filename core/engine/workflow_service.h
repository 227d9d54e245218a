#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "auth/workspace_access.h"
#include "engine/packet_renderer.h"
#include "engine/run_status.h"
#include "engine/workflow_catalog.h"
#include "http/schema_validator.h"
#include "jobs/worker_pool.h"
#include "knowledge/run_facts.h"
#include "objects/object_store.h"
#include "plugin_api/workflow.h"
#include "plugin_host/plugin_registry.h"
#include "storage/document_repository.h"
#include "storage/workflow_run_repository.h"

namespace docintel::engine {

/// The workflow engine: starts runs of the workflows plugins registered, runs their steps as
/// one durable job per run (each finished step checkpointed, so a killed worker repeats only
/// the unfinished one), stores the review packet, validates and audits review edits, approves
/// under the workflow's rules, renders packets into documents of the run's scope, and writes
/// the events of ARCHITECTURE.md §5. REST routes, plugin routes and MCP tools all call it.
///
/// Authorisation lives here: the caller's scopes, the run's scope (owner for personal runs,
/// workspace role for team runs) and the workflow's review/approval rules. A run the caller
/// cannot see is `run_not_found` (404).
///
/// Errors with code `validation_error` carry the 422 `detail` array as JSON text in `message`
/// (renderers turn it back into the FastAPI shape); `packet_blocked` (409) names what is
/// unresolved, and the run's `packet_readiness` lists it. Thread-safe.
class WorkflowService final : public plugin::WorkflowRuns {
  public:
    static constexpr const char* kRunJob = "workflow_run";

    struct Parts {
        WorkflowCatalog& catalog;
        storage::WorkflowRunRepository& runs;
        storage::DocumentRepository& documents;
        objects::ObjectStore& objects;
        const auth::WorkspaceAccess& workspaces;
        const auth::DocumentAccess& document_access;
        const plugin_host::PluginRegistry& plugins;
        plugin::EvidenceFinder& evidence;
        const PacketRenderer& renderer;
        http::SchemaRegistry& schemas;
    };

    explicit WorkflowService(Parts parts) : p_(parts) {}

    /// Called after a job is enqueued on this node (wakes the local worker pool).
    void setWake(std::function<void()> wake) { wake_ = std::move(wake); }

    // plugin::WorkflowRuns
    plugin::Result<nlohmann::json> start(const plugin::Principal& caller,
                                         const std::string& workspace_id,
                                         const nlohmann::json& body) override;
    plugin::Result<nlohmann::json> list(const plugin::Principal& caller,
                                        const std::string& workspace_id,
                                        const std::string& vertical,
                                        const std::map<std::string, std::string>& query) override;
    /// The number of runs per status of a scope ("personal" or a workspace id) the caller may
    /// read (the console's inbox summary); statuses without runs are absent.
    plugin::Result<std::map<std::string, long long>> countRuns(const plugin::Principal& caller,
                                                               const std::string& workspace_id);
    plugin::Result<nlohmann::json> get(const plugin::Principal& caller, const std::string& vertical,
                                       const std::string& run_id) override;
    plugin::Result<nlohmann::json> saveReview(const plugin::Principal& caller,
                                              const std::string& vertical,
                                              const std::string& run_id,
                                              const nlohmann::json& body) override;
    plugin::Result<nlohmann::json> approve(const plugin::Principal& caller,
                                           const std::string& vertical, const std::string& run_id,
                                           const nlohmann::json& body) override;
    plugin::Result<nlohmann::json> requestChanges(const plugin::Principal& caller,
                                                  const std::string& vertical,
                                                  const std::string& run_id,
                                                  const nlohmann::json& body) override;
    plugin::Result<nlohmann::json> generatePacket(const plugin::Principal& caller,
                                                  const std::string& vertical,
                                                  const std::string& run_id,
                                                  const nlohmann::json& body) override;
    plugin::Result<nlohmann::json> audit(const plugin::Principal& caller,
                                         const std::string& vertical,
                                         const std::string& run_id) override;

    /// GET /workflows/{workflow}/schema: inputs schema, packet schema, rules, packet types.
    plugin::Result<nlohmann::json> schema(const std::string& workflow);
    /// POST /workflows/{workflow}/validate: `{valid, errors}` for a start body or bare inputs.
    plugin::Result<nlohmann::json> validate(const std::string& workflow,
                                            const nlohmann::json& body);
    /// The workflows (for the operations catalog and list_vertical_workflows).
    nlohmann::json catalog();

    /// A review task decision on a run: approved / changes_requested / rejected, closing the
    /// run's open tasks with it.
    plugin::Result<nlohmann::json> decide(const plugin::Principal& caller,
                                          const std::string& run_id, const std::string& decision,
                                          const std::string& notes);
    /// The run as its review task list shows it, after the read check (for task creation).
    plugin::Result<storage::WorkflowRun> readableRun(const plugin::Principal& caller,
                                                     const std::string& run_id);
    bool canRead(const plugin::Principal& caller, const storage::WorkflowRun& run) const;
    /// What the caller may do to a run it can read under the workflow's rules, without doing
    /// it (the console offers only what the engine would accept): `{"review": bool,
    /// "approve": bool}`; both false when the workflow is not loaded.
    nlohmann::json allowedActions(const plugin::Principal& caller,
                                  const storage::WorkflowRun& run) const;

    /// agent_mode's run results (core/engine/workflow_run_facts.cpp, decision 0055): the
    /// extracted fields of the newest usable run of each workflow in the query's scopes.
    plugin::Result<std::vector<knowledge::RunFact>> runFacts(const plugin::Principal& caller,
                                                             const knowledge::RunFactQuery& query);

    /// The `workflow_run` job.
    plugin::Status runJob(jobs::JobContext& context);

  private:
    /// The storage scope of `workspace_id` the caller may read runs of (workflows:read).
    plugin::Result<std::string> readScope(const plugin::Principal& caller,
                                          const std::string& workspace_id);
    plugin::Result<storage::WorkflowRun> load(const plugin::Principal& caller,
                                              const std::string& vertical,
                                              const std::string& run_id);
    /// Scopes, workspace role and self-approval of a review or approval rule.
    plugin::Status checkRule(const plugin::Principal& caller, const storage::WorkflowRun& run,
                             const nlohmann::json& rule) const;
    plugin::Result<nlohmann::json> checkDocuments(const plugin::Principal& caller,
                                                  const std::string& scope,
                                                  const nlohmann::json& ids,
                                                  const std::string& where);
    nlohmann::json toJson(const storage::WorkflowRun& run, bool with_packet = true);
    /// What keeps each packet type of the run from being generated now.
    nlohmann::json readiness(const Workflow& workflow, const storage::WorkflowRun& run) const;
    plugin::Result<nlohmann::json> review(const plugin::Principal& caller,
                                          const std::string& run_id, const std::string& action,
                                          const nlohmann::json& body);
    void failRun(const std::string& run_id, const std::string& code, const std::string& message);

    Parts p_;
    std::function<void()> wake_;
};

/// The unresolved items of `rule` (a packet type's `blocked_unless`) in `packet`.
nlohmann::json unresolvedItems(const nlohmann::json& rule, const nlohmann::json& packet);

/// Field-level differences between two packets: an extracted field (an object with `value`
/// and `confidence`) compares by value; other objects recurse; arrays of equal length recurse
/// by index; anything else compares whole. Paths are JSON pointers.
void diffPackets(const nlohmann::json& before, const nlohmann::json& after, const std::string& path,
                 std::vector<storage::FieldChange>& out);

}  // namespace docintel::engine

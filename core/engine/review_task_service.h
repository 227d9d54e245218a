#pragma once

#include <nlohmann/json.hpp>

#include "engine/workflow_service.h"
#include "plugin_api/http_types.h"
#include "storage/workflow_run_repository.h"

namespace docintel::engine {

/// Review tasks (`/api/v1/reviews`), each linked to a workflow run: the engine opens one when
/// a run reaches pending_review, and clients may open more. Status: pending → in_review →
/// completed | changes_requested | rejected. A decision is the run's decision (the engine's
/// approval rules apply) and closes every open task of the run. A task is visible to whoever
/// can see its run. Thread-safe.
class ReviewTaskService {
  public:
    ReviewTaskService(WorkflowService& workflows, storage::WorkflowRunRepository& runs)
        : workflows_(workflows), runs_(runs) {}

    plugin::Result<nlohmann::json> list(const plugin::Principal& caller, const std::string& status,
                                        int limit);
    /// `body`: a validated ReviewTaskInput.
    plugin::Result<nlohmann::json> create(const plugin::Principal& caller,
                                          const nlohmann::json& body);
    /// One task the caller may read (404 otherwise, as for a run they cannot read).
    plugin::Result<nlohmann::json> get(const plugin::Principal& caller, const std::string& task_id);
    plugin::Result<nlohmann::json> assign(const plugin::Principal& caller,
                                          const std::string& task_id);
    /// `body`: a validated ReviewDecisionInput.
    plugin::Result<nlohmann::json> decide(const plugin::Principal& caller,
                                          const std::string& task_id, const nlohmann::json& body);

    static nlohmann::json toJson(const storage::ReviewTask& task);

  private:
    plugin::Result<storage::ReviewTask> load(const plugin::Principal& caller,
                                             const std::string& task_id);

    WorkflowService& workflows_;
    storage::WorkflowRunRepository& runs_;
};

}  // namespace docintel::engine

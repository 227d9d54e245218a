#include "engine/review_task_service.h"

#include "common/id.h"

namespace docintel::engine {
namespace {

nlohmann::json nullable(const std::string& s) {
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

plugin::Error taskNotFound() { return {"review_not_found", "review task not found", 404}; }

}  // namespace

nlohmann::json ReviewTaskService::toJson(const storage::ReviewTask& t) {
    return {{"id", t.id},
            {"task_id", t.id},
            {"vertical", t.vertical},
            {"run_id", t.run_id},
            {"title", t.title},
            {"workspace_id", nullable(t.workspace_id)},
            {"priority", t.priority},
            {"due_at", nullable(t.due_at)},
            {"metadata", t.metadata},
            {"status", t.status},
            {"assigned_to", nullable(t.assigned_to)},
            {"decision", nullable(t.decision)},
            {"reviewer_notes", t.reviewer_notes},
            {"created_by", nullable(t.created_by)},
            {"decided_by", nullable(t.decided_by)},
            {"created_at", t.created_at},
            {"updated_at", t.updated_at},
            {"decided_at", nullable(t.decided_at)}};
}

plugin::Result<storage::ReviewTask> ReviewTaskService::load(const plugin::Principal& caller,
                                                            const std::string& task_id) {
    if (!common::isUuid(task_id)) return taskNotFound();
    auto found = runs_.findTask(task_id);
    if (!found) return found.error();
    if (!found->has_value()) return taskNotFound();
    if (!workflows_.readableRun(caller, (*found)->run_id)) return taskNotFound();
    return std::move(**found);
}

plugin::Result<nlohmann::json> ReviewTaskService::get(const plugin::Principal& caller,
                                                      const std::string& task_id) {
    auto task = load(caller, task_id);
    if (!task) return task.error();
    return toJson(*task);
}

plugin::Result<nlohmann::json> ReviewTaskService::list(const plugin::Principal& caller,
                                                       const std::string& status, int limit) {
    if (!status.empty() && !parseTaskStatus(status)) {
        return plugin::Error{"validation_error",
                             nlohmann::json::array({{{"loc", {"query", "status"}},
                                                     {"msg",
                                                      "Input should be 'pending', 'in_review', "
                                                      "'completed', 'changes_requested' or "
                                                      "'rejected'"},
                                                     {"type", "enum"}}})
                                 .dump(),
                             422};
    }
    auto rows = runs_.listTasks(caller.user_id, status, limit);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& t : *rows) items.push_back(toJson(t));
    return nlohmann::json{{"reviews", items}, {"items", items}, {"count", items.size()}};
}

plugin::Result<nlohmann::json> ReviewTaskService::create(const plugin::Principal& caller,
                                                         const nlohmann::json& body) {
    auto run = workflows_.readableRun(caller, body["run_id"].get<std::string>());
    if (!run) return run.error();
    if (body["vertical"].get<std::string>() != run->vertical) {
        return plugin::Error::unprocessable("vertical_mismatch",
                                            "the run belongs to the vertical " + run->vertical);
    }
    const auto& ws = body.value("workspace_id", nlohmann::json());
    if (ws.is_string() && !ws.get<std::string>().empty() && ws.get<std::string>() != "personal" &&
        ws.get<std::string>() != run->workspace_id) {
        return plugin::Error::unprocessable("workspace_mismatch",
                                            "workspace_id must be the run's workspace");
    }
    storage::ReviewTask task;
    task.vertical = run->vertical;
    task.run_id = run->id;
    task.title = body["title"].get<std::string>();
    task.workspace_id = run->workspace_id;
    task.priority = body["priority"].get<std::string>();
    if (body.contains("due_at") && body["due_at"].is_string()) task.due_at = body["due_at"];
    task.metadata = body.value("metadata", nlohmann::json::object());
    task.created_by = caller.user_id;
    auto created = runs_.createTask(task);
    if (!created) return created.error();
    return toJson(*created);
}

plugin::Result<nlohmann::json> ReviewTaskService::assign(const plugin::Principal& caller,
                                                         const std::string& task_id) {
    auto task = load(caller, task_id);
    if (!task) return task.error();
    auto taken = runs_.assignTask(task_id, caller.user_id);
    if (!taken) return taken.error();
    if (!*taken) {
        return plugin::Error::conflict("review_decided",
                                       "the review task is " + task->status + " already");
    }
    auto again = runs_.findTask(task_id);
    if (!again) return again.error();
    return toJson(**again);
}

plugin::Result<nlohmann::json> ReviewTaskService::decide(const plugin::Principal& caller,
                                                         const std::string& task_id,
                                                         const nlohmann::json& body) {
    auto task = load(caller, task_id);
    if (!task) return task.error();
    const auto status = parseTaskStatus(task->status);
    if (status != TaskStatus::kPending && status != TaskStatus::kInReview) {
        return plugin::Error::conflict("review_decided",
                                       "the review task is " + task->status + " already");
    }
    auto run = workflows_.decide(caller, task->run_id, body["decision"].get<std::string>(),
                                 body.value("reviewer_notes", ""));
    if (!run) return run.error();
    auto again = runs_.findTask(task_id);
    if (!again) return again.error();
    nlohmann::json out = toJson(**again);
    out["run"] = {{"run_id", (*run)["run_id"]}, {"status", (*run)["status"]}};
    return out;
}

}  // namespace docintel::engine

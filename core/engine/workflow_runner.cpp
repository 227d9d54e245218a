// The `workflow_run` job: the steps of a run, in order, each checkpointed.
#include <chrono>

#include "common/log.h"
#include "engine/workflow_service.h"

namespace docintel::engine {
namespace {

// The run's documents as steps see them: document_ids first, then each document input.
std::vector<plugin::StepDocument> stepDocuments(storage::DocumentRepository& documents,
                                                const Workflow& workflow,
                                                const storage::WorkflowRun& run) {
    std::vector<std::pair<std::string, std::string>> wanted;  // id, role
    for (const auto& id : run.document_ids) wanted.emplace_back(id.get<std::string>(), "primary");
    for (const auto& input :
         workflow.definition.value("document_inputs", nlohmann::json::array())) {
        const std::string key = input.get<std::string>();
        if (!run.inputs.contains(key)) continue;
        const auto& v = run.inputs[key];
        if (v.is_string()) wanted.emplace_back(v.get<std::string>(), key);
        if (v.is_array()) {
            for (const auto& id : v) wanted.emplace_back(id.get<std::string>(), key);
        }
    }
    std::vector<plugin::StepDocument> out;
    for (const auto& [id, role] : wanted) {
        plugin::StepDocument d;
        d.document_id = id;
        d.role = role;
        if (auto found = documents.find(id); found && found->has_value()) {
            d.filename = (*found)->filename;
            d.pages = (*found)->pages.value_or(0);
        }
        out.push_back(std::move(d));
    }
    return out;
}

void merge(nlohmann::json& packet, const nlohmann::json& part) {
    if (!part.is_object()) return;
    for (const auto& [k, v] : part.items()) packet[k] = v;
}

}  // namespace

plugin::Status WorkflowService::runJob(jobs::JobContext& context) {
    const std::string run_id = context.payload().value("run_id", "");
    auto found = p_.runs.find(run_id);
    if (!found) return found.error();
    if (!found->has_value()) return {};  // deleted meanwhile
    const storage::WorkflowRun run = **found;
    if (run.status != toString(RunStatus::kRunning)) return {};
    auto workflow = p_.catalog.find(run.workflow);
    const bool last_attempt = context.job().attempts >= context.job().max_attempts;
    if (!workflow) {
        if (last_attempt) {
            failRun(run_id, "workflow_unavailable", "the workflow's plugin is not loaded");
            return {};
        }
        return plugin::Error::unavailable("workflow_unavailable", "workflow not loaded here");
    }
    const auto started = std::chrono::steady_clock::now();

    plugin::StepInput input;
    input.run_id = run.id;
    input.workflow = run.workflow;
    input.workspace_id = run.workspace_id;
    input.documents = stepDocuments(p_.documents, *workflow, run);
    input.inputs = run.inputs;
    input.packet = nlohmann::json::object();

    nlohmann::json steps = run.steps;
    const auto& defs = workflow->definition.at("steps");
    for (std::size_t i = 0; i < defs.size(); ++i) {
        const std::string id = defs[i].at("id").get<std::string>();
        const std::string uses = defs[i].at("uses").get<std::string>();
        if (context.done(id)) {
            merge(input.packet, context.job().checkpoint.at(id));
            continue;
        }
        auto impl = p_.plugins.workflowStep(uses);
        if (!impl) {
            if (last_attempt) {
                failRun(run_id, "step_unavailable", "step " + uses + " is not registered");
                return {};
            }
            return plugin::Error::unavailable("step_unavailable", "step " + uses + " not loaded");
        }
        const auto step_started = std::chrono::steady_clock::now();
        auto result = impl->step.run(input);
        if (!result) {
            const auto& e = result.error();
            if (e.http_status < 500 || last_attempt) {
                failRun(run_id, e.code, "step " + id + ": " + e.message);
                return {};
            }
            return e;
        }
        merge(input.packet, *result);
        if (auto ok = context.mark(id, *result); !ok) return ok;
        // Progress for readers of the run; the checkpoint above is what recovery relies on.
        (void)p_.runs.transition(
            run_id,
            [&](const storage::WorkflowRun& current) -> plugin::Result<storage::RunTransition> {
                storage::RunTransition t;
                t.run = current;
                if (i < t.run.steps.size()) t.run.steps[i]["status"] = "completed";
                return t;
            });
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - step_started)
                            .count();
        common::log(common::LogLevel::kInfo, "workflow_step_done",
                    {{"run_id", run_id}, {"step", id}, {"ms", std::to_string(ms)}});
    }
    for (auto& s : steps) s["status"] = "completed";

    nlohmann::json packet = input.packet;
    auto issues = p_.schemas.validate(workflow->packet_schema, packet, {"packet"});
    if (!issues.empty()) {
        std::string where;
        for (const auto& part : issues.front().loc) {
            where += "/" + (part.is_string() ? part.get<std::string>() : part.dump());
        }
        failRun(run_id, "invalid_packet",
                "the steps produced a packet that fails its schema at " + where + ": " +
                    issues.front().msg);
        return {};
    }
    const std::string title = workflow->title();
    auto written = p_.runs.transition(
        run_id, [&](const storage::WorkflowRun& current) -> plugin::Result<storage::RunTransition> {
            storage::RunTransition t;
            t.run = current;
            if (current.status != toString(RunStatus::kRunning)) {
                return plugin::Error::conflict("run_not_running", "the run moved on");
            }
            t.run.status = toString(RunStatus::kPendingReview);
            t.run.packet = packet;
            t.run.steps = steps;
            const nlohmann::json payload = {{"run_id", run_id},
                                            {"workflow", run.workflow},
                                            {"vertical", run.vertical},
                                            {"status", t.run.status}};
            t.events.push_back({"workflow.completed", "workflow_run", run_id, run.workspace_id,
                                run.owner_id, payload});
            t.events.push_back({"workflow.review_required", "workflow_run", run_id,
                                run.workspace_id, run.owner_id, payload});
            storage::ReviewTask task;
            task.vertical = run.vertical;
            task.run_id = run_id;
            task.title = ("Review: " + title).substr(0, 240);
            task.workspace_id = run.workspace_id;
            task.metadata = {{"workflow", run.workflow}, {"created_by_engine", true}};
            task.created_by = run.owner_id;
            t.new_task = task;
            return t;
        });
    if (!written && written.error().code != "run_not_running") return written.error();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
    common::log(common::LogLevel::kInfo, "workflow_run_pending_review",
                {{"run_id", run_id}, {"workflow", run.workflow}, {"ms", std::to_string(ms)}});
    return {};
}

}  // namespace docintel::engine

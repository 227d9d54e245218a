// Review, approval and change requests of a run, with the field audit.
#include <algorithm>

#include "common/log.h"
#include "engine/workflow_service.h"

namespace docintel::engine {
namespace {

bool isField(const nlohmann::json& v) {
    return v.is_object() && v.contains("value") && v.contains("confidence");
}

// The value of `item[field]`, looking through an extracted field to its `value`.
nlohmann::json plain(const nlohmann::json& item, const std::string& field) {
    if (!item.is_object() || !item.contains(field)) return nullptr;
    const auto& v = item.at(field);
    return isField(v) ? v.at("value") : v;
}

}  // namespace

void diffPackets(const nlohmann::json& before, const nlohmann::json& after, const std::string& path,
                 std::vector<storage::FieldChange>& out) {
    if (isField(before) && isField(after)) {
        if (before.at("value") != after.at("value")) {
            out.push_back({path, before.at("value"), after.at("value"), {}, {}, 0});
        }
        return;
    }
    if (before.is_object() && after.is_object()) {
        for (const auto& [k, v] : before.items()) {
            const std::string p = (nlohmann::json::json_pointer(path) / k).to_string();
            if (after.contains(k)) {
                diffPackets(v, after.at(k), p, out);
            } else {
                out.push_back({p, isField(v) ? v.at("value") : v, nullptr, {}, {}, 0});
            }
        }
        for (const auto& [k, v] : after.items()) {
            if (!before.contains(k)) {
                out.push_back({(nlohmann::json::json_pointer(path) / k).to_string(),
                               nullptr,
                               isField(v) ? v.at("value") : v,
                               {},
                               {},
                               0});
            }
        }
        return;
    }
    if (before.is_array() && after.is_array() && before.size() == after.size()) {
        for (std::size_t i = 0; i < before.size(); ++i) {
            diffPackets(before[i], after[i], path + "/" + std::to_string(i), out);
        }
        return;
    }
    if (before != after) out.push_back({path.empty() ? "/" : path, before, after, {}, {}, 0});
}

nlohmann::json unresolvedItems(const nlohmann::json& rule, const nlohmann::json& packet) {
    nlohmann::json out = nlohmann::json::array();
    nlohmann::json items;
    try {
        items = packet.at(nlohmann::json::json_pointer(rule.at("path").get<std::string>()));
    } catch (const std::exception&) {
        return out;
    }
    if (!items.is_array()) return out;
    const auto where = rule.value("where", nlohmann::json::object());
    const std::string field = rule.at("field").get<std::string>();
    const auto& allowed = rule.at("in");
    const std::string label = rule.value("label", "");
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& item = items[i];
        bool selected = true;
        for (const auto& [k, v] : where.items()) selected = selected && plain(item, k) == v;
        if (!selected) continue;
        const auto value = plain(item, field);
        if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) continue;
        out.push_back({{"index", i},
                       {"id", item.value("id", std::to_string(i))},
                       {"label", label.empty() ? nlohmann::json(nullptr) : plain(item, label)},
                       {field, value}});
    }
    return out;
}

plugin::Result<nlohmann::json> WorkflowService::saveReview(const plugin::Principal& caller,
                                                           const std::string& vertical,
                                                           const std::string& run_id,
                                                           const nlohmann::json& body) {
    auto run = load(caller, vertical, run_id);
    if (!run) return run.error();
    return review(caller, run_id, "save", body);
}

plugin::Result<nlohmann::json> WorkflowService::approve(const plugin::Principal& caller,
                                                        const std::string& vertical,
                                                        const std::string& run_id,
                                                        const nlohmann::json& body) {
    auto run = load(caller, vertical, run_id);
    if (!run) return run.error();
    return review(caller, run_id, "approve", body);
}

plugin::Result<nlohmann::json> WorkflowService::requestChanges(const plugin::Principal& caller,
                                                               const std::string& vertical,
                                                               const std::string& run_id,
                                                               const nlohmann::json& body) {
    auto run = load(caller, vertical, run_id);
    if (!run) return run.error();
    return review(caller, run_id, "changes_requested", body);
}

plugin::Result<nlohmann::json> WorkflowService::decide(const plugin::Principal& caller,
                                                       const std::string& run_id,
                                                       const std::string& decision,
                                                       const std::string& notes) {
    auto run = readableRun(caller, run_id);
    if (!run) return run.error();
    nlohmann::json body = {{"notes", notes}, {"confirm", true}};
    if (decision == "approved") return review(caller, run_id, "approve", body);
    if (decision == "changes_requested") return review(caller, run_id, "changes_requested", body);
    return review(caller, run_id, "rejected", body);
}

// One review action under the run's row lock: save, approve, changes_requested or rejected.
plugin::Result<nlohmann::json> WorkflowService::review(const plugin::Principal& caller,
                                                       const std::string& run_id,
                                                       const std::string& action,
                                                       const nlohmann::json& raw_body) {
    auto current = p_.runs.find(run_id);
    if (!current) return current.error();
    if (!current->has_value()) return plugin::Error{"run_not_found", "workflow run not found", 404};
    auto workflow = p_.catalog.find((*current)->workflow);
    if (!workflow) {
        return plugin::Error::unavailable("workflow_unavailable", "the workflow is not loaded");
    }
    const auto& def = workflow->definition;
    const bool approving = action != "save";
    const auto& rule = approving ? def.at("approval") : def.at("review");
    if (auto ok = checkRule(caller, **current, rule); !ok) return ok.error();

    nlohmann::json body = raw_body;
    const std::string schema_name = action == "save"      ? "VerticalReviewInput"
                                    : action == "approve" ? "VerticalApprovalInput"
                                                          : "VerticalChangesInput";
    if (auto issues = p_.schemas.validate(schema_name, body, {"body"}); !issues.empty()) {
        return http::validationError(issues);
    }
    if (action == "approve" && rule.value("requires_confirm", true) &&
        !body.value("confirm", false)) {
        return plugin::Error::badRequest("confirmation_required",
                                         "approving a run needs confirm: true");
    }
    std::optional<nlohmann::json> edited;
    if (body.contains("packet") && body["packet"].is_object()) {
        nlohmann::json packet = body["packet"];
        if (auto issues = p_.schemas.validate(workflow->packet_schema, packet, {"body", "packet"});
            !issues.empty()) {
            return http::validationError(issues);
        }
        edited = std::move(packet);
    }
    const std::string notes = body.value("notes", "");

    auto written = p_.runs.transition(
        run_id, [&](const storage::WorkflowRun& run) -> plugin::Result<storage::RunTransition> {
            const auto status = parseRunStatus(run.status).value_or(RunStatus::kFailed);
            const bool reviewable =
                status == RunStatus::kPendingReview || status == RunStatus::kChangesRequested;
            if (!reviewable && !(action == "save" && status == RunStatus::kPendingReview)) {
                return plugin::Error::conflict("run_not_reviewable",
                                               "the run is " + run.status +
                                                   "; reviews need pending_review or "
                                                   "changes_requested");
            }
            if (action != "save" && status != RunStatus::kPendingReview) {
                return plugin::Error::conflict("run_not_reviewable", "the run is " + run.status +
                                                                         "; only a run in "
                                                                         "pending_review can be "
                                                                         "decided");
            }
            storage::RunTransition t;
            t.run = run;
            if (edited) {
                diffPackets(run.packet, *edited, "", t.changes);
                for (auto& c : t.changes) c.changed_by = caller.user_id;
                t.run.packet = *edited;
            }
            if (!t.changes.empty() || !notes.empty()) t.run.revision = run.revision + 1;
            if (!notes.empty()) t.run.review_notes = notes;
            const nlohmann::json payload = {{"run_id", run.id},
                                            {"workflow", run.workflow},
                                            {"vertical", run.vertical},
                                            {"field_changes", t.changes.size()}};
            if (action == "save") {
                t.run.status = toString(RunStatus::kPendingReview);
            } else if (action == "approve") {
                t.run.status = toString(RunStatus::kApproved);
                t.run.approved_by = caller.user_id;
                t.events.push_back({"review.approved", "workflow_run", run.id, run.workspace_id,
                                    caller.user_id, payload});
                t.close_tasks_status = toString(TaskStatus::kCompleted);
                t.close_tasks_decision = "approved";
            } else if (action == "changes_requested") {
                t.run.status = toString(RunStatus::kChangesRequested);
                t.events.push_back({"review.changes_requested", "workflow_run", run.id,
                                    run.workspace_id, caller.user_id, payload});
                t.close_tasks_status = toString(TaskStatus::kChangesRequested);
                t.close_tasks_decision = "changes_requested";
            } else {
                t.run.status = toString(RunStatus::kFailed);
                t.run.error_code = "review_rejected";
                t.run.error_message = "a reviewer rejected the run";
                t.events.push_back({"review.rejected", "workflow_run", run.id, run.workspace_id,
                                    caller.user_id, payload});
                t.close_tasks_status = toString(TaskStatus::kRejected);
                t.close_tasks_decision = "rejected";
            }
            t.close_tasks_by = caller.user_id;
            t.close_tasks_notes = notes;
            return t;
        });
    if (!written) return written.error();
    common::log(common::LogLevel::kInfo, "workflow_review",
                {{"run_id", run_id}, {"action", action}, {"status", written->status}});
    return toJson(*written);
}

}  // namespace docintel::engine

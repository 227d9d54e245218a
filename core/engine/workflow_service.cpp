#include "engine/workflow_service.h"

#include <algorithm>

#include "common/id.h"
#include "common/log.h"

namespace docintel::engine {
namespace {

nlohmann::json nullable(const std::string& s) {
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

plugin::Error runNotFound() { return {"run_not_found", "workflow run not found", 404}; }

using http::validationError;

plugin::Status requireScope(const plugin::Principal& caller, const std::string& scope) {
    if (caller.hasScope(scope)) return {};
    return plugin::Error::forbidden("insufficient_scope", "this needs the scope " + scope);
}

// The document ids an input member holds (a string or an array of strings).
std::vector<std::string> idsOf(const nlohmann::json& value) {
    std::vector<std::string> out;
    if (value.is_string()) out.push_back(value.get<std::string>());
    if (value.is_array()) {
        for (const auto& v : value) {
            if (v.is_string()) out.push_back(v.get<std::string>());
        }
    }
    return out;
}

}  // namespace

bool WorkflowService::canRead(const plugin::Principal& caller,
                              const storage::WorkflowRun& run) const {
    if (run.workspace_id.empty()) return run.owner_id == caller.user_id;
    return p_.workspaces.require(caller.user_id, run.workspace_id, auth::WorkspaceAction::kRead)
        .ok();
}

plugin::Result<storage::WorkflowRun> WorkflowService::readableRun(const plugin::Principal& caller,
                                                                  const std::string& run_id) {
    if (!common::isUuid(run_id)) return runNotFound();
    auto found = p_.runs.find(run_id);
    if (!found) return found.error();
    if (!found->has_value() || !canRead(caller, **found)) return runNotFound();
    return std::move(**found);
}

plugin::Result<storage::WorkflowRun> WorkflowService::load(const plugin::Principal& caller,
                                                           const std::string& vertical,
                                                           const std::string& run_id) {
    auto run = readableRun(caller, run_id);
    if (!run) return run.error();
    if (!vertical.empty() && run->vertical != vertical) return runNotFound();
    return run;
}

plugin::Status WorkflowService::checkRule(const plugin::Principal& caller,
                                          const storage::WorkflowRun& run,
                                          const nlohmann::json& rule) const {
    for (const auto& s : rule.value("scopes", nlohmann::json::array())) {
        if (auto ok = requireScope(caller, s.get<std::string>()); !ok) return ok;
    }
    if (run.workspace_id.empty()) {
        if (run.owner_id != caller.user_id) return runNotFound();
    } else {
        auto role =
            p_.workspaces.require(caller.user_id, run.workspace_id, auth::WorkspaceAction::kRead);
        if (!role) return role.error();
        const auto roles = rule.value("workspace_roles", nlohmann::json::array());
        if (!roles.empty() &&
            std::find(roles.begin(), roles.end(), auth::toString(*role)) == roles.end()) {
            return plugin::Error::forbidden(
                "forbidden", "your role (" + auth::toString(*role) + ") may not do this here");
        }
    }
    if (!rule.value("allow_self_approval", true) && run.owner_id == caller.user_id) {
        return plugin::Error::forbidden("self_approval_forbidden",
                                        "this workflow needs someone other than the user who "
                                        "started the run");
    }
    return {};
}

nlohmann::json WorkflowService::allowedActions(const plugin::Principal& caller,
                                               const storage::WorkflowRun& run) const {
    auto workflow = p_.catalog.find(run.workflow);
    if (!workflow) return {{"review", false}, {"approve", false}};
    const auto& def = workflow->definition;
    return {{"review", checkRule(caller, run, def.at("review")).ok()},
            {"approve", checkRule(caller, run, def.at("approval")).ok()}};
}

plugin::Result<nlohmann::json> WorkflowService::checkDocuments(const plugin::Principal& caller,
                                                               const std::string& scope,
                                                               const nlohmann::json& ids,
                                                               const std::string& where) {
    nlohmann::json docs = nlohmann::json::array();
    for (const auto& id : idsOf(ids)) {
        auto found = common::isUuid(id) ? p_.documents.find(id)
                                        : plugin::Result<std::optional<storage::Document>>(
                                              std::optional<storage::Document>());
        if (!found) return found.error();
        if (!found->has_value() ||
            !p_.document_access.require(caller.user_id, **found, auth::WorkspaceAction::kRead)) {
            return plugin::Error{"document_not_found",
                                 "document " + id + " (" + where + ") was not found", 404};
        }
        const storage::Document& d = **found;
        if (d.workspace_id != scope) {
            return plugin::Error::conflict(
                "scope_mismatch", "document " + id + " (" + where + ") is not in the run's scope");
        }
        if (d.status != "chunked" && d.status != "embedding" && d.status != "embedded") {
            return plugin::Error::conflict("document_not_ready",
                                           "document " + id + " (" + where + ") is " + d.status +
                                               "; runs need documents that are at least chunked");
        }
        docs.push_back({{"document_id", d.id},
                        {"filename", d.filename},
                        {"pages", d.pages.value_or(0)},
                        {"role", where}});
    }
    return docs;
}

plugin::Result<nlohmann::json> WorkflowService::start(const plugin::Principal& caller,
                                                      const std::string& workspace_id,
                                                      const nlohmann::json& raw_body) {
    if (auto ok = requireScope(caller, "workflows:write"); !ok) return ok.error();
    nlohmann::json body = raw_body;
    if (auto issues = p_.schemas.validate("VerticalRunStartInput", body, {"body"});
        !issues.empty()) {
        return validationError(issues);
    }
    const std::string name = body["workflow"].get<std::string>();
    auto workflow = p_.catalog.find(name);
    if (!workflow) return plugin::Error{"workflow_not_found", "unknown workflow " + name, 404};
    const auto& def = workflow->definition;

    nlohmann::json inputs = body["inputs"];
    if (auto issues = p_.schemas.validate(workflow->inputs_schema, inputs, {"body", "inputs"});
        !issues.empty()) {
        return validationError(issues);
    }
    const auto& ids = body["document_ids"];
    const auto limits = def.value("documents", nlohmann::json::object());
    const int min_docs = limits.value("min", 1);
    const int max_docs = limits.value("max", 100);
    if (static_cast<int>(ids.size()) < min_docs || static_cast<int>(ids.size()) > max_docs) {
        return validationError({{{"body", "document_ids"},
                                 "this workflow takes " + std::to_string(min_docs) + " to " +
                                     std::to_string(max_docs) + " documents",
                                 "value_error"}});
    }

    std::string requested = workspace_id;
    if (body.contains("workspace_id") && body["workspace_id"].is_string()) {
        requested = body["workspace_id"].get<std::string>();
    }
    if (requested == "personal") requested.clear();
    auto scope =
        p_.document_access.scope(caller.user_id, requested, auth::WorkspaceAction::kRunWorkflows);
    if (!scope) return scope.error();

    auto primary = checkDocuments(caller, *scope, ids, "document_ids");
    if (!primary) return primary.error();
    for (const auto& input : def.value("document_inputs", nlohmann::json::array())) {
        const std::string key = input.get<std::string>();
        if (!inputs.contains(key)) continue;
        auto extra = checkDocuments(caller, *scope, inputs[key], key);
        if (!extra) return extra.error();
    }

    storage::WorkflowRun run;
    run.id = common::newUuid();
    run.workflow = name;
    run.vertical = workflow->vertical();
    run.owner_id = caller.user_id;
    run.workspace_id = *scope;
    run.status = toString(RunStatus::kRunning);
    run.document_ids = ids;
    run.inputs = inputs;
    run.steps = nlohmann::json::array();
    for (const auto& step : def.at("steps")) {
        run.steps.push_back({{"id", step.at("id")},
                             {"title", step.value("title", step.at("id").get<std::string>())},
                             {"status", "queued"}});
    }
    auto job = p_.runs.create(run, kRunJob);
    if (!job) return job.error();
    if (wake_) wake_();
    common::log(common::LogLevel::kInfo, "workflow_run_started",
                {{"run_id", run.id}, {"workflow", name}, {"job_id", *job}});
    auto stored = p_.runs.find(run.id);
    if (!stored) return stored.error();
    auto out = toJson(**stored);
    out["job_id"] = *job;
    return out;
}

plugin::Result<nlohmann::json> WorkflowService::list(
    const plugin::Principal& caller, const std::string& workspace_id, const std::string& vertical,
    const std::map<std::string, std::string>& query) {
    auto scope = readScope(caller, workspace_id);
    if (!scope) return scope.error();
    const auto get = [&](const char* k) {
        const auto it = query.find(k);
        return it == query.end() ? std::string() : it->second;
    };
    if (const auto status = get("status"); !status.empty() && !parseRunStatus(status)) {
        return plugin::Error{"validation_error",
                             nlohmann::json::array({{{"loc", {"query", "status"}},
                                                     {"msg",
                                                      "Input should be 'running', "
                                                      "'pending_review', 'changes_requested', "
                                                      "'approved' or 'failed'"},
                                                     {"type", "enum"}}})
                                 .dump(),
                             422};
    }
    int limit = 50;
    if (const auto l = get("limit"); !l.empty()) limit = std::clamp(std::atoi(l.c_str()), 1, 200);
    auto rows = p_.runs.list(caller.user_id, *scope, vertical, get("workflow"), get("status"),
                             limit, /*with_packet=*/false);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& r : *rows) items.push_back(toJson(r, false));
    return nlohmann::json{{"runs", items}, {"count", items.size()}, {"vertical", vertical}};
}

plugin::Result<std::string> WorkflowService::readScope(const plugin::Principal& caller,
                                                       const std::string& workspace_id) {
    if (auto ok = requireScope(caller, "workflows:read"); !ok) return ok.error();
    return p_.document_access.scope(caller.user_id, workspace_id == "personal" ? "" : workspace_id,
                                    auth::WorkspaceAction::kRead);
}

plugin::Result<std::map<std::string, long long>> WorkflowService::countRuns(
    const plugin::Principal& caller, const std::string& workspace_id) {
    auto scope = readScope(caller, workspace_id);
    if (!scope) return scope.error();
    return p_.runs.countByStatus(caller.user_id, *scope);
}

plugin::Result<nlohmann::json> WorkflowService::get(const plugin::Principal& caller,
                                                    const std::string& vertical,
                                                    const std::string& run_id) {
    if (auto ok = requireScope(caller, "workflows:read"); !ok) return ok.error();
    auto run = load(caller, vertical, run_id);
    if (!run) return run.error();
    return toJson(*run);
}

plugin::Result<nlohmann::json> WorkflowService::audit(const plugin::Principal& caller,
                                                      const std::string& vertical,
                                                      const std::string& run_id) {
    if (auto ok = requireScope(caller, "workflows:read"); !ok) return ok.error();
    auto run = load(caller, vertical, run_id);
    if (!run) return run.error();
    auto rows = p_.runs.changes(run_id);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& c : *rows) {
        items.push_back({{"path", c.path},
                         {"old_value", c.old_value},
                         {"new_value", c.new_value},
                         {"changed_by", nullable(c.changed_by)},
                         {"changed_at", c.changed_at},
                         {"revision", c.revision}});
    }
    return nlohmann::json{{"run_id", run_id}, {"changes", items}, {"count", items.size()}};
}

nlohmann::json WorkflowService::readiness(const Workflow& workflow,
                                          const storage::WorkflowRun& run) const {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& type : workflow.definition.at("packet_types")) {
        const auto allowed = type.at("allowed_statuses");
        nlohmann::json unresolved = nlohmann::json::array();
        if (type.contains("blocked_unless")) {
            unresolved = unresolvedItems(type["blocked_unless"], run.packet);
        }
        const bool status_ok =
            std::find(allowed.begin(), allowed.end(), run.status) != allowed.end();
        out[type.at("type").get<std::string>()] = {{"ready", status_ok && unresolved.empty()},
                                                   {"allowed_statuses", allowed},
                                                   {"unresolved", unresolved}};
    }
    return out;
}

nlohmann::json WorkflowService::toJson(const storage::WorkflowRun& run, bool with_packet) {
    int done = 0;
    std::string current;
    for (const auto& s : run.steps) {
        if (s.value("status", "") == "completed") {
            ++done;
        } else if (current.empty()) {
            current = s.value("id", "");
        }
    }
    const int total = static_cast<int>(run.steps.size());
    nlohmann::json out = {
        {"run_id", run.id},
        {"id", run.id},
        {"workflow", run.workflow},
        {"vertical", run.vertical},
        {"status", run.status},
        {"workspace_id", nullable(run.workspace_id)},
        {"owner_id", run.owner_id},
        {"document_ids", run.document_ids},
        {"inputs", run.inputs},
        {"steps", run.steps},
        {"current_step", run.status == "running" ? nullable(current) : nlohmann::json(nullptr)},
        {"progress_pct", total == 0 ? 100 : done * 100 / total},
        {"error", run.error_code.empty()
                      ? nlohmann::json(nullptr)
                      : nlohmann::json{{"code", run.error_code}, {"message", run.error_message}}},
        {"review_notes", run.review_notes},
        {"revision", run.revision},
        {"created_at", run.created_at},
        {"updated_at", run.updated_at},
        {"completed_at", nullable(run.completed_at)},
        {"approved_by", nullable(run.approved_by)},
        {"approved_at", nullable(run.approved_at)}};
    if (!with_packet) return out;
    out["review_packet"] = run.packet;
    if (auto workflow = p_.catalog.find(run.workflow)) {
        out["title"] = workflow->title();
        out["packet_readiness"] = readiness(*workflow, run);
    }
    nlohmann::json packets = nlohmann::json::array();
    if (auto rows = p_.runs.packets(run.id)) {
        for (const auto& pk : *rows) {
            packets.push_back({{"packet_id", pk.id},
                               {"packet_type", pk.packet_type},
                               {"document_id", nullable(pk.document_id)},
                               {"revision", pk.revision},
                               {"created_by", nullable(pk.created_by)},
                               {"created_at", pk.created_at}});
        }
    }
    out["packets"] = packets;
    return out;
}

plugin::Result<nlohmann::json> WorkflowService::schema(const std::string& name) {
    auto workflow = p_.catalog.find(name);
    if (!workflow) return plugin::Error{"workflow_not_found", "unknown workflow " + name, 404};
    const auto& d = workflow->definition;
    return nlohmann::json{{"workflow", name},
                          {"vertical", d.at("vertical")},
                          {"title", d.at("title")},
                          {"description", d.value("description", "")},
                          {"plugin", workflow->plugin},
                          {"documents", d.value("documents", nlohmann::json::object())},
                          {"document_inputs", d.value("document_inputs", nlohmann::json::array())},
                          {"inputs_schema", d.at("inputs")},
                          {"packet_schema", d.at("packet_schema")},
                          {"field_schema", p_.schemas.get("_WorkflowField")},
                          {"steps", d.at("steps")},
                          {"review", d.at("review")},
                          {"approval", d.at("approval")},
                          {"packet_types", d.at("packet_types")}};
}

plugin::Result<nlohmann::json> WorkflowService::validate(const std::string& name,
                                                         const nlohmann::json& body) {
    auto workflow = p_.catalog.find(name);
    if (!workflow) return plugin::Error{"workflow_not_found", "unknown workflow " + name, 404};
    // A start body ({document_ids, inputs}) or the bare inputs object.
    const bool is_start = body.contains("inputs") || body.contains("document_ids");
    nlohmann::json inputs = is_start ? body.value("inputs", nlohmann::json::object()) : body;
    std::vector<http::ValidationIssue> issues =
        p_.schemas.validate(workflow->inputs_schema, inputs,
                            is_start ? nlohmann::json{"body", "inputs"} : nlohmann::json{"body"});
    if (is_start) {
        const auto ids = body.value("document_ids", nlohmann::json::array());
        const auto limits = workflow->definition.value("documents", nlohmann::json::object());
        const int min_docs = limits.value("min", 1);
        const int max_docs = limits.value("max", 100);
        if (!ids.is_array() || static_cast<int>(ids.size()) < min_docs ||
            static_cast<int>(ids.size()) > max_docs) {
            issues.push_back({{"body", "document_ids"},
                              "this workflow takes " + std::to_string(min_docs) + " to " +
                                  std::to_string(max_docs) + " documents",
                              "value_error"});
        }
    }
    nlohmann::json errors = nlohmann::json::array();
    for (const auto& i : issues) errors.push_back(i.toJson());
    return nlohmann::json{{"workflow", name},
                          {"valid", errors.empty()},
                          {"errors", errors},
                          {"inputs", errors.empty() ? inputs : nlohmann::json(nullptr)}};
}

nlohmann::json WorkflowService::catalog() {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& w : p_.catalog.all()) {
        const auto& d = w->definition;
        nlohmann::json types = nlohmann::json::array();
        for (const auto& t : d.at("packet_types")) types.push_back(t.at("type"));
        items.push_back(
            {{"workflow", w->name()},
             {"vertical", w->vertical()},
             {"title", w->title()},
             {"description", d.value("description", "")},
             {"plugin", w->plugin},
             {"required_inputs", d.at("inputs").value("required", nlohmann::json::array())},
             {"inputs_schema", d.at("inputs")},
             {"documents", d.value("documents", nlohmann::json::object())},
             {"review", d.at("review")},
             {"approval", d.at("approval")},
             {"packet_types", types}});
    }
    return items;
}

void WorkflowService::failRun(const std::string& run_id, const std::string& code,
                              const std::string& message) {
    (void)p_.runs.transition(
        run_id, [&](const storage::WorkflowRun& current) -> plugin::Result<storage::RunTransition> {
            storage::RunTransition t;
            t.run = current;
            t.run.status = toString(RunStatus::kFailed);
            t.run.error_code = code;
            t.run.error_message = message;
            return t;
        });
    common::log(common::LogLevel::kWarning, "workflow_run_failed",
                {{"run_id", run_id}, {"code", code}});
}

}  // namespace docintel::engine

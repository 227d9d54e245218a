#pragma once

// The run routes every vertical plugin registers under /api/v1/verticals/<vertical>/, each a
// thin adapter over the host's WorkflowRuns (so REST, MCP and every plugin agree). Header-only;
// plugins link nothing but the SDK.

#include <algorithm>
#include <string>
#include <vector>

#include "plugin_api/plugin.h"

namespace docintel::plugins {

/// Turns an engine error into the REST response: `validation_error` becomes the 422 detail
/// shape, `packet_blocked` a 409 that lists what is unresolved.
inline plugin::Result<plugin::HttpResponse> engineResponse(const plugin::HttpRequest& request,
                                                           plugin::Result<nlohmann::json> out,
                                                           plugin::WorkflowRuns* runs = nullptr,
                                                           const std::string& vertical = {}) {
    if (out) return plugin::HttpResponse::json(std::move(out).value());
    const plugin::Error& e = out.error();
    if (e.code == "validation_error") {
        return plugin::HttpResponse::json(422, {{"detail", nlohmann::json::parse(e.message)}});
    }
    if (e.code == "packet_blocked" && runs != nullptr) {
        nlohmann::json unresolved = nlohmann::json::array();
        const std::string type = request.body.value("packet_type", "");
        if (auto run = runs->get(request.principal, vertical, request.pathParam("run_id"))) {
            unresolved = (*run)["packet_readiness"][type].value("unresolved", unresolved);
        }
        return plugin::HttpResponse::json(409, {{"detail", e.message},
                                                {"code", e.code},
                                                {"unresolved", unresolved},
                                                {"trace_id", request.trace_id}});
    }
    return e;
}

/// Registers list/start/get/review/approve/request-changes/packets/audit for `vertical`;
/// `workflows` are the workflow names a start request may name here.
inline void addVerticalRunRoutes(plugin::Registrar& registrar, plugin::HostServices& host,
                                 const std::string& vertical,
                                 const std::vector<std::string>& workflows) {
    const std::string base = "/api/v1/verticals/" + vertical + "/runs";
    plugin::HostServices* h = &host;
    auto add = [&](const char* method, const std::string& path, const std::string& op,
                   const std::string& summary, std::vector<std::string> scopes,
                   const std::string& schema, int status, plugin::HttpHandler handler,
                   std::vector<plugin::QueryParam> query = {}) {
        plugin::RouteDefinition r;
        r.method = method;
        r.path = path;
        r.operation_id = vertical + "_" + op;
        r.summary = summary;
        r.scopes = std::move(scopes);
        r.request_schema = schema;
        r.success_status = status;
        r.query_params = std::move(query);
        r.handler = std::move(handler);
        registrar.addRoute(std::move(r));
    };
    auto unavailable = [] {
        return plugin::Error::unavailable("engine_unavailable",
                                          "the workflow engine is not running");
    };

    add("GET", base, "list_runs", "List " + vertical + " workflow runs", {"workflows:read"}, "",
        200,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(
                r, h->workflowRuns()->list(r.principal, r.workspace_id, vertical, r.query));
        },
        {{"status", "string", false, std::nullopt, std::nullopt, "run status"},
         {"workflow", "string", false, std::nullopt, std::nullopt, "workflow name"},
         {"limit", "integer", false, 1, 200, "maximum number of runs"}});
    add("POST", base, "start_run", "Start a " + vertical + " workflow run", {"workflows:write"},
        "VerticalRunStartInput", 202,
        [h, workflows,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            const std::string name = r.body.value("workflow", "");
            if (std::find(workflows.begin(), workflows.end(), name) == workflows.end()) {
                return plugin::Error{"workflow_not_found",
                                     "unknown workflow " + name + " for this vertical", 404};
            }
            return engineResponse(r, h->workflowRuns()->start(r.principal, r.workspace_id, r.body));
        });
    add("GET", base + "/{run_id}", "get_run", "Get a " + vertical + " workflow run",
        {"workflows:read"}, "", 200,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(
                r, h->workflowRuns()->get(r.principal, vertical, r.pathParam("run_id")));
        });
    add("PUT", base + "/{run_id}/review", "save_review",
        "Save the reviewed packet of a " + vertical + " run (every field change is audited)",
        {"reviews:write"}, "VerticalReviewInput", 200,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(r, h->workflowRuns()->saveReview(r.principal, vertical,
                                                                   r.pathParam("run_id"), r.body));
        });
    add("POST", base + "/{run_id}/approve", "approve_run", "Approve a " + vertical + " run",
        {"reviews:approve"}, "VerticalApprovalInput", 200,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(r, h->workflowRuns()->approve(r.principal, vertical,
                                                                r.pathParam("run_id"), r.body));
        });
    add("POST", base + "/{run_id}/request-changes", "request_changes",
        "Send a " + vertical + " run back for changes", {"reviews:approve"}, "VerticalChangesInput",
        200,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(r, h->workflowRuns()->requestChanges(
                                         r.principal, vertical, r.pathParam("run_id"), r.body));
        });
    add("POST", base + "/{run_id}/packets", "generate_packet",
        "Render a packet of a " + vertical + " run as a new PDF document", {"packets:write"},
        "VerticalPacketInput", 201,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(r,
                                  h->workflowRuns()->generatePacket(r.principal, vertical,
                                                                    r.pathParam("run_id"), r.body),
                                  h->workflowRuns(), vertical);
        });
    add("GET", base + "/{run_id}/audit", "run_audit",
        "The audited field changes of a " + vertical + " run", {"workflows:read"}, "", 200,
        [h, vertical,
         unavailable](const plugin::HttpRequest& r) -> plugin::Result<plugin::HttpResponse> {
            if (!h->workflowRuns()) return unavailable();
            return engineResponse(
                r, h->workflowRuns()->audit(r.principal, vertical, r.pathParam("run_id")));
        });
}

}  // namespace docintel::plugins

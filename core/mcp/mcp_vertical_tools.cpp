#include "mcp/mcp_vertical_tools.h"

#include <map>
#include <string>

#include "mcp/mcp_tool_kit.h"
#include "mcp/mcp_tools.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;
using plugin::Result;
using plugin::ToolCall;

const Scopes kWorkflowsRead{"workflows:read"};
const Scopes kWorkflowsWrite{"workflows:write"};

json verticalProperty() {
    return {{"type", "string"},
            {"enum", {"healthcare", "finance", "talent", "lease"}},
            {"description", "The run's vertical (healthcare, finance, talent or lease)."}};
}

json runIdProperty() {
    return {{"type", "string"},
            {"minLength", 1},
            {"description", "`run_id` returned by start_vertical_workflow."}};
}

json notesProperty() {
    return {{"type", "string"}, {"maxLength", 5000}, {"description", "Reviewer notes."}};
}

json packetProperty() {
    return {{"type", "object"},
            {"description",
             "The review packet as get_vertical_run returns it (`review_packet`), with the "
             "reviewer's edits. Every changed field is audited."}};
}

/// `arguments` without the keys the transport adds (vertical, run_id), as a REST body.
json bodyOf(const json& args, std::initializer_list<const char*> keep) {
    json body = json::object();
    for (const char* k : keep) {
        if (args.contains(k)) body[k] = args.at(k);
    }
    return body;
}

}  // namespace

std::vector<Tool> verticalTools(engine::WorkflowService& wf) {
    std::vector<Tool> tools;

    tools.push_back(
        {.name = "list_vertical_workflows",
         .title = "List vertical workflows",
         .description =
             "The workflows this server runs (healthcare_prior_auth, healthcare_clinical, "
             "finance_tax_readiness, talent_readiness, employee_mobility, lease_intelligence) "
             "with their vertical, required inputs and input schema, how many documents each "
             "takes, who may review and approve, and the packet types it can generate. This "
             "catalog is authoritative: read it before start_vertical_workflow.",
         .input_schema = objectSchema(json::object()),
         .output_schema = output({{"type", "object"},
                                  {"properties", {{"catalog", {{"type", "array"}}}}},
                                  {"required", {"catalog"}}}),
         .scopes = kWorkflowsRead,
         .read_only = true,
         .handler = call([&wf](const ToolCall&) -> Result<json> {
             return json{{"catalog", wf.catalog()}};
         })});

    tools.push_back(
        {.name = "start_vertical_workflow",
         .title = "Start a vertical workflow",
         .description =
             "Start a workflow run over documents that are at least chunked. `inputs` must match "
             "the workflow's input schema from list_vertical_workflows (e.g. prior "
             "authorization needs `policy_document_ids`). Returns `run_id`; poll "
             "get_vertical_run until `status` is pending_review, then review the "
             "`review_packet`.",
         .input_schema = objectSchema(
             {{"workflow",
               {{"type", "string"},
                {"minLength", 1},
                {"description", "Workflow name from list_vertical_workflows."}}},
              {"workspace_id", workspaceProperty()},
              {"document_ids",
               {{"type", "array"},
                {"items", {{"type", "string"}}},
                {"minItems", 1},
                {"description", "The documents the run reads."}}},
              {"inputs",
               {{"type", "object"},
                {"description", "Workflow inputs (see the workflow's inputs_schema)."}}}},
             {"workflow", "document_ids"}),
         .output_schema = output({{"type", "object"},
                                  {"properties",
                                   {{"run_id", {{"type", "string"}}},
                                    {"status", {{"type", "string"}}},
                                    {"vertical", {{"type", "string"}}}}},
                                  {"required", {"run_id", "status"}}}),
         .scopes = kWorkflowsWrite,
         .handler = call([&wf](const ToolCall& c) -> Result<json> {
             json body = bodyOf(c.arguments, {"workflow", "document_ids", "inputs"});
             if (!body.contains("inputs")) body["inputs"] = json::object();
             const std::string ws = workspaceArg(c.arguments);
             if (!ws.empty()) body["workspace_id"] = ws;
             return wf.start(c.principal, ws, body);
         })});

    tools.push_back(
        {.name = "list_vertical_runs",
         .title = "List vertical workflow runs",
         .description = "Runs of one vertical the caller can see in a workspace (or personal "
                        "scope), newest first, without their packets; filter by `status` "
                        "(queued, running, pending_review, changes_requested, approved, "
                        "failed, ...) or `workflow`.",
         .input_schema =
             objectSchema({{"vertical", verticalProperty()},
                           {"workspace_id", workspaceProperty()},
                           {"status", {{"type", "string"}}},
                           {"workflow", {{"type", "string"}}},
                           {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 200}}}},
                          {"vertical"}),
         .output_schema = output(anyObject()),
         .scopes = kWorkflowsRead,
         .read_only = true,
         .handler = call([&wf](const ToolCall& c) -> Result<json> {
             std::map<std::string, std::string> query;
             for (const char* k : {"status", "workflow"}) {
                 if (const auto v = stringArg(c.arguments, k); !v.empty()) query[k] = v;
             }
             if (c.arguments.contains("limit")) {
                 query["limit"] = std::to_string(c.arguments["limit"].get<int>());
             }
             return wf.list(c.principal, workspaceArg(c.arguments),
                            stringArg(c.arguments, "vertical"), query);
         })});

    tools.push_back(
        {.name = "get_vertical_run",
         .title = "Get a vertical workflow run",
         .description =
             "A run's status, progress and, once it reached pending_review, its "
             "`review_packet`: every extracted field as {value, source: {document_id, page, "
             "chunk_id, excerpt}, confidence}, plus `packet_readiness` per packet type (what is "
             "unresolved) and the packets generated so far.",
         .input_schema =
             objectSchema({{"vertical", verticalProperty()}, {"run_id", runIdProperty()}},
                          {"vertical", "run_id"}),
         .output_schema = output({{"type", "object"},
                                  {"properties",
                                   {{"run_id", {{"type", "string"}}},
                                    {"status", {{"type", "string"}}},
                                    {"review_packet", {{"type", {"object", "null"}}}}}},
                                  {"required", {"run_id", "status"}}}),
         .scopes = kWorkflowsRead,
         .read_only = true,
         .handler = call([&wf](const ToolCall& c) -> Result<json> {
             return wf.get(c.principal, stringArg(c.arguments, "vertical"),
                           stringArg(c.arguments, "run_id"));
         })});

    tools.push_back(
        {.name = "save_vertical_review",
         .title = "Save a run's review",
         .description =
             "Save the reviewer's edited `packet` (validated against the workflow's packet "
             "schema; each field change is audited with who, when, old and new value) and "
             "`notes`. The run stays pending_review until approve_vertical_run.",
         .input_schema = objectSchema({{"vertical", verticalProperty()},
                                       {"run_id", runIdProperty()},
                                       {"packet", packetProperty()},
                                       {"notes", notesProperty()}},
                                      {"vertical", "run_id", "packet"}),
         .output_schema = output(anyObject()),
         .scopes = {"reviews:write"},
         .handler = call([&wf](const ToolCall& c) -> Result<json> {
             return wf.saveReview(c.principal, stringArg(c.arguments, "vertical"),
                                  stringArg(c.arguments, "run_id"),
                                  bodyOf(c.arguments, {"packet", "notes"}));
         })});

    tools.push_back(
        {.name = "approve_vertical_run",
         .title = "Approve a run",
         .description =
             "Approve a run in pending_review (optionally saving a last edited `packet` first). "
             "Approving signs off the packet for the organisation: ask the user, then call with "
             "`confirm: true`; without it nothing changes and the result is "
             "`confirmation_required`. Needs the workflow's approval role.",
         .input_schema = objectSchema(
             {{"vertical", verticalProperty()},
              {"run_id", runIdProperty()},
              {"packet", packetProperty()},
              {"notes", notesProperty()},
              {"confirm",
               {{"type", "boolean"}, {"description", "Must be true; the user has agreed."}}}},
             {"vertical", "run_id"}),
         .output_schema = output(anyObject()),
         .scopes = {"reviews:approve"},
         .requires_confirm = true,
         .handler = call([&wf](const ToolCall& c) -> Result<json> {
             return wf.approve(c.principal, stringArg(c.arguments, "vertical"),
                               stringArg(c.arguments, "run_id"),
                               bodyOf(c.arguments, {"packet", "notes", "confirm"}));
         })});

    tools.push_back(
        {.name = "generate_vertical_packet",
         .title = "Generate a packet PDF",
         .description =
             "Render a packet type of the run (from its `packet_readiness`, e.g. prior_auth, "
             "missing_information, advisor, candidate, mobility, lease_abstract, "
             "after_visit_summary) to PDF. The PDF becomes a document of the run's workspace: "
             "the result's `document.doc_id`. Refused with `packet_blocked` while the workflow "
             "says something is unresolved.",
         .input_schema = objectSchema({{"vertical", verticalProperty()},
                                       {"run_id", runIdProperty()},
                                       {"packet_type", {{"type", "string"}, {"minLength", 1}}}},
                                      {"vertical", "run_id", "packet_type"}),
         .output_schema = output({{"type", "object"},
                                  {"properties",
                                   {{"document",
                                     {{"type", "object"},
                                      {"properties", {{"doc_id", {{"type", "string"}}}}},
                                      {"required", {"doc_id"}}}}}},
                                  {"required", {"document"}}}),
         .scopes = {"packets:write"},
         .handler = call([&wf](const ToolCall& c) -> Result<json> {
             return wf.generatePacket(c.principal, stringArg(c.arguments, "vertical"),
                                      stringArg(c.arguments, "run_id"),
                                      bodyOf(c.arguments, {"packet_type"}));
         })});

    return tools;
}

std::vector<Resource> verticalResources(engine::WorkflowService& wf) {
    std::vector<Resource> resources;
    resources.push_back(
        {.uri_template = "docintel://workflows/catalog",
         .name = "workflow_catalog",
         .title = "Workflow catalog",
         .description = "Every workflow with its inputs, review and approval rules and packet "
                        "types (as list_vertical_workflows).",
         .scopes = kWorkflowsRead,
         .reader = [&wf](const std::string&, const std::map<std::string, std::string>&,
                         const plugin::Principal&) -> Result<json> {
             return json{{"catalog", wf.catalog()}};
         }});
    resources.push_back(
        {.uri_template = "docintel://workflows/{vertical}/runs/{run_id}",
         .name = "workflow_run",
         .title = "Workflow run",
         .description = "A run with its review packet (as get_vertical_run).",
         .scopes = kWorkflowsRead,
         .reader = [&wf](const std::string&, const std::map<std::string, std::string>& v,
                         const plugin::Principal& caller) {
             return wf.get(caller, v.at("vertical"), v.at("run_id"));
         }});
    return resources;
}

}  // namespace docintel::mcp

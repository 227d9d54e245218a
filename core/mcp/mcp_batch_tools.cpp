// The batch tools (spec §4.2: create_batch_upload … cancel_batch_job, start_workspace_summary)
// and the batch resources: thin adapters over services::BatchService, the service the REST
// /batches operations call.

#include "mcp/mcp_tool_kit.h"
#include "mcp/mcp_tools.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;
using plugin::Result;
using plugin::ToolCall;

const Scopes kBatchesRead{"batches:read"};
const Scopes kBatchesWrite{"batches:write"};

json batchIdProperty() {
    return {{"type", "string"},
            {"minLength", 1},
            {"description", "`batch_job_id` returned when the batch job was started."}};
}

json concurrencyProperty(int max, int fallback) {
    return {{"type", "integer"},
            {"minimum", 1},
            {"maximum", max},
            {"default", fallback},
            {"description", "How many documents are worked at the same time."}};
}

json documentIdsProperty(int min_items) {
    json p{{"type", "array"}, {"items", {{"type", "string"}, {"minLength", 1}}}};
    if (min_items > 0) p["minItems"] = min_items;
    return p;
}

json batchOutput() {
    return output({{"batch_job_id", {{"type", "string"}}},
                   {"status", {{"type", "string"}}},
                   {"counts", {{"type", "object"}}}},
                  {"batch_job_id", "status"});
}

/// The arguments as a REST body: `workspace_id` normalised (personal → absent).
json body(const ToolCall& c) {
    json b = c.arguments;
    b.erase("workspace_id");
    if (const std::string ws = workspaceArg(c.arguments); !ws.empty()) b["workspace_id"] = ws;
    return b;
}

}  // namespace

std::vector<Tool> batchTools(const McpServices& s) {
    std::vector<Tool> tools;
    if (!s.batches) return tools;
    auto& batches = *s.batches;

    tools.push_back(
        {.name = "create_batch_upload",
         .title = "Start a batch upload",
         .description =
             "Step 1 of uploading several files: one upload session per file. Returns "
             "`batch_job_id` and `files[]` with each `document_id`, a signed `upload_url`, "
             "`upload_method` (PUT) and `upload_headers`. PUT each file's bytes to its "
             "`upload_url`, then call complete_batch_upload. `idempotency_key` makes a retried "
             "call return the same batch job.",
         .input_schema = objectSchema(
             {{"workspace_id", workspaceProperty()},
              {"redact_pii",
               {{"type", "boolean"},
                {"default", false},
                {"description", "Replace personal data by placeholders before indexing."}}},
              {"files",
               {{"type", "array"},
                {"minItems", 1},
                {"items", objectSchema({{"filename", {{"type", "string"}, {"minLength", 1}}},
                                        {"content_type", {{"type", "string"}}},
                                        {"file_size", {{"type", "integer"}, {"minimum", 1}}}},
                                       {"filename", "file_size"})}}},
              {"idempotency_key", {{"type", {"string", "null"}}, {"maxLength", 200}}}},
             {"files"}),
         .output_schema =
             output({{"batch_job_id", {{"type", "string"}}}, {"files", {{"type", "array"}}}},
                    {"batch_job_id", "files"}),
         .scopes = kBatchesWrite,
         .handler = call([&batches](const ToolCall& c) {
             return batches.createUpload(c.principal, {}, body(c));
         })});

    tools.push_back(
        {.name = "complete_batch_upload",
         .title = "Finish a batch upload",
         .description =
             "Step 3 of a batch upload, after the PUTs: the server checks each stored file and "
             "ingests it (`concurrency` at a time). `document_ids` limits it to those files "
             "(empty = all). Poll get_batch_status; items end `succeeded` (embedded) or `failed` "
             "with a machine `error_code`.",
         .input_schema = objectSchema({{"batch_job_id", batchIdProperty()},
                                       {"document_ids", documentIdsProperty(0)},
                                       {"concurrency", concurrencyProperty(10, 3)}},
                                      {"batch_job_id"}),
         .output_schema = batchOutput(),
         .scopes = kBatchesWrite,
         .handler = call([&batches](const ToolCall& c) {
             return batches.completeUpload(c.principal, stringArg(c.arguments, "batch_job_id"),
                                           c.arguments);
         })});

    for (const std::string kind : {"classification", "embedding"}) {
        const bool classify = kind == "classification";
        tools.push_back(
            {.name = "start_batch_" + kind,
             .title = classify ? "Classify documents" : "Embed documents",
             .description =
                 classify ? "Classify chunked documents (doc_type and confidence) in the "
                            "background. Documents already classified are skipped unless "
                            "`force`. Returns `batch_job_id`; poll get_batch_status."
                          : "(Re-)embed chunked documents in the background. Documents already "
                            "embedded are skipped unless `force`. Returns `batch_job_id`; poll "
                            "get_batch_status.",
             .input_schema = objectSchema(
                 {{"workspace_id", workspaceProperty()},
                  {"document_ids", documentIdsProperty(1)},
                  {"concurrency", concurrencyProperty(10, 3)},
                  {"force", {{"type", "boolean"}, {"default", false}}},
                  {"idempotency_key", {{"type", {"string", "null"}}, {"maxLength", 200}}}},
                 {"document_ids"}),
             .output_schema = batchOutput(),
             .scopes = kBatchesWrite,
             .handler = call([&batches, kind](const ToolCall& c) {
                 return batches.startDocuments(c.principal, {}, kind, body(c));
             })});
    }

    tools.push_back(
        {.name = "start_workspace_summary",
         .title = "Summarise a workspace",
         .description =
             "Summarise a workspace's documents (`document_ids`, or all its chunked documents "
             "when empty; at most 20) in the background: one summary across them plus each "
             "document's, every sentence citing [n] into `sources`. Returns `batch_job_id`; the "
             "summary is `result` of get_batch_status once `completed`.",
         .input_schema = objectSchema(
             {{"workspace_id", workspaceProperty()},
              {"document_ids", documentIdsProperty(0)},
              {"summary_type",
               {{"type", "string"},
                {"enum", {"executive", "detailed", "bullets", "sections", "custom"}},
                {"default", "executive"}}},
              {"custom_prompt", {{"type", "string"}, {"default", ""}}},
              {"redact_pii", {{"type", "boolean"}, {"default", false}}},
              {"language", {{"type", "string"}, {"default", "en"}}},
              {"concurrency", concurrencyProperty(6, 2)},
              {"idempotency_key", {{"type", {"string", "null"}}, {"maxLength", 200}}}}),
         .output_schema = batchOutput(),
         .scopes = kBatchesWrite,
         .handler = call([&batches](const ToolCall& c) {
             json b = body(c);
             if (!b.contains("workspace_id")) b["workspace_id"] = "personal";
             return batches.startWorkspaceSummary(c.principal, b);
         })});

    tools.push_back(
        {.name = "get_batch_status",
         .title = "Batch job status",
         .description = "A batch job's status (awaiting_upload, queued, running, "
                        "cancelling, completed, completed_with_errors, failed, "
                        "cancelled), item counts per status, progress and, for a "
                        "workspace summary, `result`.",
         .input_schema = objectSchema({{"batch_job_id", batchIdProperty()}}, {"batch_job_id"}),
         .output_schema = batchOutput(),
         .scopes = kBatchesRead,
         .read_only = true,
         .handler = call([&batches](const ToolCall& c) {
             return batches.get(c.principal, stringArg(c.arguments, "batch_job_id"));
         })});

    tools.push_back(
        {.name = "get_batch_results",
         .title = "Batch item results",
         .description = "Each item of a batch job: document_id, status (awaiting_upload, "
                        "queued, running, succeeded, skipped, failed, cancelled), error_code, "
                        "error_message, attempts and result.",
         .input_schema = objectSchema({{"batch_job_id", batchIdProperty()}}, {"batch_job_id"}),
         .output_schema = output({{"batch_job_id", {{"type", "string"}}},
                                  {"status", {{"type", "string"}}},
                                  {"items", {{"type", "array"}}}},
                                 {"batch_job_id", "status", "items"}),
         .scopes = kBatchesRead,
         .read_only = true,
         .handler = call([&batches](const ToolCall& c) {
             return batches.results(c.principal, stringArg(c.arguments, "batch_job_id"));
         })});

    tools.push_back(
        {.name = "retry_batch_failures",
         .title = "Retry failed items",
         .description = "Run the items of a batch job that ended `failed` again.",
         .input_schema = objectSchema({{"batch_job_id", batchIdProperty()}}, {"batch_job_id"}),
         .output_schema = batchOutput(),
         .scopes = kBatchesWrite,
         .handler = call([&batches](const ToolCall& c) {
             return batches.retry(c.principal, stringArg(c.arguments, "batch_job_id"));
         })});

    tools.push_back(
        {.name = "cancel_batch_job",
         .title = "Cancel a batch job",
         .description =
             "Cancel a batch job: items not started are cancelled, running ones finish. Ask the "
             "user first, then call with `confirm: true`; without it nothing is cancelled and "
             "the result is `confirmation_required`.",
         .input_schema =
             objectSchema({{"batch_job_id", batchIdProperty()},
                           {"confirm",
                            {{"type", "boolean"},
                             {"description", "Must be true to cancel; the user has agreed."}}}},
                          {"batch_job_id"}),
         .output_schema = batchOutput(),
         .scopes = kBatchesWrite,
         .requires_confirm = true,
         .destructive = true,
         .handler = call([&batches](const ToolCall& c) {
             return batches.cancel(c.principal, stringArg(c.arguments, "batch_job_id"));
         })});
    return tools;
}

std::vector<Resource> batchResources(const McpServices& s) {
    std::vector<Resource> resources;
    if (!s.batches) return resources;
    auto& batches = *s.batches;
    resources.push_back(
        {.uri_template = "docintel://batches/{batch_job_id}",
         .name = "batch_job",
         .title = "Batch job",
         .description = "A batch job's status and counts (as get_batch_status returns it).",
         .scopes = kBatchesRead,
         .reader = [&batches](const std::string&, const std::map<std::string, std::string>& v,
                              const plugin::Principal& caller) {
             return batches.get(caller, v.at("batch_job_id"));
         }});
    resources.push_back(
        {.uri_template = "docintel://batches/{batch_job_id}/results",
         .name = "batch_job_results",
         .title = "Batch item results",
         .description = "A batch job's items (as get_batch_results returns them).",
         .scopes = kBatchesRead,
         .reader = [&batches](const std::string&, const std::map<std::string, std::string>& v,
                              const plugin::Principal& caller) {
             return batches.results(caller, v.at("batch_job_id"));
         }});
    return resources;
}

}  // namespace docintel::mcp

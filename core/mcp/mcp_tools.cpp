#include "mcp/mcp_tools.h"

#include <utility>

#include "mcp/mcp_tool_kit.h"
#include "services/ingestion_service.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;
using plugin::Result;
using plugin::ToolCall;

const Scopes kWorkspacesRead{"workspaces:read"};
const Scopes kDocumentsRead{"documents:read"};
const Scopes kDocumentsWrite{"documents:write"};

json documentOutput() {
    return output({{"type", "object"},
                   {"properties",
                    {{"document_id", {{"type", "string"}}},
                     {"status", {{"type", "string"}}},
                     {"filename", {{"type", "string"}}}}},
                   {"required", {"document_id", "status"}}});
}

}  // namespace

std::vector<Tool> builtinTools(const McpServices& s) {
    auto& ws = s.workspaces;
    auto& docs = s.documents;
    auto& uploads = s.uploads;

    std::vector<Tool> tools;

    tools.push_back(
        {.name = "list_workspaces",
         .title = "List workspaces",
         .description =
             "List the team workspaces the caller belongs to, with the caller's role in each. Use "
             "a workspace's id as `workspace_id` in other tools; omit it for personal documents.",
         .input_schema = objectSchema(json::object()),
         .output_schema = output(anyObject()),
         .scopes = kWorkspacesRead,
         .read_only = true,
         .handler = call([&ws](const ToolCall& c) { return ws.list(c.principal); })});

    tools.push_back(
        {.name = "list_documents",
         .title = "List documents",
         .description =
             "List documents with their status (uploading, chunking, chunked, embedding, "
             "embedded, error): the caller's personal documents, or a team workspace's when "
             "`workspace_id` is given.",
         .input_schema = objectSchema({{"workspace_id", workspaceProperty()}}),
         .output_schema = output(anyObject()),
         .scopes = kDocumentsRead,
         .read_only = true,
         .handler = call([&docs](const ToolCall& c) {
             return docs.list(c.principal, workspaceArg(c.arguments));
         })});

    tools.push_back(
        {.name = "get_document",
         .title = "Get a document",
         .description = "Read one document's metadata: filename, type, status, pages, size, "
                        "workspace, version and timestamps.",
         .input_schema = objectSchema({{"document_id", documentIdProperty()}}, {"document_id"}),
         .output_schema = documentOutput(),
         .scopes = kDocumentsRead,
         .read_only = true,
         .handler = call([&docs](const ToolCall& c) {
             return docs.get(c.principal, stringArg(c.arguments, "document_id"));
         })});

    tools.push_back(
        {.name = "create_document_upload",
         .title = "Start a document upload",
         .description =
             "Step 1 of uploading a document. Returns `doc_id`, a short-lived signed "
             "`upload_url` and `storage_source_path`. Then PUT the file's bytes to `upload_url` "
             "with the same Content-Type and exact size (bytes never go through MCP), and call "
             "complete_document_upload. Accepted: PDF, DOCX, PPTX, XLSX, ODT, HTML, EML, TXT, MD, "
             "CSV, RTF.",
         .input_schema = restSchema(
             s.schemas, "DirectUploadSessionRequest",
             {{"filename", "File name, with its extension."},
              {"content_type", "MIME type the PUT will send (e.g. application/pdf)."},
              {"workspace_id", workspaceProperty()["description"]},
              {"redact_pii", "Redact personal data in answers drawn from this document."}}),
         .output_schema = output({{"type", "object"},
                                  {"properties",
                                   {{"doc_id", {{"type", "string"}}},
                                    {"upload_url", {{"type", "string"}}},
                                    {"storage_source_path", {{"type", "string"}}}}},
                                  {"required", {"doc_id", "upload_url", "storage_source_path"}}}),
         .scopes = kDocumentsWrite,
         .handler = call([&uploads](const ToolCall& c) {
             return uploads.create(c.principal, {}, c.arguments);
         })});

    tools.push_back(
        {.name = "complete_document_upload",
         .title = "Finish a document upload",
         .description =
             "Step 3 of uploading: after the PUT to `upload_url` succeeded, pass back `doc_id`, "
             "`storage_source_path`, filename, content_type and file_size from "
             "create_document_upload. The server checks the stored bytes and starts ingestion; "
             "poll get_ingestion_status until `done`.",
         .input_schema = restSchema(
             s.schemas, "DirectUploadCompleteRequest",
             {{"doc_id", "`doc_id` returned by create_document_upload."},
              {"storage_source_path", "`storage_source_path` returned by create_document_upload."},
              {"workspace_id", workspaceProperty()["description"]}}),
         .output_schema = output(anyObject()),
         .scopes = kDocumentsWrite,
         .handler = call([&uploads](const ToolCall& c) -> Result<json> {
             if (stringArg(c.arguments, "storage_source_path").empty() &&
                 stringArg(c.arguments, "gcs_source_path").empty()) {
                 return plugin::Error{kInvalidArguments, "storage_source_path is required", 422};
             }
             return uploads.complete(c.principal, {}, c.arguments);
         })});

    tools.push_back(
        {.name = "get_ingestion_status",
         .title = "Ingestion status",
         .description = "Where ingestion of an uploaded document stands. `done` is true once it "
                        "is embedded or failed (`error_code`, `error_message`); "
                        "`chunks_available` says get_document_chunks has content.",
         .input_schema = objectSchema({{"document_id", documentIdProperty()}}, {"document_id"}),
         .output_schema = output({{"type", "object"},
                                  {"properties",
                                   {{"document_id", {{"type", "string"}}},
                                    {"status", {{"type", "string"}}},
                                    {"done", {{"type", "boolean"}}}}},
                                  {"required", {"document_id", "status", "done"}}}),
         .scopes = kDocumentsRead,
         .read_only = true,
         .handler = call([&docs](const ToolCall& c) {
             return docs.ingestionStatus(c.principal, stringArg(c.arguments, "document_id"));
         })});

    tools.push_back(
        {.name = "get_document_chunks",
         .title = "Get document chunks",
         .description = "The document's text chunks in order, each with its page(s), section "
                        "path and character span, for quoting and citing.",
         .input_schema = objectSchema({{"document_id", documentIdProperty()}}, {"document_id"}),
         .output_schema = output(anyObject()),
         .scopes = kDocumentsRead,
         .read_only = true,
         .handler = call([&docs](const ToolCall& c) {
             return docs.chunks(c.principal, stringArg(c.arguments, "document_id"));
         })});

    tools.push_back(
        {.name = "embed_document",
         .title = "Embed a document",
         .description = "Queue (re-)embedding of a chunked document with the server's encoder; "
                        "poll get_ingestion_status until `status` is embedded.",
         .input_schema = objectSchema({{"document_id", documentIdProperty()}}, {"document_id"}),
         .output_schema = output(anyObject()),
         .scopes = kDocumentsWrite,
         .handler = call([&docs](const ToolCall& c) {
             return docs.reembed(c.principal, stringArg(c.arguments, "document_id"),
                                 services::IngestionService::kEmbedJob);
         })});

    tools.push_back(
        {.name = "delete_document",
         .title = "Delete a document",
         .description =
             "Permanently delete a document with its chunks, vectors and stored file. Destructive: "
             "ask the user first, then call with `confirm: true`; without it nothing is deleted "
             "and the result is `confirmation_required`.",
         .input_schema =
             objectSchema({{"document_id", documentIdProperty()},
                           {"confirm",
                            {{"type", "boolean"},
                             {"description", "Must be true to delete; the user has agreed."}}}},
                          {"document_id"}),
         .output_schema = output(anyObject()),
         .scopes = kDocumentsWrite,
         .requires_confirm = true,
         .destructive = true,
         .handler = call([&docs](const ToolCall& c) {
             return docs.remove(c.principal, stringArg(c.arguments, "document_id"));
         })});

    for (auto& t : summaryTools(s)) tools.push_back(std::move(t));
    for (auto& t : knowledgeTools(s)) tools.push_back(std::move(t));
    for (auto& t : batchTools(s)) tools.push_back(std::move(t));
    return tools;
}

std::vector<Resource> builtinResources(const McpServices& s) {
    auto& docs = s.documents;
    std::vector<Resource> resources;
    resources.push_back(
        {.uri_template = "docintel://documents/{document_id}",
         .name = "document",
         .title = "Document metadata",
         .description = "A document's metadata and status (as get_document returns it).",
         .scopes = kDocumentsRead,
         .reader = [&docs](const std::string&, const std::map<std::string, std::string>& v,
                           const plugin::Principal& caller) {
             return docs.get(caller, v.at("document_id"));
         }});
    resources.push_back(
        {.uri_template = "docintel://documents/{document_id}/chunks",
         .name = "document_chunks",
         .title = "Document chunks",
         .description = "A document's text chunks with pages and spans (as get_document_chunks).",
         .scopes = kDocumentsRead,
         .reader = [&docs](const std::string&, const std::map<std::string, std::string>& v,
                           const plugin::Principal& caller) {
             return docs.chunks(caller, v.at("document_id"));
         }});
    for (auto& r : knowledgeResources(s)) resources.push_back(std::move(r));
    for (auto& r : batchResources(s)) resources.push_back(std::move(r));
    return resources;
}

}  // namespace docintel::mcp

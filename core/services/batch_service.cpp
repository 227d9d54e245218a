#include "services/batch_service.h"

#include <algorithm>
#include <future>
#include <set>

#include "common/id.h"
#include "common/log.h"

namespace docintel::services {
namespace {

using nlohmann::json;
using storage::BatchItem;
using storage::BatchJob;
using storage::ItemOutcome;

const std::vector<std::string> kFinal{"completed", "completed_with_errors", "failed"};

plugin::Error batchNotFound() { return {"batch_not_found", "batch job not found", 404}; }

std::string workspaceOf(const json& body, const std::string& header_workspace) {
    const auto it = body.find("workspace_id");
    if (it != body.end() && it->is_string() && !it->get<std::string>().empty()) {
        return it->get<std::string>() == "personal" ? std::string() : it->get<std::string>();
    }
    return header_workspace;
}

std::string keyOf(const json& body) {
    const auto it = body.find("idempotency_key");
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The batch the caller already started with this body's idempotency_key (none without a key);
/// 409 `idempotency_key_reused` when the key named a batch of another kind.
plugin::Result<std::optional<BatchJob>> earlierJob(storage::BatchRepository& batches,
                                                   const plugin::Principal& caller,
                                                   const json& body, const std::string& kind) {
    const std::string key = keyOf(body);
    if (key.empty()) return std::optional<BatchJob>();
    auto existing = batches.findByKey(caller.user_id, key);
    if (existing && existing->has_value() && (*existing)->kind != kind) {
        return plugin::Error::conflict("idempotency_key_reused",
                                       "this idempotency_key names another batch job");
    }
    return existing;
}

json nullable(const std::string& s) { return s.empty() ? json() : json(s); }

/// A 422 in the shape of the request validator's, with one detail item.
plugin::Error validationError(const json& loc, const std::string& msg) {
    return {"validation_error",
            json::array({{{"loc", loc}, {"msg", msg}, {"type", "value_error"}}}).dump(), 422};
}

/// A new batch job of `kind` in the caller's `workspace_id` ("" personal), with the body's
/// idempotency_key.
BatchJob newBatch(const plugin::Principal& caller, const std::string& workspace_id,
                  const std::string& kind, const std::string& status, const json& body) {
    BatchJob b;
    b.id = common::newUuid();
    b.kind = kind;
    b.owner_id = caller.user_id;
    b.workspace_id = workspace_id;
    b.status = status;
    b.idempotency_key = keyOf(body);
    return b;
}

/// The distinct documents `ids` names, in order; each must be in `workspace_id` and allow the
/// caller `action` — else document_not_found (404) or the access error.
plugin::Result<std::vector<storage::Document>> namedDocuments(const BatchService::Parts& p,
                                                              const plugin::Principal& caller,
                                                              const json& ids,
                                                              const std::string& workspace_id,
                                                              auth::WorkspaceAction action) {
    std::vector<storage::Document> docs;
    std::set<std::string> seen;
    for (const auto& v : ids) {
        const std::string doc_id = v.get<std::string>();
        if (!seen.insert(doc_id).second) continue;
        plugin::Error not_found{"document_not_found", "document " + doc_id + " not found", 404};
        if (!common::isUuid(doc_id)) return not_found;
        auto d = p.documents.find(doc_id);
        if (!d) return d.error();
        if (!d->has_value() || (*d)->workspace_id != workspace_id) return not_found;
        if (auto ok = p.document_access.require(caller.user_id, **d, action); !ok) {
            return ok.error();
        }
        docs.push_back(std::move(**d));
    }
    return docs;
}

/// One queued item per document, in order.
std::vector<BatchItem> queuedItems(const std::vector<storage::Document>& docs) {
    std::vector<BatchItem> items;
    for (const auto& d : docs) {
        BatchItem item;
        item.position = static_cast<int>(items.size());
        item.document_id = d.id;
        item.filename = d.filename;
        item.status = "queued";
        items.push_back(std::move(item));
    }
    return items;
}

ItemOutcome failed(const plugin::Error& e) { return {"failed", e.code, e.message, json()}; }

json itemJson(const BatchItem& i) {
    return {{"position", i.position},
            {"document_id", i.document_id},
            {"filename", i.filename},
            {"status", i.status},
            {"error_code", nullable(i.error_code)},
            {"error_message", nullable(i.error_message)},
            {"result", i.result},
            {"attempts", i.attempts},
            {"started_at", nullable(i.started_at)},
            {"finished_at", nullable(i.finished_at)},
            {"updated_at", i.updated_at}};
}

/// A document's ingestion as an operation status.
std::string ingestionStatus(const storage::Document& d, bool has_encoder) {
    if (d.status == "uploading") return d.size_bytes ? "queued" : "awaiting_upload";
    if (d.status == "embedded" || (d.status == "chunked" && !has_encoder)) return "completed";
    if (d.status == "error") return "failed";
    return "running";
}

json ingestionOperation(const storage::Document& d, bool has_encoder) {
    static const std::vector<std::string> stages{"uploading", "chunking", "chunked", "embedding",
                                                 "embedded"};
    const std::string status = ingestionStatus(d, has_encoder);
    const auto at = std::find(stages.begin(), stages.end(), d.status);
    int done = at == stages.end() ? 0 : static_cast<int>(at - stages.begin());
    if (status == "completed" || status == "failed") done = 4;
    return {{"operation_id", d.id},
            {"kind", "document_ingestion"},
            {"status", status},
            {"stage", d.status},
            {"workspace_id", nullable(d.workspace_id)},
            {"resource", {{"type", "document"}, {"id", d.id}, {"name", d.filename}}},
            {"progress",
             {{"done", done}, {"total", 4}, {"percent", status == "completed" ? 100 : done * 25}}},
            {"progress_pct", status == "completed" ? 100 : done * 25},
            {"error_code", nullable(d.error_code)},
            {"error_message", nullable(d.error_message)},
            {"created_at", d.created_at},
            {"updated_at", d.updated_at},
            {"links",
             {{"self", "/api/v1/operations/" + d.id},
              {"resource", "/api/v1/documents/" + d.id},
              {"status", "/api/v1/documents/" + d.id + "/status"}}}};
}

json batchOperation(const BatchJob& b) {
    json j = batchJson(b);
    json op{{"operation_id", b.id},
            {"kind", "batch_" + b.kind},
            {"status", b.status},
            {"workspace_id", j["workspace_id"]},
            {"resource", {{"type", "batch_job"}, {"id", b.id}}},
            {"progress", j["progress"]},
            {"progress_pct", j["progress_pct"]},
            {"error_code", j["error_code"]},
            {"error_message", j["error_message"]},
            {"created_at", b.created_at},
            {"updated_at", b.updated_at},
            {"links", j["links"]}};
    op["links"]["self"] = "/api/v1/operations/" + b.id;
    op["links"]["resource"] = "/api/v1/batches/" + b.id;
    return op;
}

}  // namespace

json batchJson(const BatchJob& b) {
    int total = 0;
    json counts{{"awaiting_upload", 0}, {"queued", 0}, {"running", 0},  {"succeeded", 0},
                {"skipped", 0},         {"failed", 0}, {"cancelled", 0}};
    for (const auto& [status, n] : b.counts) {
        counts[status] = n;
        total += n;
    }
    counts["total"] = total;
    const int done = counts["succeeded"].get<int>() + counts["skipped"].get<int>() +
                     counts["failed"].get<int>() + counts["cancelled"].get<int>();
    const int pct = total ? done * 100 / total : 100;
    json j{{"batch_job_id", b.id},
           {"id", b.id},
           {"operation", b.kind},
           {"kind", b.kind},
           {"status", b.status},
           {"workspace_id", nullable(b.workspace_id)},
           {"concurrency", b.concurrency},
           {"force", b.force},
           {"counts", counts},
           {"progress", {{"done", done}, {"total", total}, {"percent", pct}}},
           {"progress_pct", pct},
           {"idempotency_key", nullable(b.idempotency_key)},
           {"error_code", nullable(b.error_code)},
           {"error_message", nullable(b.error_message)},
           {"created_at", b.created_at},
           {"updated_at", b.updated_at},
           {"finished_at", nullable(b.finished_at)},
           {"links",
            {{"self", "/api/v1/batches/" + b.id},
             {"results", "/api/v1/batches/" + b.id + "/results"}}}};
    if (b.kind == "workspace_summary") {
        j["summary_type"] = b.options.value("summary_type", "executive");
        j["language"] = b.options.value("language", "en");
        j["result"] = b.result;
    }
    return j;
}

plugin::Result<std::string> BatchService::scopeOf(const plugin::Principal& caller,
                                                  const std::string& workspace_id,
                                                  auth::WorkspaceAction action) const {
    return p_.document_access.scope(caller.user_id, workspace_id, action);
}

plugin::Result<BatchJob> BatchService::load(const plugin::Principal& caller, const std::string& id,
                                            auth::WorkspaceAction action) {
    if (!common::isUuid(id)) return batchNotFound();
    auto found = p_.batches.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return batchNotFound();
    BatchJob& b = found->value();
    if (b.workspace_id.empty()) {
        if (b.owner_id != caller.user_id) return batchNotFound();
    } else if (auto role = p_.workspaces.require(caller.user_id, b.workspace_id, action); !role) {
        if (role.error().http_status == 404) return batchNotFound();
        return role.error();
    }
    return std::move(b);
}

plugin::Result<json> BatchService::view(const std::string& id) {
    auto found = p_.batches.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return batchNotFound();
    return batchJson(**found);
}

plugin::Result<json> BatchService::createUpload(const plugin::Principal& caller,
                                                const std::string& header_workspace,
                                                const json& body) {
    auto scope = scopeOf(caller, workspaceOf(body, header_workspace),
                         auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();
    auto earlier = earlierJob(p_.batches, caller, body, "upload");
    if (!earlier) return earlier.error();
    if (earlier->has_value()) return results(caller, (*earlier)->id);
    const auto& files = body["files"];
    for (const auto& f : files) {
        if (f.value("file_size", std::int64_t{0}) > p_.uploads.limits().max_bytes) {
            return plugin::Error{"file_too_large",
                                 f.value("filename", "") + ": files may be at most " +
                                     std::to_string(p_.uploads.limits().max_bytes) + " bytes",
                                 413};
        }
    }
    const bool redact = body.value("redact_pii", false);
    BatchJob b = newBatch(caller, *scope, "upload", "awaiting_upload", body);
    b.options = {{"redact_pii", redact}};
    std::vector<BatchItem> items;
    for (const auto& f : files) {
        json one{{"filename", f["filename"]},
                 {"content_type", f.value("content_type", "application/octet-stream")},
                 {"file_size", f["file_size"]},
                 {"redact_pii", redact},
                 {"workspace_id", b.workspace_id.empty() ? json() : json(b.workspace_id)}};
        auto session = p_.uploads.create(caller, b.workspace_id, one);
        if (!session) return session.error();
        BatchItem item;
        item.position = static_cast<int>(items.size());
        item.document_id = (*session)["document_id"].get<std::string>();
        item.filename = one["filename"].get<std::string>();
        item.status = "awaiting_upload";
        item.result = *session;  // replaced by the outcome once the file is completed
        items.push_back(std::move(item));
    }
    auto created = p_.batches.create(b, items, false);
    if (!created) return created.error();
    common::log(common::LogLevel::kInfo, "batch_created",
                {{"batch_id", created->first.id}, {"kind", "upload"}});
    return results(caller, created->first.id);
}

plugin::Result<json> BatchService::completeUpload(const plugin::Principal& caller,
                                                  const std::string& id, const json& body) {
    auto b = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!b) return b.error();
    if (b->kind != "upload") {
        return plugin::Error::conflict("not_an_upload_batch", "this batch job is not an upload");
    }
    if (b->status == "cancelled") {
        return plugin::Error::conflict("batch_cancelled", "resume the batch job first");
    }
    auto items = p_.batches.items(id);
    if (!items) return items.error();
    std::vector<int> positions;
    const json ids = body.value("document_ids", json::array());
    for (const auto& d : ids) {
        const auto it = std::find_if(items->begin(), items->end(), [&](const BatchItem& i) {
            return d.is_string() && i.document_id == d.get<std::string>();
        });
        if (it == items->end()) {
            return plugin::Error{"document_not_found",
                                 "document " + d.dump() + " is not part of this batch job", 404};
        }
        positions.push_back(it->position);
    }
    const int concurrency = body.value("concurrency", b->concurrency);
    return requeue(id, positions, {"awaiting_upload"}, "completed_now", concurrency);
}

plugin::Result<json> BatchService::startDocuments(const plugin::Principal& caller,
                                                  const std::string& header_workspace,
                                                  const std::string& kind, const json& body) {
    auto scope = scopeOf(caller, workspaceOf(body, header_workspace),
                         auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();
    auto earlier = earlierJob(p_.batches, caller, body, kind);
    if (!earlier) return earlier.error();
    if (earlier->has_value()) return batchJson(**earlier);
    BatchJob b = newBatch(caller, *scope, kind, "queued", body);
    b.concurrency = body.value("concurrency", 3);
    b.force = body.value("force", false);
    auto docs = namedDocuments(p_, caller, body["document_ids"], b.workspace_id,
                               auth::WorkspaceAction::kManageDocuments);
    if (!docs) return docs.error();
    const std::vector<BatchItem> items = queuedItems(*docs);
    auto created = p_.batches.create(b, items, true);
    if (!created) return created.error();
    if (created->second) {
        wake();
        common::log(common::LogLevel::kInfo, "batch_created",
                    {{"batch_id", b.id}, {"kind", kind}, {"items", std::to_string(items.size())}});
    }
    return batchJson(created->first);
}

plugin::Result<json> BatchService::startWorkspaceSummary(const plugin::Principal& caller,
                                                         const json& body) {
    auto scope = scopeOf(caller, workspaceOf(body, ""), auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();
    auto earlier = earlierJob(p_.batches, caller, body, "workspace_summary");
    if (!earlier) return earlier.error();
    if (earlier->has_value()) return batchJson(**earlier);
    const std::string type = body.value("summary_type", "executive");
    // Blank as the summarizer reads it (SummarizeRequest and WorkspaceSummaryRequest say so).
    if (type == "custom" &&
        body.value("custom_prompt", "").find_first_not_of(" \t\r\n") == std::string::npos) {
        return validationError({"body", "custom_prompt"},
                               "custom_prompt is required with summary_type custom");
    }
    std::vector<storage::Document> docs;
    const json ids = body.value("document_ids", json::array());
    if (ids.empty()) {
        auto all = scope->empty() ? p_.documents.listPersonal(caller.user_id)
                                  : p_.documents.listWorkspace(*scope);
        if (!all) return all.error();
        for (auto& d : *all) {
            if (d.is_latest && (d.status == "chunked" || d.status == "embedded")) {
                docs.push_back(std::move(d));
            }
        }
    } else {
        auto named = namedDocuments(p_, caller, ids, *scope, auth::WorkspaceAction::kAsk);
        if (!named) return named.error();
        docs = std::move(named).value();
    }
    // Named documents are bounded by the schema (maxItems); the workspace's own chunked
    // documents are its state, so a count outside 1..max is a conflict, not a bad request.
    const int max_documents = knowledge::SummaryOptions{}.max_documents;
    if (docs.empty() || static_cast<int>(docs.size()) > max_documents) {
        return plugin::Error::conflict(
            "summary_document_count",
            "a workspace summary covers between 1 and " + std::to_string(max_documents) +
                " chunked documents; found " + std::to_string(docs.size()));
    }
    BatchJob b = newBatch(caller, *scope, "workspace_summary", "queued", body);
    b.concurrency = body.value("concurrency", 2);
    b.options = {{"summary_type", type},
                 {"custom_prompt", body.value("custom_prompt", "")},
                 {"redact_pii", body.value("redact_pii", false)},
                 {"language", body.value("language", "en")}};
    auto created = p_.batches.create(b, queuedItems(docs), true);
    if (!created) return created.error();
    if (created->second) wake();
    return batchJson(created->first);
}

plugin::Result<json> BatchService::list(const plugin::Principal& caller,
                                        const std::string& workspace_id,
                                        const std::string& operation, const std::string& status,
                                        int limit) {
    auto scope = scopeOf(caller, workspace_id == "personal" ? "" : workspace_id,
                         auth::WorkspaceAction::kRead);
    if (!scope) return scope.error();
    std::string kind = operation;
    std::replace(kind.begin(), kind.end(), '-', '_');
    auto rows = p_.batches.list(caller.user_id, *scope, kind, status, limit > 0 ? limit : 50);
    if (!rows) return rows.error();
    json jobs = json::array();
    for (const auto& b : *rows) jobs.push_back(batchJson(b));
    return json{{"batch_jobs", jobs}, {"items", jobs}, {"count", jobs.size()}};
}

plugin::Result<json> BatchService::get(const plugin::Principal& caller, const std::string& id) {
    auto b = load(caller, id, auth::WorkspaceAction::kRead);
    if (!b) return b.error();
    return batchJson(*b);
}

plugin::Result<json> BatchService::results(const plugin::Principal& caller, const std::string& id) {
    auto b = load(caller, id, auth::WorkspaceAction::kRead);
    if (!b) return b.error();
    auto items = p_.batches.items(id);
    if (!items) return items.error();
    json out = batchJson(*b);
    out["items"] = json::array();
    for (const auto& i : *items) out["items"].push_back(itemJson(i));
    if (b->kind == "upload") {
        // The upload sessions of files not completed yet (a replayed create returns them).
        out["files"] = json::array();
        for (const auto& i : *items) {
            json f = i.status == "awaiting_upload" && i.result.is_object() ? i.result : json();
            if (f.is_null()) f = {{"document_id", i.document_id}, {"doc_id", i.document_id}};
            f["filename"] = i.filename;
            f["status"] = i.status;
            out["files"].push_back(std::move(f));
        }
    }
    return out;
}

plugin::Result<json> BatchService::cancel(const plugin::Principal& caller, const std::string& id) {
    auto b = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!b) return b.error();
    if (std::find(kFinal.begin(), kFinal.end(), b->status) != kFinal.end()) {
        return plugin::Error::conflict("batch_finished", "the batch job has already finished");
    }
    auto moved = p_.batches.moveItems(id, {}, {"queued", "awaiting_upload"}, "cancelled",
                                      "cancelling", false);
    if (!moved) return moved.error();
    // Nothing running: cancelled now; else the run turns it cancelled when they finish.
    if (auto settled = p_.batches.settle(id); !settled) return settled.error();
    auto out = view(id);
    if (out) out.value()["cancelled_items"] = *moved;
    return out;
}

plugin::Result<json> BatchService::resume(const plugin::Principal& caller, const std::string& id) {
    auto b = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!b) return b.error();
    if (b->status == "completed") {
        return plugin::Error::conflict("batch_finished", "the batch job has nothing left to do");
    }
    return requeue(id, {}, {"cancelled", "queued"}, "resumed_items");
}

plugin::Result<json> BatchService::retry(const plugin::Principal& caller, const std::string& id) {
    auto b = load(caller, id, auth::WorkspaceAction::kManageDocuments);
    if (!b) return b.error();
    if (b->status == "cancelled" || b->status == "cancelling") {
        return plugin::Error::conflict("batch_cancelled", "resume the batch job first");
    }
    if (b->kind == "workspace_summary") {
        (void)p_.batches.setResult(id, json(), "", "");  // the summary is made again
    }
    return requeue(id, {}, {"failed"}, "retried_items");
}

plugin::Result<json> BatchService::requeue(const std::string& id, const std::vector<int>& positions,
                                           const std::vector<std::string>& from,
                                           const char* count_field,
                                           std::optional<int> concurrency) {
    auto moved = p_.batches.moveItems(id, positions, from, "queued", "queued", true, concurrency);
    if (!moved) return moved.error();
    wake();
    auto out = view(id);
    if (out) out.value()[count_field] = *moved;
    return out;
}

plugin::Result<json> BatchService::listOperations(const plugin::Principal& caller,
                                                  const std::string& workspace_id,
                                                  const std::string& status, int limit) {
    auto scope = scopeOf(caller, workspace_id == "personal" ? "" : workspace_id,
                         auth::WorkspaceAction::kRead);
    if (!scope) return scope.error();
    if (limit <= 0) limit = 50;
    std::vector<json> ops;
    auto batches = p_.batches.list(caller.user_id, *scope, "", "", limit);
    if (!batches) return batches.error();
    for (const auto& b : *batches) ops.push_back(batchOperation(b));
    auto docs = scope->empty() ? p_.documents.listPersonal(caller.user_id)
                               : p_.documents.listWorkspace(*scope);
    if (!docs) return docs.error();
    for (const auto& d : *docs) ops.push_back(ingestionOperation(d, p_.encoder != nullptr));
    std::erase_if(ops, [&](const json& op) { return !status.empty() && op["status"] != status; });
    std::stable_sort(ops.begin(), ops.end(), [](const json& a, const json& b) {
        return a["created_at"].get<std::string>() > b["created_at"].get<std::string>();
    });
    if (static_cast<int>(ops.size()) > limit) ops.resize(static_cast<std::size_t>(limit));
    json out = json::array();
    for (auto& op : ops) out.push_back(std::move(op));
    return json{{"operations", out}, {"count", out.size()}};
}

plugin::Result<json> BatchService::getOperation(const plugin::Principal& caller,
                                                const std::string& id) {
    const plugin::Error not_found{"operation_not_found", "operation not found", 404};
    if (!common::isUuid(id)) return not_found;
    auto batch = p_.batches.find(id);
    if (!batch) return batch.error();
    if (batch->has_value()) {
        auto b = load(caller, id, auth::WorkspaceAction::kRead);
        if (!b) return b.error().http_status == 404 ? not_found : b.error();
        return batchOperation(*b);
    }
    auto d = p_.documents.find(id);
    if (!d) return d.error();
    if (!d->has_value()) return not_found;
    if (auto ok = p_.document_access.require(caller.user_id, **d, auth::WorkspaceAction::kRead);
        !ok) {
        return ok.error().http_status == 404 ? not_found : ok.error();
    }
    return ingestionOperation(**d, p_.encoder != nullptr);
}

// ---- the batch_run job ----

ItemOutcome BatchService::checkItem(const BatchJob& b, const BatchItem& item) {
    auto found = p_.documents.find(item.document_id);
    if (!found) return {"running", "", "", json()};  // try again on the next run
    if (!found->has_value()) {
        return {"failed", "document_not_found", "the document was deleted", json()};
    }
    const storage::Document& d = **found;
    // Claimed, but the run that claimed it stopped before starting its work: start it now.
    if ((b.kind == "upload" && d.status == "uploading" && !d.size_bytes) ||
        (b.kind == "embedding" && d.status == "chunked" && p_.encoder)) {
        return startItem(b, item);
    }
    if (d.status == "error") return {"failed", d.error_code, d.error_message, json()};
    if (d.status == "embedded" || (d.status == "chunked" && !p_.encoder)) {
        return {"succeeded",
                "",
                "",
                {{"document_id", d.id},
                 {"status", d.status},
                 {"doc_type", nullable(d.doc_type)},
                 {"pages", d.pages ? json(*d.pages) : json()}}};
    }
    return {"running", "", "", json()};
}

ItemOutcome BatchService::startItem(const BatchJob& b, const BatchItem& item) {
    const plugin::Principal owner{b.owner_id, "", "", {}, ""};
    auto found = p_.documents.find(item.document_id);
    if (!found) return failed(found.error());
    if (!found->has_value()) {
        return {"failed", "document_not_found", "the document was deleted", json()};
    }
    const storage::Document& d = **found;
    if (b.kind == "upload") {
        json body{{"doc_id", d.id},
                  {"storage_source_path", d.storage_key},
                  {"redact_pii", b.options.value("redact_pii", false)}};
        auto done = p_.uploads.complete(owner, b.workspace_id, body);
        if (!done) return failed(done.error());
        return {"running", "", "", json()};
    }
    if (b.kind == "embedding") {
        if (d.status == "embedded" && !b.force) {
            return {"skipped", "", "", {{"reason", "already_embedded"}, {"status", d.status}}};
        }
        if (!p_.encoder) {
            return {"failed", "embedding_unavailable", "no encoder model is loaded", json()};
        }
        auto queued = p_.document_service.reembed(owner, d.id, IngestionService::kEmbedJob);
        if (!queued) return failed(queued.error());
        return {"running", "", "", json()};
    }
    if (b.kind == "classification") {
        if (!d.doc_type.empty() && !b.force) {
            return {
                "skipped",
                "",
                "",
                {{"reason", "already_classified"},
                 {"doc_type", d.doc_type},
                 {"confidence", d.doc_type_confidence ? json(*d.doc_type_confidence) : json()}}};
        }
        if (!ingestion_) {
            return {"failed", "classifier_unavailable", "this node does not classify", json()};
        }
        auto classified = ingestion_->reclassify(d.id);
        if (!classified) return failed(classified.error());
        return {"succeeded", "", "", *classified};
    }
    // workspace_summary: the document must be readable; the summary is made once all are.
    if (d.status != "chunked" && d.status != "embedded") {
        return {"failed", "document_not_ready",
                "the document is " + d.status + ", not chunked or embedded", json()};
    }
    return {"succeeded", "", "", {{"document_id", d.id}, {"included", true}}};
}

plugin::Status BatchService::summarize(const BatchJob& b) {
    if (!summarizer_) {
        return p_.batches.setResult(b.id, json(), "summaries_unavailable",
                                    "this node cannot summarise");
    }
    auto items = p_.batches.items(b.id);
    if (!items) return items.error();
    std::vector<std::string> ids;
    for (const auto& i : *items) {
        if (i.status == "succeeded") ids.push_back(i.document_id);
    }
    if (ids.empty()) {
        return p_.batches.setResult(b.id, json(), "no_documents",
                                    "none of the documents could be summarised");
    }
    json request{{"summary_type", b.options.value("summary_type", "executive")},
                 {"custom_prompt", b.options.value("custom_prompt", "")},
                 {"redact_pii", b.options.value("redact_pii", false)}};
    const plugin::Principal owner{b.owner_id, "", "", {}, ""};
    auto out = summarizer_->summarizeDocuments(owner, ids, request, "batch-" + b.id);
    if (!out) {
        if (out.error().http_status >= 500) return out.error();  // retried by the job
        return p_.batches.setResult(b.id, json(), out.error().code, out.error().message);
    }
    out.value()["summary_type"] = request["summary_type"];
    out.value()["language"] = b.options.value("language", "en");
    out.value()["document_ids"] = ids;
    return p_.batches.setResult(b.id, *out, "", "");
}

plugin::Status BatchService::run(jobs::JobContext& context) {
    const std::string id = context.payload().value("batch_id", "");
    auto found = p_.batches.find(id);
    if (!found) return found.error();
    if (!found->has_value()) return {};  // deleted with its owner or workspace
    const BatchJob b = **found;
    // Only the run the batch names works it: a run left over from before a cancel or a
    // settle (its batch has another run, or none) stops here.
    if (b.job_id != context.job().id) return {};
    auto items = p_.batches.items(id);
    if (!items) return items.error();

    const bool follows_documents = b.kind == "upload" || b.kind == "embedding";
    int in_flight = 0;
    std::vector<BatchItem> restart;
    for (const auto& item : *items) {
        if (item.status != "running") continue;
        if (!follows_documents) {
            // Interrupted inside an earlier run: work it again (or drop it, when cancelled).
            if (b.status != "cancelled" && b.status != "cancelling") {
                restart.push_back(item);
            } else if (auto ok =
                           p_.batches.recordItem(id, item.position, {"cancelled", "", "", json()});
                       !ok) {
                return ok;
            }
            continue;
        }
        const ItemOutcome o = checkItem(b, item);
        if (o.status == "running") {
            ++in_flight;
        } else if (auto ok = p_.batches.recordItem(id, item.position, o); !ok) {
            return ok;
        }
    }

    if (b.status == "queued") {
        if (auto ok = p_.batches.markRunning(id); !ok) return ok;
    }
    const bool stopping = b.status == "cancelling" || b.status == "cancelled";
    if (!stopping) {
        const int slots = b.concurrency - in_flight;
        std::vector<BatchItem> next = restart;
        if (slots > static_cast<int>(next.size())) {
            auto more = p_.batches.pending(id, slots - static_cast<int>(next.size()));
            if (!more) return more.error();
            for (auto& i : *more) {
                // Claimed before its work starts, so no other run starts it too.
                auto claimed = p_.batches.claimItem(id, i.position);
                if (!claimed) return claimed.error();
                if (*claimed) next.push_back(std::move(i));
            }
        }
        std::vector<std::future<ItemOutcome>> work;
        for (const auto& item : next) {
            work.push_back(
                std::async(std::launch::async, [this, &b, item] { return startItem(b, item); }));
        }
        for (std::size_t k = 0; k < next.size(); ++k) {
            ItemOutcome o = work[k].get();
            if (o.status == "failed") {
                common::log(common::LogLevel::kInfo, "batch_item_failed",
                            {{"batch_id", id},
                             {"document_id", next[k].document_id},
                             {"code", o.error_code}});
            }
            if (o.status == "running") continue;  // claimed as running already
            if (auto ok = p_.batches.recordItem(id, next[k].position, o); !ok) return ok;
        }
    }

    if (b.kind == "workspace_summary" && !stopping && b.result.is_null() && b.error_code.empty()) {
        auto now = p_.batches.find(id);
        if (!now) return now.error();
        auto count = [&now](const char* status) {
            const auto it = now->value().counts.find(status);
            return it == now->value().counts.end() ? 0 : it->second;
        };
        if (now->has_value() && count("queued") + count("running") == 0 &&
            count("succeeded") + count("failed") > 0) {
            if (auto ok = summarize(**now); !ok) return ok;
        }
    }

    auto settled = p_.batches.settle(id);
    if (!settled) return settled.error();
    if (!*settled) {
        context.runAgainAfter(tick_seconds_);
    } else {
        common::log(common::LogLevel::kInfo, "batch_settled", {{"batch_id", id}});
    }
    return {};
}

}  // namespace docintel::services

#include "http/batch_routes.h"

#include "http/json_handler.h"

#include <utility>

namespace docintel::http {
namespace {

using plugin::HttpRequest;

int limitOf(const HttpRequest& r) {
    const std::string v = r.queryParam("limit");
    return v.empty() ? 50 : std::stoi(v);  // validated as an integer 1..200 by the dispatcher
}

/// The `workspace_id` query parameter, else the selected workspace header.
std::string scopeOf(const HttpRequest& r) { return r.queryParam("workspace_id", r.workspace_id); }

}  // namespace

std::map<std::string, plugin::HttpHandler> batchHandlers(services::BatchService& b) {
    std::map<std::string, plugin::HttpHandler> h;
    h["api_list_batch_jobs_api_v1_batches_get"] = jsonHandler([&b](const HttpRequest& r) {
        return b.list(r.principal, scopeOf(r), r.queryParam("operation"), r.queryParam("status"),
                      limitOf(r));
    });
    h["api_start_batch_classification_api_v1_batches_classification_post"] =
        jsonHandler([&b](const HttpRequest& r) {
            return b.startDocuments(r.principal, r.workspace_id, "classification", r.body);
        });
    h["api_start_batch_embedding_api_v1_batches_embedding_post"] =
        jsonHandler([&b](const HttpRequest& r) {
            return b.startDocuments(r.principal, r.workspace_id, "embedding", r.body);
        });
    h["api_create_batch_upload_api_v1_batches_uploads_post"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.createUpload(r.principal, r.workspace_id, r.body); });
    h["api_start_workspace_summary_api_v1_batches_workspace_summary_post"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.startWorkspaceSummary(r.principal, r.body); });
    h["api_get_batch_status_api_v1_batches__job_id__get"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.get(r.principal, r.pathParam("job_id")); });
    h["api_cancel_batch_api_v1_batches__job_id__cancel_post"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.cancel(r.principal, r.pathParam("job_id")); });
    h["api_get_batch_results_api_v1_batches__job_id__results_get"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.results(r.principal, r.pathParam("job_id")); });
    h["api_resume_batch_api_v1_batches__job_id__resume_post"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.resume(r.principal, r.pathParam("job_id")); });
    h["api_retry_batch_api_v1_batches__job_id__retry_post"] = jsonHandler(
        [&b](const HttpRequest& r) { return b.retry(r.principal, r.pathParam("job_id")); });
    h["api_complete_batch_upload_api_v1_batches__job_id__uploads_complete_post"] =
        jsonHandler([&b](const HttpRequest& r) {
            return b.completeUpload(r.principal, r.pathParam("job_id"), r.body);
        });
    h["api_list_operations_api_v1_operations_get"] = jsonHandler([&b](const HttpRequest& r) {
        return b.listOperations(r.principal, scopeOf(r), r.queryParam("status"), limitOf(r));
    });
    h["api_get_operation_api_v1_operations__operation_id__get"] =
        jsonHandler([&b](const HttpRequest& r) {
            return b.getOperation(r.principal, r.pathParam("operation_id"));
        });
    return h;
}

}  // namespace docintel::http

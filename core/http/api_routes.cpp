#include "http/api_routes.h"

#include "http/error_mapper.h"
#include "http/json_handler.h"
#include "http/sse_response.h"

#include <map>
#include <utility>
#include <vector>

namespace docintel::http {
namespace {

using plugin::HttpRequest;
using plugin::HttpResponse;
using plugin::QueryParam;
using plugin::Result;
using Scopes = std::vector<std::string>;

/// The operations whose bodies may pass the default 1 MiB (decision 0061): an artifact's
/// content alone may hold 1 MiB of JSON (ArtifactService::kMaxContentBytes) and a course
/// artifact's text is as long; a batch upload lists up to ~10,000 file manifests. Everything
/// else (uploads included: their bytes go to the signed /objects/ URL) stays at the default.
std::size_t maxBodyBytes(const std::string& operation_id) {
    static const std::map<std::string, std::size_t> kLarger = {
        {"api_create_artifact_api_v1_artifacts_post", 2u << 20},
        {"api_save_learning_artifact_api_v1_learning_courses__course_id__artifacts_post", 2u << 20},
        {"api_create_batch_upload_api_v1_batches_uploads_post", 4u << 20},
    };
    auto it = kLarger.find(operation_id);
    return it == kLarger.end() ? 0 : it->second;
}

/// Adapts a service call returning JSON into a handler.
template <typename F>
plugin::HttpHandler json(F&& call) {
    return [call = std::forward<F>(call)](const HttpRequest& req) -> Result<HttpResponse> {
        Result<nlohmann::json> out = call(req);
        if (!out) return out.error();
        return HttpResponse::json(std::move(out).value());
    };
}

Result<HttpResponse> notImplemented(const HttpRequest&) { return plugin::Error::notImplemented(); }

/// The handler of a declared operation a feature plugin serves, until the plugin attaches its
/// own (Router::attach): 503 `plugin_not_loaded`, after authentication, scope and validation.
plugin::HttpHandler pluginNotLoaded(const std::string& area) {
    return [area](const HttpRequest&) -> Result<HttpResponse> {
        return plugin::Error::unavailable("plugin_not_loaded",
                                          "the " + area + " plugin is not loaded on this server");
    };
}

/// Adapts a call on a part this node may lack — a workflow engine function, the BatchService
/// (decision 0053), the ArtifactService (0056) — as jsonHandler does; 501 when `part` is unset.
template <typename Part, typename Call>
plugin::HttpHandler ifPresent(const Part& part, Call&& call) {
    if (!part) return notImplemented;
    return jsonHandler(std::forward<Call>(call));
}

/// The `limit` query parameter of the batch and operation lists (validated 1..200), else 50.
int batchLimit(const HttpRequest& r) {
    const std::string v = r.queryParam("limit");
    return v.empty() ? 50 : std::stoi(v);
}

QueryParam limitParam(long long max) {
    return QueryParam{"limit", "integer", false, 1, max, "maximum number of items to return"};
}
QueryParam stringParam(std::string name, bool required = false) {
    return QueryParam{std::move(name), "string", required, std::nullopt, std::nullopt, {}};
}

struct Op {
    const char* method;
    const char* path;
    const char* operation_id;
    const char* summary;
    const char* tag;
    Scopes scopes;
    const char* schema = "";
    int status = 200;
    std::vector<QueryParam> query = {};
    /// Unset: a feature plugin serves the operation (Route::attachable).
    plugin::HttpHandler handler = nullptr;
    bool is_public = false;
    bool extra = false;  ///< a product extra the spec does not list (Route::extra)
};

/// The operations feature plugins serve (decision 0067): declared here with their paths,
/// scopes and schemas, answered 503 `plugin_not_loaded` until a plugin attaches a handler.
std::vector<Op> featureOps() {
    const Scopes learn_read{"learning:read"};
    const Scopes learn_part{"learning:participate"};
    const Scopes learn_manage{"learning:manage"};
    return {
        // Learning.
        {"GET",
         "/api/v1/learning/courses",
         "api_list_learning_courses_api_v1_learning_courses_get",
         "List courses",
         "learning",
         learn_read,
         "",
         200,
         {stringParam("workspace_id", true)}},
        {"POST", "/api/v1/learning/courses",
         "api_create_learning_course_api_v1_learning_courses_post", "Create a course", "learning",
         learn_manage, "CourseCreate", 201},
        {"GET", "/api/v1/learning/courses/{course_id}",
         "api_get_learning_course_api_v1_learning_courses__course_id__get", "Get a course",
         "learning", learn_read},
        {"PATCH", "/api/v1/learning/courses/{course_id}",
         "api_update_learning_course_api_v1_learning_courses__course_id__patch", "Update a course",
         "learning", learn_manage, "CourseUpdate"},
        {"DELETE", "/api/v1/learning/courses/{course_id}",
         "api_delete_learning_course_api_v1_learning_courses__course_id__delete", "Delete a course",
         "learning", learn_manage},
        {"GET", "/api/v1/learning/courses/{course_id}/artifacts",
         "api_list_learning_artifacts_api_v1_learning_courses__course_id__artifacts_get",
         "List course artifacts", "learning", learn_read},
        {"POST", "/api/v1/learning/courses/{course_id}/artifacts",
         "api_save_learning_artifact_api_v1_learning_courses__course_id__artifacts_post",
         "Save a course artifact", "learning", learn_part, "ArtifactCreate", 201},
        {"DELETE", "/api/v1/learning/courses/{course_id}/artifacts/{artifact_id}",
         "api_delete_learning_artifact_api_v1_learning_courses__course_id__artifacts__artifact_"
         "id__delete",
         "Delete a course artifact", "learning", learn_part},
        {"POST", "/api/v1/learning/courses/{course_id}/artifacts/{artifact_id}/attempts",
         "api_submit_learning_quiz_api_v1_learning_courses__course_id__artifacts__artifact_id__"
         "attempts_post",
         "Submit a quiz attempt", "learning", learn_part, "QuizAttemptCreate"},
        {"POST", "/api/v1/learning/courses/{course_id}/assets",
         "api_attach_learning_content_api_v1_learning_courses__course_id__assets_post",
         "Attach content to a course", "learning", learn_manage, "AssetCreate"},
        {"DELETE", "/api/v1/learning/courses/{course_id}/assets/{asset_id}",
         "api_remove_learning_content_api_v1_learning_courses__course_id__assets__asset_id__"
         "delete",
         "Remove course content", "learning", learn_manage},
        {"PUT", "/api/v1/learning/courses/{course_id}/curriculum",
         "api_save_learning_curriculum_api_v1_learning_courses__course_id__curriculum_put",
         "Save the curriculum", "learning", learn_manage, "CurriculumSave"},
        {"POST", "/api/v1/learning/courses/{course_id}/members",
         "api_enroll_learning_member_api_v1_learning_courses__course_id__members_post",
         "Enroll a member", "learning", learn_manage, "MemberCreate"},
        {"DELETE", "/api/v1/learning/courses/{course_id}/members/{member_user_id}",
         "api_remove_learning_member_api_v1_learning_courses__course_id__members__member_user_"
         "id__delete",
         "Remove a member", "learning", learn_manage},
        {"GET", "/api/v1/learning/courses/{course_id}/progress",
         "api_get_learning_progress_api_v1_learning_courses__course_id__progress_get",
         "Course progress", "learning", learn_read},
        {"POST", "/api/v1/learning/courses/{course_id}/questions",
         "api_ask_learning_person_api_v1_learning_courses__course_id__questions_post",
         "Ask a teacher or advisor", "learning", learn_part, "QuestionCreate", 201},
        {"PATCH", "/api/v1/learning/courses/{course_id}/questions/{question_id}",
         "api_update_learning_question_api_v1_learning_courses__course_id__questions__question_"
         "id__patch",
         "Answer or update a question", "learning", learn_part, "QuestionUpdate"},
        {"GET",
         "/api/v1/learning/courses/{course_id}/scope",
         "api_resolve_learning_scope_api_v1_learning_courses__course_id__scope_get",
         "Resolve the tutor's scope",
         "learning",
         learn_read,
         "",
         200,
         {stringParam("module_id"), stringParam("lesson_id")}},
        {"POST", "/api/v1/learning/courses/{course_id}/tutor/query/stream",
         "api_ask_learning_tutor_api_v1_learning_courses__course_id__tutor_query_stream_post",
         "Ask the course tutor (SSE)", "learning", learn_part, "LearningTutorRequest"},
        {"GET",
         "/api/v1/learning/documents",
         "api_list_learning_documents_api_v1_learning_documents_get",
         "List learning documents",
         "learning",
         learn_read,
         "",
         200,
         {stringParam("workspace_id", true)}},

    };
}

void addOps(Router& router, std::vector<Op> ops) {
    for (auto& op : ops) {
        plugin::RouteDefinition def;
        def.method = op.method;
        def.path = op.path;
        def.operation_id = op.operation_id;
        def.summary = op.summary;
        def.scopes = std::move(op.scopes);
        def.request_schema = op.schema;
        def.success_status = op.status;
        def.query_params = std::move(op.query);
        const bool attachable = !op.handler;
        def.handler = attachable ? pluginNotLoaded(op.tag) : std::move(op.handler);
        def.is_public = op.is_public;
        def.max_body_bytes = maxBodyBytes(def.operation_id);
        if (auto r = router.add(std::move(def), op.tag, {}, op.extra, attachable); !r) {
            throw std::logic_error("built-in route rejected: " + r.error().message);
        }
    }
}

}  // namespace

void declareFeatureOperations(Router& router) { addOps(router, featureOps()); }

void registerApiRoutes(Router& router, ApiServices& s) {
    const Scopes ws_read{"workspaces:read"};
    const Scopes ws_write{"workspaces:write"};
    const Scopes doc_read{"documents:read"};
    const Scopes doc_write{"documents:write"};
    const Scopes batch_read{"batches:read"};
    const Scopes batch_write{"batches:write"};
    const Scopes wf_read{"workflows:read"};
    auto& ws = s.workspaces;
    auto& id = s.identity;
    auto& docs = s.documents;
    auto& uploads = s.uploads;
    auto& wf = s.workflows;
    // A BatchService call on the path's `{job_id}`.
    using JobCall = Result<nlohmann::json> (services::BatchService::*)(const plugin::Principal&,
                                                                       const std::string&);
    auto onJob = [&s](JobCall call) {
        return ifPresent(s.batches, [&s, call](const HttpRequest& r) {
            return (s.batches->*call)(r.principal, r.pathParam("job_id"));
        });
    };

    std::vector<Op> ops = {
        // Discovery and OAuth. core/auth/oauth/oauth_server.cpp answers these in front of the
        // dispatcher (form bodies, RFC 6749 error objects, the client's address); the entries
        // here put them in the OpenAPI document.
        {"GET",
         "/.well-known/oauth-authorization-server",
         "authorization_server_metadata__well_known_oauth_authorization_server_get",
         "Authorization server metadata (RFC 8414)",
         "oauth",
         {},
         "",
         200,
         {},
         notImplemented,
         true},
        {"GET",
         "/.well-known/oauth-protected-resource/api",
         "api_protected_resource_metadata__well_known_oauth_protected_resource_api_get",
         "Protected resource metadata of the REST API (RFC 9728)",
         "oauth",
         {},
         "",
         200,
         {},
         json([&s](const HttpRequest&) -> Result<nlohmann::json> {
             return s.protected_resource_metadata();
         }),
         true},
        {"POST",
         "/token",
         "token_token_post",
         "OAuth token endpoint",
         "oauth",
         {},
         "",
         200,
         {},
         notImplemented,
         true},

        // Identity and workspace context.
        {"GET",
         "/api/v1",
         "api_catalog_api_v1_get",
         "API catalog",
         "catalog",
         {},
         "",
         200,
         {},
         json([&s](const HttpRequest&) -> Result<nlohmann::json> { return s.catalog(); })},
        {"GET",
         "/api/v1/me",
         "api_current_identity_api_v1_me_get",
         "Current identity",
         "identity",
         ws_read,
         "",
         200,
         {},
         json([&id](const HttpRequest& r) { return id.me(r.principal); })},
        {"GET",
         "/api/v1/me/workspaces",
         "api_my_workspaces_api_v1_me_workspaces_get",
         "Workspaces of the current user",
         "identity",
         ws_read,
         "",
         200,
         {},
         json([&id](const HttpRequest& r) { return id.myWorkspaces(r.principal); })},
        {"POST",
         "/api/v1/workspace-context",
         "api_select_workspace_context_api_v1_workspace_context_post",
         "Select the workspace context",
         "identity",
         ws_read,
         "WorkspaceContextInput",
         200,
         {},
         json([&id](const HttpRequest& r) {
             // workspace_id is optional (none clears the context): no const operator[] on it.
             const auto v = r.body.find("workspace_id");
             return id.selectContext(r.principal, v != r.body.end() && v->is_string()
                                                      ? v->get<std::string>()
                                                      : std::string());
         })},

        // Workspaces.
        {"GET",
         "/api/v1/workspaces",
         "api_list_workspaces_api_v1_workspaces_get",
         "List workspaces",
         "workspaces",
         ws_read,
         "",
         200,
         {},
         json([&ws](const HttpRequest& r) { return ws.list(r.principal); })},
        {"POST",
         "/api/v1/workspaces",
         "api_create_workspace_api_v1_workspaces_post",
         "Create a workspace",
         "workspaces",
         ws_write,
         "WorkspaceCreateInput",
         201,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.create(r.principal, r.body["name"].get<std::string>());
         })},
        {"GET",
         "/api/v1/workspaces/{workspace_id}",
         "api_get_workspace_api_v1_workspaces__workspace_id__get",
         "Get a workspace",
         "workspaces",
         ws_read,
         "",
         200,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.get(r.principal, r.pathParam("workspace_id"));
         })},
        {"PATCH",
         "/api/v1/workspaces/{workspace_id}",
         "api_update_workspace_api_v1_workspaces__workspace_id__patch",
         "Rename a workspace",
         "workspaces",
         ws_write,
         "WorkspaceUpdateInput",
         200,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.rename(r.principal, r.pathParam("workspace_id"),
                              r.body["name"].get<std::string>());
         })},
        {"DELETE",
         "/api/v1/workspaces/{workspace_id}",
         "api_delete_workspace_api_v1_workspaces__workspace_id__delete",
         "Delete a workspace",
         "workspaces",
         ws_write,
         "",
         200,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.remove(r.principal, r.pathParam("workspace_id"));
         })},
        {"GET",
         "/api/v1/workspaces/{workspace_id}/documents",
         "api_list_workspace_documents_api_v1_workspaces__workspace_id__documents_get",
         "List a workspace's documents",
         "workspaces",
         doc_read,
         "",
         200,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.list(r.principal, r.pathParam("workspace_id"));
         })},
        {"POST",
         "/api/v1/workspaces/{workspace_id}/leave",
         "api_leave_workspace_api_v1_workspaces__workspace_id__leave_post",
         "Leave a workspace",
         "workspaces",
         ws_write,
         "",
         200,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.leave(r.principal, r.pathParam("workspace_id"));
         })},
        {"POST",
         "/api/v1/workspaces/{workspace_id}/members",
         "api_add_workspace_member_api_v1_workspaces__workspace_id__members_post",
         "Add a member",
         "workspaces",
         ws_write,
         "WorkspaceMemberInput",
         201,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.addMember(r.principal, r.pathParam("workspace_id"),
                                 r.body["email"].get<std::string>(),
                                 r.body["role"].get<std::string>());
         })},
        {"PATCH",
         "/api/v1/workspaces/{workspace_id}/members/{user_id}",
         "api_update_workspace_member_api_v1_workspaces__workspace_id__members__user_id__patch",
         "Change a member's role",
         "workspaces",
         ws_write,
         "WorkspaceRoleInput",
         200,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.updateMember(r.principal, r.pathParam("workspace_id"),
                                    r.pathParam("user_id"), r.body["role"].get<std::string>());
         })},
        {"DELETE",
         "/api/v1/workspaces/{workspace_id}/members/{user_id}",
         "api_remove_workspace_member_api_v1_workspaces__workspace_id__members__user_id__delete",
         "Remove a member",
         "workspaces",
         ws_write,
         "",
         200,
         {},
         json([&ws](const HttpRequest& r) {
             return ws.removeMember(r.principal, r.pathParam("workspace_id"),
                                    r.pathParam("user_id"));
         })},

        // Documents and uploads.
        {"GET",
         "/api/v1/documents",
         "api_list_documents_api_v1_documents_get",
         "List documents",
         "documents",
         doc_read,
         "",
         200,
         {},
         json([&docs](const HttpRequest& r) { return docs.list(r.principal, r.workspace_id); })},
        {"GET",
         "/api/v1/documents/{document_id}",
         "api_get_document_api_v1_documents__document_id__get",
         "Get a document",
         "documents",
         doc_read,
         "",
         200,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.get(r.principal, r.pathParam("document_id"));
         })},
        {"DELETE",
         "/api/v1/documents/{document_id}",
         "api_delete_document_api_v1_documents__document_id__delete",
         "Delete a document",
         "documents",
         doc_write,
         "",
         200,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.remove(r.principal, r.pathParam("document_id"));
         })},
        {"GET",
         "/api/v1/documents/{document_id}/chunks",
         "api_get_document_chunks_api_v1_documents__document_id__chunks_get",
         "Get a document's chunks",
         "documents",
         doc_read,
         "",
         200,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.chunks(r.principal, r.pathParam("document_id"));
         })},
        {"POST",
         "/api/v1/documents/{document_id}/embedding",
         "api_embed_document_api_v1_documents__document_id__embedding_post",
         "Re-embed a document",
         "documents",
         doc_write,
         "",
         202,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.reembed(r.principal, r.pathParam("document_id"),
                                 services::IngestionService::kEmbedJob);
         })},
        {"GET",
         "/api/v1/documents/{document_id}/versions",
         "api_list_document_versions_api_v1_documents__document_id__versions_get",
         "List a document's versions",
         "documents",
         doc_read,
         "",
         200,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.versions(r.principal, r.pathParam("document_id"));
         })},
        {"POST",
         "/api/v1/documents/{document_id}/versions",
         "api_register_document_version_api_v1_documents__document_id__versions_post",
         "Register a new version",
         "documents",
         doc_write,
         "VersionInput",
         201,
         {},
         json([&docs](const HttpRequest& r) {
             return docs.registerVersion(r.principal, r.pathParam("document_id"), r.body);
         })},
        {"POST",
         "/api/v1/uploads",
         "api_create_upload_api_v1_uploads_post",
         "Create a direct-upload session",
         "uploads",
         doc_write,
         "DirectUploadSessionRequest",
         201,
         {},
         json([&uploads](const HttpRequest& r) {
             return uploads.create(r.principal, r.workspace_id, r.body);
         })},
        {"POST",
         "/api/v1/uploads/complete",
         "api_complete_upload_api_v1_uploads_complete_post",
         "Complete a direct upload and start ingestion",
         "uploads",
         doc_write,
         "DirectUploadCompleteRequest",
         202,
         {},
         [&uploads](const HttpRequest& r) -> Result<HttpResponse> {
             // The storage path may come under either name; one of them is required.
             if (r.body.value("storage_source_path", "").empty() &&
                 r.body.value("gcs_source_path", "").empty()) {
                 return validationResponse(
                     {{{"body", "storage_source_path"}, "Field required", "missing"}});
             }
             auto out = uploads.complete(r.principal, r.workspace_id, r.body);
             if (!out) return out.error();
             return HttpResponse::json(std::move(out).value());
         }},

        // Knowledge.
        {"POST",
         "/api/v1/knowledge/query/stream",
         "api_grounded_query_api_v1_knowledge_query_stream_post",
         "Grounded question answering (SSE)",
         "knowledge",
         {"knowledge:query"},
         "ChatRequest",
         200,
         {},
         [&s](const HttpRequest& r) -> Result<HttpResponse> {
             if (!s.knowledge) {
                 return plugin::Error::unavailable("search_unavailable",
                                                   "this node does not search");
             }
             auto plan = s.knowledge->prepare(r.principal, r.workspace_id, r.body, r.trace_id);
             if (!plan) return plan.error();
             return sseResponse([&knowledge = *s.knowledge, plan = std::move(plan).value()](
                                    const std::function<bool(const nlohmann::json&)>& emit) {
                 knowledge.answer(plan, emit);
             });
         }},
        {"POST",
         "/api/v1/summaries/documents/{document_id}/stream",
         "api_summarize_document_api_v1_summaries_documents__document_id__stream_post",
         "Summarise a document (SSE)",
         "knowledge",
         {"knowledge:generate"},
         "SummarizeRequest",
         200,
         {},
         [&s](const HttpRequest& r) -> Result<HttpResponse> {
             if (!s.summaries) {
                 return plugin::Error::unavailable("search_unavailable",
                                                   "this node does not summarise");
             }
             auto plan =
                 s.summaries->prepare(r.principal, r.pathParam("document_id"), r.body, r.trace_id);
             if (!plan) return plan.error();
             return sseResponse([&summaries = *s.summaries, plan = std::move(plan).value()](
                                    const std::function<bool(const nlohmann::json&)>& emit) {
                 summaries.summarize(plan, emit);
             });
         }},

        // Batches and operations.
        {"GET",
         "/api/v1/batches",
         "api_list_batch_jobs_api_v1_batches_get",
         "List batch jobs",
         "batches",
         batch_read,
         "",
         200,
         {stringParam("workspace_id"), stringParam("operation"), stringParam("status"),
          limitParam(200)},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->list(
                           r.principal, r.queryParam("workspace_id", r.workspace_id),
                           r.queryParam("operation"), r.queryParam("status"), batchLimit(r));
                   })},
        {"POST",
         "/api/v1/batches/classification",
         "api_start_batch_classification_api_v1_batches_classification_post",
         "Start batch classification",
         "batches",
         batch_write,
         "DocumentBatchRequest",
         202,
         {},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->startDocuments(r.principal, r.workspace_id,
                                                        "classification", r.body);
                   })},
        {"POST",
         "/api/v1/batches/embedding",
         "api_start_batch_embedding_api_v1_batches_embedding_post",
         "Start batch embedding",
         "batches",
         batch_write,
         "DocumentBatchRequest",
         202,
         {},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->startDocuments(r.principal, r.workspace_id, "embedding",
                                                        r.body);
                   })},
        {"POST",
         "/api/v1/batches/uploads",
         "api_create_batch_upload_api_v1_batches_uploads_post",
         "Create a batch upload",
         "batches",
         batch_write,
         "BatchUploadRequest",
         201,
         {},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->createUpload(r.principal, r.workspace_id, r.body);
                   })},
        {"POST",
         "/api/v1/batches/workspace-summary",
         "api_start_workspace_summary_api_v1_batches_workspace_summary_post",
         "Start a workspace summary",
         "batches",
         batch_write,
         "WorkspaceSummaryRequest",
         202,
         {},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->startWorkspaceSummary(r.principal, r.body);
                   })},
        {"GET",
         "/api/v1/batches/{job_id}",
         "api_get_batch_status_api_v1_batches__job_id__get",
         "Batch job status",
         "batches",
         batch_read,
         "",
         200,
         {},
         onJob(&services::BatchService::get)},
        {"POST",
         "/api/v1/batches/{job_id}/cancel",
         "api_cancel_batch_api_v1_batches__job_id__cancel_post",
         "Cancel a batch job",
         "batches",
         batch_write,
         "",
         202,
         {},
         onJob(&services::BatchService::cancel)},
        {"GET",
         "/api/v1/batches/{job_id}/results",
         "api_get_batch_results_api_v1_batches__job_id__results_get",
         "Batch item results",
         "batches",
         batch_read,
         "",
         200,
         {},
         onJob(&services::BatchService::results)},
        {"POST",
         "/api/v1/batches/{job_id}/resume",
         "api_resume_batch_api_v1_batches__job_id__resume_post",
         "Resume a batch job",
         "batches",
         batch_write,
         "",
         202,
         {},
         onJob(&services::BatchService::resume)},
        {"POST",
         "/api/v1/batches/{job_id}/retry",
         "api_retry_batch_api_v1_batches__job_id__retry_post",
         "Retry failed items",
         "batches",
         batch_write,
         "",
         202,
         {},
         onJob(&services::BatchService::retry)},
        {"POST",
         "/api/v1/batches/{job_id}/uploads/complete",
         "api_complete_batch_upload_api_v1_batches__job_id__uploads_complete_post",
         "Complete a batch upload",
         "batches",
         batch_write,
         "CompleteBatchUploadRequest",
         202,
         {},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->completeUpload(r.principal, r.pathParam("job_id"), r.body);
                   })},
        {"GET",
         "/api/v1/operations",
         "api_list_operations_api_v1_operations_get",
         "List operations",
         "operations",
         batch_read,
         "",
         200,
         {stringParam("workspace_id"), stringParam("status"), limitParam(200)},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->listOperations(
                           r.principal, r.queryParam("workspace_id", r.workspace_id),
                           r.queryParam("status"), batchLimit(r));
                   })},
        {"GET",
         "/api/v1/operations/catalog",
         "api_operations_catalog_api_v1_operations_catalog_get",
         "Operation types",
         "operations",
         batch_read,
         "",
         200,
         {},
         ifPresent(wf.operations_catalog,
                   [&wf](const HttpRequest&) { return wf.operations_catalog(); })},
        {"GET",
         "/api/v1/operations/{operation_id}",
         "api_get_operation_api_v1_operations__operation_id__get",
         "Get an operation",
         "operations",
         batch_read,
         "",
         200,
         {},
         ifPresent(s.batches,
                   [&s](const HttpRequest& r) {
                       return s.batches->getOperation(r.principal, r.pathParam("operation_id"));
                   })},

        // Workflows.
        {"GET",
         "/api/v1/workflows/{workflow}/schema",
         "api_workflow_schema_api_v1_workflows__workflow__schema_get",
         "A workflow's input and packet schemas",
         "workflows",
         wf_read,
         "",
         200,
         {},
         ifPresent(wf.schema,
                   [&wf](const HttpRequest& r) { return wf.schema(r.pathParam("workflow")); })},
        {"POST",
         "/api/v1/workflows/{workflow}/validate",
         "api_validate_workflow_api_v1_workflows__workflow__validate_post",
         "Validate workflow inputs",
         "workflows",
         wf_read,
         "_object",
         200,
         {},
         ifPresent(
             wf.validate,
             [&wf](const HttpRequest& r) { return wf.validate(r.pathParam("workflow"), r.body); })},

        // Events and webhooks (docs/events.md).
        {"GET",
         "/api/v1/event-subscriptions",
         "api_list_event_subscriptions_api_v1_event_subscriptions_get",
         "List subscriptions",
         "events",
         ws_read,
         "",
         200,
         {},
         ifPresent(
             s.events,
             [&s](const HttpRequest& r) { return s.events->listSubscriptions(r.principal); })},
        {"POST",
         "/api/v1/event-subscriptions",
         "api_create_event_subscription_api_v1_event_subscriptions_post",
         "Create a subscription",
         "events",
         ws_write,
         "SubscriptionInput",
         201,
         {},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->createSubscription(r.principal, r.workspace_id, r.body);
                   })},
        {"DELETE",
         "/api/v1/event-subscriptions/{subscription_id}",
         "api_delete_event_subscription_api_v1_event_subscriptions__subscription_id__delete",
         "Delete a subscription",
         "events",
         ws_write,
         "",
         200,
         {},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->deleteSubscription(r.principal,
                                                           r.pathParam("subscription_id"));
                   })},
        {"POST",
         "/api/v1/event-subscriptions/{subscription_id}/rotate-secret",
         "api_rotate_event_subscription_secret_api_v1_event_subscriptions__subscription_id__"
         "rotate_secret_post",
         "Rotate a subscription's signing secret",
         "events",
         ws_write,
         "",
         200,
         {},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->rotateSecret(r.principal, r.pathParam("subscription_id"));
                   }),
         false,
         true},
        {"GET",
         "/api/v1/events",
         "api_list_events_api_v1_events_get",
         "List events",
         "events",
         ws_read,
         "",
         200,
         {QueryParam{"after", "integer", false, 0, std::nullopt,
                     "the sequence number to read after (next_sequence of the previous page)"},
          stringParam("resource_type"), stringParam("resource_id"), limitParam(500)},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->listEvents(
                           r.principal, r.queryParam("after"), r.queryParam("resource_type"),
                           r.queryParam("resource_id"), std::stoi(r.queryParam("limit", "100")));
                   })},
        {"POST",
         "/api/v1/events/{event_id}/replay",
         "api_replay_event_api_v1_events__event_id__replay_post",
         "Replay an event",
         "events",
         ws_write,
         "",
         202,
         {},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->replay(r.principal, r.pathParam("event_id"));
                   })},
        {"GET",
         "/api/v1/webhook-deliveries",
         "api_list_webhook_deliveries_api_v1_webhook_deliveries_get",
         "List webhook deliveries",
         "events",
         ws_read,
         "",
         200,
         {stringParam("subscription_id"), stringParam("status"), limitParam(500)},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->listDeliveries(r.principal, r.queryParam("subscription_id"),
                                                       r.queryParam("status"),
                                                       std::stoi(r.queryParam("limit", "100")));
                   })},
        {"POST",
         "/api/v1/webhook-deliveries/process-due",
         "api_process_due_webhook_deliveries_api_v1_webhook_deliveries_process_due_post",
         "Deliver due webhooks now",
         "events",
         ws_write,
         "",
         202,
         {limitParam(200)},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->processDue(r.principal,
                                                   std::stoi(r.queryParam("limit", "50")));
                   })},
        {"POST",
         "/api/v1/webhook-deliveries/{delivery_id}/retry",
         "api_retry_webhook_delivery_api_v1_webhook_deliveries__delivery_id__retry_post",
         "Retry a webhook delivery",
         "events",
         ws_write,
         "",
         202,
         {},
         ifPresent(s.events,
                   [&s](const HttpRequest& r) {
                       return s.events->retryDelivery(r.principal, r.pathParam("delivery_id"));
                   })},

        // Artifacts, evaluations, reviews.
        {"GET",
         "/api/v1/artifacts",
         "api_list_artifacts_api_v1_artifacts_get",
         "List artifacts",
         "artifacts",
         doc_read,
         "",
         200,
         {stringParam("workspace_id")},
         ifPresent(s.artifacts,
                   [&s](const HttpRequest& r) {
                       return s.artifacts->list(r.principal,
                                                r.queryParam("workspace_id", r.workspace_id));
                   })},
        {"POST",
         "/api/v1/artifacts",
         "api_create_artifact_api_v1_artifacts_post",
         "Create an artifact",
         "artifacts",
         doc_write,
         "ArtifactInput",
         201,
         {},
         ifPresent(s.artifacts,
                   [&s](const HttpRequest& r) {
                       return s.artifacts->create(r.principal, r.workspace_id, r.body);
                   })},
        {"POST",
         "/api/v1/evaluations",
         "api_run_evaluation_api_v1_evaluations_post",
         "Evaluate an answer",
         "evaluations",
         {"knowledge:query"},
         "EvaluationInput",
         201,
         {},
         [&s](const HttpRequest& r) -> Result<HttpResponse> {
             if (!s.evaluations) {
                 return plugin::Error::unavailable("search_unavailable",
                                                   "this node does not search");
             }
             auto out = s.evaluations->evaluate(r.principal, r.body);
             if (!out) return out.error();
             return HttpResponse::json(std::move(out).value());
         }},
        {"GET",
         "/api/v1/reviews",
         "api_list_reviews_api_v1_reviews_get",
         "List review tasks",
         "reviews",
         wf_read,
         "",
         200,
         {stringParam("status"), limitParam(200)},
         ifPresent(wf.list_reviews,
                   [&wf](const HttpRequest& r) {
                       return wf.list_reviews(r.principal, r.queryParam("status"),
                                              std::stoi(r.queryParam("limit", "50")));
                   })},
        {"POST",
         "/api/v1/reviews",
         "api_create_review_api_v1_reviews_post",
         "Create a review task",
         "reviews",
         {"workflows:write"},
         "ReviewTaskInput",
         201,
         {},
         ifPresent(wf.create_review,
                   [&wf](const HttpRequest& r) { return wf.create_review(r.principal, r.body); })},
        {"POST",
         "/api/v1/reviews/{task_id}/assign",
         "api_assign_review_api_v1_reviews__task_id__assign_post",
         "Take a review task",
         "reviews",
         {"reviews:write"},
         "",
         200,
         {},
         ifPresent(wf.assign_review,
                   [&wf](const HttpRequest& r) {
                       return wf.assign_review(r.principal, r.pathParam("task_id"));
                   })},
        {"POST",
         "/api/v1/reviews/{task_id}/decision",
         "api_decide_review_api_v1_reviews__task_id__decision_post",
         "Decide a review task",
         "reviews",
         {"reviews:approve"},
         "ReviewDecisionInput",
         200,
         {},
         ifPresent(wf.decide_review,
                   [&wf](const HttpRequest& r) {
                       return wf.decide_review(r.principal, r.pathParam("task_id"), r.body);
                   })},
    };

    addOps(router, std::move(ops));
    declareFeatureOperations(router);
}

}  // namespace docintel::http

#include "services/artifact_service.h"

#include <set>

#include "common/id.h"

namespace docintel::services {
namespace {

nlohmann::json nullable(const std::string& s) {
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

plugin::Error documentNotFound() { return {"document_not_found", "document not found", 404}; }

}  // namespace

nlohmann::json ArtifactService::toJson(const storage::Artifact& a) {
    return {{"id", a.id},
            {"artifact_id", a.id},
            {"artifact_type", a.artifact_type},
            {"title", a.title},
            {"content", a.content},
            {"status", a.status},
            {"workspace_id", nullable(a.workspace_id)},
            {"owner_id", a.owner_id},
            {"source_document_ids", a.source_document_ids},
            {"source_trace_id", nullable(a.source_trace_id)},
            {"created_at", a.created_at},
            {"updated_at", a.updated_at}};
}

plugin::Result<nlohmann::json> ArtifactService::create(const plugin::Principal& caller,
                                                       const std::string& header_workspace,
                                                       const nlohmann::json& body) {
    // The body's workspace_id decides (null = personal); absent, the request's context does.
    std::string workspace = header_workspace;
    if (const auto it = body.find("workspace_id"); it != body.end()) {
        workspace = it->is_string() ? it->get<std::string>() : std::string();
    }
    auto scope = access_.scope(caller.user_id, workspace, auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();

    storage::Artifact a;
    a.artifact_type = body.at("artifact_type").get<std::string>();
    a.title = body.at("title").get<std::string>();
    a.content = body.at("content");
    a.status = body.value("status", "draft");
    a.owner_id = caller.user_id;
    a.workspace_id = *scope;
    if (a.content.dump().size() > kMaxContentBytes) {
        return plugin::Error{
            "content_too_large",
            "content may hold at most " + std::to_string(kMaxContentBytes) + " bytes of JSON", 413};
    }

    std::set<std::string> seen;
    for (const auto& id_json : body.value("source_document_ids", nlohmann::json::array())) {
        const std::string id = id_json.get<std::string>();
        if (!common::isUuid(id)) return documentNotFound();
        if (!seen.insert(id).second) continue;  // named twice: kept once
        auto doc = documents_.find(id);
        if (!doc) return doc.error();
        if (!*doc) return documentNotFound();
        if (auto ok = access_.require(caller.user_id, **doc, auth::WorkspaceAction::kRead); !ok) {
            return ok.error();
        }
        // A team artifact naming a personal document (or another workspace's) would tell the
        // team about it.
        if ((*doc)->workspace_id != *scope) {
            return plugin::Error::conflict(
                "scope_mismatch", "document " + id + " is not in the artifact's scope (" +
                                      (scope->empty() ? std::string("personal") : *scope) + ")");
        }
        a.source_document_ids.push_back(id);
    }

    if (const auto it = body.find("source_trace_id"); it != body.end() && it->is_string()) {
        const std::string trace_id = it->get<std::string>();
        if (!trace_id.empty()) {
            if (!traces_) {
                return plugin::Error::unavailable("search_unavailable",
                                                  "this node stores no answer traces");
            }
            auto trace = traces_->findForUser(trace_id, caller.user_id);
            if (!trace) return trace.error();
            if (!*trace) {
                return plugin::Error{"trace_not_found", "no answer of yours has this trace id",
                                     404};
            }
            a.source_trace_id = trace_id;
        }
    }

    auto created = artifacts_.create(a);
    if (!created) return created.error();
    return toJson(*created);
}

plugin::Result<nlohmann::json> ArtifactService::list(const plugin::Principal& caller,
                                                     const std::string& workspace_id) {
    const std::string ws = workspace_id == "personal" ? std::string() : workspace_id;
    auto scope = access_.scope(caller.user_id, ws, auth::WorkspaceAction::kRead);
    if (!scope) return scope.error();
    auto rows = artifacts_.list(caller.user_id, *scope, kListLimit);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& a : *rows) items.push_back(toJson(a));
    return nlohmann::json{
        {"workspace_id", nullable(*scope)}, {"artifacts", items}, {"count", items.size()}};
}

}  // namespace docintel::services

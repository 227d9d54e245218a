#include "services/identity_service.h"

#include "common/id.h"
#include "services/workspace_service.h"

namespace docintel::services {

plugin::Result<nlohmann::json> IdentityService::me(const plugin::Principal& caller) {
    nlohmann::json scopes = caller.scopes;
    if (caller.user_id.empty()) {
        return nlohmann::json{
            {"type", "client"}, {"client_id", caller.client_id}, {"scopes", scopes}};
    }
    auto user = users_.findById(caller.user_id);
    if (!user) return user.error();
    if (!user->has_value()) return plugin::Error::unauthorized("the token's user no longer exists");
    const auto& u = **user;
    return nlohmann::json{{"type", "user"},
                          {"id", u.id},
                          {"user_id", u.id},
                          {"email", u.email},
                          {"display_name", u.display_name},
                          {"is_admin", u.is_admin},
                          {"scopes", scopes},
                          {"active_workspace_id", u.active_workspace_id.empty()
                                                      ? nlohmann::json(nullptr)
                                                      : nlohmann::json(u.active_workspace_id)},
                          {"created_at", u.created_at}};
}

plugin::Result<nlohmann::json> IdentityService::myWorkspaces(const plugin::Principal& caller) {
    auto rows = workspaces_.listForUser(caller.user_id);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& w : *rows) items.push_back(WorkspaceService::toJson(w));
    return nlohmann::json{
        {"personal", {{"workspace_id", nullptr}, {"name", "Personal"}, {"role", "owner"}}},
        {"workspaces", items},
        {"count", items.size()}};
}

plugin::Result<nlohmann::json> IdentityService::selectContext(const plugin::Principal& caller,
                                                              const std::string& workspace_id) {
    const bool personal = workspace_id.empty() || workspace_id == "personal";
    if (!personal) {
        if (!common::isUuid(workspace_id)) {
            return plugin::Error{"workspace_not_found", "workspace not found", 404};
        }
        auto role = access_.require(caller.user_id, workspace_id, auth::WorkspaceAction::kRead);
        if (!role) return role.error();
    }
    if (auto r = users_.setActiveWorkspace(caller.user_id, personal ? "" : workspace_id); !r) {
        return r.error();
    }
    return nlohmann::json{
        {"workspace_id", personal ? nlohmann::json(nullptr) : nlohmann::json(workspace_id)},
        {"scope", personal ? "personal" : "workspace"},
        {"header", {{"X-DocIntel-Workspace-ID", personal ? "personal" : workspace_id}}}};
}

}  // namespace docintel::services

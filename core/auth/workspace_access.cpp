#include "auth/workspace_access.h"

#include "common/id.h"

namespace docintel::auth {

plugin::Result<WorkspaceRole> WorkspaceAccess::require(const std::string& user_id,
                                                       const std::string& workspace_id,
                                                       WorkspaceAction action) const {
    if (user_id.empty()) {
        return plugin::Error::forbidden("forbidden", "workspaces need a user token");
    }
    // Not a UUID: no such workspace (Postgres would refuse the value: a 500, not a 404).
    if (!common::isUuid(workspace_id)) return decide(std::nullopt, action);
    auto role_text = workspaces_.roleOf(workspace_id, user_id);
    if (!role_text) return role_text.error();
    return decide(*role_text, action);
}

plugin::Result<WorkspaceRole> WorkspaceAccess::decide(const std::optional<std::string>& role_text,
                                                      WorkspaceAction action) {
    if (!role_text) return plugin::Error{"workspace_not_found", "workspace not found", 404};
    const auto role = parseWorkspaceRole(*role_text);
    if (!role) return plugin::Error::internal("unknown role");
    if (!allows(*role, action)) {
        return plugin::Error::forbidden("forbidden", "your role (" + toString(*role) +
                                                         ") does not allow this in the workspace");
    }
    return *role;
}

}  // namespace docintel::auth

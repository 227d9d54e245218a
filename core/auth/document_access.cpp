#include "auth/document_access.h"

namespace docintel::auth {

plugin::Status DocumentAccess::require(const std::string& user_id,
                                       const storage::Document& document,
                                       WorkspaceAction action) const {
    const plugin::Error hidden{"document_not_found", "document not found", 404};
    if (user_id.empty()) return hidden;
    if (document.workspace_id.empty()) {
        if (document.owner_id != user_id) return hidden;
        return {};
    }
    auto role = workspaces_.require(user_id, document.workspace_id, action);
    if (!role) return role.error().http_status == 404 ? hidden : role.error();
    return {};
}

plugin::Result<std::string> DocumentAccess::scope(const std::string& user_id,
                                                  const std::string& workspace_id,
                                                  WorkspaceAction action) const {
    if (user_id.empty()) {
        return plugin::Error::forbidden("forbidden", "documents need a user token");
    }
    if (workspace_id.empty()) return std::string();
    auto role = workspaces_.require(user_id, workspace_id, action);
    if (!role) return role.error();
    return workspace_id;
}

}  // namespace docintel::auth

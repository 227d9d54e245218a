#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "auth/workspace_access.h"
#include "plugin_api/http_types.h"
#include "storage/user_repository.h"
#include "storage/workspace_repository.h"

namespace docintel::services {

/// Who the caller is, which workspaces they can act in, and their remembered workspace
/// context. Thread-safe.
class IdentityService {
  public:
    IdentityService(storage::UserRepository& users, storage::WorkspaceRepository& workspaces,
                    const auth::WorkspaceAccess& access)
        : users_(users), workspaces_(workspaces), access_(access) {}

    plugin::Result<nlohmann::json> me(const plugin::Principal& caller);
    plugin::Result<nlohmann::json> myWorkspaces(const plugin::Principal& caller);
    /// Remembers `workspace_id` (empty or "personal" = personal scope) as the caller's
    /// context after checking membership; returns the context and the header to send.
    plugin::Result<nlohmann::json> selectContext(const plugin::Principal& caller,
                                                 const std::string& workspace_id);

  private:
    storage::UserRepository& users_;
    storage::WorkspaceRepository& workspaces_;
    const auth::WorkspaceAccess& access_;
};

}  // namespace docintel::services

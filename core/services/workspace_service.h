#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "auth/workspace_access.h"
#include "plugin_api/http_types.h"
#include "storage/user_repository.h"
#include "storage/workspace_repository.h"

namespace docintel::services {

/// Team workspaces: create, list, read, rename, delete, leave, and membership. Every call
/// asks WorkspaceAccess first; results are JSON records shared by REST and MCP. Thread-safe.
class WorkspaceService {
  public:
    WorkspaceService(storage::WorkspaceRepository& workspaces, storage::UserRepository& users,
                     const auth::WorkspaceAccess& access)
        : workspaces_(workspaces), users_(users), access_(access) {}

    plugin::Result<nlohmann::json> create(const plugin::Principal& caller, const std::string& name);
    plugin::Result<nlohmann::json> list(const plugin::Principal& caller);
    plugin::Result<nlohmann::json> get(const plugin::Principal& caller, const std::string& id);
    plugin::Result<nlohmann::json> rename(const plugin::Principal& caller, const std::string& id,
                                          const std::string& name);
    plugin::Result<nlohmann::json> remove(const plugin::Principal& caller, const std::string& id);
    plugin::Result<nlohmann::json> leave(const plugin::Principal& caller, const std::string& id);
    plugin::Result<nlohmann::json> addMember(const plugin::Principal& caller, const std::string& id,
                                             const std::string& email, const std::string& role);
    plugin::Result<nlohmann::json> updateMember(const plugin::Principal& caller,
                                                const std::string& id, const std::string& user_id,
                                                const std::string& role);
    plugin::Result<nlohmann::json> removeMember(const plugin::Principal& caller,
                                                const std::string& id, const std::string& user_id);

    static nlohmann::json toJson(const storage::Workspace& w);
    static nlohmann::json toJson(const storage::WorkspaceMember& m);

  private:
    storage::WorkspaceRepository& workspaces_;
    storage::UserRepository& users_;
    const auth::WorkspaceAccess& access_;
};

}  // namespace docintel::services

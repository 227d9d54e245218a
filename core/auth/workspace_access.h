#pragma once

#include <string>

#include "auth/workspace_role.h"
#include "plugin_api/result.h"
#include "storage/workspace_repository.h"

namespace docintel::auth {

/// The one place that decides whether a user may act in a team workspace. A user who is not a
/// member gets `workspace_not_found` (404), so workspace ids do not leak; a member whose role
/// lacks the action gets `forbidden` (403) naming the role needed. Thread-safe.
class WorkspaceAccess {
  public:
    explicit WorkspaceAccess(storage::WorkspaceRepository& workspaces) : workspaces_(workspaces) {}

    /// Looks up the caller's membership and decides.
    plugin::Result<WorkspaceRole> require(const std::string& user_id,
                                          const std::string& workspace_id,
                                          WorkspaceAction action) const;

    /// Decides from a membership already read (nullopt = not a member), for services whose
    /// scoped read returns the caller's role with the data.
    static plugin::Result<WorkspaceRole> decide(const std::optional<std::string>& role_text,
                                                WorkspaceAction action);

  private:
    storage::WorkspaceRepository& workspaces_;
};

}  // namespace docintel::auth

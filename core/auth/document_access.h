#pragma once

#include <string>

#include "auth/workspace_access.h"
#include "plugin_api/result.h"
#include "storage/document_repository.h"

namespace docintel::auth {

/// Who may see or change a document: its owner when it is personal; a workspace member whose
/// role allows the action when it belongs to a workspace. A document the caller cannot see is
/// `document_not_found` (404). Thread-safe.
class DocumentAccess {
  public:
    explicit DocumentAccess(const WorkspaceAccess& workspaces) : workspaces_(workspaces) {}

    plugin::Status require(const std::string& user_id, const storage::Document& document,
                           WorkspaceAction action) const;

    /// The scope a list or a new document uses: `workspace_id` after checking the caller's
    /// role there, or "" (the caller's personal scope) when `workspace_id` is empty.
    plugin::Result<std::string> scope(const std::string& user_id, const std::string& workspace_id,
                                      WorkspaceAction action) const;

  private:
    const WorkspaceAccess& workspaces_;
};

}  // namespace docintel::auth

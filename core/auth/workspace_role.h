#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace docintel::auth {

enum class WorkspaceRole { kOwner, kEditor, kViewer };

std::string toString(WorkspaceRole role);
std::optional<WorkspaceRole> parseWorkspaceRole(std::string_view text);

/// What a member may do in a team workspace. The matrix (docs/authorization.md) lives in
/// `allows` only.
enum class WorkspaceAction {
    kRead,             ///< see the workspace, its members and its documents
    kAsk,              ///< ask questions, read answers and summaries
    kManageDocuments,  ///< upload, version, re-embed, delete documents
    kRunWorkflows,     ///< start runs, save reviews
    kRename,
    kManageMembers,  ///< add, re-role and remove other members
    kDelete,
};

bool allows(WorkspaceRole role, WorkspaceAction action);

}  // namespace docintel::auth

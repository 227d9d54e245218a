#include "auth/workspace_role.h"

namespace docintel::auth {

std::string toString(WorkspaceRole role) {
    switch (role) {
        case WorkspaceRole::kOwner:
            return "owner";
        case WorkspaceRole::kEditor:
            return "editor";
        case WorkspaceRole::kViewer:
            return "viewer";
    }
    return "viewer";
}

std::optional<WorkspaceRole> parseWorkspaceRole(std::string_view text) {
    if (text == "owner") return WorkspaceRole::kOwner;
    if (text == "editor") return WorkspaceRole::kEditor;
    if (text == "viewer") return WorkspaceRole::kViewer;
    return std::nullopt;
}

bool allows(WorkspaceRole role, WorkspaceAction action) {
    switch (action) {
        case WorkspaceAction::kRead:
        case WorkspaceAction::kAsk:
            return true;
        case WorkspaceAction::kManageDocuments:
        case WorkspaceAction::kRunWorkflows:
            return role == WorkspaceRole::kOwner || role == WorkspaceRole::kEditor;
        case WorkspaceAction::kRename:
        case WorkspaceAction::kManageMembers:
        case WorkspaceAction::kDelete:
            return role == WorkspaceRole::kOwner;
    }
    return false;
}

}  // namespace docintel::auth

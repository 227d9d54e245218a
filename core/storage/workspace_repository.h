#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct WorkspaceMember {
    std::string user_id;
    std::string email;
    std::string display_name;
    std::string role;
    std::string added_at;
};

struct Workspace {
    std::string id;
    std::string name;
    std::string created_by;
    std::string created_at;
    std::string updated_at;
    std::string role;  ///< the asking user's role, when read for a user
    long long member_count = 0;
    std::vector<WorkspaceMember> members;  ///< filled by findForUser only
};

/// Team workspaces and their members. Every read that serves a user takes that user's id and
/// returns only workspaces the user belongs to. Role changes and removals that could leave a
/// workspace without an owner run under a row lock on the workspace and fail with
/// `last_owner` (409). Thread-safe.
class WorkspaceRepository {
  public:
    explicit WorkspaceRepository(Database& db) : db_(db) {}

    /// Creates a workspace with `owner_id` as its owner.
    plugin::Result<Workspace> create(const std::string& name, const std::string& owner_id);
    /// The workspaces `user_id` belongs to, with their role, newest first.
    plugin::Result<std::vector<Workspace>> listForUser(const std::string& user_id);
    /// The workspace with its members as seen by member `user_id`; nullopt when absent or
    /// not a member.
    plugin::Result<std::optional<Workspace>> findForUser(const std::string& workspace_id,
                                                         const std::string& user_id);
    /// The role of `user_id` in the workspace; nullopt when not a member (or no workspace).
    plugin::Result<std::optional<std::string>> roleOf(const std::string& workspace_id,
                                                      const std::string& user_id);
    plugin::Result<Workspace> rename(const std::string& workspace_id, const std::string& name);
    /// Deletes the workspace and, by cascade, everything that belongs to it.
    plugin::Status remove(const std::string& workspace_id);

    /// `conflict` when already a member.
    plugin::Result<WorkspaceMember> addMember(const std::string& workspace_id,
                                              const std::string& user_id, const std::string& role);
    /// `not_found` when not a member, `last_owner` when it would leave no owner.
    plugin::Result<WorkspaceMember> setRole(const std::string& workspace_id,
                                            const std::string& user_id, const std::string& role);
    plugin::Status removeMember(const std::string& workspace_id, const std::string& user_id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

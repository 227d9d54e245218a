#include "storage/workspace_repository.h"

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_WS_COLUMNS                                            \
    "w.id, w.name, w.created_by, w.created_at, w.updated_at, m.role, " \
    "(SELECT count(*) FROM workspace_members c WHERE c.workspace_id = w.id)"
#define DOCINTEL_MEMBER_COLUMNS "m.user_id, u.email, u.display_name, m.role, m.added_at"

constexpr Statement kInsert{
    "workspace_insert",
    "WITH w AS (INSERT INTO workspaces (id, name, created_by) VALUES ($1, $2, $3) RETURNING *), "
    "m AS (INSERT INTO workspace_members (workspace_id, user_id, role) "
    "      SELECT id, $3, 'owner' FROM w RETURNING role) "
    "SELECT w.id, w.name, w.created_by, w.created_at, w.updated_at, m.role, 1 FROM w, m"};
constexpr Statement kListForUser{
    "workspace_list_for_user",
    "SELECT " DOCINTEL_WS_COLUMNS
    " FROM workspaces w JOIN workspace_members m "
    "ON m.workspace_id = w.id WHERE m.user_id = $1 ORDER BY w.created_at DESC, w.id"};
// One round trip, one row per member: the workspace, the caller's role, then the member.
constexpr Statement kFindForUser{
    "workspace_find_for_user",
    "SELECT w.id, w.name, w.created_by, w.created_at, w.updated_at, m.role, 0, "
    "a.user_id, u.email, u.display_name, a.role, a.added_at"
    " FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $2 "
    "JOIN workspace_members a ON a.workspace_id = w.id JOIN users u ON u.id = a.user_id "
    "WHERE w.id = $1 ORDER BY a.added_at, u.email"};
constexpr Statement kRoleOf{
    "workspace_role_of",
    "SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2"};
constexpr Statement kRename{
    "workspace_rename",
    "UPDATE workspaces SET name = $2, updated_at = now() WHERE id = $1 RETURNING id, name, "
    "created_by, created_at, updated_at, '', "
    "(SELECT count(*) FROM workspace_members c WHERE c.workspace_id = id)"};
constexpr Statement kDelete{"workspace_delete", "DELETE FROM workspaces WHERE id = $1"};
constexpr Statement kAddMember{
    "workspace_add_member",
    "WITH m AS (INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3) "
    "RETURNING *) SELECT " DOCINTEL_MEMBER_COLUMNS " FROM m JOIN users u ON u.id = m.user_id"};
constexpr Statement kLockWorkspace{"workspace_lock",
                                   "SELECT 1 FROM workspaces WHERE id = $1 FOR UPDATE"};
constexpr Statement kOwnersExcept{
    "workspace_owners_except",
    "SELECT count(*) FROM workspace_members WHERE workspace_id = $1 AND role = 'owner' "
    "AND user_id <> $2"};
constexpr Statement kSetRole{
    "workspace_set_role",
    "WITH m AS (UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2 "
    "RETURNING *) SELECT " DOCINTEL_MEMBER_COLUMNS " FROM m JOIN users u ON u.id = m.user_id"};
constexpr Statement kRemoveMember{
    "workspace_remove_member",
    "DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2"};
constexpr Statement kForgetContext{
    "workspace_forget_context",
    "UPDATE users SET active_workspace_id = NULL WHERE id = $2 AND active_workspace_id = $1"};

#undef DOCINTEL_WS_COLUMNS
#undef DOCINTEL_MEMBER_COLUMNS

Workspace rowToWorkspace(const pqxx::row& r) {
    return Workspace{
        r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(""), isoTime(r[3]),
        isoTime(r[4]),          r[5].as<std::string>(), r[6].as<long long>(),     {}};
}

/// The member whose columns start at `first` (see DOCINTEL_MEMBER_COLUMNS).
WorkspaceMember rowToMember(const pqxx::row& r, pqxx::row::size_type first = 0) {
    return WorkspaceMember{r[first].as<std::string>(), r[first + 1].as<std::string>(),
                           r[first + 2].as<std::string>(), r[first + 3].as<std::string>(),
                           isoTime(r[first + 4])};
}

/// Refuses a change that would leave the workspace without an owner. Locks the workspace row
/// so two concurrent demotions cannot both pass.
plugin::Status keepAnOwner(Tx& tx, const std::string& workspace_id, const std::string& user_id) {
    tx.exec(kLockWorkspace, workspace_id);
    const auto current = tx.exec(kRoleOf, workspace_id, user_id);
    if (current.empty()) return plugin::Error::notFound("no such member");
    if (current[0][0].as<std::string>() != "owner") return {};
    if (tx.exec(kOwnersExcept, workspace_id, user_id)[0][0].as<long long>() == 0) {
        return plugin::Error::conflict("last_owner", "a workspace must keep at least one owner");
    }
    return {};
}

}  // namespace

plugin::Result<Workspace> WorkspaceRepository::create(const std::string& name,
                                                      const std::string& owner_id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<Workspace> {
        return rowToWorkspace(tx.exec(kInsert, common::newUuid(), name, owner_id)[0]);
    });
}

plugin::Result<std::vector<Workspace>> WorkspaceRepository::listForUser(
    const std::string& user_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Workspace>> {
        std::vector<Workspace> out;
        for (const auto& row : tx.exec(kListForUser, user_id)) out.push_back(rowToWorkspace(row));
        return out;
    });
}

plugin::Result<std::optional<Workspace>> WorkspaceRepository::findForUser(
    const std::string& workspace_id, const std::string& user_id) {
    if (user_id.empty()) return std::optional<Workspace>();  // no user: sees no workspace
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Workspace>> {
        const auto rows = tx.exec(kFindForUser, workspace_id, user_id);
        if (rows.empty()) return std::optional<Workspace>();
        Workspace w = rowToWorkspace(rows[0]);
        for (const auto& row : rows) w.members.push_back(rowToMember(row, 7));
        w.member_count = static_cast<long long>(w.members.size());
        return std::optional<Workspace>(std::move(w));
    });
}

plugin::Result<std::optional<std::string>> WorkspaceRepository::roleOf(
    const std::string& workspace_id, const std::string& user_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<std::string>> {
        const auto rows = tx.exec(kRoleOf, workspace_id, user_id);
        if (rows.empty()) return std::optional<std::string>();
        return std::optional<std::string>(rows[0][0].as<std::string>());
    });
}

plugin::Result<Workspace> WorkspaceRepository::rename(const std::string& workspace_id,
                                                      const std::string& name) {
    return db_.transact([&](Tx& tx) -> plugin::Result<Workspace> {
        const auto rows = tx.exec(kRename, workspace_id, name);
        if (rows.empty()) return plugin::Error::notFound("workspace not found");
        return rowToWorkspace(rows[0]);
    });
}

plugin::Status WorkspaceRepository::remove(const std::string& workspace_id) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kDelete, workspace_id).affected_rows() == 0) {
            return plugin::Error::notFound("workspace not found");
        }
        return true;
    }));
}

plugin::Result<WorkspaceMember> WorkspaceRepository::addMember(const std::string& workspace_id,
                                                               const std::string& user_id,
                                                               const std::string& role) {
    auto r = db_.transact([&](Tx& tx) -> plugin::Result<WorkspaceMember> {
        return rowToMember(tx.exec(kAddMember, workspace_id, user_id, role)[0]);
    });
    if (!r && r.error().code == "conflict") {
        return plugin::Error::conflict("already_member", "the user is already a member");
    }
    return r;
}

plugin::Result<WorkspaceMember> WorkspaceRepository::setRole(const std::string& workspace_id,
                                                             const std::string& user_id,
                                                             const std::string& role) {
    return db_.transact([&](Tx& tx) -> plugin::Result<WorkspaceMember> {
        if (role != "owner") {
            if (auto ok = keepAnOwner(tx, workspace_id, user_id); !ok) return ok.error();
        }
        const auto rows = tx.exec(kSetRole, workspace_id, user_id, role);
        if (rows.empty()) return plugin::Error::notFound("no such member");
        return rowToMember(rows[0]);
    });
}

plugin::Status WorkspaceRepository::removeMember(const std::string& workspace_id,
                                                 const std::string& user_id) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (auto ok = keepAnOwner(tx, workspace_id, user_id); !ok) return ok.error();
        tx.exec(kRemoveMember, workspace_id, user_id);
        tx.exec(kForgetContext, workspace_id, user_id);
        return true;
    }));
}

}  // namespace docintel::storage

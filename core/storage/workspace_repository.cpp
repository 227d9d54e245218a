#include "storage/workspace_repository.h"

#include <nlohmann/json.hpp>

#include "common/id.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_WS_COLUMNS                                                         \
    "w.id::text, w.name, coalesce(w.created_by::text, ''), iso_utc(w.created_at), " \
    "iso_utc(w.updated_at), m.role, "                                               \
    "(SELECT count(*) FROM workspace_members c WHERE c.workspace_id = w.id)"
#define DOCINTEL_MEMBER_COLUMNS \
    "m.user_id::text, u.email, u.display_name, m.role, iso_utc(m.added_at)"

constexpr Statement kInsert{
    "workspace_insert",
    "WITH w AS (INSERT INTO workspaces (id, name, created_by) VALUES ($1, $2, $3) RETURNING *), "
    "m AS (INSERT INTO workspace_members (workspace_id, user_id, role) "
    "      SELECT id, $3, 'owner' FROM w RETURNING role) "
    "SELECT w.id::text, w.name, coalesce(w.created_by::text, ''), iso_utc(w.created_at), "
    "iso_utc(w.updated_at), m.role, 1 FROM w, m"};
constexpr Statement kListForUser{
    "workspace_list_for_user",
    "SELECT " DOCINTEL_WS_COLUMNS
    " FROM workspaces w JOIN workspace_members m "
    "ON m.workspace_id = w.id WHERE m.user_id = $1 ORDER BY w.created_at DESC, w.id"};
// One round trip: the workspace, the caller's role and all members (as JSON).
constexpr Statement kFindForUser{
    "workspace_find_for_user",
    "SELECT " DOCINTEL_WS_COLUMNS
    ", (SELECT coalesce(json_agg(json_build_object('user_id', a.user_id, 'email', u.email, "
    "'display_name', u.display_name, 'role', a.role, 'added_at', iso_utc(a.added_at)) "
    "ORDER BY a.added_at, u.email), '[]') FROM workspace_members a JOIN users u ON u.id = "
    "a.user_id WHERE a.workspace_id = w.id) FROM workspaces w JOIN workspace_members m "
    "ON m.workspace_id = w.id WHERE w.id = $1 AND m.user_id = $2"};
constexpr Statement kRoleOf{
    "workspace_role_of",
    "SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2"};
constexpr Statement kRename{
    "workspace_rename",
    "UPDATE workspaces SET name = $2, updated_at = now() WHERE id = $1 RETURNING id::text, name, "
    "coalesce(created_by::text, ''), iso_utc(created_at), iso_utc(updated_at), '', "
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
    return Workspace{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                     r[3].as<std::string>(), r[4].as<std::string>(), r[5].as<std::string>(),
                     r[6].as<long long>(), {}};
}

WorkspaceMember rowToMember(const pqxx::row& r) {
    return WorkspaceMember{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                           r[3].as<std::string>(), r[4].as<std::string>()};
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
        for (const auto& m : nlohmann::json::parse(rows[0][7].c_str())) {
            w.members.push_back(WorkspaceMember{m["user_id"], m["email"], m["display_name"],
                                                m["role"], m["added_at"]});
        }
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
    auto r = db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (tx.exec(kDelete, workspace_id).affected_rows() == 0) {
            return plugin::Error::notFound("workspace not found");
        }
        return true;
    });
    if (!r) return r.error();
    return {};
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
    auto r = db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (auto ok = keepAnOwner(tx, workspace_id, user_id); !ok) return ok.error();
        tx.exec(kRemoveMember, workspace_id, user_id);
        tx.exec(kForgetContext, workspace_id, user_id);
        return true;
    });
    if (!r) return r.error();
    return {};
}

}  // namespace docintel::storage

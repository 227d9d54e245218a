#include "services/workspace_service.h"

namespace docintel::services {

using auth::WorkspaceAction;

nlohmann::json WorkspaceService::toJson(const storage::Workspace& w) {
    nlohmann::json j = {{"id", w.id},
                        {"workspace_id", w.id},
                        {"name", w.name},
                        {"created_by", w.created_by},
                        {"created_at", w.created_at},
                        {"updated_at", w.updated_at},
                        {"member_count", w.member_count}};
    if (!w.role.empty()) j["role"] = w.role;
    return j;
}

nlohmann::json WorkspaceService::toJson(const storage::WorkspaceMember& m) {
    return {{"user_id", m.user_id},
            {"email", m.email},
            {"display_name", m.display_name},
            {"role", m.role},
            {"added_at", m.added_at}};
}

plugin::Result<nlohmann::json> WorkspaceService::create(const plugin::Principal& caller,
                                                        const std::string& name) {
    if (caller.user_id.empty()) {
        return plugin::Error::forbidden("forbidden", "workspaces need a user token");
    }
    auto w = workspaces_.create(name, caller.user_id);
    if (!w) return w.error();
    return toJson(*w);
}

plugin::Result<nlohmann::json> WorkspaceService::list(const plugin::Principal& caller) {
    auto rows = workspaces_.listForUser(caller.user_id);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& w : *rows) items.push_back(toJson(w));
    return nlohmann::json{{"workspaces", items}, {"count", items.size()}};
}

plugin::Result<nlohmann::json> WorkspaceService::get(const plugin::Principal& caller,
                                                     const std::string& id) {
    // The scoped read returns the caller's role with the data: one round trip on this hot path.
    auto w = workspaces_.findForUser(id, caller.user_id);
    if (!w) return w.error();
    const auto role = *w ? std::optional<std::string>((*w)->role) : std::nullopt;
    if (auto ok = auth::WorkspaceAccess::decide(role, WorkspaceAction::kRead); !ok) {
        return ok.error();
    }
    nlohmann::json j = toJson(**w);
    j["members"] = nlohmann::json::array();
    for (const auto& m : (*w)->members) j["members"].push_back(toJson(m));
    return j;
}

plugin::Result<nlohmann::json> WorkspaceService::rename(const plugin::Principal& caller,
                                                        const std::string& id,
                                                        const std::string& name) {
    auto role = access_.require(caller.user_id, id, WorkspaceAction::kRename);
    if (!role) return role.error();
    auto w = workspaces_.rename(id, name);
    if (!w) return w.error();
    nlohmann::json j = toJson(*w);
    j["role"] = auth::toString(*role);
    return j;
}

plugin::Result<nlohmann::json> WorkspaceService::remove(const plugin::Principal& caller,
                                                        const std::string& id) {
    if (auto ok = access_.require(caller.user_id, id, WorkspaceAction::kDelete); !ok) {
        return ok.error();
    }
    if (auto r = workspaces_.remove(id); !r) return r.error();
    return nlohmann::json{{"deleted", true}, {"workspace_id", id}};
}

plugin::Result<nlohmann::json> WorkspaceService::leave(const plugin::Principal& caller,
                                                       const std::string& id) {
    if (auto ok = access_.require(caller.user_id, id, WorkspaceAction::kRead); !ok) {
        return ok.error();
    }
    if (auto r = workspaces_.removeMember(id, caller.user_id); !r) return r.error();
    return nlohmann::json{{"left", true}, {"workspace_id", id}};
}

plugin::Result<nlohmann::json> WorkspaceService::addMember(const plugin::Principal& caller,
                                                           const std::string& id,
                                                           const std::string& email,
                                                           const std::string& role) {
    if (auto ok = access_.require(caller.user_id, id, WorkspaceAction::kManageMembers); !ok) {
        return ok.error();
    }
    auto user = users_.findByEmail(email);
    if (!user) return user.error();
    if (!user->has_value()) {
        return plugin::Error{"user_not_found", "no user with this e-mail", 404};
    }
    auto m = workspaces_.addMember(id, (*user)->id, role);
    if (!m) return m.error();
    return toJson(*m);
}

plugin::Result<nlohmann::json> WorkspaceService::updateMember(const plugin::Principal& caller,
                                                              const std::string& id,
                                                              const std::string& user_id,
                                                              const std::string& role) {
    if (auto ok = access_.require(caller.user_id, id, WorkspaceAction::kManageMembers); !ok) {
        return ok.error();
    }
    auto m = workspaces_.setRole(id, user_id, role);
    if (!m) return m.error();
    return toJson(*m);
}

plugin::Result<nlohmann::json> WorkspaceService::removeMember(const plugin::Principal& caller,
                                                              const std::string& id,
                                                              const std::string& user_id) {
    if (auto ok = access_.require(caller.user_id, id, WorkspaceAction::kManageMembers); !ok) {
        return ok.error();
    }
    if (auto r = workspaces_.removeMember(id, user_id); !r) return r.error();
    return nlohmann::json{{"removed", true}, {"workspace_id", id}, {"user_id", user_id}};
}

}  // namespace docintel::services

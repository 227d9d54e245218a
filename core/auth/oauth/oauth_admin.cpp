#include "auth/oauth/oauth_admin.h"

#include "auth/oauth/cidr.h"
#include "auth/oauth/client_registry.h"
#include "auth/oauth/token_cipher.h"
#include "auth/password_hasher.h"
#include "auth/workspace_role.h"
#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"

namespace docintel::auth::oauth {
namespace {

plugin::Error invalid(const std::string& why) {
    return plugin::Error::badRequest("invalid_request", why);
}

nlohmann::json requestJson(const storage::AccessRequest& r) {
    return {
        {"id", r.id},
        {"user_id", r.user_id},
        {"email", r.email},
        {"client_id", r.client_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.client_id)},
        {"client_name", r.client_name},
        {"scope", r.scope},
        {"status", r.status},
        {"created_at", r.created_at},
        {"decided_at",
         r.decided_at.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.decided_at)}};
}

}  // namespace

std::vector<std::string> stringList(const nlohmann::json& value) {
    std::vector<std::string> out;
    if (value.is_array()) {
        for (const auto& v : value) {
            if (v.is_string() && !v.get<std::string>().empty()) out.push_back(v.get<std::string>());
        }
    } else if (value.is_string()) {
        std::string text = value.get<std::string>();
        for (char& c : text) {
            if (c == ',') c = ' ';
        }
        out = splitScope(text);
    }
    return out;
}

OAuthAdmin::OAuthAdmin(const OAuthSettings& settings, storage::UserRepository& users,
                       storage::OAuthAccountRepository& accounts,
                       storage::OAuthClientRepository& clients,
                       storage::OAuthGrantRepository& grants, RevocationList& revocations)
    : settings_(settings),
      users_(users),
      accounts_(accounts),
      clients_(clients),
      grants_(grants),
      revocations_(revocations) {}

plugin::Status OAuthAdmin::requireAdmin(const plugin::Principal& principal) {
    const plugin::Error refused =
        plugin::Error::forbidden("forbidden", "administrator access is required");
    if (principal.user_id.empty()) return refused;
    auto account = accounts_.findById(principal.user_id);
    if (!account) return account.error();
    if (!account->has_value() || !(*account)->is_admin || (*account)->disabled ||
        (*account)->kind != "person") {
        return refused;
    }
    return {};
}

plugin::Result<std::string> OAuthAdmin::resolveUser(const std::string& id_or_email) {
    auto account = common::isUuid(id_or_email) ? accounts_.findById(id_or_email)
                                               : accounts_.findByEmail(id_or_email);
    if (!account) return account.error();
    if (!account->has_value()) return plugin::Error::notFound("user not found");
    return (*account)->id;
}

plugin::Result<std::vector<std::string>> OAuthAdmin::checkScopes(
    const std::vector<std::string>& scopes) {
    if (const auto unknown = difference(scopes, settings_.scopes_supported); !unknown.empty()) {
        return plugin::Error::badRequest("invalid_scope", "unknown scope " + joinScope(unknown));
    }
    return scopes;
}

plugin::Result<nlohmann::json> OAuthAdmin::createUser(const nlohmann::json& body) {
    if (!body.is_object()) return invalid("body must be an object");
    const std::string email = body.value("email", "");
    const std::string password = body.value("password", "");
    if (email.find('@') == std::string::npos || email.size() > 320) {
        return invalid("email must be an e-mail address");
    }
    if (password.size() < 10) return invalid("password must have at least 10 characters");
    auto user = users_.create(email, body.value("display_name", ""), PasswordHasher::hash(password),
                              body.value("is_admin", false));
    if (!user) return user.error();
    if (body.value("mfa_enabled", false)) (void)accounts_.setMfa(user->id, true);
    if (body.contains("scopes")) {
        auto scopes = checkScopes(stringList(body["scopes"]));
        if (!scopes) return scopes.error();
        if (auto g = accounts_.grantScopes(user->id, *scopes, ""); !g) return g.error();
    }
    return getUser(user->id);
}

nlohmann::json OAuthAdmin::userJson(const storage::Account& a,
                                    const std::vector<std::string>& scopes) {
    return nlohmann::json{{"id", a.id},
                          {"email", a.email},
                          {"display_name", a.display_name},
                          {"is_admin", a.is_admin},
                          {"kind", a.kind},
                          {"mfa_enabled", a.mfa_enabled},
                          {"disabled", a.disabled},
                          {"scopes", a.is_admin ? settings_.scopes_supported : scopes}};
}

plugin::Result<nlohmann::json> OAuthAdmin::getUser(const std::string& user_id) {
    auto account = accounts_.findById(user_id);
    if (!account) return account.error();
    if (!account->has_value()) return plugin::Error::notFound("user not found");
    const auto& a = **account;
    auto scopes = accounts_.grantedScopes(a.id);
    if (!scopes) return scopes.error();
    return userJson(a, *scopes);
}

plugin::Result<nlohmann::json> OAuthAdmin::listUsers() {
    auto people = accounts_.listPeople();
    if (!people) return people.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& a : *people) {
        auto scopes = accounts_.grantedScopes(a.id);
        if (!scopes) return scopes.error();
        items.push_back(userJson(a, *scopes));
    }
    return nlohmann::json{{"items", items}, {"count", items.size()}};
}

plugin::Result<nlohmann::json> OAuthAdmin::updateUser(const std::string& user_id,
                                                      const nlohmann::json& body) {
    if (!body.is_object()) return invalid("body must be an object");
    auto current = getUser(user_id);
    if (!current) return current.error();
    if (const auto m = body.find("mfa_enabled"); m != body.end()) {
        if (!m->is_boolean()) return invalid("mfa_enabled must be a boolean");
        if (auto r = accounts_.setMfa(user_id, m->get<bool>()); !r) return r.error();
    }
    if (const auto d = body.find("disabled"); d != body.end()) {
        if (!d->is_boolean()) return invalid("disabled must be a boolean");
        if (auto r = accounts_.setDisabled(user_id, d->get<bool>()); !r) return r.error();
        if (d->get<bool>()) {
            auto n = grants_.revokeUser(user_id, "user_disabled");
            if (!n) return n.error();
            revocations_.refresh();
            common::log(common::LogLevel::kInfo, "oauth_user_disabled",
                        {{"user_id", user_id}, {"access_tokens_revoked", std::to_string(*n)}});
        }
    }
    return getUser(user_id);
}

plugin::Result<nlohmann::json> OAuthAdmin::grantScopes(const std::string& user_id,
                                                       const std::vector<std::string>& scopes,
                                                       const std::string& actor) {
    auto checked = checkScopes(scopes);
    if (!checked) return checked.error();
    if (auto current = getUser(user_id); !current) return current.error();
    if (auto g = accounts_.grantScopes(user_id, *checked, actor); !g) return g.error();
    return getUser(user_id);
}

plugin::Result<nlohmann::json> OAuthAdmin::revokeScopes(const std::string& user_id,
                                                        const std::vector<std::string>& scopes,
                                                        const std::string& actor) {
    if (auto current = getUser(user_id); !current) return current.error();
    if (auto r = accounts_.revokeScopes(user_id, scopes, actor); !r) return r.error();
    return getUser(user_id);
}

plugin::Result<nlohmann::json> OAuthAdmin::listAccessRequests(const std::string& status) {
    if (!status.empty() && status != "pending" && status != "approved" && status != "denied" &&
        status != "revoked") {
        return invalid("status must be pending, approved, denied or revoked");
    }
    auto rows = accounts_.listRequests(status);
    if (!rows) return rows.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& r : *rows) items.push_back(requestJson(r));
    return nlohmann::json{{"items", items}, {"count", items.size()}};
}

plugin::Result<nlohmann::json> OAuthAdmin::decideAccessRequest(const std::string& request_id,
                                                               const std::string& action,
                                                               const std::string& actor) {
    std::string to;
    if (action == "approve") to = "approved";
    if (action == "deny") to = "denied";
    if (action == "revoke") to = "revoked";
    if (to.empty()) return invalid("action must be approve, deny or revoke");
    auto r = accounts_.decide(request_id, to, actor);
    if (!r) return r.error();
    return requestJson(*r);
}

nlohmann::json OAuthAdmin::applicationJson(const storage::OAuthClient& c) {
    nlohmann::json workspaces = nlohmann::json::array();
    if (auto grants = clients_.workspaceGrants(c.service_user_id)) {
        for (const auto& g : *grants) {
            workspaces.push_back({{"workspace_id", g.workspace_id}, {"role", g.role}});
        }
    }
    nlohmann::json secrets = nlohmann::json::array();
    if (auto live = clients_.liveSecrets(c.client_id)) {
        for (const auto& s : *live) {
            secrets.push_back({{"id", s.id},
                               {"created_at", s.created_at},
                               {"expires_at", s.expires_epoch ? nlohmann::json(s.expires_epoch)
                                                              : nlohmann::json(nullptr)}});
        }
    }
    return {{"client_id", c.client_id},
            {"name", c.name},
            {"scopes", splitScope(c.scopes)},
            {"cidrs", splitScope(c.cidrs)},
            {"workspaces", workspaces},
            {"service_user_id", c.service_user_id},
            {"disabled", c.disabled},
            {"secrets", secrets},
            {"created_at", c.created_at},
            {"token_endpoint_auth_method", "client_secret_basic"},
            {"grant_types", {"client_credentials"}}};
}

plugin::Result<nlohmann::json> OAuthAdmin::createApplication(const nlohmann::json& body,
                                                             const std::string& actor) {
    if (!body.is_object()) return invalid("body must be an object");
    const std::string name = body.value("name", "");
    if (name.empty() || name.size() > 200) return invalid("name must have 1 to 200 characters");
    auto scopes = checkScopes(stringList(body.value("scopes", nlohmann::json())));
    if (!scopes) return scopes.error();
    if (scopes->empty()) return invalid("an application needs at least one approved scope");
    const auto cidrs = stringList(body.value("cidrs", nlohmann::json()));
    for (const auto& c : cidrs) {
        if (!Cidr::parse(c)) return invalid("not an IPv4/IPv6 CIDR: " + c);
    }
    std::vector<storage::WorkspaceGrant> workspaces;
    for (const auto& w : body.value("workspaces", nlohmann::json::array())) {
        storage::WorkspaceGrant g{"", "editor"};
        if (w.is_string()) {
            g.workspace_id = w.get<std::string>();
        } else if (w.is_object()) {
            g.workspace_id = w.value("workspace_id", "");
            g.role = w.value("role", "editor");
        }
        if (!parseWorkspaceRole(g.role)) return invalid("role must be owner, editor or viewer");
        workspaces.push_back(g);
    }
    const std::string client_id = "app_" + common::randomToken(12);
    const std::string secret = ClientRegistry::newSecret();
    auto app = clients_.createConfidential(client_id, name, joinScope(*scopes), joinScope(cidrs),
                                           actor, sha256Base64Url(secret), workspaces);
    if (!app) return app.error();
    common::log(common::LogLevel::kInfo, "oauth_application_created",
                {{"client_id", client_id}, {"actor", actor}});
    nlohmann::json out = applicationJson(*app);
    out["client_secret"] = secret;
    return out;
}

plugin::Result<nlohmann::json> OAuthAdmin::listApplications() {
    auto apps = clients_.listApplications();
    if (!apps) return apps.error();
    nlohmann::json items = nlohmann::json::array();
    for (const auto& a : *apps) items.push_back(applicationJson(a));
    return nlohmann::json{{"items", items}, {"count", items.size()}};
}

plugin::Result<storage::OAuthClient> OAuthAdmin::application(const std::string& client_id) {
    auto app = clients_.find(client_id);
    if (!app) return app.error();
    if (!app->has_value() || (*app)->kind != "confidential") {
        return plugin::Error::notFound("application not found");
    }
    return **app;
}

plugin::Result<nlohmann::json> OAuthAdmin::getApplication(const std::string& client_id) {
    auto app = application(client_id);
    if (!app) return app.error();
    return applicationJson(*app);
}

plugin::Result<nlohmann::json> OAuthAdmin::rotateSecret(const std::string& client_id,
                                                        std::int64_t overlap_seconds) {
    if (overlap_seconds < 0 || overlap_seconds > 30LL * 24 * 3600) {
        return invalid("overlap_seconds must be within 0..2592000");
    }
    if (auto app = getApplication(client_id); !app) return app.error();
    const std::string secret = ClientRegistry::newSecret();
    const std::int64_t previous_expires = common::nowEpochSeconds() + overlap_seconds;
    if (auto r = clients_.rotateSecret(client_id, sha256Base64Url(secret), previous_expires); !r) {
        return r.error();
    }
    common::log(common::LogLevel::kInfo, "oauth_secret_rotated",
                {{"client_id", client_id}, {"overlap_seconds", std::to_string(overlap_seconds)}});
    auto app = getApplication(client_id);
    if (!app) return app.error();
    nlohmann::json out = std::move(app).value();
    out["client_secret"] = secret;
    out["previous_secret_expires_at"] = previous_expires;
    return out;
}

plugin::Result<nlohmann::json> OAuthAdmin::setApplicationDisabled(const std::string& client_id,
                                                                  bool disabled) {
    if (auto app = getApplication(client_id); !app) return app.error();
    if (auto r = clients_.setDisabled(client_id, disabled); !r) return r.error();
    if (disabled) {
        auto n = grants_.revokeClient(client_id, "application_disabled");
        if (!n) return n.error();
        revocations_.refresh();
        common::log(common::LogLevel::kInfo, "oauth_application_disabled",
                    {{"client_id", client_id}, {"access_tokens_revoked", std::to_string(*n)}});
    }
    return getApplication(client_id);
}

plugin::Result<nlohmann::json> OAuthAdmin::updateApplication(const std::string& client_id,
                                                             const nlohmann::json& body) {
    if (!body.is_object()) return invalid("body must be an object");
    auto app = application(client_id);
    if (!app) return app.error();
    std::vector<std::string> scopes = splitScope(app->scopes);
    std::vector<std::string> cidrs = splitScope(app->cidrs);
    if (body.contains("scopes")) {
        auto checked = checkScopes(stringList(body["scopes"]));
        if (!checked) return checked.error();
        if (checked->empty()) return invalid("an application needs at least one approved scope");
        scopes = *checked;
    }
    if (body.contains("cidrs")) {
        cidrs = stringList(body["cidrs"]);
        for (const auto& c : cidrs) {
            if (!Cidr::parse(c)) return invalid("not an IPv4/IPv6 CIDR: " + c);
        }
    }
    const bool narrowed = !difference(splitScope(app->scopes), scopes).empty();
    if (auto r = clients_.updateApplication(client_id, joinScope(scopes), joinScope(cidrs)); !r) {
        return r.error();
    }
    if (narrowed) {
        auto n = grants_.revokeClient(client_id, "application_scopes_narrowed");
        if (!n) return n.error();
        revocations_.refresh();
    }
    common::log(common::LogLevel::kInfo, "oauth_application_updated",
                {{"client_id", client_id}, {"scopes_narrowed", narrowed ? "true" : "false"}});
    return getApplication(client_id);
}

plugin::Result<nlohmann::json> OAuthAdmin::grantWorkspace(const std::string& client_id,
                                                          const nlohmann::json& body) {
    if (!body.is_object()) return invalid("body must be an object");
    auto app = application(client_id);
    if (!app) return app.error();
    storage::WorkspaceGrant g{body.value("workspace_id", ""), body.value("role", "editor")};
    if (g.role.empty()) g.role = "editor";
    if (g.workspace_id.empty()) return invalid("workspace_id is required");
    if (!parseWorkspaceRole(g.role)) return invalid("role must be owner, editor or viewer");
    if (auto r = clients_.setWorkspaceGrant(app->service_user_id, g); !r) return r.error();
    common::log(common::LogLevel::kInfo, "oauth_application_workspace_granted",
                {{"client_id", client_id}, {"workspace_id", g.workspace_id}, {"role", g.role}});
    return applicationJson(*app);
}

plugin::Result<nlohmann::json> OAuthAdmin::withdrawWorkspace(const std::string& client_id,
                                                             const std::string& workspace_id) {
    auto app = application(client_id);
    if (!app) return app.error();
    auto removed = clients_.removeWorkspaceGrant(app->service_user_id, workspace_id);
    if (!removed) return removed.error();
    if (!*removed) return plugin::Error::notFound("the application has no grant on that workspace");
    common::log(common::LogLevel::kInfo, "oauth_application_workspace_withdrawn",
                {{"client_id", client_id}, {"workspace_id", workspace_id}});
    return applicationJson(*app);
}

}  // namespace docintel::auth::oauth

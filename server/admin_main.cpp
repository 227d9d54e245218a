// docintel-admin: operator commands against the database and key set the server uses.
//
//   migrate
//   user create --email E --password P [--name N] [--admin]
//   user ensure-admin --email E        (creates it with a random password, printed once)
//   token --email E --scope "a b" --audience rest|mcp [--ttl SECONDS]
//   revoke-token --jti ID [--ttl SECONDS]
//   plugins list
//   reindex
//   user mfa --email E on|off          user disable|enable --email E
//   user grant|revoke-scope --email E --scope "a b"
//   access-requests list [--status pending|approved|denied|revoked]
//   access-requests approve|deny|revoke --id ID
//   app create --name N --scope "a b" [--workspace "ID[:role],..."] [--cidr "10.0.0.0/8,..."]
//   app list | app show --client-id C | app rotate-secret --client-id C [--overlap SECONDS]
//   app disable|enable --client-id C
//   app update --client-id C [--scope "a b"] [--cidr "CIDR,..."]
//   app grant-workspace --client-id C --workspace ID[:role] | app withdraw-workspace ...
//   --workspace ID user list

#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "auth/key_set.h"
#include "auth/oauth/oauth_admin.h"
#include "auth/password_hasher.h"
#include "auth/revocation_list.h"
#include "auth/token_service.h"
#include "common/clock.h"
#include "common/id.h"
#include "engine/workflow_catalog.h"
#include "http/api_routes.h"
#include "http/router.h"
#include "http/schema_validator.h"
#include "plugin_host/plugin_loader.h"
#include "plugin_host/plugin_registry.h"
#include "search/index_sync.h"
#include "search/keyword_index.h"
#include "server/config.h"
#include "server/oauth_settings.h"
#include "storage/database.h"
#include "storage/index_feed_repository.h"
#include "storage/migrator.h"
#include "storage/oauth_account_repository.h"
#include "storage/oauth_client_repository.h"
#include "storage/oauth_grant_repository.h"
#include "storage/token_revocation_repository.h"
#include "storage/user_repository.h"

namespace {

using docintel::server::Config;

int usage() {
    std::cerr << "usage: docintel-admin migrate\n"
                 "       docintel-admin user create --email E --password P [--name N] [--admin]\n"
                 "       docintel-admin user ensure-admin --email E\n"
                 "       docintel-admin token --email E --scope \"a b\" --audience rest|mcp "
                 "[--ttl SECONDS]\n"
                 "       docintel-admin revoke-token --jti ID [--ttl SECONDS]\n"
                 "       docintel-admin plugins list\n"
                 "       docintel-admin reindex\n"
                 "       docintel-admin user mfa --email E on|off\n"
                 "       docintel-admin user disable|enable --email E\n"
                 "       docintel-admin user grant|revoke-scope --email E --scope \"a b\"\n"
                 "       docintel-admin access-requests list [--status S]\n"
                 "       docintel-admin access-requests approve|deny|revoke --id ID\n"
                 "       docintel-admin app create --name N --scope \"a b\" "
                 "[--workspace \"ID[:role],...\"] [--cidr \"CIDR,...\"]\n"
                 "       docintel-admin app list | app show --client-id C\n"
                 "       docintel-admin app rotate-secret --client-id C [--overlap SECONDS]\n"
                 "       docintel-admin app disable|enable --client-id C\n"
                 "       docintel-admin app update --client-id C [--scope \"a b\"] "
                 "[--cidr \"CIDR,...\"]\n"
                 "       docintel-admin app grant-workspace --client-id C --workspace ID[:role]\n"
                 "       docintel-admin app withdraw-workspace --client-id C --workspace ID\n"
                 "       docintel-admin user list\n";
    return 2;
}

int fail(const std::string& message) {
    std::cerr << "docintel-admin: " << message << "\n";
    return 1;
}

/// Rebuilds this node's keyword index from Postgres (the server must be stopped: it holds the
/// index). The vector index lives in memory and is loaded from Postgres at every start.
int reindex(docintel::storage::Database& db, const Config& config) {
    auto index = docintel::search::KeywordIndex::open(config.indexDir());
    if (!index) return fail(index.error().message);
    docintel::storage::IndexFeedRepository feed(db);
    if (auto s = docintel::search::IndexSync::rebuild(feed, **index); !s) {
        return fail(s.error().message);
    }
    std::cout << "reindexed " << (*index)->size() << " chunks into " << config.indexDir() << "\n";
    return 0;
}

/// --key value flags (a flag without a value is "true").
std::map<std::string, std::string> flags(const std::vector<std::string>& args, std::size_t from) {
    std::map<std::string, std::string> out;
    for (std::size_t i = from; i < args.size(); ++i) {
        if (args[i].rfind("--", 0) != 0) continue;
        const std::string key = args[i].substr(2);
        if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
            out[key] = args[++i];
        } else {
            out[key] = "true";
        }
    }
    return out;
}

std::string baseUrl() {
    const char* port = std::getenv("DOCINTEL_PORT");
    Config c;
    c.base_url = std::getenv("DOCINTEL_BASE_URL") ? std::getenv("DOCINTEL_BASE_URL") : "";
    c.resolveUrls(port ? std::atoi(port) : 8080);
    return c.base_url;
}

int migrate(docintel::storage::Database& db) {
    auto applied = docintel::storage::Migrator(db).migrate();
    if (!applied) return fail(applied.error().message);
    std::cout << "migrations applied: " << applied->size() << "\n";
    return 0;
}

int userCreate(docintel::storage::Database& db, const std::map<std::string, std::string>& f) {
    if (!f.count("email") || !f.count("password")) return usage();
    docintel::storage::UserRepository users(db);
    auto user =
        users.create(f.at("email"), f.count("name") ? f.at("name") : "",
                     docintel::auth::PasswordHasher::hash(f.at("password")), f.count("admin") > 0);
    if (!user) return fail(user.error().message);
    std::cout << user->id << "\n";
    return 0;
}

int ensureAdmin(docintel::storage::Database& db, const std::map<std::string, std::string>& f) {
    if (!f.count("email")) return usage();
    docintel::storage::UserRepository users(db);
    auto existing = users.findByEmail(f.at("email"));
    if (!existing) return fail(existing.error().message);
    if (existing->has_value()) {
        std::cout << "admin " << f.at("email") << " exists (password shown when it was created)\n";
        return 0;
    }
    const std::string password = docintel::common::randomToken(18);
    auto user = users.create(f.at("email"), "Administrator",
                             docintel::auth::PasswordHasher::hash(password), true);
    if (!user) return fail(user.error().message);
    std::cout << "created admin " << f.at("email") << " with password: " << password
              << "\n(shown once; store it now)\n";
    return 0;
}

int token(docintel::storage::Database& db, const Config& config,
          const std::map<std::string, std::string>& f) {
    if (!f.count("email") || !f.count("scope") || !f.count("audience")) return usage();
    const std::string audience_kind = f.at("audience");
    if (audience_kind != "rest" && audience_kind != "mcp") return usage();
    docintel::storage::UserRepository users(db);
    auto user = users.findByEmail(f.at("email"));
    if (!user) return fail(user.error().message);
    if (!user->has_value()) return fail("no user " + f.at("email"));
    Config c = config;
    c.base_url = baseUrl();
    c.resolveUrls(c.port);
    auto keys = docintel::auth::KeySet::loadOrCreate(c.keysDir());
    docintel::auth::TokenService tokens(keys, c.issuer(), nullptr);
    docintel::auth::TokenClaims claims;
    claims.subject = (*user)->id;
    claims.email = (*user)->email;
    claims.audience = audience_kind == "rest" ? c.restAudience() : c.mcp_url;
    std::string scope = f.at("scope");
    for (std::size_t start = 0; start < scope.size();) {
        auto space = scope.find(' ', start);
        auto s = scope.substr(start, space == std::string::npos ? space : space - start);
        if (!s.empty()) claims.scopes.push_back(s);
        if (space == std::string::npos) break;
        start = space + 1;
    }
    if (f.count("ttl")) claims.ttl_seconds = std::stoll(f.at("ttl"));
    std::cout << tokens.mint(claims) << "\n";
    return 0;
}

int revokeToken(docintel::storage::Database& db, const std::map<std::string, std::string>& f) {
    if (!f.count("jti")) return usage();
    const long long ttl = f.count("ttl") ? std::stoll(f.at("ttl")) : 86400;
    docintel::storage::TokenRevocationRepository repo(db);
    if (auto r = repo.revoke(f.at("jti"), docintel::common::nowEpochSeconds() + ttl); !r) {
        return fail(r.error().message);
    }
    std::cout << "revoked " << f.at("jti") << "\n";
    return 0;
}

/// Loads the plugins folder the way the server does (same checks) and lists the outcome.
int pluginsList(const Config& config) {
    class QuietHost final : public docintel::plugin::HostServices {
      public:
        void log(const std::string&, const std::string&, const std::string&) override {}
        std::string dataDir() const override { return "."; }
    } host;
    docintel::http::Router router;
    docintel::http::SchemaRegistry schemas;
    schemas.loadBuiltins();
    docintel::plugin_host::PluginRegistry registry;
    // The vertical route schemas the server registers, so plugins load here as they do there.
    docintel::engine::WorkflowCatalog(registry, schemas).registerSchemas();
    // The operations feature plugins attach, declared as the server declares them.
    docintel::http::declareFeatureOperations(router);
    docintel::plugin_host::PluginLoader loader(router, schemas, registry, host);
    // Listing applies nothing: a plugin's migrations are the server's to run (and its storage
    // problems show in the server's log and GET /api/v1), so storage is taken as given here.
    loader.setStorageProvisioner(
        [](const std::string&, const std::vector<docintel::plugin::PluginMigration>&) {
            return docintel::plugin::Status{};
        });
    auto counts = loader.loadDirectory(config.plugins_dir);
    if (!counts) return fail(config.plugins_dir + ": " + counts.error().message);
    std::cout << registry.toJson().dump(2) << "\n";
    return 0;
}

/// `user mfa|disable|enable|grant|revoke-scope`, `access-requests ...` and `app ...`: the
/// same administration the admin routes offer, run by an operator (actor: none).
int oauthAdmin(docintel::storage::Database& db, const Config& config,
               const std::vector<std::string>& args, const std::map<std::string, std::string>& f) {
    Config c = config;
    c.base_url = baseUrl();
    c.resolveUrls(c.port);
    const auto settings = docintel::server::oauthSettings(c);
    docintel::storage::UserRepository users(db);
    docintel::storage::OAuthAccountRepository accounts(db);
    docintel::storage::OAuthClientRepository clients(db);
    docintel::storage::OAuthGrantRepository grants(db);
    docintel::storage::TokenRevocationRepository revoked(db);
    docintel::auth::RevocationList revocations(revoked);
    docintel::auth::oauth::OAuthAdmin admin(settings, users, accounts, clients, grants,
                                            revocations);
    const std::string what = args[0];
    const std::string verb = args.size() > 1 ? args[1] : "";
    const auto flag = [&f](const std::string& name) {
        auto it = f.find(name);
        return it == f.end() ? std::string() : it->second;
    };
    docintel::plugin::Result<nlohmann::json> out =
        docintel::plugin::Error::badRequest("usage", "unknown command");
    if (what == "user" && verb == "list") {
        out = admin.listUsers();
    } else if (what == "user") {
        if (flag("email").empty()) return usage();
        auto user = admin.resolveUser(flag("email"));
        if (!user) return fail(user.error().message);
        if (verb == "mfa") {
            const std::string state = args.size() > 2 ? args.back() : "";
            if (state != "on" && state != "off") return usage();
            out = admin.updateUser(*user, {{"mfa_enabled", state == "on"}});
        } else if (verb == "disable" || verb == "enable") {
            out = admin.updateUser(*user, {{"disabled", verb == "disable"}});
        } else if (verb == "grant" || verb == "revoke-scope") {
            const auto scopes = docintel::auth::oauth::splitScope(flag("scope"));
            if (scopes.empty()) return usage();
            out = verb == "grant" ? admin.grantScopes(*user, scopes, "")
                                  : admin.revokeScopes(*user, scopes, "");
        } else {
            return usage();
        }
    } else if (what == "access-requests") {
        if (verb == "list") {
            out = admin.listAccessRequests(flag("status"));
        } else if (verb == "approve" || verb == "deny" || verb == "revoke") {
            if (flag("id").empty()) return usage();
            out = admin.decideAccessRequest(flag("id"), verb, "");
        } else {
            return usage();
        }
    } else if (what == "app") {
        if (verb == "create") {
            if (flag("name").empty() || flag("scope").empty()) return usage();
            nlohmann::json workspaces = nlohmann::json::array();
            for (const auto& item :
                 docintel::auth::oauth::stringList(nlohmann::json(flag("workspace")))) {
                const auto colon = item.find(':');
                workspaces.push_back(
                    {{"workspace_id", item.substr(0, colon)},
                     {"role", colon == std::string::npos ? "editor" : item.substr(colon + 1)}});
            }
            out = admin.createApplication({{"name", flag("name")},
                                           {"scopes", flag("scope")},
                                           {"cidrs", flag("cidr")},
                                           {"workspaces", workspaces}},
                                          "");
        } else if (verb == "list") {
            out = admin.listApplications();
        } else if (flag("client-id").empty()) {
            return usage();
        } else if (verb == "show") {
            out = admin.getApplication(flag("client-id"));
        } else if (verb == "rotate-secret") {
            out = admin.rotateSecret(flag("client-id"),
                                     flag("overlap").empty() ? 86400 : std::stoll(flag("overlap")));
        } else if (verb == "disable" || verb == "enable") {
            out = admin.setApplicationDisabled(flag("client-id"), verb == "disable");
        } else if (verb == "update") {
            nlohmann::json body = nlohmann::json::object();
            if (f.count("scope")) body["scopes"] = flag("scope");
            if (f.count("cidr")) body["cidrs"] = flag("cidr");
            out = admin.updateApplication(flag("client-id"), body);
        } else if (verb == "grant-workspace" && !flag("workspace").empty()) {
            const std::string item = flag("workspace");
            const auto colon = item.find(':');
            out = admin.grantWorkspace(
                flag("client-id"),
                {{"workspace_id", item.substr(0, colon)},
                 {"role", colon == std::string::npos ? "editor" : item.substr(colon + 1)}});
        } else if (verb == "withdraw-workspace" && !flag("workspace").empty()) {
            out = admin.withdrawWorkspace(flag("client-id"), flag("workspace"));
        } else {
            return usage();
        }
    }
    if (!out) return fail(out.error().message);
    std::cout << out->dump(2) << "\n";
    if (out->contains("client_secret")) {
        std::cerr << "(the client secret is shown once; store it now)\n";
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usage();
    try {
        Config::loadEnvFile();
        Config config;
        if (args[0] == "plugins") {
            config.plugins_dir = std::getenv("DOCINTEL_PLUGINS_DIR")
                                     ? std::getenv("DOCINTEL_PLUGINS_DIR")
                                     : std::string("var/plugins");
            if (args.size() < 2 || args[1] != "list") return usage();
            return pluginsList(config);
        }
        config = Config::fromEnvironment();
        docintel::storage::Database db(config.database_url, 2);
        const auto f = flags(args, 1);
        if (args[0] == "migrate") return migrate(db);
        if (args[0] == "reindex") return reindex(db, config);
        if (args[0] == "user" && args.size() >= 2 && args[1] == "create") return userCreate(db, f);
        if (args[0] == "user" && args.size() >= 2 && args[1] == "ensure-admin") {
            return ensureAdmin(db, f);
        }
        if (args[0] == "user" || args[0] == "access-requests" || args[0] == "app") {
            return oauthAdmin(db, config, args, f);
        }
        if (args[0] == "token") return token(db, config, f);
        if (args[0] == "revoke-token") return revokeToken(db, f);
        return usage();
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}

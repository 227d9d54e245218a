// Confidential applications and the client credentials grant over real HTTP: the CIDR
// allowlist checked against the connection's source address (the client socket bound to
// 127.0.0.1 vs 127.0.0.2), scopes within the approved grant, tokens limited to the granted
// workspaces, secret rotation with two overlapping secrets, and disable/enable.

#include <gtest/gtest.h>

#include "oauth_test_client.h"
#include "support/test_server.h"

namespace docintel::test::oauth {
namespace {

class OAuthClientCredentialsTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        const std::string admin_id = server_->createUser("owner@apps.test");
        server_->db().scalar("UPDATE users SET is_admin = true WHERE id = '" + admin_id + "'");
        admin_token_ = new std::string(server_->token(admin_id, TestServer::allScopes(), 3600));
        granted_ = new std::string(createWorkspace("granted"));
        other_ = new std::string(createWorkspace("not granted"));
    }
    static void TearDownTestSuite() {
        delete server_;
        delete admin_token_;
        delete granted_;
        delete other_;
    }

    static std::string createWorkspace(const std::string& name) {
        Response r = server_->request("POST", "/api/v1/workspaces",
                                      nlohmann::json{{"name", name}}.dump(), *admin_token_);
        if (r.status != 201 && r.status != 200) throw std::runtime_error("workspace: " + r.body);
        const auto j = r.json();
        return j.contains("workspace_id") ? j["workspace_id"].get<std::string>()
                                          : j["id"].get<std::string>();
    }

    static Response admin(const std::string& method, const std::string& path,
                          const nlohmann::json& body = nlohmann::json::object()) {
        return send(server_->port(), method, path, body.dump(), "application/json",
                    {{"Authorization", "Bearer " + *admin_token_}});
    }

    struct App {
        std::string id;
        std::string secret;
    };
    static App createApp(const nlohmann::json& extra) {
        nlohmann::json body = {{"name", "backend"},
                               {"scopes", {"workspaces:read", "documents:read"}},
                               {"workspaces", {{{"workspace_id", *granted_}, {"role", "viewer"}}}}};
        for (const auto& [k, v] : extra.items()) body[k] = v;
        Response r = admin("POST", "/admin/api/applications", body);
        if (r.status != 201) throw std::runtime_error("app: " + r.body);
        return {r.json()["client_id"], r.json()["client_secret"]};
    }

    static std::string rest() { return server_->baseUrl() + "/api/v1"; }

    static Response token(const App& app, const std::string& scope,
                          const std::string& source = "127.0.0.1", bool basic = true,
                          const std::string& resource = "") {
        Form form = {{"grant_type", "client_credentials"},
                     {"resource", resource.empty() ? rest() : resource}};
        if (!scope.empty()) form.emplace_back("scope", scope);
        std::map<std::string, std::string> headers;
        if (basic) {
            headers["Authorization"] = basicAuth(app.id, app.secret);
        } else {
            form.emplace_back("client_id", app.id);
            form.emplace_back("client_secret", app.secret);
        }
        return postForm(server_->port(), "/token", form, headers, source);
    }

    static std::string error(const Response& r) { return r.json().value("error", ""); }

    static inline TestServer* server_ = nullptr;
    static inline std::string* admin_token_ = nullptr;
    static inline std::string* granted_ = nullptr;
    static inline std::string* other_ = nullptr;
};

TEST_F(OAuthClientCredentialsTest, TokenOnlyFromAnAllowedSourceAddress) {
    const App app = createApp({{"cidrs", {"127.0.0.1/32", "::1/128"}}});
    Response allowed = token(app, "workspaces:read", "127.0.0.1");
    ASSERT_EQ(allowed.status, 200) << allowed.body;
    EXPECT_EQ(allowed.header("cache-control"), "no-store");
    EXPECT_FALSE(allowed.json().contains("refresh_token"));
    EXPECT_EQ(allowed.json()["expires_in"], 900);

    Response outside = token(app, "workspaces:read", "127.0.0.2");
    EXPECT_EQ(outside.status, 400) << outside.body;
    EXPECT_EQ(error(outside), "unauthorized_client");

    // Without an allowlist any address may ask.
    const App open = createApp({});
    EXPECT_EQ(token(open, "workspaces:read", "127.0.0.2").status, 200);
    // A /8 allowlist admits 127.0.0.2.
    const App wide = createApp({{"cidrs", "127.0.0.0/8"}});
    EXPECT_EQ(token(wide, "workspaces:read", "127.0.0.2").status, 200);
}

TEST_F(OAuthClientCredentialsTest, ScopesStayWithinTheGrantAndTokensWithinTheWorkspaces) {
    const App app = createApp({});
    Response outside = token(app, "workspaces:read documents:write");
    EXPECT_EQ(outside.status, 400);
    EXPECT_EQ(error(outside), "invalid_scope");
    Response no_resource =
        postForm(server_->port(), "/token", {{"grant_type", "client_credentials"}},
                 {{"Authorization", basicAuth(app.id, app.secret)}});
    EXPECT_EQ(error(no_resource), "invalid_target");
    EXPECT_EQ(error(token(app, "", "127.0.0.1", true, "https://elsewhere.example/api")),
              "invalid_target");

    Response all = token(app, "", "127.0.0.1", false);  // client_secret_post, default scopes
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_EQ(all.json()["scope"], "workspaces:read documents:read");
    const std::string access = all.json()["access_token"];
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + *granted_, access).status, 200);
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + *other_, access).status, 404);
    // A viewer grant reads but does not write.
    Response rename = server_->request("PATCH", "/api/v1/workspaces/" + *granted_,
                                       nlohmann::json{{"name", "renamed"}}.dump(), access);
    EXPECT_EQ(rename.status, 403) << rename.body;

    Response mcp = token(app, "workspaces:read", "127.0.0.1", true,
                         send(server_->port(), "GET", "/.well-known/oauth-protected-resource/mcp")
                             .json()["resource"]);
    ASSERT_EQ(mcp.status, 200) << mcp.body;
    EXPECT_EQ(server_->get("/api/v1/me", mcp.json()["access_token"]).status, 401);
}

TEST_F(OAuthClientCredentialsTest, WrongSecretAndPublicClientsAreRefused) {
    const App app = createApp({});
    Response wrong = token({app.id, app.secret + "x"}, "workspaces:read");
    EXPECT_EQ(wrong.status, 401);
    EXPECT_EQ(error(wrong), "invalid_client");
    EXPECT_NE(wrong.header("www-authenticate").find("Basic"), std::string::npos);
    Response missing = postForm(server_->port(), "/token",
                                {{"grant_type", "client_credentials"}, {"client_id", app.id}});
    EXPECT_EQ(missing.status, 401);
    EXPECT_EQ(error(missing), "invalid_client");
}

TEST_F(OAuthClientCredentialsTest, RotationKeepsBothSecretsDuringTheOverlap) {
    const App first = createApp({});
    Response rotated = admin("POST", "/admin/api/applications/" + first.id + "/rotate-secret",
                             {{"overlap_seconds", 3600}});
    ASSERT_EQ(rotated.status, 200) << rotated.body;
    const App second{first.id, rotated.json()["client_secret"]};
    EXPECT_NE(second.secret, first.secret);
    EXPECT_EQ(rotated.json()["secrets"].size(), 2u);
    EXPECT_EQ(token(first, "workspaces:read").status, 200);
    EXPECT_EQ(token(second, "workspaces:read").status, 200);

    // The overlap ends: the old secret stops, the new one works.
    server_->db().scalar(
        "UPDATE oauth_client_secrets SET expires_at = now() - interval '1 s' "
        "WHERE client_id = '" +
        first.id + "' AND expires_at IS NOT NULL");
    EXPECT_EQ(error(token(first, "workspaces:read")), "invalid_client");
    EXPECT_EQ(token(second, "workspaces:read").status, 200);

    // Rotating with no overlap retires the previous secret at once; never more than two live.
    Response again = admin("POST", "/admin/api/applications/" + first.id + "/rotate-secret",
                           {{"overlap_seconds", 0}});
    ASSERT_EQ(again.status, 200);
    const App third{first.id, again.json()["client_secret"]};
    EXPECT_EQ(error(token(second, "workspaces:read")), "invalid_client");
    EXPECT_EQ(token(third, "workspaces:read").status, 200);
    EXPECT_LE(admin("GET", "/admin/api/applications/" + first.id).json()["secrets"].size(), 2u);
}

TEST_F(OAuthClientCredentialsTest, DisabledApplicationTokensStopAtTheBoundaryAtOnce) {
    const App app = createApp({});
    Response t = token(app, "workspaces:read");
    ASSERT_EQ(t.status, 200);
    const std::string access = t.json()["access_token"];
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + *granted_, access).status, 200);

    ASSERT_EQ(admin("POST", "/admin/api/applications/" + app.id + "/disable").status, 200);
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + *granted_, access).status, 401);
    EXPECT_EQ(error(token(app, "workspaces:read")), "invalid_client");

    Response enabled = admin("POST", "/admin/api/applications/" + app.id + "/enable");
    EXPECT_EQ(enabled.json()["disabled"], false);
    Response fresh = token(app, "workspaces:read");
    ASSERT_EQ(fresh.status, 200);
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + *granted_, fresh.json()["access_token"]).status,
              200);
    // The token from before the disable stays revoked.
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + *granted_, access).status, 401);
}

TEST_F(OAuthClientCredentialsTest, ApplicationsRejectUnknownScopesAndBadCidrs) {
    EXPECT_EQ(admin("POST", "/admin/api/applications",
                    {{"name", "x"}, {"scopes", "workspaces:read root"}})
                  .status,
              400);
    EXPECT_EQ(admin("POST", "/admin/api/applications",
                    {{"name", "x"}, {"scopes", "workspaces:read"}, {"cidrs", "10.0.0.0/33"}})
                  .status,
              400);
    EXPECT_EQ(admin("POST", "/admin/api/applications",
                    {{"name", "x"},
                     {"scopes", "workspaces:read"},
                     {"workspaces", {"00000000-0000-4000-8000-000000000000"}}})
                  .status,
              404);
}

}  // namespace
}  // namespace docintel::test::oauth

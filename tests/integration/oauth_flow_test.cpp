// The interactive OAuth flow over real HTTP against the real server and Postgres: discovery,
// registration, /authorize with login, e-mail code (a real SMTP sink) and consent, the token
// endpoint's negative matrix (each refusal leaves the code or refresh token usable), refresh
// rotation and replay, revocation reaching the REST boundary, introspection, access requests.

#include <gtest/gtest.h>

#include "oauth_test_client.h"
#include "support/test_server.h"

namespace docintel::test::oauth {
namespace {

constexpr const char* kRedirect = "http://127.0.0.1:9999/callback";
constexpr const char* kVerifier = "verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG";

class OAuthFlowTest : public OAuthSuite {
  protected:
    static void SetUpTestSuite() { startServer("admin@flow.test"); }
    static std::string restResource() { return base() + "/api/v1"; }
    static std::string mcpResource() {
        return send(port(), "GET", "/.well-known/oauth-protected-resource/mcp")
            .json()["resource"]
            .get<std::string>();
    }

    static Response admin(const std::string& method, const std::string& path,
                          const nlohmann::json& body = nullptr) {
        return send(port(), method, path, body.is_null() ? "" : body.dump(),
                    body.is_null() ? "" : "application/json",
                    {{"Authorization", "Bearer " + admin_token_}});
    }

    /// A person with password "correct horse" and the given scope grants.
    static std::string newUser(const std::string& email, const std::string& scopes) {
        const std::string id = server_->createUser(email);
        if (!scopes.empty()) {
            auto r = admin("POST", "/admin/api/users/" + id + "/scopes", {{"scopes", scopes}});
            if (r.status != 200) throw std::runtime_error("grant failed: " + r.body);
        }
        return id;
    }

    struct Authorization {
        std::string client_id;
        std::string code;
        std::string resource;
    };

    static Form authorizeQuery(const std::string& client_id, const std::string& scope,
                               const std::string& resource) {
        return {{"client_id", client_id},
                {"redirect_uri", kRedirect},
                {"response_type", "code"},
                {"scope", scope},
                {"state", "st-123"},
                {"code_challenge", pkceChallenge(kVerifier)},
                {"code_challenge_method", "S256"},
                {"resource", resource}};
    }

    /// The whole browser flow for a user without MFA; the code from the redirect.
    static Authorization authorize(const std::string& email, const std::string& scope,
                                   const std::string& resource, const std::string& client_id = "") {
        Authorization a;
        a.client_id = client_id.empty() ? registerClient(port(), kRedirect) : client_id;
        a.resource = resource;
        Browser browser(port());
        Response page = browser.authorize(authorizeQuery(a.client_id, scope, resource));
        EXPECT_EQ(page.status, 200) << page.body;
        Response consent = browser.login(email, "correct horse");
        EXPECT_EQ(consent.status, 200) << consent.body;
        EXPECT_NE(consent.body.find("Allow access?"), std::string::npos) << consent.body;
        Response done = browser.post("/authorize/consent", {{"decision", "approve"}});
        EXPECT_EQ(done.status, 303) << done.body;
        const std::string location = done.header("location");
        EXPECT_EQ(location.rfind(kRedirect, 0), 0u) << location;
        EXPECT_EQ(queryParam(location, "state"), "st-123");
        EXPECT_EQ(queryParam(location, "iss"), base());
        a.code = queryParam(location, "code");
        return a;
    }

    static Response exchange(const Authorization& a, Form overrides = {}) {
        Form form = {{"grant_type", "authorization_code"},
                     {"code", a.code},
                     {"client_id", a.client_id},
                     {"redirect_uri", kRedirect},
                     {"code_verifier", kVerifier}};
        for (const auto& [k, v] : overrides) {
            bool replaced = false;
            for (auto& [fk, fv] : form) {
                if (fk == k) {
                    fv = v;
                    replaced = true;
                }
            }
            if (!replaced) form.emplace_back(k, v);
        }
        std::erase_if(form, [](const auto& p) { return p.second == "<omit>"; });
        return postForm(port(), "/token", form);
    }

    static Response refresh(const std::string& client_id, const std::string& token,
                            const std::string& scope = "") {
        Form form = {
            {"grant_type", "refresh_token"}, {"refresh_token", token}, {"client_id", client_id}};
        if (!scope.empty()) form.emplace_back("scope", scope);
        return postForm(port(), "/token", form);
    }

    /// Polls the REST boundary until the token is refused (revocation reaches every node
    /// within about a second); the status it ends with.
    static int restStatusAfterRevocation(const std::string& access_token) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        int status = 0;
        while (std::chrono::steady_clock::now() < deadline) {
            status = server_->get("/api/v1/me", access_token).status;
            if (status == 401) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return status;
    }

    static std::string error(const Response& r) { return r.json().value("error", ""); }
};

TEST_F(OAuthFlowTest, DiscoveryNamesEveryEndpointAndOnlyS256) {
    Response r = send(port(), "GET", "/.well-known/oauth-authorization-server");
    ASSERT_EQ(r.status, 200);
    const auto m = r.json();
    EXPECT_EQ(m["issuer"], base());
    EXPECT_EQ(m["authorization_endpoint"], base() + "/authorize");
    EXPECT_EQ(m["token_endpoint"], base() + "/token");
    EXPECT_EQ(m["registration_endpoint"], base() + "/register");
    EXPECT_EQ(m["revocation_endpoint"], base() + "/revoke");
    EXPECT_EQ(m["introspection_endpoint"], base() + "/introspect");
    EXPECT_EQ(m["jwks_uri"], base() + "/.well-known/jwks.json");
    EXPECT_EQ(m["code_challenge_methods_supported"], nlohmann::json({"S256"}));
    EXPECT_EQ(m["response_types_supported"], nlohmann::json({"code"}));
    EXPECT_EQ(m["scopes_supported"].size(), TestServer::allScopes().size());
    EXPECT_EQ(m["grant_types_supported"],
              nlohmann::json({"authorization_code", "refresh_token", "client_credentials"}));

    for (const std::string path : {"/.well-known/oauth-protected-resource/api",
                                   "/.well-known/oauth-protected-resource/mcp"}) {
        Response prm = send(port(), "GET", path);
        ASSERT_EQ(prm.status, 200) << path;
        EXPECT_EQ(prm.json()["authorization_servers"], nlohmann::json({base()})) << path;
    }
    EXPECT_EQ(send(port(), "GET", "/.well-known/oauth-protected-resource/api").json()["resource"],
              restResource());
    EXPECT_EQ(send(port(), "GET", "/.well-known/oauth-protected-resource/mcp").json()["resource"],
              mcpResource());
}

TEST_F(OAuthFlowTest, RegistrationAcceptsPublicLoopbackOrHttpsClientsOnly) {
    const auto reg = [](nlohmann::json body) {
        return send(port(), "POST", "/register", body.dump(), "application/json");
    };
    Response ok = reg({{"client_name", "CLI"},
                       {"redirect_uris", {"http://127.0.0.1/cb", "https://app.example/cb"}},
                       {"token_endpoint_auth_method", "none"}});
    ASSERT_EQ(ok.status, 201) << ok.body;
    EXPECT_EQ(ok.json()["token_endpoint_auth_method"], "none");
    EXPECT_FALSE(ok.json().contains("client_secret"));
    EXPECT_EQ(ok.header("cache-control"), "no-store");

    EXPECT_EQ(error(reg({{"client_name", "x"},
                         {"redirect_uris", {"http://evil.example/cb"}},
                         {"token_endpoint_auth_method", "none"}})),
              "invalid_redirect_uri");
    EXPECT_EQ(error(reg({{"client_name", "x"},
                         {"redirect_uris", {"https://app.example/cb#frag"}},
                         {"token_endpoint_auth_method", "none"}})),
              "invalid_redirect_uri");
    EXPECT_EQ(error(reg({{"client_name", "x"},
                         {"redirect_uris", {"https://app.example/cb"}},
                         {"token_endpoint_auth_method", "client_secret_basic"}})),
              "invalid_client_metadata");
}

TEST_F(OAuthFlowTest, CodeFlowIssuesScopedTokensRefreshRotatesAndRevokeReachesRest) {
    newUser("flow@flow.test", "workspaces:read documents:read");
    auto a = authorize("flow@flow.test", "workspaces:read", restResource());
    Response t = exchange(a);
    ASSERT_EQ(t.status, 200) << t.body;
    EXPECT_EQ(t.header("cache-control"), "no-store");
    const auto tokens = t.json();
    EXPECT_EQ(tokens["token_type"], "Bearer");
    EXPECT_EQ(tokens["expires_in"], 900);
    EXPECT_EQ(tokens["scope"], "workspaces:read");
    const std::string access = tokens["access_token"];
    const std::string refresh1 = tokens["refresh_token"];

    Response me = server_->get("/api/v1/me", access);
    ASSERT_EQ(me.status, 200) << me.body;
    EXPECT_EQ(me.json()["email"], "flow@flow.test");
    EXPECT_EQ(me.json()["scopes"], nlohmann::json({"workspaces:read"}));
    // A scope the token lacks is refused at the boundary.
    EXPECT_EQ(server_->get("/api/v1/documents", access).status, 403);

    Response r2 = refresh(a.client_id, refresh1);
    ASSERT_EQ(r2.status, 200) << r2.body;
    const std::string refresh2 = r2.json()["refresh_token"];
    const std::string access2 = r2.json()["access_token"];
    EXPECT_NE(refresh2, refresh1);
    EXPECT_EQ(server_->get("/api/v1/me", access2).status, 200);

    Response revoked =
        postForm(port(), "/revoke", {{"token", refresh2}, {"client_id", a.client_id}});
    EXPECT_EQ(revoked.status, 200);
    EXPECT_EQ(restStatusAfterRevocation(access2), 401);
    EXPECT_EQ(restStatusAfterRevocation(access), 401);
    EXPECT_EQ(error(refresh(a.client_id, refresh2)), "invalid_grant");
    // Unknown tokens are "revoked" too (RFC 7009).
    EXPECT_EQ(
        postForm(port(), "/revoke", {{"token", "nonsense"}, {"client_id", a.client_id}}).status,
        200);
}

TEST_F(OAuthFlowTest, TokenEndpointRefusalsLeaveTheCodeUsable) {
    newUser("matrix@flow.test", "workspaces:read");
    auto a = authorize("matrix@flow.test", "workspaces:read", restResource());
    const std::string other_client = registerClient(port(), kRedirect);

    const auto refused = [&](Form overrides, const std::string& code, int status = 400) {
        Response r = exchange(a, std::move(overrides));
        EXPECT_EQ(r.status, status) << r.body;
        EXPECT_EQ(error(r), code) << r.body;
        EXPECT_EQ(r.header("cache-control"), "no-store");
    };
    refused({{"code_verifier", std::string(kVerifier) + "x"}}, "invalid_grant");
    refused({{"code_verifier", "<omit>"}}, "invalid_request");
    refused({{"redirect_uri", "http://127.0.0.1:9999/other"}}, "invalid_grant");
    refused({{"client_id", other_client}}, "invalid_grant");
    refused({{"client_id", "dic_unknown"}}, "invalid_client", 401);
    refused({{"resource", "https://elsewhere.example/api"}}, "invalid_target");
    refused({{"resource", mcpResource()}}, "invalid_target");
    refused({{"code", "not-a-code"}}, "invalid_grant");
    refused({{"grant_type", "password"}}, "unsupported_grant_type");

    // None of that changed anything: the code still works, once.
    Response ok = exchange(a);
    ASSERT_EQ(ok.status, 200) << ok.body;
    const std::string access = ok.json()["access_token"];
    EXPECT_EQ(server_->get("/api/v1/me", access).status, 200);

    // Reuse is refused and revokes what the code issued.
    Response reuse = exchange(a);
    EXPECT_EQ(reuse.status, 400);
    EXPECT_EQ(error(reuse), "invalid_grant");
    EXPECT_EQ(restStatusAfterRevocation(access), 401);
    EXPECT_EQ(error(refresh(a.client_id, ok.json()["refresh_token"])), "invalid_grant");
}

TEST_F(OAuthFlowTest, ExpiredCodeIsRefused) {
    newUser("expired@flow.test", "workspaces:read");
    auto a = authorize("expired@flow.test", "workspaces:read", restResource());
    server_->db().scalar(
        "UPDATE oauth_authorization_codes SET expires_at = now() - interval '1 second' "
        "WHERE used_at IS NULL AND user_id = (SELECT id FROM users WHERE email = "
        "'expired@flow.test')");
    Response r = exchange(a);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(error(r), "invalid_grant");
    EXPECT_NE(r.json()["error_description"].get<std::string>().find("expired"), std::string::npos);
}

TEST_F(OAuthFlowTest, AuthorizeRefusesPlainPkceAndMissingOrForeignResourceByRedirect) {
    const std::string client = registerClient(port(), kRedirect);
    const std::string sessions_before =
        server_->db().scalar("SELECT count(*) FROM oauth_auth_sessions");
    const auto redirected = [&](Form query, const std::string& code) {
        Response r = send(port(), "GET", "/authorize?" + formEncode(query));
        EXPECT_EQ(r.status, 303) << r.body;
        const std::string location = r.header("location");
        EXPECT_EQ(location.rfind(kRedirect, 0), 0u) << location;
        EXPECT_EQ(queryParam(location, "error"), code) << location;
        EXPECT_EQ(queryParam(location, "state"), "st-123");
        EXPECT_TRUE(queryParam(location, "code").empty());
    };
    auto q = authorizeQuery(client, "workspaces:read", restResource());
    auto plain = q;
    plain[5].second = "plain-verifier-plain-verifier-plain-verifier-123";
    plain[6].second = "plain";
    redirected(plain, "invalid_request");
    auto no_method = q;
    no_method.erase(no_method.begin() + 6);
    redirected(no_method, "invalid_request");
    auto no_challenge = q;
    no_challenge.erase(no_challenge.begin() + 5);
    redirected(no_challenge, "invalid_request");
    auto no_resource = q;
    no_resource.pop_back();
    redirected(no_resource, "invalid_target");
    auto foreign = q;
    foreign.back().second = "https://other.example/api/v1";
    redirected(foreign, "invalid_target");
    auto bad_scope = q;
    bad_scope[3].second = "workspaces:read admin:everything";
    redirected(bad_scope, "invalid_scope");
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM oauth_auth_sessions"), sessions_before);

    // Unknown clients and unregistered redirect URIs get a page, never a redirect.
    auto unknown = q;
    unknown[0].second = "dic_nobody";
    Response page = send(port(), "GET", "/authorize?" + formEncode(unknown));
    EXPECT_EQ(page.status, 400);
    EXPECT_TRUE(page.header("location").empty());
    auto elsewhere = q;
    elsewhere[1].second = "https://attacker.example/cb";
    page = send(port(), "GET", "/authorize?" + formEncode(elsewhere));
    EXPECT_EQ(page.status, 400);
    EXPECT_TRUE(page.header("location").empty());
}

TEST_F(OAuthFlowTest, LoopbackRedirectMatchesOnAnyPort) {
    newUser("port@flow.test", "workspaces:read");
    const std::string client = registerClient(port(), "http://127.0.0.1/callback");
    Browser browser(port());
    auto q = authorizeQuery(client, "workspaces:read", restResource());
    Response r = browser.authorize(q);  // kRedirect is 127.0.0.1:9999/callback
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.body.find("Sign in"), std::string::npos);
}

TEST_F(OAuthFlowTest, RefreshCannotWidenScopeAndReplayRevokesTheFamily) {
    newUser("refresh@flow.test", "workspaces:read documents:read");
    auto a = authorize("refresh@flow.test", "workspaces:read", restResource());
    Response t = exchange(a);
    ASSERT_EQ(t.status, 200) << t.body;
    const std::string r1 = t.json()["refresh_token"];

    Response wider = refresh(a.client_id, r1, "workspaces:read documents:read");
    EXPECT_EQ(wider.status, 400);
    EXPECT_EQ(error(wider), "invalid_scope");
    Response foreign = postForm(port(), "/token",
                                {{"grant_type", "refresh_token"},
                                 {"refresh_token", r1},
                                 {"client_id", a.client_id},
                                 {"resource", mcpResource()}});
    EXPECT_EQ(error(foreign), "invalid_target");
    Response other = refresh(registerClient(port(), kRedirect), r1);
    EXPECT_EQ(error(other), "invalid_grant");

    // Still usable after those refusals.
    Response r2 = refresh(a.client_id, r1);
    ASSERT_EQ(r2.status, 200) << r2.body;
    const std::string access2 = r2.json()["access_token"];
    const std::string refresh2 = r2.json()["refresh_token"];

    Response replay = refresh(a.client_id, r1);
    EXPECT_EQ(replay.status, 400);
    EXPECT_EQ(error(replay), "invalid_grant");
    // The whole family went with it: the successor and its access token.
    EXPECT_EQ(error(refresh(a.client_id, refresh2)), "invalid_grant");
    EXPECT_EQ(restStatusAfterRevocation(access2), 401);
}

TEST_F(OAuthFlowTest, McpTokensAreRefusedByRest) {
    newUser("mcp@flow.test", "workspaces:read");
    auto a = authorize("mcp@flow.test", "workspaces:read", mcpResource());
    Response t = exchange(a);
    ASSERT_EQ(t.status, 200) << t.body;
    EXPECT_EQ(server_->get("/api/v1/me", t.json()["access_token"]).status, 401);
}

TEST_F(OAuthFlowTest, IntrospectionNeedsClientAuthentication) {
    newUser("intro@flow.test", "workspaces:read");
    auto a = authorize("intro@flow.test", "workspaces:read", restResource());
    Response t = exchange(a);
    ASSERT_EQ(t.status, 200);
    const std::string access = t.json()["access_token"];

    Response anonymous = postForm(port(), "/introspect", {{"token", access}});
    EXPECT_EQ(anonymous.status, 401);
    EXPECT_EQ(error(anonymous), "invalid_client");
    Response public_client =
        postForm(port(), "/introspect", {{"token", access}, {"client_id", a.client_id}});
    EXPECT_EQ(public_client.status, 401);

    Response app = admin("POST", "/admin/api/applications",
                         {{"name", "resource server"}, {"scopes", "workspaces:read"}});
    ASSERT_EQ(app.status, 201) << app.body;
    const std::string id = app.json()["client_id"];
    const std::string secret = app.json()["client_secret"];
    const std::map<std::string, std::string> auth = {{"Authorization", basicAuth(id, secret)}};
    Response active = postForm(port(), "/introspect", {{"token", access}}, auth);
    ASSERT_EQ(active.status, 200) << active.body;
    EXPECT_EQ(active.json()["active"], true);
    EXPECT_EQ(active.json()["scope"], "workspaces:read");
    EXPECT_EQ(active.json()["client_id"], a.client_id);
    EXPECT_EQ(active.json()["aud"], restResource());
    Response refresh_info =
        postForm(port(), "/introspect", {{"token", t.json()["refresh_token"]}}, auth);
    EXPECT_EQ(refresh_info.json()["active"], true);
    EXPECT_EQ(refresh_info.json()["token_type"], "refresh_token");
    EXPECT_EQ(postForm(port(), "/introspect", {{"token", "garbage"}}, auth).json(),
              nlohmann::json({{"active", false}}));

    postForm(port(), "/revoke", {{"token", access}, {"client_id", a.client_id}});
    EXPECT_EQ(postForm(port(), "/introspect", {{"token", access}}, auth).json()["active"], false);
}

TEST_F(OAuthFlowTest, LoginNeedsTheFormsCsrfTokenAndLocksAfterRepeatedFailures) {
    newUser("lock@flow.test", "workspaces:read");
    const std::string client = registerClient(port(), kRedirect);
    Browser forged(port());
    forged.authorize(authorizeQuery(client, "workspaces:read", restResource()));
    forged.setCsrf("forged");
    EXPECT_EQ(forged.login("lock@flow.test", "correct horse").status, 403);

    Browser browser(port());
    browser.authorize(authorizeQuery(client, "workspaces:read", restResource()));
    for (int i = 0; i < 5; ++i) {
        Response wrong = browser.login("lock@flow.test", "wrong password");
        EXPECT_EQ(wrong.status, 401);
        EXPECT_NE(wrong.body.find("Incorrect e-mail or password"), std::string::npos);
    }
    Response locked = browser.login("lock@flow.test", "correct horse");
    EXPECT_EQ(locked.status, 429);
    EXPECT_NE(locked.body.find("temporarily locked"), std::string::npos);
}

TEST_F(OAuthFlowTest, LoginFormPostsAreRateLimitedPerSourceAddress) {
    // 30 login posts a minute per address (OAuthSettings::login_rate_per_minute); a different
    // e-mail each time, so the per-e-mail lockout plays no part. 127.0.0.3 is used by no other
    // test of this binary.
    const std::string client = registerClient(port(), kRedirect);
    Response page =
        send(port(), "GET", "/authorize?" + formEncode(authorizeQuery(client, "", restResource())));
    ASSERT_EQ(page.status, 200);
    const std::string cookie = "docintel_oauth=" + sessionCookieOf(page);
    const std::string csrf = csrfOf(page.body);
    // The limiter counts per calendar minute: start early in one so all 31 posts share it.
    const auto second = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count() %
                        60;
    if (second > 30) std::this_thread::sleep_for(std::chrono::seconds(61 - second));
    int last = 0;
    int refused_at = 0;
    for (int i = 1; i <= 31 && refused_at == 0; ++i) {
        Response r = postForm(port(), "/authorize/login",
                              {{"email", "nobody" + std::to_string(i) + "@flow.test"},
                               {"password", "wrong password"},
                               {"csrf_token", csrf}},
                              {{"Cookie", cookie}}, "127.0.0.3");
        last = r.status;
        if (r.status == 429) {
            refused_at = i;
            EXPECT_NE(r.body.find("Too many attempts"), std::string::npos);
        } else {
            EXPECT_EQ(r.status, 401);
        }
    }
    EXPECT_EQ(last, 429);
    EXPECT_EQ(refused_at, 31);
    // Another address is not affected.
    Response other = postForm(
        port(), "/authorize/login",
        {{"email", "nobody@flow.test"}, {"password", "wrong password"}, {"csrf_token", csrf}},
        {{"Cookie", cookie}}, "127.0.0.4");
    EXPECT_EQ(other.status, 401);
}

TEST_F(OAuthFlowTest, EmailCodeIsRequiredWhenMfaIsOn) {
    const std::string id = newUser("mfa@flow.test", "workspaces:read");
    ASSERT_EQ(admin("PATCH", "/admin/api/users/" + id, {{"mfa_enabled", true}}).status, 200);
    const std::string client = registerClient(port(), kRedirect);
    Browser browser(port());
    browser.authorize(authorizeQuery(client, "workspaces:read", restResource()));
    Response mfa = browser.login("mfa@flow.test", "correct horse");
    ASSERT_EQ(mfa.status, 200) << mfa.body;
    EXPECT_NE(mfa.body.find("Check your e-mail"), std::string::npos);
    const std::string code = sink_->waitForCode("mfa@flow.test");
    ASSERT_EQ(code.size(), 6u);

    const std::string wrong = code == "000000" ? "111111" : "000000";
    Response bad = browser.post("/authorize/mfa", {{"code", wrong}});
    EXPECT_EQ(bad.status, 401);
    EXPECT_NE(bad.body.find("4 attempts left"), std::string::npos);
    Response consent = browser.post("/authorize/mfa", {{"code", code}});
    ASSERT_EQ(consent.status, 200) << consent.body;
    EXPECT_NE(consent.body.find("Allow access?"), std::string::npos);
    Response done = browser.post("/authorize/consent", {{"decision", "approve"}});
    EXPECT_EQ(done.status, 303);
    EXPECT_FALSE(queryParam(done.header("location"), "code").empty());
}

TEST_F(OAuthFlowTest, UngrantedScopesBecomeAccessRequestsAndNeverWidenIssuedTokens) {
    const std::string id = newUser("asker@flow.test", "workspaces:read");
    const std::string client = registerClient(port(), kRedirect);
    Browser browser(port());
    browser.authorize(authorizeQuery(client, "workspaces:read documents:read", restResource()));
    Response consent = browser.login("asker@flow.test", "correct horse");
    ASSERT_EQ(consent.status, 200);
    EXPECT_NE(consent.body.find("Waiting for an administrator"), std::string::npos);
    Response done = browser.post("/authorize/consent", {{"decision", "approve"}});
    Authorization first{client, queryParam(done.header("location"), "code"), restResource()};
    Response t1 = exchange(first);
    ASSERT_EQ(t1.status, 200) << t1.body;
    EXPECT_EQ(t1.json()["scope"], "workspaces:read");

    Response pending = admin("GET", "/admin/api/access-requests?status=pending");
    ASSERT_EQ(pending.status, 200) << pending.body;
    std::string request_id;
    const auto listed = pending.json();
    for (const auto& item : listed["items"]) {
        if (item["user_id"] == id && item["scope"] == "documents:read")
            request_id = item["id"].get<std::string>();
    }
    ASSERT_FALSE(request_id.empty()) << id << " " << pending.body;
    Response approved = admin("POST", "/admin/api/access-requests/" + request_id + "/approve",
                              nlohmann::json::object());
    ASSERT_EQ(approved.status, 200) << approved.body;
    EXPECT_EQ(approved.json()["status"], "approved");

    // The earlier token and its refresh do not gain the scope ...
    Response r = refresh(client, t1.json()["refresh_token"]);
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.json()["scope"], "workspaces:read");
    // ... a new login does.
    auto second =
        authorize("asker@flow.test", "workspaces:read documents:read", restResource(), client);
    Response t2 = exchange(second);
    ASSERT_EQ(t2.status, 200);
    EXPECT_EQ(t2.json()["scope"], "workspaces:read documents:read");

    // Revoking the approval removes the grant for the next login and refresh.
    Response revoked = admin("POST", "/admin/api/access-requests/" + request_id + "/revoke",
                             nlohmann::json::object());
    EXPECT_EQ(revoked.json()["status"], "revoked");
    Response r3 = refresh(client, t2.json()["refresh_token"]);
    EXPECT_EQ(r3.json()["scope"], "workspaces:read");
}

TEST_F(OAuthFlowTest, DisablingAUserEndsItsTokensAndSignIns) {
    const std::string id = newUser("gone@flow.test", "workspaces:read");
    auto a = authorize("gone@flow.test", "workspaces:read", restResource());
    Response t = exchange(a);
    ASSERT_EQ(t.status, 200);
    ASSERT_EQ(admin("PATCH", "/admin/api/users/" + id, {{"disabled", true}}).status, 200);
    EXPECT_EQ(server_->get("/api/v1/me", t.json()["access_token"]).status, 401);
    EXPECT_EQ(error(refresh(a.client_id, t.json()["refresh_token"])), "invalid_grant");
    Browser browser(port());
    browser.authorize(authorizeQuery(a.client_id, "workspaces:read", restResource()));
    EXPECT_EQ(browser.login("gone@flow.test", "correct horse").status, 401);
}

TEST_F(OAuthFlowTest, AdminRoutesNeedAnAdministrator) {
    const std::string id = newUser("plain@flow.test", "");
    const std::string token = server_->token(id, TestServer::allScopes());
    Response r = send(port(), "GET", "/admin/api/applications", "", "",
                      {{"Authorization", "Bearer " + token}});
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(send(port(), "GET", "/admin/api/applications").status, 401);
    // Kept out of the public contract.
    const auto openapi = server_->get("/openapi.json").json();
    for (const auto& [path, _] : openapi["paths"].items()) {
        EXPECT_EQ(path.find("/admin"), std::string::npos) << path;
    }
}

}  // namespace
}  // namespace docintel::test::oauth

// The administration pages over real HTTP against the real server and Postgres: an
// administrator signs in through /admin/login → /authorize (the same login and e-mail-code
// pages as any user) → /admin/callback; non-administrators get a 403 page; every form post
// needs the session's CSRF token; approving an access request on the page gives the user the
// scope at the next sign-in (never to tokens already issued); an application created on the
// page shows its secret exactly once; the pages are not in /openapi.json.

#include <gtest/gtest.h>

#include "oauth_test_client.h"
#include "support/test_server.h"

namespace docintel::test::oauth {
namespace {

constexpr const char* kRedirect = "http://127.0.0.1:9999/callback";
constexpr const char* kVerifier = "verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG";

/// All Set-Cookie values of a response as name → value ("" = cleared).
std::map<std::string, std::string> setCookies(const Response& r) {
    std::map<std::string, std::string> out;
    std::istringstream lines(r.header("set-cookie"));
    std::string line;
    while (std::getline(lines, line)) {
        const auto eq = line.find('=');
        const auto semi = line.find(';');
        if (eq == std::string::npos) continue;
        out[line.substr(0, eq)] =
            line.substr(eq + 1, semi == std::string::npos ? semi : semi - eq - 1);
    }
    return out;
}

/// A browser with a cookie jar that signs in to the administration pages.
class AdminBrowser {
  public:
    AdminBrowser(int port, std::string base) : port_(port), base_(std::move(base)) {}

    Response get(const std::string& target) {
        return keep(send(port_, "GET", target, {}, {}, headers()));
    }
    /// A form post carrying the CSRF token of the last page (unless `csrf` is given).
    Response post(const std::string& path, Form form, const std::string* csrf = nullptr) {
        form.emplace_back("csrf_token", csrf ? *csrf : csrf_);
        return keep(postForm(port_, path, form, headers()));
    }
    Response postRaw(const std::string& path, const Form& form) {
        return keep(postForm(port_, path, form, headers()));
    }

    /// /admin/login → /authorize → login (→ e-mail code from `sink`) → /admin/callback. The
    /// callback's response.
    Response signIn(const std::string& email, const std::string& password,
                    SmtpSink* sink = nullptr) {
        Response start = get("/admin/login");
        EXPECT_EQ(start.status, 303) << start.body;
        const std::string authorize = start.header("location");
        EXPECT_EQ(authorize.rfind("/authorize?", 0), 0u) << authorize;
        Response login = get(authorize);
        EXPECT_EQ(login.status, 200) << login.body;
        Response next = post("/authorize/login", {{"email", email}, {"password", password}});
        if (next.status == 200 && sink) {
            EXPECT_NE(next.body.find("Check your e-mail"), std::string::npos) << next.body;
            next = post("/authorize/mfa", {{"code", sink->waitForCode(email)}});
        }
        EXPECT_EQ(next.status, 303) << next.body;
        const std::string callback = next.header("location");
        EXPECT_EQ(callback.rfind(base_ + "/admin/callback?", 0), 0u) << callback;
        return get(callback.substr(base_.size()));
    }

    const std::string& csrf() const { return csrf_; }
    bool hasSession() const {
        auto it = jar_.find("docintel_admin");
        return it != jar_.end() && !it->second.empty();
    }

  private:
    std::map<std::string, std::string> headers() const {
        std::string c;
        for (const auto& [k, v] : jar_) {
            if (!v.empty()) c += (c.empty() ? "" : "; ") + k + "=" + v;
        }
        return c.empty() ? std::map<std::string, std::string>{}
                         : std::map<std::string, std::string>{{"Cookie", c}};
    }
    Response keep(Response r) {
        for (const auto& [k, v] : setCookies(r)) jar_[k] = v;
        if (auto t = csrfOf(r.body); !t.empty()) csrf_ = t;
        return r;
    }

    int port_;
    std::string base_;
    std::map<std::string, std::string> jar_;
    std::string csrf_;
};

class OAuthAdminPagesTest : public OAuthSuite {
  protected:
    static void SetUpTestSuite() { startServer("root@pages.test"); }

    static Response api(const std::string& method, const std::string& path,
                        const nlohmann::json& body = nullptr) {
        return send(port(), method, path, body.is_null() ? "" : body.dump(),
                    body.is_null() ? "" : "application/json",
                    {{"Authorization", "Bearer " + admin_token_}});
    }

    /// An administrator browser signed in (password "correct horse", no MFA).
    static AdminBrowser signedInAdmin(const std::string& email) {
        const std::string id = server_->createUser(email);
        server_->db().scalar("UPDATE users SET is_admin = true WHERE id = '" + id + "'");
        AdminBrowser b(port(), base());
        Response r = b.signIn(email, "correct horse");
        EXPECT_EQ(r.status, 303) << r.body;
        EXPECT_EQ(r.header("location"), "/admin/access-requests");
        EXPECT_TRUE(b.hasSession());
        return b;
    }

    static Form authorizeQuery(const std::string& client_id, const std::string& scope) {
        return {{"client_id", client_id},
                {"redirect_uri", kRedirect},
                {"response_type", "code"},
                {"scope", scope},
                {"state", "s1"},
                {"code_challenge", pkceChallenge(kVerifier)},
                {"code_challenge_method", "S256"},
                {"resource", base() + "/api/v1"}};
    }

    /// The user's browser flow for `scope` (no MFA); the consent page and the token answer.
    static std::pair<Response, nlohmann::json> userSignIn(const std::string& client_id,
                                                          const std::string& email,
                                                          const std::string& scope) {
        Browser browser(port());
        EXPECT_EQ(browser.authorize(authorizeQuery(client_id, scope)).status, 200);
        Response consent = browser.login(email, "correct horse");
        EXPECT_EQ(consent.status, 200) << consent.body;
        Response done = browser.post("/authorize/consent", {{"decision", "approve"}});
        EXPECT_EQ(done.status, 303) << done.body;
        const std::string code = queryParam(done.header("location"), "code");
        Response token = postForm(port(), "/token",
                                  {{"grant_type", "authorization_code"},
                                   {"code", code},
                                   {"client_id", client_id},
                                   {"redirect_uri", kRedirect},
                                   {"code_verifier", kVerifier}});
        EXPECT_EQ(token.status, 200) << token.body;
        return {consent, token.status == 200 ? token.json() : nlohmann::json::object()};
    }

    static std::string requestIdFor(const std::string& email, const std::string& scope) {
        const auto list = api("GET", "/admin/api/access-requests").json();
        for (const auto& r : list["items"]) {
            if (r["email"] == email && r["scope"] == scope) return r["id"];
        }
        return {};
    }
};

TEST_F(OAuthAdminPagesTest, PagesNeedASignInAndAreNotInTheOpenApiDocument) {
    for (const std::string path : {"/admin", "/admin/users", "/admin/access-requests",
                                   "/admin/applications", "/admin/applications/app_x"}) {
        Response r = send(port(), "GET", path);
        EXPECT_EQ(r.status, 303) << path;
        EXPECT_EQ(r.header("location"), "/admin/login") << path;
    }
    // A post without a session changes nothing and only leads to the sign-in.
    const std::string victim = server_->createUser("victim-nosession@pages.test");
    Response post = postForm(port(), "/admin/users/" + victim + "/disable", {{"csrf_token", "x"}});
    EXPECT_EQ(post.status, 303);
    EXPECT_EQ(api("GET", "/admin/api/users/" + victim).json()["disabled"], false);

    // A forged session cookie is no session.
    Response forged =
        send(port(), "GET", "/admin/users", {}, {}, {{"Cookie", "docintel_admin=forged-value"}});
    EXPECT_EQ(forged.status, 303);

    Response openapi = send(port(), "GET", "/openapi.json");
    ASSERT_EQ(openapi.status, 200);
    const auto document = openapi.json();
    ASSERT_FALSE(document["paths"].empty());
    for (const auto& [path, item] : document["paths"].items()) {
        EXPECT_NE(path.rfind("/admin", 0), 0u) << path;
    }
    EXPECT_EQ(openapi.body.find("/admin/"), std::string::npos);
}

TEST_F(OAuthAdminPagesTest, NonAdministratorsGetA403Page) {
    // A user with a scope completes the sign-in but is refused at the callback.
    const std::string id = server_->createUser("plain@pages.test");
    ASSERT_EQ(
        api("POST", "/admin/api/users/" + id + "/scopes", {{"scopes", "workspaces:read"}}).status,
        200);
    AdminBrowser b(port(), base());
    Response r = b.signIn("plain@pages.test", "correct horse");
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_NE(r.body.find("Administrators only"), std::string::npos) << r.body;
    EXPECT_FALSE(b.hasSession());
    EXPECT_EQ(b.get("/admin/users").status, 303);
    // The console asked for nothing the user lacks: no access request was filed.
    EXPECT_EQ(requestIdFor("plain@pages.test", "workspaces:write"), "");

    // A user with no scope at all is refused as well.
    server_->createUser("nothing@pages.test");
    AdminBrowser c(port(), base());
    Response none = c.signIn("nothing@pages.test", "correct horse");
    EXPECT_EQ(none.status, 403) << none.body;
    EXPECT_FALSE(c.hasSession());

    // An administrator whose flag is withdrawn loses the open session at the next request.
    AdminBrowser admin = signedInAdmin("demoted@pages.test");
    ASSERT_EQ(admin.get("/admin/users").status, 200);
    server_->db().scalar("UPDATE users SET is_admin = false WHERE email = 'demoted@pages.test'");
    Response refused = admin.get("/admin/users");
    EXPECT_EQ(refused.status, 403);
    EXPECT_NE(refused.body.find("Administrators only"), std::string::npos);
    EXPECT_EQ(admin.get("/admin/users").status, 303);  // the session was ended
}

TEST_F(OAuthAdminPagesTest, AdministratorWithMfaSignsInWithTheEmailCode) {
    const std::string id = server_->createUser("mfa-admin@pages.test");
    server_->db().scalar("UPDATE users SET is_admin = true, mfa_enabled = true WHERE id = '" + id +
                         "'");
    AdminBrowser b(port(), base());
    const std::size_t mails = sink_->count();
    Response r = b.signIn("mfa-admin@pages.test", "correct horse", sink_);
    EXPECT_EQ(r.status, 303) << r.body;
    EXPECT_GT(sink_->count(), mails);
    // The pages keep no token: the refresh family the sign-in started is already revoked.
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM oauth_refresh_families WHERE client_id = "
                                   "'docintel_admin_console' AND revoked_at IS NULL"),
              "0");
    EXPECT_NE(server_->db().scalar("SELECT count(*) FROM oauth_refresh_families WHERE client_id = "
                                   "'docintel_admin_console'"),
              "0");
    Response page = b.get("/admin/access-requests");
    EXPECT_EQ(page.status, 200);
    EXPECT_NE(page.body.find("Access requests"), std::string::npos);
    EXPECT_EQ(page.header("cache-control"), "no-store");
    EXPECT_EQ(page.header("x-frame-options"), "DENY");

    // Signing out ends the session.
    EXPECT_EQ(b.post("/admin/logout", {}).status, 200);
    EXPECT_EQ(b.get("/admin/users").status, 303);
}

TEST_F(OAuthAdminPagesTest, FormPostsWithoutTheSessionsCsrfTokenAreRefused) {
    AdminBrowser admin = signedInAdmin("csrf-admin@pages.test");
    AdminBrowser other = signedInAdmin("csrf-other@pages.test");
    const std::string victim = server_->createUser("victim@pages.test");
    ASSERT_EQ(admin.get("/admin/users/" + victim).status, 200);

    Response missing = admin.postRaw("/admin/users/" + victim + "/disable", {});
    EXPECT_EQ(missing.status, 403);
    const std::string wrong = "not-the-token";
    EXPECT_EQ(admin.post("/admin/users/" + victim + "/disable", {}, &wrong).status, 403);
    // Another administrator's token does not work in this session either.
    ASSERT_EQ(other.get("/admin/users").status, 200);
    const std::string foreign = other.csrf();
    Response cross = admin.post("/admin/users/" + victim + "/disable", {}, &foreign);
    EXPECT_EQ(cross.status, 403);
    EXPECT_NE(cross.body.find("Request refused"), std::string::npos);
    EXPECT_EQ(api("GET", "/admin/api/users/" + victim).json()["disabled"], false);

    // With the token the same post works and reaches the same service as the JSON route.
    ASSERT_EQ(admin.get("/admin/users/" + victim).status, 200);
    Response ok = admin.post("/admin/users/" + victim + "/disable", {});
    EXPECT_EQ(ok.status, 303) << ok.body;
    EXPECT_EQ(api("GET", "/admin/api/users/" + victim).json()["disabled"], true);
}

TEST_F(OAuthAdminPagesTest, UsersAreCreatedAndManagedOnThePages) {
    AdminBrowser admin = signedInAdmin("users-admin@pages.test");
    Response list = admin.get("/admin/users");
    ASSERT_EQ(list.status, 200);
    EXPECT_NE(list.body.find("users-admin@pages.test"), std::string::npos);

    Response bad =
        admin.post("/admin/users", {{"email", "short@pages.test"}, {"password", "short"}});
    EXPECT_EQ(bad.status, 400);
    EXPECT_NE(bad.body.find("at least 10 characters"), std::string::npos);

    ASSERT_EQ(admin.get("/admin/users").status, 200);
    Response created = admin.post("/admin/users", {{"email", "new@pages.test"},
                                                   {"display_name", "New Person"},
                                                   {"password", "a long enough password"},
                                                   {"scope", "workspaces:read"},
                                                   {"scope", "documents:read"}});
    ASSERT_EQ(created.status, 303) << created.body;
    const std::string location = created.header("location");
    ASSERT_EQ(location.rfind("/admin/users/", 0), 0u);
    const std::string id = location.substr(13, location.find('?') - 13);
    auto user = api("GET", "/admin/api/users/" + id).json();
    EXPECT_EQ(user["email"], "new@pages.test");
    EXPECT_EQ(user["scopes"], nlohmann::json({"documents:read", "workspaces:read"}));
    EXPECT_EQ(user["mfa_enabled"], false);

    Response page = admin.get(location);
    ASSERT_EQ(page.status, 200);
    EXPECT_NE(page.body.find("User created."), std::string::npos);
    EXPECT_EQ(admin.post("/admin/users/" + id + "/mfa", {{"mfa", "on"}}).status, 303);
    EXPECT_EQ(api("GET", "/admin/api/users/" + id).json()["mfa_enabled"], true);
    EXPECT_EQ(
        admin.post("/admin/users/" + id + "/scopes/revoke", {{"scope", "documents:read"}}).status,
        303);
    EXPECT_EQ(admin.post("/admin/users/" + id + "/scopes", {{"scope", "documents:write"}}).status,
              303);
    EXPECT_EQ(api("GET", "/admin/api/users/" + id).json()["scopes"],
              nlohmann::json({"documents:write", "workspaces:read"}));
    EXPECT_EQ(admin.post("/admin/users/" + id + "/disable", {}).status, 303);
    EXPECT_EQ(api("GET", "/admin/api/users/" + id).json()["disabled"], true);
    EXPECT_EQ(admin.post("/admin/users/" + id + "/enable", {}).status, 303);
    EXPECT_EQ(api("GET", "/admin/api/users/" + id).json()["disabled"], false);
    EXPECT_EQ(admin.get("/admin/users/00000000-0000-0000-0000-000000000000").status, 404);

    // The JSON route lists the same people.
    bool listed = false;
    const auto users = api("GET", "/admin/api/users").json();
    for (const auto& u : users["items"]) {
        listed = listed || u["email"] == "new@pages.test";
    }
    EXPECT_TRUE(listed);
}

TEST_F(OAuthAdminPagesTest, ApprovingAnAccessRequestOnThePageGrantsTheScopeAtTheNextLogin) {
    const std::string email = "asker@pages.test";
    const std::string id = server_->createUser(email);
    ASSERT_EQ(
        api("POST", "/admin/api/users/" + id + "/scopes", {{"scopes", "workspaces:read"}}).status,
        200);
    const std::string client_id = registerClient(port(), kRedirect);

    auto [consent, first] = userSignIn(client_id, email, "workspaces:read documents:read");
    EXPECT_NE(consent.body.find("id=\"pending\" >"), std::string::npos) << consent.body;
    EXPECT_EQ(first["scope"], "workspaces:read");

    AdminBrowser admin = signedInAdmin("approver@pages.test");
    Response pending = admin.get("/admin/access-requests");
    ASSERT_EQ(pending.status, 200);
    const std::string request_id = requestIdFor(email, "documents:read");
    ASSERT_FALSE(request_id.empty());
    EXPECT_NE(pending.body.find(request_id), std::string::npos);
    EXPECT_NE(pending.body.find(email), std::string::npos);

    // A forged approval is refused and changes nothing.
    const std::string wrong = "forged";
    EXPECT_EQ(admin
                  .post("/admin/access-requests/" + request_id + "/approve", {{"back", "pending"}},
                        &wrong)
                  .status,
              403);
    EXPECT_EQ(api("GET", "/admin/api/access-requests?status=pending").body.find(request_id) !=
                  std::string::npos,
              true);

    ASSERT_EQ(admin.get("/admin/access-requests").status, 200);
    Response approved =
        admin.post("/admin/access-requests/" + request_id + "/approve", {{"back", "pending"}});
    ASSERT_EQ(approved.status, 303) << approved.body;
    Response after = admin.get(approved.header("location"));
    EXPECT_NE(after.body.find("Access request approved"), std::string::npos) << after.body;
    EXPECT_EQ(after.body.find(request_id), std::string::npos);  // no longer pending
    // Deciding it twice is a conflict shown on the page.
    Response twice =
        admin.post("/admin/access-requests/" + request_id + "/deny", {{"back", "pending"}});
    EXPECT_EQ(twice.status, 409) << twice.body;

    // Tokens already issued never gain the scope, not even by refreshing...
    Response refreshed = postForm(port(), "/token",
                                  {{"grant_type", "refresh_token"},
                                   {"refresh_token", first["refresh_token"].get<std::string>()},
                                   {"client_id", client_id}});
    ASSERT_EQ(refreshed.status, 200) << refreshed.body;
    EXPECT_EQ(refreshed.json()["scope"], "workspaces:read");
    // ...but the next login gets it, with nothing pending any more.
    auto [consent2, second] = userSignIn(client_id, email, "workspaces:read documents:read");
    EXPECT_NE(consent2.body.find("id=\"pending\" hidden"), std::string::npos) << consent2.body;
    EXPECT_EQ(second["scope"], "workspaces:read documents:read");
    EXPECT_EQ(server_->get("/api/v1/documents", second["access_token"]).status, 200);

    // Revoking the approval on the page withdraws the scope from the next login.
    ASSERT_EQ(admin.get("/admin/access-requests?status=approved").status, 200);
    Response revoked =
        admin.post("/admin/access-requests/" + request_id + "/revoke", {{"back", "approved"}});
    EXPECT_EQ(revoked.status, 303) << revoked.body;
    EXPECT_EQ(api("GET", "/admin/api/users/" + id).json()["scopes"],
              nlohmann::json({"workspaces:read"}));

    // A request denied on the page grants nothing.
    auto [consent3, third] = userSignIn(client_id, email, "workspaces:read workspaces:write");
    const std::string write_request = requestIdFor(email, "workspaces:write");
    ASSERT_FALSE(write_request.empty());
    ASSERT_EQ(admin.get("/admin/access-requests").status, 200);
    EXPECT_EQ(admin.post("/admin/access-requests/" + write_request + "/deny", {{"back", "pending"}})
                  .status,
              303);
    auto denied = api("GET", "/admin/api/access-requests?status=denied").json();
    EXPECT_NE(denied.dump().find(write_request), std::string::npos);
    auto [consent4, fourth] = userSignIn(client_id, email, "workspaces:read workspaces:write");
    EXPECT_EQ(fourth["scope"], "workspaces:read");
}

TEST_F(OAuthAdminPagesTest, AnApplicationCreatedOnThePageShowsItsSecretExactlyOnce) {
    AdminBrowser admin = signedInAdmin("apps-admin@pages.test");
    ASSERT_EQ(admin.get("/admin/applications").status, 200);
    Response bad =
        admin.post("/admin/applications",
                   {{"name", "Broken"}, {"scope", "documents:read"}, {"cidrs", "not-a-cidr"}});
    EXPECT_EQ(bad.status, 400);
    EXPECT_NE(bad.body.find("not an IPv4/IPv6 CIDR"), std::string::npos);

    Response created = admin.post("/admin/applications", {{"name", "Nightly export"},
                                                          {"scope", "documents:read"},
                                                          {"scope", "workspaces:read"},
                                                          {"workspaces", ""},
                                                          {"cidrs", "127.0.0.1/32"}});
    ASSERT_EQ(created.status, 201) << created.body;
    std::smatch m;
    const std::string body = created.body;
    ASSERT_TRUE(std::regex_search(body, m, std::regex("id=\"client-id\">(app_[^<]+)<")));
    const std::string client_id = m[1].str();
    ASSERT_TRUE(std::regex_search(body, m, std::regex("id=\"client-secret\">([^<]+)<")));
    const std::string secret = m[1].str();
    EXPECT_EQ(created.header("cache-control"), "no-store");

    const auto credentials = [&](const std::string& s, const std::string& scope = "") {
        Form form = {{"grant_type", "client_credentials"}, {"resource", base() + "/api/v1"}};
        if (!scope.empty()) form.emplace_back("scope", scope);
        return postForm(port(), "/token", form, {{"Authorization", basicAuth(client_id, s)}});
    };
    Response token = credentials(secret);
    ASSERT_EQ(token.status, 200) << token.body;
    EXPECT_EQ(token.json()["scope"], "documents:read workspaces:read");

    // Exactly once: neither the list, nor the application page, nor the JSON route show it.
    Response list = admin.get("/admin/applications");
    EXPECT_NE(list.body.find(client_id), std::string::npos);
    EXPECT_EQ(list.body.find(secret), std::string::npos);
    Response page = admin.get("/admin/applications/" + client_id);
    ASSERT_EQ(page.status, 200);
    EXPECT_EQ(page.body.find(secret), std::string::npos);
    EXPECT_EQ(api("GET", "/admin/api/applications/" + client_id).body.find(secret),
              std::string::npos);

    // Rotation on the page: the new secret once, both valid during the overlap.
    Response rotated = admin.post("/admin/applications/" + client_id + "/rotate-secret",
                                  {{"overlap_seconds", "600"}});
    ASSERT_EQ(rotated.status, 200) << rotated.body;
    const std::string rbody = rotated.body;
    ASSERT_TRUE(std::regex_search(rbody, m, std::regex("id=\"client-secret\">([^<]+)<")));
    const std::string second = m[1].str();
    EXPECT_NE(second, secret);
    EXPECT_EQ(credentials(secret).status, 200);
    EXPECT_EQ(credentials(second).status, 200);
    EXPECT_EQ(admin.get("/admin/applications/" + client_id).body.find(second), std::string::npos);

    // Scopes narrowed on the page: current tokens are revoked, new ones stay within.
    const std::string access = credentials(second).json()["access_token"];
    EXPECT_EQ(server_->get("/api/v1/me", access).status, 200);
    EXPECT_EQ(
        admin.post("/admin/applications/" + client_id + "/scopes", {{"scope", "workspaces:read"}})
            .status,
        303);
    EXPECT_EQ(api("GET", "/admin/api/applications/" + client_id).json()["scopes"],
              nlohmann::json({"workspaces:read"}));
    EXPECT_EQ(credentials(second, "documents:read").json()["error"], "invalid_scope");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline &&
           (status = server_->get("/api/v1/me", access).status) != 401) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(status, 401);

    // Allowlist on the page: 127.0.0.2 is refused once the list names only 127.0.0.1.
    Response from2 = postForm(
        port(), "/token", {{"grant_type", "client_credentials"}, {"resource", base() + "/api/v1"}},
        {{"Authorization", basicAuth(client_id, second)}}, "127.0.0.2");
    EXPECT_EQ(from2.json()["error"], "unauthorized_client");
    EXPECT_EQ(admin.post("/admin/applications/" + client_id + "/cidrs", {{"cidrs", ""}}).status,
              303);
    Response from2again = postForm(
        port(), "/token", {{"grant_type", "client_credentials"}, {"resource", base() + "/api/v1"}},
        {{"Authorization", basicAuth(client_id, second)}}, "127.0.0.2");
    EXPECT_EQ(from2again.status, 200) << from2again.body;

    // Workspace grants on the page.
    const std::string owner = server_->createUser("ws-owner@pages.test");
    const std::string owner_token = server_->token(owner, TestServer::allScopes());
    Response ws =
        server_->request("POST", "/api/v1/workspaces", R"({"name":"Exports"})", owner_token);
    ASSERT_EQ(ws.status, 201) << ws.body;
    const std::string workspace_id = ws.json()["id"];
    EXPECT_EQ(admin
                  .post("/admin/applications/" + client_id + "/workspaces",
                        {{"workspace_id", workspace_id}, {"role", "viewer"}})
                  .status,
              303);
    auto app = api("GET", "/admin/api/applications/" + client_id).json();
    ASSERT_EQ(app["workspaces"].size(), 1u);
    EXPECT_EQ(app["workspaces"][0]["role"], "viewer");
    const std::string app_token = credentials(second).json()["access_token"];
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + workspace_id, app_token).status, 200);
    EXPECT_EQ(
        admin
            .post("/admin/applications/" + client_id + "/workspaces/" + workspace_id + "/remove",
                  {})
            .status,
        303);
    EXPECT_EQ(server_->get("/api/v1/workspaces/" + workspace_id, app_token).status, 404);
    EXPECT_EQ(admin
                  .post("/admin/applications/" + client_id + "/workspaces",
                        {{"workspace_id", "00000000-0000-0000-0000-000000000000"}})
                  .status,
              404);

    // Disable on the page: tokens stop at once; enable again.
    EXPECT_EQ(admin.post("/admin/applications/" + client_id + "/disable", {}).status, 303);
    EXPECT_EQ(credentials(second).json()["error"], "invalid_client");
    EXPECT_EQ(admin.post("/admin/applications/" + client_id + "/enable", {}).status, 303);
    EXPECT_EQ(credentials(second).status, 200);
}

TEST_F(OAuthAdminPagesTest, JsonRoutesChangeApplicationsThroughTheSameService) {
    Response created = api("POST", "/admin/api/applications",
                           {{"name", "json app"}, {"scopes", "workspaces:read documents:read"}});
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string id = created.json()["client_id"];
    Response patched = api("PATCH", "/admin/api/applications/" + id,
                           {{"scopes", {"workspaces:read"}}, {"cidrs", "10.0.0.0/8, ::1/128"}});
    ASSERT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(patched.json()["scopes"], nlohmann::json({"workspaces:read"}));
    EXPECT_EQ(patched.json()["cidrs"], nlohmann::json({"10.0.0.0/8", "::1/128"}));
    EXPECT_EQ(
        api("PATCH", "/admin/api/applications/" + id, {{"scopes", nlohmann::json::array()}}).status,
        400);
    EXPECT_EQ(api("PATCH", "/admin/api/applications/" + id, {{"cidrs", "10.0.0.0/33"}}).status,
              400);
    EXPECT_EQ(api("PATCH", "/admin/api/applications/app_nope", {{"cidrs", ""}}).status, 404);

    const std::string owner = server_->createUser("json-owner@pages.test");
    Response ws = server_->request("POST", "/api/v1/workspaces", R"({"name":"JSON"})",
                                   server_->token(owner, TestServer::allScopes()));
    ASSERT_EQ(ws.status, 201) << ws.body;
    const std::string workspace_id = ws.json()["id"];
    Response granted = api("POST", "/admin/api/applications/" + id + "/workspaces",
                           {{"workspace_id", workspace_id}, {"role", "owner"}});
    ASSERT_EQ(granted.status, 200) << granted.body;
    EXPECT_EQ(granted.json()["workspaces"][0]["role"], "owner");
    EXPECT_EQ(api("POST", "/admin/api/applications/" + id + "/workspaces",
                  {{"workspace_id", workspace_id}, {"role", "boss"}})
                  .status,
              400);
    EXPECT_EQ(api("DELETE", "/admin/api/applications/" + id + "/workspaces/" + workspace_id).status,
              200);
    EXPECT_EQ(api("DELETE", "/admin/api/applications/" + id + "/workspaces/" + workspace_id).status,
              404);
    EXPECT_TRUE(api("GET", "/admin/api/applications/" + id).json()["workspaces"].empty());

    // Only administrators: a person's token is refused by the JSON route as by the pages.
    const std::string person = server_->createUser("json-person@pages.test");
    Response refused = send(
        port(), "PATCH", "/admin/api/applications/" + id, R"({"cidrs":""})", "application/json",
        {{"Authorization", "Bearer " + server_->token(person, TestServer::allScopes())}});
    EXPECT_EQ(refused.status, 403);
}

}  // namespace
}  // namespace docintel::test::oauth

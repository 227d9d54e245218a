// The reviewer console's sign-in and session over real HTTP against the real server and
// Postgres: pages without a session lead to the sign-in; /console/login starts a PKCE sign-in
// as the first-party client docintel_console (no consent page) for a user who is not an
// administrator; the session cookie is HttpOnly, SameSite=Lax, path /console and not Secure
// on an http base URL; the session has an idle timeout; form posts need the session's CSRF
// token; reads ask for the scopes the REST routes ask for; sign-out ends the session. (The
// reviewer's walk through runs is console_e2e_browser.)

#include <gtest/gtest.h>

#include "oauth_test_client.h"
#include "support/test_server.h"

namespace docintel::test::oauth {
namespace {

/// The `Set-Cookie` line for cookie `name` ("" when none).
std::string setCookie(const Response& r, const std::string& name) {
    std::istringstream lines(r.header("set-cookie"));
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind(name + "=", 0) == 0) return line;
    }
    return {};
}

std::string cookieValueOf(const std::string& line) {
    const auto eq = line.find('=');
    const auto semi = line.find(';');
    return line.substr(eq + 1, semi - eq - 1);
}

class ConsolePagesTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { server_ = new TestServer(); }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }
    static int port() { return server_->port(); }

    /// Signs `email` in (password "correct horse"); returns the session cookie line.
    static std::string signIn(const std::string& email) {
        const Response start = send(port(), "GET", "/console/login");
        EXPECT_EQ(start.status, 303);
        const std::string login_cookie = setCookie(start, "docintel_console_login");
        const std::string cookie = "docintel_console_login=" + cookieValueOf(login_cookie);
        const std::string authorize = start.header("location");
        const Response page = send(port(), "GET", authorize);
        EXPECT_EQ(page.status, 200) << page.body;
        const std::string auth_cookie = page.header("set-cookie");
        const std::string auth_session = auth_cookie.substr(0, auth_cookie.find(';'));
        const auto csrf_at = page.body.find("name=\"csrf_token\" value=\"");
        EXPECT_NE(csrf_at, std::string::npos);
        const std::string csrf =
            page.body.substr(csrf_at + 25, page.body.find('"', csrf_at + 25) - csrf_at - 25);
        const Response next =
            postForm(port(), "/authorize/login",
                     {{"email", email}, {"password", "correct horse"}, {"csrf_token", csrf}},
                     {{"Cookie", auth_session}});
        EXPECT_EQ(next.status, 303) << next.body;  // straight to the callback: no consent page
        const std::string callback = next.header("location");
        EXPECT_NE(callback.find("/console/callback?"), std::string::npos) << callback;
        const Response done =
            send(port(), "GET", callback.substr(callback.find("/console/callback")), {}, {},
                 {{"Cookie", cookie}});
        EXPECT_EQ(done.status, 303) << done.body;
        EXPECT_EQ(done.header("location"), "/console");
        return setCookie(done, "docintel_console");
    }

    inline static TestServer* server_ = nullptr;
};

TEST_F(ConsolePagesTest, WithoutASessionPagesLeadToTheSignIn) {
    for (const char* path : {"/console", "/console/runs/x", "/console/documents/x/file"}) {
        const Response r = send(port(), "GET", path);
        EXPECT_EQ(r.status, 303) << path;
        EXPECT_EQ(r.header("location"), "/console/login") << path;
    }
    const Response post = postForm(port(), "/console/runs/x/approve", {{"confirm", "yes"}});
    EXPECT_EQ(post.status, 403);

    const Response start = send(port(), "GET", "/console/login");
    ASSERT_EQ(start.status, 303);
    const std::string location = start.header("location");
    EXPECT_EQ(location.rfind("/authorize?", 0), 0u);
    EXPECT_EQ(queryParam("http://x" + location, "client_id"), "docintel_console");
    EXPECT_EQ(queryParam("http://x" + location, "code_challenge_method"), "S256");
    const std::string cookie = setCookie(start, "docintel_console_login");
    EXPECT_NE(cookie.find("; Path=/console; HttpOnly; SameSite=Lax"), std::string::npos) << cookie;
    EXPECT_EQ(cookie.find("Secure"), std::string::npos) << cookie;  // http base URL

    const Response css = send(port(), "GET", "/console/static/console.css");
    EXPECT_EQ(css.status, 200);
    EXPECT_EQ(css.header("content-type").rfind("text/css", 0), 0u);
}

TEST_F(ConsolePagesTest, AnOrdinaryUserSignsInAndOutWithCsrfOnEveryPost) {
    const std::string user = server_->createUser("reviewer@console-pages.test");
    server_->db().scalar("INSERT INTO oauth_user_scopes (user_id, scope) VALUES ('" + user +
                         "', 'workflows:read'), ('" + user + "', 'workspaces:read')");
    const std::string line = signIn("reviewer@console-pages.test");
    ASSERT_FALSE(line.empty());
    EXPECT_NE(line.find("; Path=/console; HttpOnly; SameSite=Lax"), std::string::npos) << line;
    const std::map<std::string, std::string> jar = {
        {"Cookie", "docintel_console=" + cookieValueOf(line)}};

    const Response inbox = send(port(), "GET", "/console", {}, {}, jar);
    ASSERT_EQ(inbox.status, 200) << inbox.body;
    EXPECT_NE(inbox.body.find("<h1>Inbox</h1>"), std::string::npos);
    const std::string csp = inbox.header("content-security-policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
    EXPECT_EQ(inbox.header("x-frame-options"), "DENY");

    // The console asks for the scopes the REST routes ask for: no documents:read, no files.
    const std::string some_doc = "/console/documents/00000000-0000-4000-8000-000000000000";
    EXPECT_EQ(send(port(), "GET", some_doc + "/file", {}, {}, jar).status, 403);
    EXPECT_EQ(send(port(), "GET", some_doc + "/pages/1.png", {}, {}, jar).status, 403);

    // Idle timeout: the session expires 30 minutes after its last use.
    const std::string idle = server_->db().scalar(
        "SELECT extract(epoch FROM expires_at - now())::int FROM oauth_auth_sessions "
        "WHERE client_id = 'docintel_console' AND user_id = '" +
        user + "'");
    EXPECT_GT(std::stoi(idle), 29 * 60);
    EXPECT_LE(std::stoi(idle), 30 * 60);

    const auto at = inbox.body.find("name=\"csrf_token\" value=\"");
    ASSERT_NE(at, std::string::npos);
    const std::string csrf = inbox.body.substr(at + 25, inbox.body.find('"', at + 25) - at - 25);
    EXPECT_EQ(postForm(port(), "/console/logout", {{"csrf_token", "forged"}}, jar).status, 403);
    EXPECT_EQ(send(port(), "GET", "/console", {}, {}, jar).status, 200);  // still signed in

    const Response out = postForm(port(), "/console/logout", {{"csrf_token", csrf}}, jar);
    EXPECT_EQ(out.status, 200);
    EXPECT_NE(setCookie(out, "docintel_console").find("Max-Age=0"), std::string::npos);
    EXPECT_EQ(send(port(), "GET", "/console", {}, {}, jar).status, 303);  // the row is gone
}

}  // namespace
}  // namespace docintel::test::oauth

// The reviewer console's sign-in and session over real HTTP against the real server and
// Postgres: pages without a session lead to the sign-in; /console/login starts a PKCE sign-in
// as the first-party client docintel_console (no consent page) for a user who is not an
// administrator; the session cookie is HttpOnly, SameSite=Lax, path /console and not Secure
// on an http base URL; the session has an idle timeout; form posts need the session's CSRF
// token; reads ask for the scopes the REST routes ask for; sign-out ends the session. The
// documents and ask pages: an upload needs the CSRF token, documents:write and a workspace role
// that may add documents; asking about another workspace's document tells nothing of it; the
// answer page without JavaScript lists citations that open the cited page highlighted; with the
// S3 store the documents page may connect to the bucket, where the browser PUTs. (The
// reviewer's walk through runs, uploads and streamed answers is console_e2e_browser.)

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "console_session.h"
#include "oauth_test_client.h"
#include "support/seaweed_server.h"
#include "support/test_server.h"

namespace docintel::test::oauth {
namespace {

class ConsolePagesTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { server_ = new TestServer(); }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }
    static int port() { return server_->port(); }

    /// Signs `email` in (password "correct horse"); returns the session cookie line.
    static std::string signIn(const std::string& email) { return signInToConsole(port(), email); }

    /// Signs `email` in with `scopes` granted; returns the cookie header and the CSRF token.
    static std::pair<std::map<std::string, std::string>, std::string> session(
        const std::string& email, const std::string& user, const std::vector<std::string>& scopes) {
        for (const auto& scope : scopes) {
            server_->db().scalar("INSERT INTO oauth_user_scopes (user_id, scope) VALUES ('" + user +
                                 "', '" + scope + "')");
        }
        const std::string line = signIn(email);
        std::map<std::string, std::string> jar = {
            {"Cookie", "docintel_console=" + cookieValueOf(line)}};
        const Response inbox = send(port(), "GET", "/console", {}, {}, jar);
        const std::string csrf = csrfTokenOf(inbox.body);
        EXPECT_FALSE(csrf.empty()) << inbox.body;
        return {jar, csrf};
    }

    static std::string documentCount(const std::string& where) {
        return server_->db().scalar("SELECT count(*) FROM documents WHERE " + where);
    }

    inline static TestServer* server_ = nullptr;
};

/// The headers of the script's JSON posts.
std::map<std::string, std::string> asScript(std::map<std::string, std::string> jar) {
    jar["Accept"] = "application/json";
    return jar;
}

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

    const std::string csrf = csrfTokenOf(inbox.body);
    ASSERT_FALSE(csrf.empty());
    EXPECT_EQ(postForm(port(), "/console/logout", {{"csrf_token", "forged"}}, jar).status, 403);
    EXPECT_EQ(send(port(), "GET", "/console", {}, {}, jar).status, 200);  // still signed in

    const Response out = postForm(port(), "/console/logout", {{"csrf_token", csrf}}, jar);
    EXPECT_EQ(out.status, 200);
    EXPECT_NE(setCookie(out, "docintel_console").find("Max-Age=0"), std::string::npos);
    EXPECT_EQ(send(port(), "GET", "/console", {}, {}, jar).status, 303);  // the row is gone
}

TEST_F(ConsolePagesTest, UploadsNeedTheCsrfTokenDocumentsWriteAndARoleThatMayAdd) {
    const std::string writer = server_->createUser("writer@console-pages.test");
    const auto [jar, csrf] =
        session("writer@console-pages.test", writer,
                {"documents:read", "documents:write", "workspaces:read", "knowledge:query"});
    const Form pdf = {{"filename", "memo.pdf"},
                      {"file_size", "13374"},
                      {"content_type", "application/pdf"},
                      {"workspace", "personal"}};

    // Without the session's CSRF token: refused, nothing created.
    const Response forged = postForm(port(), "/console/uploads", pdf, asScript(jar));
    EXPECT_EQ(forged.status, 403);
    EXPECT_EQ(documentCount("owner_id = '" + writer + "'"), "0");

    // With it: the session the REST route gives, a signed PUT URL and the document row.
    Form with_csrf = pdf;
    with_csrf.emplace_back("csrf_token", csrf);
    const Response created = postForm(port(), "/console/uploads", with_csrf, asScript(jar));
    ASSERT_EQ(created.status, 201) << created.body;
    EXPECT_NE(created.json().value("upload_url", "").find("/objects/"), std::string::npos);
    EXPECT_EQ(documentCount("owner_id = '" + writer + "'"), "1");
    const std::string documents = send(port(), "GET", "/console/documents", {}, {}, jar).body;
    EXPECT_NE(documents.find("id=\"upload-progress\""), std::string::npos);
    const Response listed =
        send(port(), "GET", "/console/documents.json?workspace=personal", {}, {}, jar);
    ASSERT_EQ(listed.status, 200) << listed.body;
    EXPECT_EQ(listed.json()["documents"][0]["status"], "uploading");
    EXPECT_EQ(listed.json()["pending"], true);

    // A viewer of a team workspace holds documents:write but may not add documents there.
    const std::string owner_token =
        server_->token(writer, {"workspaces:read", "workspaces:write", "documents:write"});
    const auto ws =
        server_->request("POST", "/api/v1/workspaces", R"({"name":"Console team"})", owner_token);
    ASSERT_EQ(ws.status, 201) << ws.body;
    const std::string ws_id = ws.json()["id"];
    const std::string viewer = server_->createUser("viewer@console-pages.test");
    ASSERT_EQ(server_
                  ->request("POST", "/api/v1/workspaces/" + ws_id + "/members",
                            R"({"email":"viewer@console-pages.test","role":"viewer"})", owner_token)
                  .status,
              201);
    const auto [viewer_jar, viewer_csrf] =
        session("viewer@console-pages.test", viewer, {"documents:read", "documents:write"});
    Form into_team = {{"filename", "memo.pdf"},
                      {"file_size", "13374"},
                      {"workspace", ws_id},
                      {"csrf_token", viewer_csrf}};
    const Response refused = postForm(port(), "/console/uploads", into_team, asScript(viewer_jar));
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_EQ(documentCount("workspace_id = '" + ws_id + "'"), "0");

    // A sign-in without documents:write cannot upload anywhere, not even its own documents.
    const std::string reader = server_->createUser("reader@console-pages.test");
    const auto [reader_jar, reader_csrf] =
        session("reader@console-pages.test", reader, {"documents:read"});
    Form own = pdf;
    own.emplace_back("csrf_token", reader_csrf);
    EXPECT_EQ(postForm(port(), "/console/uploads", own, asScript(reader_jar)).status, 403);
    EXPECT_EQ(documentCount("owner_id = '" + reader + "'"), "0");
    const Response page = send(port(), "GET", "/console/documents", {}, {}, reader_jar);
    ASSERT_EQ(page.status, 200);
    EXPECT_EQ(page.body.find("id=\"upload-form\""), std::string::npos);  // no upload form
}

TEST_F(ConsolePagesTest, AskWithoutScriptCitesThePageAndTellsNothingOfOtherWorkspaces) {
    const std::string asker = server_->createUser("asker@console-pages.test");
    const auto [jar, csrf] =
        session("asker@console-pages.test", asker,
                {"documents:read", "documents:write", "workspaces:read", "knowledge:query"});
    const std::string token =
        server_->token(asker, {"documents:read", "documents:write", "knowledge:query"});
    const std::string memo = readFile(sharedDir() + "/datasets/doc-corpus/pdf/text/fake-memo.pdf");
    ASSERT_FALSE(memo.empty());
    const std::string doc =
        server_->uploadDocument(token, "fake-memo.pdf", "application/pdf", memo);
    ASSERT_EQ(server_->waitForDocument(doc, token)["status"], "embedded");

    // The form, posted as a browser without JavaScript does: the whole answer page. The
    // node's indexes follow the change feed, so ask until the memo is found.
    const Form question = {{"csrf_token", csrf},
                           {"workspace", "personal"},
                           {"question", "How many blankets were delivered?"}};
    Response answered;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    do {
        answered = postForm(port(), "/console/ask", question, jar);
        if (answered.body.find("class=\"citation\"") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    } while (std::chrono::steady_clock::now() < deadline);
    ASSERT_EQ(answered.status, 200) << answered.body;
    EXPECT_NE(answered.body.find("10,000 blankets"), std::string::npos) << answered.body;
    EXPECT_NE(answered.body.find("data-refused=\"false\""), std::string::npos);
    const std::string prefix = "href=\"/console/documents/" + doc + "/view?page=1&amp;quote=";
    const auto link_at = answered.body.find(prefix);
    ASSERT_NE(link_at, std::string::npos) << answered.body;
    std::string link =
        answered.body.substr(link_at + 6, answered.body.find('"', link_at + 6) - link_at - 6);
    for (auto amp = link.find("&amp;"); amp != std::string::npos; amp = link.find("&amp;")) {
        link.replace(amp, 5, "&");
    }
    // The citation opens the page image with the quoted passage highlighted.
    const Response cited = send(port(), "GET", link.substr(0, link.find('#')), {}, {}, jar);
    ASSERT_EQ(cited.status, 200) << cited.body;
    EXPECT_NE(cited.body.find("id=\"page-image\""), std::string::npos);
    EXPECT_NE(cited.body.find("<rect id=\"highlight\" class=\"highlight\""), std::string::npos)
        << cited.body;
    EXPECT_EQ(send(port(), "GET", "/console/documents/" + doc + "/pages/1.png", {}, {}, jar)
                  .header("content-type"),
              "image/png");

    // Another user names the memo: 404, and nothing of it (name, text) in the page.
    const std::string stranger = server_->createUser("stranger@console-pages.test");
    const auto [other_jar, other_csrf] =
        session("stranger@console-pages.test", stranger, {"documents:read", "knowledge:query"});
    const Form theirs = {{"csrf_token", other_csrf},
                         {"workspace", "personal"},
                         {"question", "How many blankets were delivered?"},
                         {"document_id", doc}};
    const Response hidden = postForm(port(), "/console/ask", theirs, other_jar);
    EXPECT_EQ(hidden.status, 404) << hidden.body;
    EXPECT_EQ(hidden.body.find("fake-memo"), std::string::npos);
    EXPECT_EQ(hidden.body.find("blankets were delivered on"), std::string::npos);
    const std::map<std::string, std::string> events = {{"Cookie", other_jar.at("Cookie")},
                                                       {"Accept", "text/event-stream"}};
    EXPECT_EQ(postForm(port(), "/console/ask", theirs, events).status, 404);
    EXPECT_EQ(send(port(), "GET", link.substr(0, link.find('#')), {}, {}, other_jar).status, 404);
    // Their own whole workspace holds nothing: the refusal, no citation.
    const Response own = postForm(port(), "/console/ask",
                                  {{"csrf_token", other_csrf},
                                   {"workspace", "personal"},
                                   {"question", "How many blankets were delivered?"}},
                                  other_jar);
    ASSERT_EQ(own.status, 200) << own.body;
    EXPECT_EQ(own.body.find("class=\"citation\""), std::string::npos);
    EXPECT_EQ(own.body.find("10,000 blankets"), std::string::npos);
}

/// The server with DOCINTEL_OBJECT_STORE=s3 (a real SeaweedFS): the browser PUTs to the bucket.
class ConsoleOnS3Test : public ConsolePagesTest {
  protected:
    static void SetUpTestSuite() {
        s3_ = new SeaweedServer();
        TestServer::Options options;
        options.s3_endpoint = s3_->endpoint();
        options.s3_bucket = "docintel-console";
        options.s3_access_key = SeaweedServer::kAccessKey;
        options.s3_secret_key = SeaweedServer::kSecretKey;
        server_ = new TestServer(options);
    }
    static void TearDownTestSuite() {
        ConsolePagesTest::TearDownTestSuite();
        delete s3_;
    }
    inline static SeaweedServer* s3_ = nullptr;
};

TEST_F(ConsoleOnS3Test, TheDocumentsPageMayConnectToTheBucketItUploadsTo) {
    const std::string user = server_->createUser("s3@console-pages.test");
    const auto [jar, csrf] =
        session("s3@console-pages.test", user, {"documents:read", "documents:write"});
    const Response page = send(port(), "GET", "/console/documents", {}, {}, jar);
    ASSERT_EQ(page.status, 200) << page.body;
    const std::string csp = page.header("content-security-policy");
    EXPECT_NE(csp.find("connect-src 'self' " + s3_->endpoint() + ";"), std::string::npos) << csp;
    // Only the documents page: the others keep 'self'.
    EXPECT_NE(send(port(), "GET", "/console/ask", {}, {}, jar)
                  .header("content-security-policy")
                  .find("connect-src 'self';"),
              std::string::npos);

    const std::string memo = readFile(sharedDir() + "/datasets/doc-corpus/pdf/text/fake-memo.pdf");
    const Form fields = {{"csrf_token", csrf},
                         {"workspace", "personal"},
                         {"filename", "fake-memo.pdf"},
                         {"content_type", "application/pdf"},
                         {"file_size", std::to_string(memo.size())}};
    const Response created = postForm(port(), "/console/uploads", fields, asScript(jar));
    ASSERT_EQ(created.status, 201) << created.body;
    const auto upload = created.json();
    const std::string url = upload.value("upload_url", "");
    EXPECT_EQ(url.rfind(s3_->endpoint() + "/docintel-console/", 0), 0u) << url;
    ASSERT_EQ(TestServer::putObject(url, memo, "application/pdf").status, 200);
    Form complete = fields;
    complete.emplace_back("doc_id", upload.value("doc_id", ""));
    complete.emplace_back("storage_source_path", upload.value("storage_source_path", ""));
    const Response completed =
        postForm(port(), "/console/uploads/complete", complete, asScript(jar));
    ASSERT_EQ(completed.status, 202) << completed.body;
    EXPECT_TRUE(server_->objectExists(upload.value("storage_source_path", "")));
    const Response listed =
        send(port(), "GET", "/console/documents.json?workspace=personal", {}, {}, jar);
    ASSERT_EQ(listed.status, 200);
    EXPECT_EQ(listed.json()["documents"][0]["filename"], "fake-memo.pdf");
}

}  // namespace
}  // namespace docintel::test::oauth

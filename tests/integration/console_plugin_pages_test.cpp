// The reviewer console beyond the run page, over real HTTP against the real server with the
// learning, video and healthcare plugins, real Postgres, FFmpeg and the encoder:
// - plugins' console pages (Registrar::addConsolePage): listed in the navigation for users who
//   hold their scopes, rendered as the signed-in user inside the console frame, refused (403)
//   without the scope, and nothing of another workspace shown (404);
// - the learning plugin's course pages and the video plugin's page of a processed video
//   (frames, transcript with time links to the frame shown at that moment);
// - a review task decided from the inbox after a confirmation step, and only with
//   reviews:approve;
// - the run page's events, and an edit made on a stale page refused (409) without a change.

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <thread>

#include "console_session.h"
#include "oauth_test_client.h"
#include "support/test_server.h"

namespace docintel::test::oauth {
namespace {

using nlohmann::json;

bool has(const std::string& text, const std::string& needle) {
    return text.find(needle) != std::string::npos;
}

class ConsolePluginPagesTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.plugins = {builtPlugin("learning"), builtPlugin("video"),
                           builtPlugin("healthcare")};
        server_ = new TestServer(options);
        owner_ = server_->createUser("teacher@console-plugins.test");
        token_ = server_->token(owner_, TestServer::allScopes());
        grant(owner_, {"learning:read", "video:read", "workflows:read", "workspaces:read",
                       "documents:read", "reviews:write", "reviews:approve"});
        const auto ws =
            server_->request("POST", "/api/v1/workspaces", R"({"name":"Biology"})", token_);
        ASSERT_EQ(ws.status, 201) << ws.body;
        ws_ = ws.json()["id"];
        session_ = new ConsoleSession(port(), "teacher@console-plugins.test");
    }
    static void TearDownTestSuite() {
        delete session_;
        session_ = nullptr;
        delete server_;
        server_ = nullptr;
    }
    static int port() { return server_->port(); }

    static void grant(const std::string& user, const std::vector<std::string>& scopes) {
        for (const auto& s : scopes) {
            server_->db().scalar("INSERT INTO oauth_user_scopes (user_id, scope) VALUES ('" + user +
                                 "', '" + s + "')");
        }
    }

    static Response rest(const std::string& method, const std::string& path, const json& body,
                         const std::string& workspace = {}) {
        std::map<std::string, std::string> headers;
        if (!workspace.empty()) headers["X-DocIntel-Workspace-ID"] = workspace;
        const auto r =
            server_->request(method, path, body.is_null() ? "" : body.dump(), token_, headers);
        EXPECT_LT(r.status, 500) << method << " " << path << ": " << r.body;
        return r;
    }

    /// A prior-authorization run of the healthcare plugin's samples, in pending_review.
    static std::string priorAuthRun() {
        const std::string dir =
            std::string(DOCINTEL_SOURCE_DIR) + "/tests/data/workflows/healthcare/";
        const auto upload = [&](const std::string& name) {
            const std::string id =
                server_->uploadDocument(token_, name, "application/pdf", readFile(dir + name));
            EXPECT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
            return id;
        };
        const std::string request = upload("prior_auth_request.pdf");
        const std::string policy = upload("payer_policy.pdf");
        const auto started = rest("POST", "/api/v1/verticals/healthcare/runs",
                                  {{"workflow", "healthcare_prior_auth"},
                                   {"document_ids", {request}},
                                   {"inputs", {{"policy_document_ids", {policy}}}}});
        EXPECT_EQ(started.status, 202) << started.body;
        const std::string run_id = started.json()["run_id"];
        const auto run = server_->pollStatus("/api/v1/verticals/healthcare/runs/" + run_id, token_,
                                             {"pending_review", "failed"});
        EXPECT_EQ(run["status"], "pending_review") << run.dump();
        return run_id;
    }

    inline static TestServer* server_ = nullptr;
    inline static ConsoleSession* session_ = nullptr;
    inline static std::string owner_, token_, ws_;
};

TEST_F(ConsolePluginPagesTest, CoursePagesShowTheCourseToItsTeacherOnly) {
    auto created = rest("POST", "/api/v1/learning/courses",
                        {{"workspace_id", ws_},
                         {"title", "Plant biology"},
                         {"course_code", "BIO-101"},
                         {"semester", "Spring"}},
                        ws_);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string course = created.json()["id"];
    const json modules = {{{"title", "Plants"},
                           {"lessons", {{{"title", "Photosynthesis"}, {"description", "Light"}}}}}};
    ASSERT_EQ(rest("PUT", "/api/v1/learning/courses/" + course + "/curriculum",
                   {{"modules", modules}}, ws_)
                  .status,
              200);

    // The navigation lists the plugins' pages, in the chosen workspace.
    const Response inbox = session_->get("/console?workspace=" + ws_);
    ASSERT_EQ(inbox.status, 200) << inbox.body;
    EXPECT_TRUE(has(inbox.body,
                    "href=\"/console/plugins/learning/courses?workspace=" + ws_ + "\">Courses</a>"))
        << inbox.body;
    EXPECT_TRUE(has(inbox.body, ">Videos</a>"));

    const Response list = session_->get("/console/plugins/learning/courses?workspace=" + ws_);
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_TRUE(has(list.body, "<h1>Courses</h1>"));
    EXPECT_TRUE(has(list.body, "/console/plugins/learning/courses/" + course));
    EXPECT_TRUE(has(list.body, "Plant biology"));
    EXPECT_TRUE(has(list.body, "BIO-101"));
    const std::string csp = list.header("content-security-policy");
    EXPECT_TRUE(has(csp, "default-src 'none'")) << csp;
    EXPECT_FALSE(has(csp, "unsafe-inline")) << csp;
    // The personal scope has no courses: the page says where they are.
    EXPECT_TRUE(has(session_->get("/console/plugins/learning/courses").body, "team workspaces"));

    const Response page =
        session_->get("/console/plugins/learning/courses/" + course + "?workspace=" + ws_);
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_TRUE(has(page.body, "<h1>Plant biology</h1>"));
    EXPECT_TRUE(has(page.body, "Photosynthesis"));
    EXPECT_TRUE(has(page.body, "teacher@console-plugins.test"));
    EXPECT_TRUE(has(page.body, "No quiz was submitted yet."));

    // Without learning:read: not listed, and refused.
    const std::string reader = server_->createUser("reader@console-plugins.test");
    grant(reader, {"workflows:read", "workspaces:read"});
    ConsoleSession reader_session(port(), "reader@console-plugins.test");
    EXPECT_FALSE(has(reader_session.get("/console").body, "Courses</a>"));
    EXPECT_EQ(reader_session.get("/console/plugins/learning/courses/" + course).status, 403);

    // With the scope but outside the workspace: nothing of the course.
    const std::string stranger = server_->createUser("stranger@console-plugins.test");
    grant(stranger, {"learning:read"});
    ConsoleSession stranger_session(port(), "stranger@console-plugins.test");
    const Response hidden = stranger_session.get("/console/plugins/learning/courses/" + course);
    EXPECT_EQ(hidden.status, 404) << hidden.body;
    EXPECT_FALSE(has(hidden.body, "Plant biology"));
    EXPECT_EQ(stranger_session.get("/console/plugins/learning/courses?workspace=" + ws_).status,
              404);

    EXPECT_EQ(session_->get("/console/plugins/learning/nope").status, 404);
    EXPECT_EQ(session_->get("/console/plugins/ghost/courses").status, 404);
}

TEST_F(ConsolePluginPagesTest, AVideoPageShowsFramesAndTheTranscriptWithTimeLinks) {
    const std::string clip =
        std::string(DOCINTEL_SOURCE_DIR) + "/../shared/datasets/speech-jfk/jfk-subtitled.mp4";
    const std::string bytes = readFile(clip);
    const auto created =
        rest("POST", "/api/v1/video-uploads",
             {{"filename", "jfk.mp4"}, {"content_type", "video/mp4"}, {"file_size", bytes.size()}});
    ASSERT_EQ(created.status, 201) << created.body;
    const json upload = created.json();
    ASSERT_LT(TestServer::putObject(upload["upload_url"], bytes, "video/mp4").status, 300);
    const std::string id = upload["doc_id"];
    ASSERT_EQ(rest("POST", "/api/v1/video-uploads/complete",
                   {{"doc_id", id}, {"storage_source_path", upload["storage_source_path"]}})
                  .status,
              200);
    ASSERT_EQ(rest("POST", "/api/v1/videos/" + id + "/process",
                   {{"rights_confirmed", true}, {"max_frames", 4}})
                  .status,
              202);
    std::string processing;
    for (int i = 0; i < 1500 && processing != "completed" && processing != "error"; ++i) {
        processing =
            rest("GET", "/api/v1/videos/" + id + "/status", nullptr).json()["processing_status"];
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ASSERT_EQ(processing, "completed");

    const Response list = session_->get("/console/plugins/video/videos");
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_TRUE(has(list.body, "/console/plugins/video/videos/" + id));

    const Response page = session_->get("/console/plugins/video/videos/" + id);
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_TRUE(has(page.body, "<h1>jfk.mp4</h1>"));
    EXPECT_TRUE(has(page.body, "ask not what your country can do for you")) << page.body;
    // Every cue is a time link to a frame on the page.
    const std::regex link("<a class=\"time\" href=\"#frame-([0-9]+)\">([0-9:.]+)</a>");
    std::set<std::string> linked;
    for (std::sregex_iterator it(page.body.begin(), page.body.end(), link), end; it != end; ++it) {
        linked.insert((*it)[1]);
    }
    ASSERT_FALSE(linked.empty()) << page.body;
    for (const auto& frame : linked) {
        EXPECT_TRUE(has(page.body, "<figure id=\"frame-" + frame + "\"")) << frame;
    }
    // The frames are this server's signed URLs, and they serve the JPEG.
    const std::regex img("<img src=\"([^\"]+)\" alt=\"Frame at");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(page.body, m, img)) << page.body;
    std::string url = m[1];
    for (std::size_t at; (at = url.find("&amp;")) != std::string::npos;) url.replace(at, 5, "&");
    ASSERT_EQ(url.rfind(server_->baseUrl(), 0), 0u) << url;
    const Response jpeg = send(port(), "GET", url.substr(server_->baseUrl().size()));
    EXPECT_EQ(jpeg.status, 200);
    EXPECT_EQ(jpeg.header("content-type"), "image/jpeg");
    EXPECT_EQ(jpeg.body.substr(0, 2), std::string("\xFF\xD8"));
}

TEST_F(ConsolePluginPagesTest, AReviewTaskIsDecidedFromTheInboxAndStaleEditsAreRefused) {
    const std::string run_id = priorAuthRun();
    const auto tasks = rest("GET", "/api/v1/reviews?status=pending", nullptr).json();
    std::string task_id;
    for (const auto& t : tasks["reviews"]) {
        if (t["run_id"] == run_id) task_id = t["id"];
    }
    ASSERT_FALSE(task_id.empty()) << tasks.dump();

    // The run page lists the run's events, and its edit forms carry the revision they show.
    const Response run_page = session_->get("/console/runs/" + run_id);
    ASSERT_EQ(run_page.status, 200) << run_page.body;
    EXPECT_TRUE(has(run_page.body, "workflow.review_required")) << run_page.body;
    std::smatch rev;
    ASSERT_TRUE(
        std::regex_search(run_page.body, rev, std::regex("name=\"revision\" value=\"([0-9]+)\"")));
    const std::string seen = rev[1];
    const std::string field = "/patient/member_id";
    const Response saved =
        session_->post("/console/runs/" + run_id + "/fields",
                       {{"field", field}, {"value", "HPX-1"}, {"revision", seen}});
    EXPECT_EQ(saved.status, 303) << saved.body;
    // The same stale page again: refused, and the value stays the first edit's.
    const Response stale =
        session_->post("/console/runs/" + run_id + "/fields",
                       {{"field", field}, {"value", "HPX-2"}, {"revision", seen}});
    EXPECT_EQ(stale.status, 409) << stale.body;
    EXPECT_TRUE(has(stale.body, "changed since you opened it"));
    const auto run = rest("GET", "/api/v1/verticals/healthcare/runs/" + run_id, nullptr).json();
    EXPECT_EQ(run["review_packet"]["patient"]["member_id"]["value"], "HPX-1");

    // A user without reviews:approve sees no Decide link and cannot decide.
    const std::string taker = server_->createUser("taker@console-plugins.test");
    grant(taker, {"workflows:read", "reviews:write"});
    ConsoleSession taker_session(port(), "taker@console-plugins.test");
    EXPECT_FALSE(has(taker_session.get("/console").body, "/tasks/" + task_id + "/decide"));
    EXPECT_EQ(taker_session
                  .post("/console/tasks/" + task_id + "/decide",
                        {{"decision", "rejected"}, {"confirm", "yes"}})
                  .status,
              403);

    // The inbox offers the decision; the confirmation page comes first.
    const Response inbox = session_->get("/console");
    ASSERT_TRUE(has(inbox.body, "href=\"/console/tasks/" + task_id + "/decide\"")) << inbox.body;
    const Response confirm = session_->get("/console/tasks/" + task_id + "/decide");
    ASSERT_EQ(confirm.status, 200) << confirm.body;
    EXPECT_TRUE(has(confirm.body, "Record the decision"));
    const Response unconfirmed = session_->post("/console/tasks/" + task_id + "/decide",
                                                {{"decision", "changes_requested"}});
    EXPECT_EQ(unconfirmed.status, 303);
    EXPECT_EQ(rest("GET", "/api/v1/verticals/healthcare/runs/" + run_id, nullptr).json()["status"],
              "pending_review");
    const Response decided = session_->post(
        "/console/tasks/" + task_id + "/decide",
        {{"decision", "changes_requested"}, {"confirm", "yes"}, {"notes", "Check the member id"}});
    ASSERT_EQ(decided.status, 303) << decided.body;
    EXPECT_EQ(decided.header("location"), "/console?workspace=personal&done=decided");
    EXPECT_EQ(rest("GET", "/api/v1/verticals/healthcare/runs/" + run_id, nullptr).json()["status"],
              "changes_requested");
    EXPECT_FALSE(has(session_->get("/console").body, "/tasks/" + task_id + "/decide"));
    // The inbox's counts (one grouped count) follow.
    const json counts = json::parse(session_->get("/console/counts?workspace=personal").body);
    EXPECT_EQ(counts["statuses"]["changes_requested"], "1") << counts.dump();
    EXPECT_EQ(counts["statuses"]["pending_review"], "0") << counts.dump();
    EXPECT_EQ(session_->get("/console/tasks/" + task_id + "/decide").status, 409);
    EXPECT_TRUE(has(session_->get("/console/runs/" + run_id).body, "review.changes_requested"));
}

}  // namespace
}  // namespace docintel::test::oauth

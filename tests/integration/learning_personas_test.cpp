// Acceptance test of the learning plugin's access rules over HTTP (docs/learning.md "Access"):
// each of the 20 learning operations done by each caller — the workspace owner who created the
// course (its teacher), a course admin, a teacher, a student, an advisor (the enrolled ones are
// workspace viewers), a workspace viewer and a workspace editor not enrolled, an outsider who is
// no member of the workspace (sending its id), and the owner of another workspace sending that
// workspace's header — on their own item and on someone else's where the operation has one,
// with the status the rules give (2xx allowed, 403, 404). No response is ever a 5xx; the outsider
// and the foreign caller get 404 on every course-scoped operation (403 workspace_mismatch for the
// foreign header on the workspace-wide ones). Then archived courses for the participation
// operations, and the token scopes: learning:manage, learning:participate and learning:read each
// refused with 403 insufficient_scope on the operations the route table gives them.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* const kLeaves =
    "Leaves\n\nChlorophyll is the green pigment that absorbs red and blue light in leaves. "
    "Stomata are small pores that let carbon dioxide into the leaf. The Dutch physician Jan "
    "Ingenhousz showed in 1779 that plants release oxygen only in sunlight.\n";

json parse(const Response& r) { return json::parse(r.body, nullptr, false); }
std::string codeOf(const Response& r) {
    const auto j = parse(r);
    return j.is_object() ? j.value("code", "") : "";
}
std::string idOf(const Response& r) {
    const auto j = parse(r);
    return j.is_object() ? j.value("id", "") : "";
}

struct Actor {
    std::string name, id, email, token;
    std::string header_ws;  ///< the X-DocIntel-Workspace-ID it sends
};

/// The callers, in the order of the expectation strings below.
enum Col { kOwner, kAdmin, kTeacher, kStudent, kAdvisor, kViewer, kEditor, kOutsider, kForeign };
constexpr int kCols = 9;
const char* const kColNames[kCols] = {
    "owner-creator",        "admin",    "teacher", "student", "advisor", "viewer(not enrolled)",
    "editor(not enrolled)", "outsider", "foreign"};

class LearningPersonas : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        ASSERT_TRUE(fs::exists(builtPlugin("learning")))
            << builtPlugin("learning") << " is not built (cmake --build build --target learning)";
        TestServer::Options options;
        options.plugins = {builtPlugin("learning")};
        server_ = new TestServer(options);
        const char* labels[kCols] = {"owner",  "admin",  "teacher",  "student", "advisor",
                                     "viewer", "editor", "outsider", "foreign"};
        for (int i = 0; i < kCols; ++i) actors_[i] = actor(labels[i]);
        student2_ = actor("student2");
        enrollee_ = actor("enrollee");

        auto r = post(actors_[kOwner], "/api/v1/workspaces", {{"name", "personas"}}, "");
        ASSERT_EQ(r.status, 201) << r.body;
        ws_ = r.json()["id"];
        r = post(actors_[kForeign], "/api/v1/workspaces", {{"name", "foreign"}}, "");
        ASSERT_EQ(r.status, 201) << r.body;
        ws2_ = r.json()["id"];
        for (int i = 0; i < kCols; ++i) actors_[i].header_ws = i == kForeign ? ws2_ : ws_;
        student2_.header_ws = enrollee_.header_ws = ws_;
        auto add = [&](const Actor& who, const std::string& role) {
            const auto m = post(actors_[kOwner], "/api/v1/workspaces/" + ws_ + "/members",
                                {{"email", who.email}, {"role", role}}, "");
            ASSERT_EQ(m.status, 201) << m.body;
        };
        for (int i : {kAdmin, kTeacher, kStudent, kAdvisor, kViewer}) add(actors_[i], "viewer");
        add(actors_[kEditor], "editor");
        add(student2_, "viewer");
        add(enrollee_, "viewer");

        doc_ = server_->uploadDocument(actors_[kOwner].token, "leaves.txt", "text/plain", kLeaves,
                                       ws_);
        doc2_ = server_->uploadDocument(actors_[kOwner].token, "extra.txt", "text/plain",
                                        "Extra reading about roots.\n", ws_);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
        std::string status;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto d = parse(as(actors_[kOwner], "GET", "/api/v1/documents/" + doc_));
            status = d.is_object() ? d.value("status", "") : "";
            if (status == "embedded" || status == "error") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        ASSERT_EQ(status, "embedded");

        course_ = freshCourse("Matrix course", true);
        ASSERT_FALSE(course_.empty());
        other_quiz_ = saveQuiz(student2_, course_);
        ASSERT_FALSE(other_quiz_.empty());
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    static Actor actor(const std::string& label) {
        Actor a;
        a.name = label;
        a.email = label + "@learning-personas.example";
        a.id = server_->createUser(a.email);
        a.token = server_->token(a.id, TestServer::allScopes(), 3600);
        return a;
    }

    /// A request as `a` with its workspace header (`ws` overrides; "" sends none). Never a 5xx.
    static Response as(const Actor& a, const std::string& method, const std::string& path,
                       const json& body = nullptr, const std::string* ws = nullptr,
                       const std::string& token = "") {
        std::map<std::string, std::string> headers;
        const std::string w = ws ? *ws : a.header_ws;
        if (!w.empty()) headers["X-DocIntel-Workspace-ID"] = w;
        const auto r = server_->request(method, path, body.is_null() ? std::string() : body.dump(),
                                        token.empty() ? a.token : token, headers);
        EXPECT_LT(r.status, 500) << a.name << " " << method << " " << path << ": " << r.body;
        return r;
    }
    static Response post(const Actor& a, const std::string& path, const json& body,
                         const std::string& ws) {
        return as(a, "POST", path, body, &ws);
    }
    static const Actor& owner() { return actors_[kOwner]; }
    static std::string cpath(const std::string& course, const std::string& rest = "") {
        return "/api/v1/learning/courses/" + course + rest;
    }

    /// A course of the owner with one module (doc_ attached to it, when `with_content`) and one
    /// lesson, and admin, teacher, student, student 2 and advisor enrolled.
    static std::string freshCourse(const std::string& title, bool with_content = false) {
        auto r = as(owner(), "POST", "/api/v1/learning/courses",
                    {{"workspace_id", ws_}, {"title", title}});
        EXPECT_EQ(r.status, 201) << r.body;
        const std::string id = idOf(r);
        if (id.empty()) return id;
        r = as(owner(), "PUT", cpath(id, "/curriculum"),
               {{"modules", {{{"title", "Leaves"}, {"lessons", {{{"title", "Pigments"}}}}}}}});
        EXPECT_EQ(r.status, 200) << r.body;
        const auto body = parse(r);
        const json cur = body.contains("curriculum") ? body["curriculum"] : body;
        if (cur["modules"].is_array() && !cur["modules"].empty()) {
            module_[id] = cur["modules"][0].value("id", "");
            lesson_[id] = cur["modules"][0]["lessons"][0].value("id", "");
        }
        const std::pair<const Actor*, const char*> enrolments[] = {{&actors_[kAdmin], "admin"},
                                                                   {&actors_[kTeacher], "teacher"},
                                                                   {&actors_[kStudent], "student"},
                                                                   {&student2_, "student"},
                                                                   {&actors_[kAdvisor], "advisor"}};
        for (const auto& [who, persona] : enrolments) {
            r = as(owner(), "POST", cpath(id, "/members"),
                   {{"email", who->email}, {"persona", persona}});
            EXPECT_EQ(r.status, 200) << r.body;
        }
        if (with_content) {
            r = as(owner(), "POST", cpath(id, "/assets"),
                   {{"document_id", doc_}, {"module_id", module_[id]}});
            EXPECT_EQ(r.status, 200) << r.body;
        }
        return id;
    }

    static json quiz() {
        json options = json::array();
        for (const char* id : {"A", "B", "C", "D"}) {
            options.push_back({{"id", id},
                               {"text", std::string("Option ") + id},
                               {"correct", std::string(id) == "A"}});
        }
        return {{"schema_version", 1},
                {"questions",
                 {{{"id", "q1"},
                   {"question", "Which pigment absorbs red and blue light?"},
                   {"options", options},
                   {"explanation", "Chlorophyll."}}}}};
    }
    static std::string saveQuiz(const Actor& a, const std::string& course) {
        const auto r = as(a, "POST", cpath(course, "/artifacts"),
                          {{"artifact_type", "practice_questions"},
                           {"title", "Quiz of " + a.name},
                           {"content", quiz().dump()},
                           {"module_id", module_[course]},
                           {"lesson_id", lesson_[course]}});
        EXPECT_EQ(r.status, 201) << a.name << ": " << r.body;
        return idOf(r);
    }
    static std::string saveNote(const Actor& a, const std::string& course) {
        const auto r = as(a, "POST", cpath(course, "/artifacts"),
                          {{"artifact_type", "summary"}, {"content", "A note of " + a.name}});
        EXPECT_EQ(r.status, 201) << a.name << ": " << r.body;
        return idOf(r);
    }
    static std::string ask(const Actor& a, const std::string& course) {
        const auto r =
            as(a, "POST", cpath(course, "/questions"), {{"question", "A question of " + a.name}});
        EXPECT_EQ(r.status, 201) << a.name << ": " << r.body;
        return idOf(r);
    }
    static json curriculumWithIds(const std::string& course) {
        const auto c = parse(as(owner(), "GET", cpath(course)));
        json modules = json::array();
        for (const auto& m : c["curriculum"]["modules"]) {
            json lessons = json::array();
            for (const auto& l : m["lessons"]) {
                lessons.push_back({{"id", l["id"]}, {"title", l["title"]}});
            }
            modules.push_back({{"id", m["id"]}, {"title", m["title"]}, {"lessons", lessons}});
        }
        return {{"modules", modules}};
    }

    /// One operation: `run(caller, own)` does it (preparing what it needs) and returns the
    /// response; `own`/`other` give the outcome per caller ('A' success, 'F' 403, 'N' 404, '-'
    /// not applicable); `ok` is the success status.
    struct Op {
        std::string name;
        int ok;
        const char* own;    ///< nullptr: the operation has no "own item"
        const char* other;  ///< the item is someone else's, or there is no item
        std::function<Response(const Actor&, bool own)> run;
    };

    static int check(const Op& op, std::vector<std::string>& failures) {
        int cases = 0;
        for (const bool own : {true, false}) {
            const char* expect = own ? op.own : op.other;
            if (!expect) continue;
            for (int c = 0; c < kCols; ++c) {
                const char want = expect[c];
                if (want == '-') continue;
                const int status = want == 'A' ? op.ok : want == 'F' ? 403 : 404;
                const auto r = op.run(actors_[c], own);
                ++cases;
                if (r.status != status) {
                    std::ostringstream s;
                    s << op.name << (op.own ? (own ? " [own]" : " [other's]") : "") << " as "
                      << kColNames[c] << ": got " << r.status << " want " << status << " — "
                      << r.body.substr(0, 300);
                    failures.push_back(s.str());
                }
                if (want == 'F' && (c == kForeign) && op.own == nullptr &&
                    (op.name == "list courses" || op.name == "create course" ||
                     op.name == "list documents")) {
                    if (codeOf(r) != "workspace_mismatch") {
                        failures.push_back(op.name +
                                           " as foreign: code is not workspace_mismatch: " +
                                           r.body.substr(0, 300));
                    }
                }
                if (want == 'F' && c == kViewer &&
                    (op.name == "ask tutor" || op.name == "list artifacts" ||
                     op.name == "progress" || op.name == "save artifact" ||
                     op.name == "ask person")) {
                    if (codeOf(r) != "not_enrolled") {
                        failures.push_back(op.name + " as a viewer: code is not not_enrolled: " +
                                           r.body.substr(0, 300));
                    }
                }
            }
        }
        return cases;
    }

    static TestServer* server_;
    static Actor actors_[kCols];
    static Actor student2_, enrollee_;
    static std::string ws_, ws2_, doc_, doc2_, course_, other_quiz_;
    static std::map<std::string, std::string> module_, lesson_;
};
TestServer* LearningPersonas::server_ = nullptr;
Actor LearningPersonas::actors_[kCols];
Actor LearningPersonas::student2_, LearningPersonas::enrollee_;
std::string LearningPersonas::ws_, LearningPersonas::ws2_, LearningPersonas::doc_,
    LearningPersonas::doc2_, LearningPersonas::course_, LearningPersonas::other_quiz_;
std::map<std::string, std::string> LearningPersonas::module_, LearningPersonas::lesson_;

// Columns: owner-creator, admin, teacher, student, advisor, viewer, editor, outsider, foreign.
TEST_F(LearningPersonas, EveryOperationForEveryCaller) {
    ASSERT_FALSE(course_.empty());
    const std::string c = course_;
    const std::string m = module_[c];
    std::vector<Op> ops = {
        {"list courses", 200, nullptr, "AAAAAAANF",
         [&](const Actor& a, bool) {
             return as(a, "GET", "/api/v1/learning/courses?workspace_id=" + ws_);
         }},
        {"create course", 201, nullptr, "AFFFFFANF",
         [&](const Actor& a, bool) {
             return as(a, "POST", "/api/v1/learning/courses",
                       {{"workspace_id", ws_}, {"title", "Created by " + a.name}});
         }},
        {"list documents", 200, nullptr, "AAAAAAANF",
         [&](const Actor& a, bool) {
             return as(a, "GET", "/api/v1/learning/documents?workspace_id=" + ws_);
         }},
        {"get course", 200, nullptr, "AAAAAAANN",
         [&](const Actor& a, bool) { return as(a, "GET", cpath(c)); }},
        {"update course", 200, nullptr, "AAAFFFANN",
         [&](const Actor& a, bool) {
             return as(a, "PATCH", cpath(c), {{"description", "edited by " + a.name}});
         }},
        {"delete course", 200, nullptr, "AAFFFFFNN",
         [&](const Actor& a, bool) {
             const std::string fresh = freshCourse("To delete by " + a.name);
             return as(a, "DELETE", cpath(fresh));
         }},
        {"save curriculum", 200, nullptr, "AAAFFFANN",
         [&](const Actor& a, bool) {
             return as(a, "PUT", cpath(c, "/curriculum"), curriculumWithIds(c));
         }},
        {"attach content", 200, nullptr, "AAAFFFANN",
         [&](const Actor& a, bool) {
             const auto r = as(a, "POST", cpath(c, "/assets"),
                               {{"document_id", doc2_}, {"lesson_id", lesson_[c]}});
             if (r.status == 200) as(owner(), "DELETE", cpath(c, "/assets/" + idOf(r)));
             return r;
         }},
        {"remove content", 200, nullptr, "AAAFFFANN",
         [&](const Actor& a, bool) {
             const auto attached = as(owner(), "POST", cpath(c, "/assets"),
                                      {{"document_id", doc2_}, {"lesson_id", lesson_[c]}});
             EXPECT_EQ(attached.status, 200) << attached.body;
             const auto r = as(a, "DELETE", cpath(c, "/assets/" + idOf(attached)));
             if (r.status != 200) as(owner(), "DELETE", cpath(c, "/assets/" + idOf(attached)));
             return r;
         }},
        {"enroll member", 200, nullptr, "AAAFFFANN",
         [&](const Actor& a, bool) {
             const auto r = as(a, "POST", cpath(c, "/members"),
                               {{"email", enrollee_.email}, {"persona", "student"}});
             if (r.status == 200) as(owner(), "DELETE", cpath(c, "/members/" + enrollee_.id));
             return r;
         }},
        {"remove member", 200, nullptr, "AAAFFFANN",
         [&](const Actor& a, bool) {
             const auto enrolled = as(owner(), "POST", cpath(c, "/members"),
                                      {{"email", enrollee_.email}, {"persona", "student"}});
             EXPECT_EQ(enrolled.status, 200) << enrolled.body;
             const auto r = as(a, "DELETE", cpath(c, "/members/" + enrollee_.id));
             if (r.status != 200) as(owner(), "DELETE", cpath(c, "/members/" + enrollee_.id));
             return r;
         }},
        {"resolve scope", 200, nullptr, "AAAAAAANN",
         [&](const Actor& a, bool) { return as(a, "GET", cpath(c, "/scope?module_id=" + m)); }},
        {"ask tutor", 200, nullptr, "AAAAAFANN",
         [&](const Actor& a, bool) {
             return as(
                 a, "POST", cpath(c, "/tutor/query/stream"),
                 {{"question", "Which pigment absorbs red and blue light?"}, {"module_id", m}});
         }},
        {"list artifacts", 200, nullptr, "AAAAAFANN",
         [&](const Actor& a, bool) { return as(a, "GET", cpath(c, "/artifacts")); }},
        {"save artifact", 201, nullptr, "AAAAAFANN",
         [&](const Actor& a, bool) {
             return as(a, "POST", cpath(c, "/artifacts"),
                       {{"artifact_type", "summary"}, {"content", "Saved by " + a.name}});
         }},
        {"delete artifact", 200, "AAAAA-A--", "FFFNFFFNN",
         [&](const Actor& a, bool own) {
             const std::string id = saveNote(own ? a : student2_, c);
             return as(a, "DELETE", cpath(c, "/artifacts/" + id));
         }},
        {"submit attempt", 200, "AAAAA-A--", "AAANAFANN",
         [&](const Actor& a, bool own) {
             const std::string id = own ? saveQuiz(a, c) : other_quiz_;
             return as(a, "POST", cpath(c, "/artifacts/" + id + "/attempts"),
                       {{"answers", {{"q1", {"A"}}}}});
         }},
        {"progress", 200, nullptr, "AAAAAFANN",
         [&](const Actor& a, bool) { return as(a, "GET", cpath(c, "/progress")); }},
        {"ask person", 201, nullptr, "AAAAAFANN",
         [&](const Actor& a, bool) {
             return as(a, "POST", cpath(c, "/questions"), {{"question", "Asked by " + a.name}});
         }},
        {"answer question", 200, "AAAFA-A--", "AAANAFANN",
         [&](const Actor& a, bool own) {
             const std::string id = ask(own ? a : student2_, c);
             return as(a, "PATCH", cpath(c, "/questions/" + id),
                       {{"answer", "Answered by " + a.name}});
         }},
        {"close question", 200, "AAAAA-A--", "FFFNFFFNN",
         [&](const Actor& a, bool own) {
             const std::string id = ask(own ? a : student2_, c);
             return as(a, "PATCH", cpath(c, "/questions/" + id), {{"status", "closed"}});
         }},
    };
    ASSERT_EQ(ops.size(), 21u)
        << "the 20 operations, the question PATCH counted as answer and close";
    std::vector<std::string> failures;
    int cases = 0;
    for (const auto& op : ops) cases += check(op, failures);
    EXPECT_EQ(cases, 17 * kCols + 4 * (6 + kCols));  // own items: all but viewer, outsider, foreign
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_TRUE(failures.empty()) << failures.size() << " cases differ from docs/learning.md";
}

TEST_F(LearningPersonas, ListsShowEveryoneToReviewersAndOwnItemsToStudents) {
    ASSERT_FALSE(course_.empty());
    const std::string c = course_;
    // Student 2's note, quiz attempt and question; the student's own note.
    const std::string theirs = saveNote(student2_, c);
    const auto attempt = as(student2_, "POST", cpath(c, "/artifacts/" + other_quiz_ + "/attempts"),
                            {{"answers", {{"q1", {"A"}}}}});
    ASSERT_EQ(attempt.status, 200) << attempt.body;
    const std::string question = ask(student2_, c);
    const std::string mine = saveNote(actors_[kStudent], c);
    auto ids = [](const json& list) {
        std::set<std::string> out;
        for (const auto& x : list) out.insert(x.value("id", x.value("artifact_id", "")));
        return out;
    };
    for (int col : {kOwner, kAdmin, kTeacher, kAdvisor, kEditor}) {
        const Actor& a = actors_[col];
        const auto artifacts = parse(as(a, "GET", cpath(c, "/artifacts")));
        const auto listed = ids(artifacts.value("artifacts", json::array()));
        EXPECT_EQ(listed.count(theirs), 1u) << kColNames[col] << " sees everyone's artifacts";
        EXPECT_EQ(listed.count(mine), 1u) << kColNames[col];
        const auto progress = parse(as(a, "GET", cpath(c, "/progress")));
        bool attempt_seen = false;
        for (const auto& row : progress.value("attempts", json::array())) {
            attempt_seen |= row.value("user_id", "") == student2_.id;
        }
        EXPECT_TRUE(attempt_seen) << kColNames[col] << " sees student 2's attempt";
        EXPECT_EQ(ids(progress.value("questions", json::array())).count(question), 1u)
            << kColNames[col] << " sees student 2's question";
    }
    const Actor& student = actors_[kStudent];
    const auto listed =
        ids(parse(as(student, "GET", cpath(c, "/artifacts"))).value("artifacts", json::array()));
    EXPECT_EQ(listed.count(mine), 1u);
    EXPECT_EQ(listed.count(theirs), 0u) << "a student sees only their own artifacts";
    EXPECT_EQ(listed.count(other_quiz_), 0u);
    const auto progress = parse(as(student, "GET", cpath(c, "/progress")));
    for (const auto& key : {"attempts", "lesson_progress", "mastery"}) {
        for (const auto& row : progress.value(key, json::array())) {
            EXPECT_EQ(row.value("user_id", ""), student.id) << key << ": " << row.dump();
        }
    }
    EXPECT_EQ(ids(progress.value("questions", json::array())).count(question), 0u);
}

TEST_F(LearningPersonas, CourseScopedOperationsAre404ForStrangersWhateverTheHeader) {
    ASSERT_FALSE(course_.empty());
    const std::string c = course_;
    // The foreign owner naming the course's workspace (not a member), the outsider naming its
    // own, and a member naming another workspace: never the course.
    const Actor& foreign = actors_[kForeign];
    const Actor& outsider = actors_[kOutsider];
    const Actor& student = actors_[kStudent];
    // Deleting is tried on a course of its own, so that a wrong 200 harms nothing else.
    const std::string doomed = freshCourse("Not to be deleted by strangers");
    for (const auto& [who, ws] : std::vector<std::pair<const Actor*, std::string>>{
             {&foreign, ws_}, {&outsider, ws2_}, {&student, ws2_}, {&owner(), ws2_}}) {
        for (const auto& [method, path] :
             std::vector<std::pair<std::string, std::string>>{{"GET", cpath(c)},
                                                              {"GET", cpath(c, "/scope")},
                                                              {"GET", cpath(c, "/artifacts")},
                                                              {"GET", cpath(c, "/progress")},
                                                              {"PATCH", cpath(c)},
                                                              {"DELETE", cpath(doomed)}}) {
            const auto r = as(*who, method, path,
                              method == "PATCH" ? json{{"description", "x"}} : json(nullptr), &ws);
            EXPECT_EQ(r.status, 404)
                << who->name << " with " << (ws == ws_ ? "the course's" : "another")
                << " workspace header: " << method << " " << path << " " << r.body;
        }
    }
    // No header at all: the personal scope, which holds no course.
    const std::string none;
    const auto r = as(owner(), "GET", cpath(c), nullptr, &none);
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(codeOf(r), "workspace_required") << r.body;
}

TEST_F(LearningPersonas, ArchivedCoursesStopParticipationButNotManagers) {
    const std::string c = freshCourse("Archived course", true);
    ASSERT_FALSE(c.empty());
    // Before archiving: each caller's own quiz and question, and student 2's question.
    std::map<int, std::string> quizzes, questions;
    for (int i : {kOwner, kAdmin, kTeacher, kStudent, kAdvisor, kEditor}) {
        quizzes[i] = saveQuiz(actors_[i], c);
        questions[i] = ask(actors_[i], c);
    }
    const auto archived = as(owner(), "PATCH", cpath(c), {{"status", "archived"}});
    ASSERT_EQ(archived.status, 200) << archived.body;
    std::vector<std::string> failures;
    auto expectAs = [&](const std::string& what, int col, const Response& r, int want) {
        if (r.status != want) {
            failures.push_back(what + " as " + kColNames[col] + " on an archived course: got " +
                               std::to_string(r.status) + " want " + std::to_string(want) + " — " +
                               r.body.substr(0, 300));
        } else if (want == 403 && (col == kStudent || col == kAdvisor) &&
                   codeOf(r) != "course_archived") {
            failures.push_back(what + " as " + kColNames[col] +
                               ": code is not course_archived: " + r.body.substr(0, 300));
        }
    };
    // Columns as above; '-' not applicable.
    const std::map<std::string, std::string> rules = {
        {"save artifact", "AAAFFFANN"},
        {"submit own attempt", "AAAFF-ANN"},
        {"ask person", "AAAFFFANN"},
        {"close own question", "AAAFF-ANN"},
        {"answer student 2's question", "AAANAFANN"},
        {"get course", "AAAAAAANN"},
        {"ask tutor", "AAAAAFANN"},
    };
    for (int col = 0; col < kCols; ++col) {
        const Actor& a = actors_[col];
        auto want = [&](const std::string& rule, int ok) {
            const char w = rules.at(rule)[col];
            return w == 'A' ? ok : w == 'F' ? 403 : w == 'N' ? 404 : -1;
        };
        expectAs("save artifact", col,
                 as(a, "POST", cpath(c, "/artifacts"),
                    {{"artifact_type", "summary"}, {"content", "Late note"}}),
                 want("save artifact", 201));
        if (quizzes.count(col)) {
            expectAs("submit own attempt", col,
                     as(a, "POST", cpath(c, "/artifacts/" + quizzes[col] + "/attempts"),
                        {{"answers", {{"q1", {"A"}}}}}),
                     want("submit own attempt", 200));
            expectAs(
                "close own question", col,
                as(a, "PATCH", cpath(c, "/questions/" + questions[col]), {{"status", "closed"}}),
                want("close own question", 200));
        }
        expectAs("ask person", col,
                 as(a, "POST", cpath(c, "/questions"), {{"question", "Still there?"}}),
                 want("ask person", 201));
        expectAs("get course", col, as(a, "GET", cpath(c)), want("get course", 200));
        expectAs("ask tutor", col,
                 as(a, "POST", cpath(c, "/tutor/query/stream"),
                    {{"question", "Which pigment absorbs red and blue light?"}}),
                 want("ask tutor", 200));
    }
    // Reviewers still answer: one question of student 2 per reviewer, asked while active.
    EXPECT_EQ(as(owner(), "PATCH", cpath(c), {{"status", "active"}}).status, 200);
    std::map<int, std::string> theirs;
    for (int col = 0; col < kCols; ++col) theirs[col] = ask(student2_, c);
    EXPECT_EQ(as(owner(), "PATCH", cpath(c), {{"status", "archived"}}).status, 200);
    for (int col = 0; col < kCols; ++col) {
        const char w = rules.at("answer student 2's question")[col];
        expectAs("answer student 2's question", col,
                 as(actors_[col], "PATCH", cpath(c, "/questions/" + theirs[col]),
                    {{"answer", "Still answered"}}),
                 w == 'A'   ? 200
                 : w == 'F' ? 403
                            : 404);
    }
    for (const auto& f : failures) ADD_FAILURE() << f;
}

// The body rules of docs/learning.md the core's schema leaves to the plugin: each refused with
// 422 (or the stated code), never a 5xx; and the edges that are allowed.
TEST_F(LearningPersonas, BodyRulesAreEnforcedWithoutServerErrors) {
    const Actor& o = owner();
    std::vector<std::string> failures;
    auto expect = [&](const std::string& what, const Response& r, int want) {
        if (r.status != want) {
            failures.push_back(what + ": got " + std::to_string(r.status) + " want " +
                               std::to_string(want) + " — " + r.body.substr(0, 300));
        }
    };
    const std::string courses = "/api/v1/learning/courses";
    std::string e180;
    for (int i = 0; i < 180; ++i) e180 += "\xC3\xA9";  // é: 180 code points, 360 bytes
    auto create = [&](json extra) {
        json body{{"workspace_id", ws_}, {"title", "Edge"}};
        body.update(extra);
        return as(o, "POST", courses, body);
    };
    expect("title of 180 code points", create({{"title", e180}}), 201);
    expect("title of 181 code points", create({{"title", e180 + "e"}}), 422);
    expect("unknown domain", create({{"domain", "astrology"}}), 422);
    const auto health = create({{"domain", "healthcare"}});
    expect("domain healthcare", health, 201);
    EXPECT_EQ(parse(health).value("domain", ""), "healthcare") << health.body;
    expect("passing_score 101", create({{"domain_config", {{"passing_score", 101}}}}), 422);
    expect("passing_score as text", create({{"domain_config", {{"passing_score", "80"}}}}), 422);
    const auto custom =
        create({{"domain_config", {{"passing_score", 60}}}, {"publication_status", "published"}});
    expect("passing_score 60, published", custom, 201);
    EXPECT_EQ(parse(custom)["domain_config"].value("passing_score", -1), 60) << custom.body;
    EXPECT_EQ(parse(custom).value("publication_status", ""), "published") << custom.body;
    expect("publication_status secret", create({{"publication_status", "secret"}}), 422);

    const std::string c = freshCourse("Edges", true);
    ASSERT_FALSE(c.empty());
    expect("status deleted", as(o, "PATCH", cpath(c), {{"status", "deleted"}}), 422);
    // Curriculum.
    json many = json::array();
    for (int i = 0; i < 101; ++i) many.push_back({{"title", "M" + std::to_string(i)}});
    expect("101 modules", as(o, "PUT", cpath(c, "/curriculum"), {{"modules", many}}), 422);
    json lessons = json::array();
    for (int i = 0; i < 201; ++i) lessons.push_back({{"title", "L" + std::to_string(i)}});
    expect("201 lessons",
           as(o, "PUT", cpath(c, "/curriculum"),
              {{"modules", {{{"title", "Big"}, {"lessons", lessons}}}}}),
           422);
    expect("a module that is a number", as(o, "PUT", cpath(c, "/curriculum"), {{"modules", {1}}}),
           422);
    const std::string m = module_[c];
    expect("the same id twice",
           as(o, "PUT", cpath(c, "/curriculum"),
              {{"modules", {{{"id", m}, {"title", "A"}}, {{"id", m}, {"title", "B"}}}}}),
           422);
    const auto blank = as(o, "PUT", cpath(c, "/curriculum"),
                          {{"modules",
                            {{{"id", m},
                              {"title", "Leaves"},
                              {"lessons", {{{"id", lesson_[c]}, {"title", "Pigments"}}}}},
                             {{"title", "   "}, {"lessons", {{{"title", "Lost"}}}}}}}});
    expect("a blank module is skipped", blank, 200);
    const auto after = parse(as(o, "GET", cpath(c)));
    EXPECT_EQ(after["curriculum"]["modules"].size(), 1u) << after.dump();
    // Content.
    expect("seconds on a text document",
           as(o, "POST", cpath(c, "/assets"),
              {{"document_id", doc2_}, {"start_seconds", 1}, {"end_seconds", 5}}),
           422);
    // Artifacts.
    json quiz21 = quiz();
    for (int i = 2; i <= 21; ++i) {
        json q = quiz21["questions"][0];
        q["id"] = "q" + std::to_string(i);
        quiz21["questions"].push_back(q);
    }
    auto save = [&](const json& content) {
        return as(o, "POST", cpath(c, "/artifacts"),
                  {{"artifact_type", "practice_questions"}, {"content", content.dump()}});
    };
    expect("21 questions", save(quiz21), 422);
    json dup = quiz();
    dup["questions"].push_back(dup["questions"][0]);
    expect("a question id twice", save(dup), 422);
    json order = quiz();
    std::swap(order["questions"][0]["options"][0], order["questions"][0]["options"][1]);
    expect("options not A, B, C, D in order", save(order), 422);
    json three = quiz();
    three["questions"][0]["options"].erase(3);
    expect("three options", save(three), 422);
    json version = quiz();
    version["schema_version"] = 2;
    expect("schema_version 2", save(version), 422);
    json no_expl = quiz();
    no_expl["questions"][0].erase("explanation");
    expect("no explanation", save(no_expl), 422);
    expect("a valid quiz", save(quiz()), 201);
    // An attempt on an artifact that is not a quiz: refused, not a server error.
    const std::string note = saveNote(o, c);
    const auto on_note =
        as(o, "POST", cpath(c, "/artifacts/" + note + "/attempts"), {{"answers", {{"q1", {"A"}}}}});
    if (on_note.status < 400 || on_note.status >= 500) {
        failures.push_back("an attempt on a summary: got " + std::to_string(on_note.status));
    }
    // Tutor requests.
    json history = json::array();
    for (int i = 0; i < 31; ++i) history.push_back({{"role", "user"}, {"content", "hi"}});
    expect("31 history items",
           as(o, "POST", cpath(c, "/tutor/query/stream"),
              {{"question", "What is chlorophyll?"}, {"history", history}}),
           422);
    expect("response_language fr",
           as(o, "POST", cpath(c, "/tutor/query/stream"),
              {{"question", "What is chlorophyll?"}, {"response_language", "fr"}}),
           422);
    expect("a question of 12001 characters",
           as(o, "POST", cpath(c, "/tutor/query/stream"), {{"question", std::string(12001, 'a')}}),
           422);
    expect("an unknown module",
           as(o, "POST", cpath(c, "/tutor/query/stream"),
              {{"question", "What is chlorophyll?"},
               {"module_id", "00000000-0000-4000-8000-0000000000ff"}}),
           404);
    // Members.
    expect("an e-mail of 2 characters",
           as(o, "POST", cpath(c, "/members"), {{"email", "ab"}, {"persona", "student"}}), 422);
    expect("persona dean",
           as(o, "POST", cpath(c, "/members"), {{"email", enrollee_.email}, {"persona", "dean"}}),
           422);
    const auto upper =
        as(o, "POST", cpath(c, "/members"),
           {{"email", "  " + std::string("ENROLLEE@learning-personas.example") + " "},
            {"persona", "student"}});
    expect("an e-mail in capitals with spaces (trimmed, lower-cased)", upper, 200);
    // Questions.
    const std::string q = ask(actors_[kStudent], c);
    expect("answered without an answer",
           as(o, "PATCH", cpath(c, "/questions/" + q), {{"status", "answered"}}), 422);
    expect("the asker closes",
           as(actors_[kStudent], "PATCH", cpath(c, "/questions/" + q), {{"status", "closed"}}),
           200);
    const auto closed = as(o, "PATCH", cpath(c, "/questions/" + q), {{"answer", "Too late"}});
    expect("an answer to a closed question", closed, 409);
    EXPECT_EQ(codeOf(closed), "question_closed") << closed.body;
    expect("a question of 8001 characters",
           as(actors_[kStudent], "POST", cpath(c, "/questions"),
              {{"question", std::string(8001, 'q')}}),
           422);
    expect("target_role admin",
           as(actors_[kStudent], "POST", cpath(c, "/questions"),
              {{"question", "Who?"}, {"target_role", "admin"}}),
           422);
    for (const auto& f : failures) ADD_FAILURE() << f;
}

TEST_F(LearningPersonas, TokenScopesComeBeforeTheCourse) {
    ASSERT_FALSE(course_.empty());
    // The scope is checked before the course is looked at: a course that does not exist shows
    // it (and a missing check cannot harm the suite's course).
    const std::string c = "00000000-0000-4000-8000-0000000000cc";
    const std::string m = module_[course_];
    const std::string fake = "00000000-0000-4000-8000-0000000000bb";
    auto without = [&](const std::string& scope) {
        std::vector<std::string> scopes;
        for (const auto& s : TestServer::allScopes()) {
            if (s != scope) scopes.push_back(s);
        }
        return server_->token(owner().id, scopes, 3600);
    };
    struct Call {
        std::string method, path;
        json body;
    };
    const std::map<std::string, std::vector<Call>> by_scope = {
        {"learning:manage",
         {{"POST", "/api/v1/learning/courses", {{"workspace_id", ws_}, {"title", "x"}}},
          {"PATCH", cpath(c), {{"description", "x"}}},
          {"DELETE", cpath(c), nullptr},
          {"PUT", cpath(c, "/curriculum"), {{"modules", json::array()}}},
          {"POST", cpath(c, "/assets"), {{"document_id", doc2_}}},
          {"DELETE", cpath(c, "/assets/" + fake), nullptr},
          {"POST", cpath(c, "/members"), {{"email", enrollee_.email}}},
          {"DELETE", cpath(c, "/members/" + enrollee_.id), nullptr}}},
        {"learning:participate",
         {{"POST", cpath(c, "/tutor/query/stream"), {{"question", "What is chlorophyll?"}}},
          {"POST", cpath(c, "/artifacts"), {{"artifact_type", "summary"}, {"content", "x"}}},
          {"DELETE", cpath(c, "/artifacts/" + fake), nullptr},
          {"POST", cpath(c, "/artifacts/" + fake + "/attempts"), {{"answers", {{"q1", {"A"}}}}}},
          {"POST", cpath(c, "/questions"), {{"question", "x"}}},
          {"PATCH", cpath(c, "/questions/" + fake), {{"status", "closed"}}}}},
        {"learning:read",
         {{"GET", "/api/v1/learning/courses?workspace_id=" + ws_, nullptr},
          {"GET", cpath(c), nullptr},
          {"GET", cpath(c, "/artifacts"), nullptr},
          {"GET", cpath(c, "/progress"), nullptr},
          {"GET", cpath(c, "/scope?module_id=" + m), nullptr},
          {"GET", "/api/v1/learning/documents?workspace_id=" + ws_, nullptr}}},
    };
    for (const auto& [scope, calls] : by_scope) {
        const std::string token = without(scope);
        for (const auto& call : calls) {
            const auto r = as(owner(), call.method, call.path, call.body, nullptr, token);
            EXPECT_EQ(r.status, 403)
                << "without " << scope << ": " << call.method << " " << call.path << " " << r.body;
            EXPECT_EQ(codeOf(r), "insufficient_scope") << r.body;
        }
    }
    // The suite's course is untouched by all of that.
    const auto got = as(owner(), "GET", cpath(course_));
    EXPECT_EQ(got.status, 200) << got.body;
}

}  // namespace
}  // namespace docintel::test

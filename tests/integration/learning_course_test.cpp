// Acceptance test of the learning plugin (docs/learning.md, spec §2 learning operations): one
// course end to end over REST against the real server with build/plugins/learning.so loaded,
// real Postgres and real embeddings. A team workspace whose owner creates the course (and is its
// teacher), a student, a second student, an advisor, an outsider (no member) and the owner of a
// second workspace; three text documents in the workspace (photosynthesis for module 1, the
// French Revolution for module 2, volcanoes attached nowhere), each with a fact only it states.
//
// Covered: the workspace header rules (403 workspace_required, 403 workspace_mismatch, 404 for
// another workspace or a non-member), create (201, creator enrolled as teacher, defaults),
// curriculum with ids, attaching content (409 asset_exists, 404 for a document of another
// scope), enrolment (404 user_not_found, 400 not_a_workspace_member, 403
// creator_not_removable), the scope of the course and of each module (embedded documents
// only), the tutor stream answering from the right module with citations of that module's
// document only and refusing questions only an out-of-scope document answers, a quiz artifact
// (invalid quiz 422, students see their own artifacts, reviewers all), attempts and progress
// (merge, replace, unknown ids 422, progress never goes back, students see their own rows),
// a question to the advisor answered and closed, archiving (403 course_archived for students,
// reads still work), the learning events in GET /api/v1/events, and a curriculum without a
// module detaching that module's content (the document stays).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* const kPhotosynthesis =
    "Photosynthesis in the Verdant Valley Laboratory\n\n"
    "Photosynthesis is the process by which green plants convert light energy into chemical "
    "energy stored in sugar. Chlorophyll is the green pigment that absorbs red and blue light "
    "inside the chloroplasts. The Calvin cycle is a series of reactions that fixes carbon "
    "dioxide into sugar. In 1779 the Dutch physician Jan Ingenhousz showed that plants release "
    "oxygen only in sunlight.\n\n"
    "The botanist Miriam Okonkwo measured a record photosynthesis rate of 42 micromoles of "
    "carbon per square metre per second in sugarcane leaves at the Verdant Valley Laboratory in "
    "2011. Stomata are small pores on the leaf surface that let carbon dioxide enter the leaf. "
    "Roughly 90 percent of the water a plant absorbs is lost through transpiration.\n";

const char* const kRevolution =
    "The French Revolution\n\n"
    "The French Revolution was a period of political upheaval in France that began in 1789. "
    "The Estates-General met at Versailles in May 1789 for the first time since 1614. The "
    "storming of the Bastille took place on 14 July 1789. The Declaration of the Rights of Man "
    "is a charter adopted by the National Assembly in August 1789.\n\n"
    "The historian Aurelien Castelnau counted 1,320 revolutionary pamphlets printed in Lyon "
    "during the summer of 1790. The Reign of Terror was a period of mass executions led by the "
    "Committee of Public Safety. Maximilien Robespierre was executed on 28 July 1794.\n";

const char* const kVolcanoes =
    "Volcanoes of the Norrhaven Archipelago\n\n"
    "A stratovolcano is a tall conical volcano built up by many layers of hardened lava. Mount "
    "Kelvara erupted in 1783 and buried the fishing village of Ostrelund under 14 metres of ash. "
    "The eruption column of Mount Kelvara rose about 31 kilometres into the sky.\n";

const char* const kNoSuchId = "00000000-0000-4000-8000-0000000000aa";
const std::string kRefusal = "The provided documents don't contain this information.";

json parse(const Response& r) { return json::parse(r.body, nullptr, false); }

/// A list body: the array itself, or the array under `key`.
json listOf(const json& body, const std::string& key) {
    if (body.is_array()) return body;
    if (body.is_object() && body.contains(key) && body[key].is_array()) return body[key];
    return json::array();
}

/// The `done` frame (or the error body) of a tutor answer, with everything cited or sourced.
struct TutorAnswer {
    int status = 0;
    std::vector<json> frames;
    json done;
    std::set<std::string> cited;    ///< document ids of the done frame's citations
    std::set<std::string> sourced;  ///< document ids of the sources frame
    std::string answer() const { return done.is_object() ? done.value("answer", "") : ""; }
    bool refused() const { return done.is_object() && done.value("refused", false); }
};

class LearningCourse : public ::testing::Test {
  protected:
    struct Actor {
        std::string id, email, token;
    };

    static void SetUpTestSuite() {
        ASSERT_TRUE(fs::exists(builtPlugin("learning")))
            << builtPlugin("learning") << " is not built (cmake --build build --target learning)";
        TestServer::Options options;
        options.plugins = {builtPlugin("learning")};
        server_ = new TestServer(options);
        owner_ = actor("owner");
        student_ = actor("student");
        student2_ = actor("student2");
        advisor_ = actor("advisor");
        outsider_ = actor("outsider");
        foreigner_ = actor("foreigner");

        auto r = server_->request("POST", "/api/v1/workspaces", json{{"name", "biology"}}.dump(),
                                  owner_.token);
        ASSERT_EQ(r.status, 201) << r.body;
        ws_ = r.json()["id"];
        r = server_->request("POST", "/api/v1/workspaces", json{{"name", "elsewhere"}}.dump(),
                             foreigner_.token);
        ASSERT_EQ(r.status, 201) << r.body;
        ws2_ = r.json()["id"];
        for (const Actor* a : {&student_, &student2_, &advisor_}) {
            r = server_->request("POST", "/api/v1/workspaces/" + ws_ + "/members",
                                 json{{"email", a->email}, {"role", "viewer"}}.dump(),
                                 owner_.token);
            ASSERT_EQ(r.status, 201) << r.body;
        }

        photo_ = server_->uploadDocument(owner_.token, "photosynthesis.txt", "text/plain",
                                         kPhotosynthesis, ws_);
        revolution_ = server_->uploadDocument(owner_.token, "french_revolution.txt", "text/plain",
                                              kRevolution, ws_);
        volcano_ =
            server_->uploadDocument(owner_.token, "volcanoes.txt", "text/plain", kVolcanoes, ws_);
        for (const auto& id : {photo_, revolution_, volcano_}) {
            ASSERT_EQ(waitEmbedded(id), "embedded") << id;
        }
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    static Actor actor(const std::string& label) {
        Actor a;
        a.email = label + "@learning-course.example";
        a.id = server_->createUser(a.email);
        a.token = server_->token(a.id, TestServer::allScopes(), 3600);
        return a;
    }

    static std::string waitEmbedded(const std::string& id) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
        std::string status;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto r = server_->request("GET", "/api/v1/documents/" + id, {}, owner_.token,
                                            {{"X-DocIntel-Workspace-ID", ws_}});
            status = parse(r).is_object() ? parse(r).value("status", "") : "";
            if (status == "embedded" || status == "error") return status;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return status;
    }

    /// A learning request in workspace `ws` (empty: no header); never a 5xx.
    static Response call(const Actor& as, const std::string& method, const std::string& path,
                         const json& body = nullptr, const std::string& ws = "<course>") {
        std::map<std::string, std::string> headers;
        const std::string workspace = ws == "<course>" ? ws_ : ws;
        if (!workspace.empty()) headers["X-DocIntel-Workspace-ID"] = workspace;
        const auto r = server_->request(method, path, body.is_null() ? std::string() : body.dump(),
                                        as.token, headers);
        EXPECT_LT(r.status, 500) << method << " " << path << ": " << r.body;
        return r;
    }

    static std::string coursePath(const std::string& rest = "") {
        return "/api/v1/learning/courses/" + course_ + rest;
    }

    static void expectError(const Response& r, int status, const std::string& code) {
        EXPECT_EQ(r.status, status) << r.body;
        const auto body = parse(r);
        ASSERT_TRUE(body.is_object()) << r.body;
        EXPECT_EQ(body.value("code", ""), code) << r.body;
    }

    static void expect422(const Response& r) {
        EXPECT_EQ(r.status, 422) << r.body;
        const auto body = parse(r);
        ASSERT_TRUE(body.is_object()) << r.body;
        // FastAPI's shape: {"detail": [{loc, msg, type}]} (a code, when present, says so too).
        if (body.contains("code")) {
            EXPECT_EQ(body.value("code", ""), "validation_error") << r.body;
        }
        ASSERT_TRUE(body["detail"].is_array()) << r.body;
        EXPECT_FALSE(body["detail"].empty()) << r.body;
    }

    static TutorAnswer tutor(const Actor& as, const std::string& question,
                             const std::string& module_id = "", const std::string& lesson_id = "") {
        json body{{"question", question}};
        if (!module_id.empty()) body["module_id"] = module_id;
        if (!lesson_id.empty()) body["lesson_id"] = lesson_id;
        const auto r = call(as, "POST", coursePath("/tutor/query/stream"), body);
        TutorAnswer out;
        out.status = r.status;
        if (r.status != 200) {
            out.done = parse(r);
            return out;
        }
        EXPECT_EQ(r.header("content-type"), "text/event-stream");
        out.frames = sseFrames(r.body);
        for (const auto& f : out.frames) {
            const std::string type = f.value("type", "");
            if (type == "sources") {
                for (const auto& s : f["sources"]) out.sourced.insert(s.value("document_id", ""));
            } else if (type == "done") {
                out.done = f;
                for (const auto& c : f["citations"]) out.cited.insert(c.value("document_id", ""));
            }
        }
        return out;
    }

    /// Every event of the course's workspace the owner sees.
    static std::vector<json> workspaceEvents() {
        std::vector<json> out;
        long long after = 0;
        for (int page = 0; page < 100; ++page) {
            const auto r = server_->get("/api/v1/events?limit=500&after=" + std::to_string(after),
                                        owner_.token);
            EXPECT_EQ(r.status, 200) << r.body;
            const auto body = parse(r);
            if (!body.is_object() || body["events"].empty()) break;
            for (const auto& e : body["events"]) {
                if (e.value("workspace_id", json()) == ws_) out.push_back(e);
            }
            after = body["next_sequence"];
        }
        return out;
    }

    static json quizContent() {
        return {{"schema_version", 1},
                {"instructions", "Choose the right answer."},
                {"questions",
                 {{{"id", "q1"},
                   {"question", "Which pigment absorbs red and blue light?"},
                   {"options",
                    {{{"id", "A"}, {"text", "Chlorophyll"}, {"correct", true}},
                     {{"id", "B"}, {"text", "Keratin"}, {"correct", false}},
                     {{"id", "C"}, {"text", "Melanin"}, {"correct", false}},
                     {{"id", "D"}, {"text", "Haemoglobin"}, {"correct", false}}}},
                   {"explanation", "Chlorophyll absorbs red and blue light."}},
                  {{"id", "q2"},
                   {"question", "Who showed in 1779 that plants release oxygen in sunlight?"},
                   {"options",
                    {{{"id", "A"}, {"text", "Miriam Okonkwo"}, {"correct", false}},
                     {{"id", "B"}, {"text", "Jan Ingenhousz"}, {"correct", true}},
                     {{"id", "C"}, {"text", "Aurelien Castelnau"}, {"correct", false}},
                     {{"id", "D"}, {"text", "Maximilien Robespierre"}, {"correct", false}}}},
                   {"explanation", "Jan Ingenhousz, in 1779."}}}}};
    }

    static TestServer* server_;
    static Actor owner_, student_, student2_, advisor_, outsider_, foreigner_;
    static std::string ws_, ws2_, photo_, revolution_, volcano_;
    // Filled as the scenario goes (the tests run in order).
    static std::string course_, module1_, module2_, lesson1_, lesson2_, quiz_, question_;
};
TestServer* LearningCourse::server_ = nullptr;
LearningCourse::Actor LearningCourse::owner_, LearningCourse::student_, LearningCourse::student2_,
    LearningCourse::advisor_, LearningCourse::outsider_, LearningCourse::foreigner_;
std::string LearningCourse::ws_, LearningCourse::ws2_, LearningCourse::photo_,
    LearningCourse::revolution_, LearningCourse::volcano_, LearningCourse::course_,
    LearningCourse::module1_, LearningCourse::module2_, LearningCourse::lesson1_,
    LearningCourse::lesson2_, LearningCourse::quiz_, LearningCourse::question_;

TEST_F(LearningCourse, Step1_CreateACourseInTheTeamWorkspace) {
    const json create{{"workspace_id", ws_},
                      {"title", "Science and History"},
                      {"course_code", "SH-101"},
                      {"semester", "Spring 2027"},
                      {"description", "Plants, then revolutions."},
                      {"instructor_name", "Dr. Owner"},
                      {"objectives", {"Explain photosynthesis", "Date the Revolution"}}};

    // The workspace header: missing, or naming another workspace than the body's.
    expectError(call(owner_, "POST", "/api/v1/learning/courses", create, ""), 403,
                "workspace_required");
    expectError(call(owner_, "POST", "/api/v1/learning/courses", create, ws2_), 403,
                "workspace_mismatch");
    // Only the workspace's owner or editor creates; a viewer is refused, a stranger sees nothing.
    EXPECT_EQ(call(student_, "POST", "/api/v1/learning/courses", create).status, 403);
    EXPECT_EQ(call(outsider_, "POST", "/api/v1/learning/courses", create).status, 404);
    expect422(call(owner_, "POST", "/api/v1/learning/courses",
                   json{{"workspace_id", ws_}, {"title", std::string(181, 'x')}}));

    const auto r = call(owner_, "POST", "/api/v1/learning/courses", create);
    ASSERT_EQ(r.status, 201) << r.body;
    const auto course = r.json();
    course_ = course.value("id", "");
    ASSERT_FALSE(course_.empty()) << r.body;
    for (const char* key : {"title", "course_code", "semester", "description", "instructor_name"}) {
        EXPECT_EQ(course[key], create[key]) << key;
    }
    EXPECT_EQ(course["objectives"], create["objectives"]);
    EXPECT_EQ(course.value("domain", ""), "general");
    EXPECT_EQ(course["domain_config"].value("passing_score", -1), 80);
    EXPECT_EQ(course.value("status", ""), "active");
    EXPECT_EQ(course.value("publication_status", ""), "draft");

    // Read back: the creator is its teacher.
    const auto got = call(owner_, "GET", coursePath());
    ASSERT_EQ(got.status, 200) << got.body;
    bool creator_teacher = false;
    const auto got_course = got.json();
    for (const auto& m : got_course["members"]) {
        if (m.value("user_id", "") == owner_.id) {
            creator_teacher = m.value("persona", "") == "teacher";
            EXPECT_EQ(m.value("email", ""), owner_.email);
        }
    }
    EXPECT_TRUE(creator_teacher) << got.body;
    EXPECT_TRUE(got.json()["curriculum"]["modules"].is_array()) << got.body;
    EXPECT_TRUE(got.json()["assets"].is_array()) << got.body;

    // Listed in its workspace; not through another workspace's header; nothing leaks.
    const auto list = call(owner_, "GET", "/api/v1/learning/courses?workspace_id=" + ws_);
    ASSERT_EQ(list.status, 200) << list.body;
    bool listed = false;
    for (const auto& c : listOf(list.json(), "courses")) listed |= c.value("id", "") == course_;
    EXPECT_TRUE(listed) << list.body;
    expectError(call(owner_, "GET", "/api/v1/learning/courses?workspace_id=" + ws_, nullptr, ""),
                403, "workspace_required");
    expectError(call(owner_, "GET", "/api/v1/learning/courses?workspace_id=" + ws_, nullptr, ws2_),
                403, "workspace_mismatch");
    expectError(call(owner_, "GET", coursePath(), nullptr, ""), 403, "workspace_required");
    EXPECT_EQ(call(foreigner_, "GET", coursePath(), nullptr, ws2_).status, 404);
    EXPECT_EQ(call(outsider_, "GET", coursePath()).status, 404);
    EXPECT_EQ(
        call(owner_, "GET", "/api/v1/learning/courses/00000000-0000-4000-8000-000000000000").status,
        404);

    // The workspace's learning documents.
    const auto docs = call(owner_, "GET", "/api/v1/learning/documents?workspace_id=" + ws_);
    ASSERT_EQ(docs.status, 200) << docs.body;
    std::set<std::string> ids;
    for (const auto& d : listOf(docs.json(), "documents")) {
        ids.insert(d.value("id", ""));
        for (const char* key : {"id", "original_name", "file_type", "status", "chunk_count"}) {
            EXPECT_TRUE(d.contains(key)) << key << " in " << d.dump();
        }
    }
    EXPECT_EQ(ids, (std::set<std::string>{photo_, revolution_, volcano_})) << docs.body;
    expectError(
        call(owner_, "GET", "/api/v1/learning/documents?workspace_id=" + ws_, nullptr, ws2_), 403,
        "workspace_mismatch");
}

TEST_F(LearningCourse, Step2_CurriculumContentAndMembers) {
    ASSERT_FALSE(course_.empty());
    const json modules = {
        {{"title", "Plants"},
         {"description", "How plants make food"},
         {"lessons", {{{"title", "Photosynthesis basics"}, {"description", "Light to sugar"}}}}},
        {{"title", "History"},
         {"description", "France, 1789"},
         {"lessons", {{{"title", "The French Revolution"}}}}}};
    EXPECT_EQ(call(student_, "PUT", coursePath("/curriculum"), json{{"modules", modules}}).status,
              403);
    const auto put = call(owner_, "PUT", coursePath("/curriculum"), json{{"modules", modules}});
    ASSERT_EQ(put.status, 200) << put.body;
    auto body = put.json();
    const json curriculum = body.contains("curriculum") ? body["curriculum"] : body;
    ASSERT_EQ(curriculum["modules"].size(), 2u) << put.body;
    module1_ = curriculum["modules"][0].value("id", "");
    module2_ = curriculum["modules"][1].value("id", "");
    EXPECT_EQ(curriculum["modules"][0].value("title", ""), "Plants");
    EXPECT_EQ(curriculum["modules"][0].value("position", -1), 0);
    EXPECT_EQ(curriculum["modules"][1].value("position", -1), 1);
    ASSERT_EQ(curriculum["modules"][0]["lessons"].size(), 1u);
    lesson1_ = curriculum["modules"][0]["lessons"][0].value("id", "");
    lesson2_ = curriculum["modules"][1]["lessons"][0].value("id", "");
    ASSERT_FALSE(module1_.empty() || module2_.empty() || lesson1_.empty() || lesson2_.empty());
    EXPECT_NE(module1_, module2_);

    // Resending with ids keeps them.
    json again = modules;
    again[0]["id"] = module1_;
    again[0]["lessons"][0]["id"] = lesson1_;
    again[1]["id"] = module2_;
    again[1]["lessons"][0]["id"] = lesson2_;
    const auto kept = call(owner_, "PUT", coursePath("/curriculum"), json{{"modules", again}});
    ASSERT_EQ(kept.status, 200) << kept.body;
    const auto course = call(owner_, "GET", coursePath()).json();
    ASSERT_EQ(course["curriculum"]["modules"].size(), 2u) << course.dump();
    EXPECT_EQ(course["curriculum"]["modules"][0]["id"], module1_);
    EXPECT_EQ(course["curriculum"]["modules"][0]["lessons"][0]["id"], lesson1_);
    EXPECT_EQ(course["curriculum"]["modules"][1]["id"], module2_);
    // An id the course does not have is 422.
    json bad = again;
    bad[0]["id"] = kNoSuchId;
    expect422(call(owner_, "PUT", coursePath("/curriculum"), json{{"modules", bad}}));

    // Content: photosynthesis on module 1, the Revolution on module 2, volcanoes nowhere.
    const auto a1 = call(
        owner_, "POST", coursePath("/assets"),
        json{
            {"document_id", photo_}, {"module_id", module1_}, {"title", "Photosynthesis reading"}});
    ASSERT_EQ(a1.status, 200) << a1.body;
    EXPECT_FALSE(a1.json().value("id", "").empty()) << a1.body;
    EXPECT_EQ(a1.json().value("document_id", ""), photo_);
    EXPECT_EQ(a1.json().value("module_id", ""), module1_);
    EXPECT_EQ(a1.json().value("title", ""), "Photosynthesis reading");
    const auto a2 = call(owner_, "POST", coursePath("/assets"),
                         json{{"document_id", revolution_},
                              {"module_id", module2_},
                              {"title", "Revolution reading"}});
    ASSERT_EQ(a2.status, 200) << a2.body;
    expectError(call(owner_, "POST", coursePath("/assets"),
                     json{{"document_id", photo_}, {"module_id", module1_}}),
                409, "asset_exists");
    EXPECT_EQ(call(student_, "POST", coursePath("/assets"),
                   json{{"document_id", volcano_}, {"module_id", module1_}})
                  .status,
              403);
    // A document outside the course's workspace (the owner's personal one) is not found.
    const std::string personal =
        server_->uploadDocument(owner_.token, "personal.txt", "text/plain", "My own notes.\n");
    expectError(call(owner_, "POST", coursePath("/assets"),
                     json{{"document_id", personal}, {"module_id", module1_}}),
                404, "document_not_found");
    expect422(call(owner_, "POST", coursePath("/assets"),
                   json{{"document_id", volcano_}, {"module_id", kNoSuchId}}));

    // Enrolment.
    for (const auto& [who, persona] : std::vector<std::pair<Actor, std::string>>{
             {student_, "student"}, {student2_, "student"}, {advisor_, "advisor"}}) {
        const auto r = call(owner_, "POST", coursePath("/members"),
                            json{{"email", who.email}, {"persona", persona}});
        EXPECT_EQ(r.status, 200) << r.body;
    }
    expectError(call(owner_, "POST", coursePath("/members"),
                     json{{"email", "nobody@learning-course.example"}, {"persona", "student"}}),
                404, "user_not_found");
    expectError(call(owner_, "POST", coursePath("/members"),
                     json{{"email", outsider_.email}, {"persona", "student"}}),
                400, "not_a_workspace_member");
    expectError(call(owner_, "DELETE", coursePath("/members/" + owner_.id)), 403,
                "creator_not_removable");
    expectError(call(owner_, "POST", coursePath("/members"),
                     json{{"email", owner_.email}, {"persona", "student"}}),
                409, "creator_stays_teacher");
    EXPECT_EQ(call(student_, "POST", coursePath("/members"),
                   json{{"email", student2_.email}, {"persona", "teacher"}})
                  .status,
              403);

    const auto members = call(owner_, "GET", coursePath()).json()["members"];
    std::map<std::string, std::string> personas;
    for (const auto& m : members) personas[m.value("user_id", "")] = m.value("persona", "");
    EXPECT_EQ(personas[owner_.id], "teacher");
    EXPECT_EQ(personas[student_.id], "student");
    EXPECT_EQ(personas[student2_.id], "student");
    EXPECT_EQ(personas[advisor_.id], "advisor");
    EXPECT_EQ(personas.count(outsider_.id), 0u);
    for (const auto& m : members) {
        EXPECT_FALSE(m.value("email", "").empty()) << "a member without e-mail: " << m.dump();
    }
    // Enrolling again changes the persona (upsert), and back.
    EXPECT_EQ(call(owner_, "POST", coursePath("/members"),
                   json{{"email", student2_.email}, {"persona", "advisor"}})
                  .status,
              200);
    auto persona_of = [&](const std::string& user) {
        const auto c = parse(call(owner_, "GET", coursePath()));
        for (const auto& m : c.value("members", json::array())) {
            if (m.value("user_id", "") == user) return m.value("persona", "");
        }
        return std::string();
    };
    EXPECT_EQ(persona_of(student2_.id), "advisor");
    EXPECT_EQ(call(owner_, "POST", coursePath("/members"),
                   json{{"email", student2_.email}, {"persona", "student"}})
                  .status,
              200);
    EXPECT_EQ(persona_of(student2_.id), "student");
}

TEST_F(LearningCourse, Step3_TheScopeOfTheCourseAndOfEachModule) {
    ASSERT_FALSE(module1_.empty());
    const auto course_scope = call(student_, "GET", coursePath("/scope"));
    ASSERT_EQ(course_scope.status, 200) << course_scope.body;
    auto s = course_scope.json();
    for (const char* key : {"course_id", "module_id", "lesson_id", "scope_type", "label",
                            "instruction", "document_ids", "evidence_ranges", "assets"}) {
        EXPECT_TRUE(s.contains(key)) << key << " in " << s.dump();
    }
    EXPECT_EQ(s.value("course_id", ""), course_);
    EXPECT_EQ(s.value("scope_type", ""), "course");
    std::set<std::string> ids(s["document_ids"].begin(), s["document_ids"].end());
    EXPECT_EQ(ids, (std::set<std::string>{photo_, revolution_})) << s.dump();

    const auto m1 = call(student_, "GET", coursePath("/scope?module_id=" + module1_));
    ASSERT_EQ(m1.status, 200) << m1.body;
    s = m1.json();
    EXPECT_EQ(s.value("scope_type", ""), "module");
    EXPECT_EQ(s.value("module_id", ""), module1_);
    EXPECT_EQ(s["document_ids"], json::array({photo_})) << s.dump();
    EXPECT_EQ(s.value("label", ""), "Science and History > Plants");
    EXPECT_FALSE(s.value("instruction", "").empty());
    ASSERT_EQ(s["assets"].size(), 1u);
    EXPECT_EQ(s["assets"][0].value("document_id", ""), photo_);

    const auto m2 = call(student_, "GET", coursePath("/scope?module_id=" + module2_));
    ASSERT_EQ(m2.status, 200) << m2.body;
    EXPECT_EQ(m2.json()["document_ids"], json::array({revolution_})) << m2.body;

    const auto l1 = call(student_, "GET",
                         coursePath("/scope?module_id=" + module1_ + "&lesson_id=" + lesson1_));
    ASSERT_EQ(l1.status, 200) << l1.body;
    EXPECT_EQ(l1.json().value("scope_type", ""), "lesson");
    EXPECT_EQ(l1.json()["document_ids"], json::array({photo_})) << "module-wide content is in "
                                                                   "the lesson's scope";
    EXPECT_EQ(l1.json().value("label", ""), "Science and History > Plants > Photosynthesis basics");

    EXPECT_EQ(
        call(student_, "GET", coursePath("/scope?module_id=" + std::string(kNoSuchId))).status,
        404);
    EXPECT_EQ(call(outsider_, "GET", coursePath("/scope?module_id=" + module1_)).status, 404);

    // Content on a lesson is in that lesson's scope and its module's; detaching takes it out
    // and keeps the document.
    const auto lesson_asset = call(owner_, "POST", coursePath("/assets"),
                                   json{{"document_id", volcano_}, {"lesson_id", lesson2_}});
    ASSERT_EQ(lesson_asset.status, 200) << lesson_asset.body;
    EXPECT_EQ(lesson_asset.json().value("module_id", ""), module2_)
        << "a lesson implies its module";
    auto ids_in = [&](const std::string& query) {
        const auto body = parse(call(student_, "GET", coursePath("/scope" + query)));
        const auto ids =
            body.is_object() ? body.value("document_ids", json::array()) : json::array();
        return std::set<std::string>(ids.begin(), ids.end());
    };
    EXPECT_EQ(ids_in("?module_id=" + module2_ + "&lesson_id=" + lesson2_),
              (std::set<std::string>{revolution_, volcano_}));
    EXPECT_EQ(ids_in("?module_id=" + module2_), (std::set<std::string>{revolution_, volcano_}));
    EXPECT_EQ(ids_in("?module_id=" + module1_), std::set<std::string>{photo_});
    EXPECT_EQ(call(student_, "DELETE", coursePath("/assets/" + lesson_asset.json().value("id", "")))
                  .status,
              403);
    const auto detached =
        call(owner_, "DELETE", coursePath("/assets/" + lesson_asset.json().value("id", "")));
    EXPECT_EQ(detached.status, 200) << detached.body;
    EXPECT_EQ(ids_in("?module_id=" + module2_), std::set<std::string>{revolution_});
    EXPECT_EQ(ids_in(""), (std::set<std::string>{photo_, revolution_}));
    const auto still = call(owner_, "GET", "/api/v1/learning/documents?workspace_id=" + ws_);
    EXPECT_NE(still.body.find(volcano_), std::string::npos) << "detaching keeps the document";
}

TEST_F(LearningCourse, Step4_TheTutorAnswersOnlyFromTheScope) {
    ASSERT_FALSE(module1_.empty());
    // The node's indexes follow the change feed: wait until module 1's fact is answerable.
    TutorAnswer a;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    do {
        a = tutor(student_,
                  "What record photosynthesis rate did Miriam Okonkwo measure in "
                  "sugarcane leaves?",
                  module1_);
        if (a.status == 200 && !a.refused()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    } while (std::chrono::steady_clock::now() < deadline);
    ASSERT_EQ(a.status, 200) << a.done.dump();
    ASSERT_FALSE(a.frames.empty());
    EXPECT_EQ(a.frames.front().value("type", ""), "sources");
    EXPECT_EQ(a.frames.back().value("type", ""), "done");
    EXPECT_FALSE(a.refused()) << a.done.dump();
    EXPECT_NE(a.answer().find("42 micromoles"), std::string::npos) << a.answer();
    EXPECT_EQ(a.cited, std::set<std::string>{photo_}) << a.done.dump();
    for (const auto& id : a.sourced) EXPECT_EQ(id, photo_) << "a source outside module 1";
    std::string streamed;
    for (const auto& f : a.frames) {
        if (f.value("type", "") == "token") streamed += f.value("content", "");
    }
    EXPECT_EQ(streamed, a.answer());

    // Module 2's fact, asked in module 2: answered from its document.
    TutorAnswer b;
    const auto deadline2 = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    do {  // module 2's document may reach the index a moment after module 1's
        b = tutor(student_,
                  "How many revolutionary pamphlets did Aurelien Castelnau count in Lyon?",
                  module2_);
        if (b.status == 200 && !b.refused()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    } while (std::chrono::steady_clock::now() < deadline2);
    ASSERT_EQ(b.status, 200) << b.done.dump();
    EXPECT_FALSE(b.refused()) << b.done.dump();
    EXPECT_NE(b.answer().find("1,320"), std::string::npos) << b.answer();
    EXPECT_EQ(b.cited, std::set<std::string>{revolution_}) << b.done.dump();

    // The same question in module 1: the answer is only in module 2's document — refused.
    const auto c = tutor(student_,
                         "How many revolutionary pamphlets did Aurelien Castelnau count "
                         "in Lyon?",
                         module1_);
    ASSERT_EQ(c.status, 200) << c.done.dump();
    EXPECT_TRUE(c.refused()) << c.done.dump();
    EXPECT_EQ(c.answer(), kRefusal);
    EXPECT_EQ(c.answer().find("1,320"), std::string::npos);
    EXPECT_EQ(c.cited.count(revolution_), 0u);
    EXPECT_EQ(c.sourced.count(revolution_), 0u) << "module 2's document is not a source in 1";
    for (const auto& id : c.cited) EXPECT_EQ(id, photo_);

    // A question only the unattached document answers: refused in the course scope too.
    const auto d = tutor(student_, "Which fishing village did Mount Kelvara bury under ash?");
    ASSERT_EQ(d.status, 200) << d.done.dump();
    EXPECT_TRUE(d.refused()) << d.done.dump();
    EXPECT_EQ(d.answer(), kRefusal);
    EXPECT_EQ(d.answer().find("Ostrelund"), std::string::npos);
    EXPECT_EQ(d.cited.count(volcano_), 0u);
    EXPECT_EQ(d.sourced.count(volcano_), 0u);
    for (const auto& id : d.cited) EXPECT_TRUE(id == photo_ || id == revolution_) << id;

    // Validation, and who may ask.
    expect422(call(student_, "POST", coursePath("/tutor/query/stream"), json{{"question", ""}}));
    EXPECT_EQ(call(outsider_, "POST", coursePath("/tutor/query/stream"),
                   json{{"question", "What is chlorophyll?"}})
                  .status,
              404);
}

TEST_F(LearningCourse, Step5_TheTutorNeedsEmbeddedContent) {
    // A course without content: 409 content_not_ready.
    const auto r = call(owner_, "POST", "/api/v1/learning/courses",
                        json{{"workspace_id", ws_}, {"title", "Empty course"}});
    ASSERT_EQ(r.status, 201) << r.body;
    const std::string empty = r.json()["id"];
    const auto t = call(owner_, "POST", "/api/v1/learning/courses/" + empty + "/tutor/query/stream",
                        json{{"question", "What is chlorophyll?"}});
    expectError(t, 409, "content_not_ready");
    EXPECT_EQ(call(owner_, "DELETE", "/api/v1/learning/courses/" + empty).status, 200);
    EXPECT_EQ(call(owner_, "GET", "/api/v1/learning/courses/" + empty).status, 404);
}

TEST_F(LearningCourse, Step6_AQuizArtifactAttemptsAndProgress) {
    ASSERT_FALSE(lesson1_.empty());
    // Not a valid quiz: 422.
    json broken = quizContent();
    broken["questions"][0]["options"][0]["correct"] = false;  // no correct option left
    expect422(call(student_, "POST", coursePath("/artifacts"),
                   json{{"artifact_type", "practice_questions"},
                        {"title", "Broken"},
                        {"content", broken.dump()},
                        {"module_id", module1_},
                        {"lesson_id", lesson1_}}));
    expect422(call(student_, "POST", coursePath("/artifacts"),
                   json{{"artifact_type", "practice_questions"},
                        {"content", "not json at all"},
                        {"lesson_id", lesson1_}}));
    // A source outside the scope it is saved for: 422.
    expect422(call(student_, "POST", coursePath("/artifacts"),
                   json{{"artifact_type", "summary"},
                        {"content", "Plants make sugar."},
                        {"source_document_ids", {revolution_}},
                        {"module_id", module1_}}));

    const auto saved = call(student_, "POST", coursePath("/artifacts"),
                            json{{"artifact_type", "practice_questions"},
                                 {"title", "Photosynthesis quiz"},
                                 {"content", quizContent().dump()},
                                 {"source_document_ids", {photo_}},
                                 {"module_id", module1_},
                                 {"lesson_id", lesson1_}});
    ASSERT_EQ(saved.status, 201) << saved.body;
    const auto artifact = saved.json();
    quiz_ = artifact.value("id", "");
    ASSERT_FALSE(quiz_.empty());
    EXPECT_EQ(artifact.value("artifact_type", ""), "practice_questions");
    EXPECT_EQ(artifact.value("title", ""), "Photosynthesis quiz");
    EXPECT_EQ(artifact.value("owner_id", ""), student_.id);
    EXPECT_EQ(artifact.value("module_id", ""), module1_);
    EXPECT_EQ(artifact.value("lesson_id", ""), lesson1_);
    EXPECT_EQ(artifact["source_document_ids"], json::array({photo_}));
    EXPECT_TRUE(artifact.contains("content"));

    // Another student's note, saved without a title: "{Type} - {scope label}".
    const auto note = call(student2_, "POST", coursePath("/artifacts"),
                           json{{"artifact_type", "summary"},
                                {"content", "The Bastille fell on 14 July 1789."},
                                {"source_document_ids", {revolution_}},
                                {"module_id", module2_}});
    ASSERT_EQ(note.status, 201) << note.body;
    const std::string note_id = note.json()["id"];
    EXPECT_NE(note.json().value("title", "").find("Science and History > History"),
              std::string::npos)
        << note.body;

    // Students see their own artifacts; reviewers see everyone's.
    auto ids_of = [](const Response& r) {
        std::set<std::string> out;
        for (const auto& a : listOf(parse(r), "artifacts")) out.insert(a.value("id", ""));
        return out;
    };
    const auto mine = call(student_, "GET", coursePath("/artifacts"));
    ASSERT_EQ(mine.status, 200) << mine.body;
    EXPECT_EQ(ids_of(mine), std::set<std::string>{quiz_});
    EXPECT_EQ(ids_of(call(student2_, "GET", coursePath("/artifacts"))),
              std::set<std::string>{note_id});
    EXPECT_EQ(ids_of(call(owner_, "GET", coursePath("/artifacts"))),
              (std::set<std::string>{quiz_, note_id}));
    EXPECT_EQ(ids_of(call(advisor_, "GET", coursePath("/artifacts"))),
              (std::set<std::string>{quiz_, note_id}));
    // Only the owner deletes: someone else's, unseen, is 404 to a student; 403 to a reviewer.
    EXPECT_EQ(call(student_, "DELETE", coursePath("/artifacts/" + note_id)).status, 404);
    EXPECT_EQ(call(owner_, "DELETE", coursePath("/artifacts/" + note_id)).status, 403);
    EXPECT_EQ(call(student2_, "DELETE", coursePath("/artifacts/" + note_id)).status, 200);
    EXPECT_EQ(ids_of(call(owner_, "GET", coursePath("/artifacts"))), std::set<std::string>{quiz_});

    // Attempts: q1 right, q2 wrong.
    const std::string attempts = coursePath("/artifacts/" + quiz_ + "/attempts");
    auto r = call(student_, "POST", attempts, json{{"answers", {{"q1", {"A"}}, {"q2", {"C"}}}}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto result = r.json();
    EXPECT_EQ(result.value("correct_count", -1), 1);
    EXPECT_EQ(result.value("question_count", -1), 2);
    EXPECT_TRUE(result.value("completed", false));
    EXPECT_EQ(result.value("score", -1), 50);
    // Per-question results, keyed by question id (as an object or a list carrying the id).
    auto per_question = [](const json& res, const std::string& qid) -> json {
        const json& qs = res.contains("questions") ? res["questions"] : res["results"];
        if (qs.is_object() && qs.contains(qid)) return qs[qid];
        if (qs.is_array()) {
            for (const auto& q : qs) {
                if (q.value("id", q.value("question_id", "")) == qid) return q;
            }
        }
        return json::object();
    };
    auto q1 = per_question(result, "q1");
    EXPECT_EQ(q1["selected"], json::array({"A"})) << result.dump();
    EXPECT_EQ(q1["correct"], json::array({"A"}));
    EXPECT_EQ(q1.value("is_correct", false), true);
    EXPECT_FALSE(q1.value("explanation", "").empty());
    auto q2 = per_question(result, "q2");
    EXPECT_EQ(q2["selected"], json::array({"C"})) << result.dump();
    EXPECT_EQ(q2["correct"], json::array({"B"}));
    EXPECT_EQ(q2.value("is_correct", true), false);

    auto lessonProgress = [&](const Actor& as, const std::string& user) -> json {
        const auto p = call(as, "GET", coursePath("/progress"));
        EXPECT_EQ(p.status, 200) << p.body;
        const auto body = parse(p);
        if (!body.is_object()) return json::object();
        for (const auto& row : body.value("lesson_progress", json::array())) {
            if (row.value("user_id", "") == user && row.value("lesson_id", "") == lesson1_) {
                return row;
            }
        }
        return json::object();
    };
    auto lp = lessonProgress(student_, student_.id);
    EXPECT_EQ(lp.value("status", ""), "in_progress") << lp.dump();
    EXPECT_EQ(lp.value("percent", -1), 50) << lp.dump();

    // Only q2 resent: q1's selection stays (merge), the quiz is now all right.
    r = call(student_, "POST", attempts, json{{"answers", {{"q2", {"B"}}}}});
    ASSERT_EQ(r.status, 200) << r.body;
    result = r.json();
    EXPECT_EQ(result.value("correct_count", -1), 2) << r.body;
    EXPECT_EQ(result.value("score", -1), 100);
    EXPECT_TRUE(result.value("completed", false));
    lp = lessonProgress(student_, student_.id);
    EXPECT_EQ(lp.value("status", ""), "completed") << lp.dump();
    EXPECT_EQ(lp.value("percent", -1), 100) << lp.dump();

    // replace: only what is sent counts; progress never goes back.
    r = call(student_, "POST", attempts, json{{"answers", {{"q1", {"B"}}}}, {"replace", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    result = r.json();
    EXPECT_FALSE(result.value("completed", true)) << r.body;
    EXPECT_EQ(result.value("correct_count", -1), 0);
    EXPECT_EQ(result.value("score", -1), 0);
    lp = lessonProgress(student_, student_.id);
    EXPECT_EQ(lp.value("status", ""), "completed") << lp.dump();
    EXPECT_EQ(lp.value("percent", -1), 100) << lp.dump();

    // Unknown question or option ids: 422.
    expect422(call(student_, "POST", attempts, json{{"answers", {{"q9", {"A"}}}}}));
    expect422(call(student_, "POST", attempts, json{{"answers", {{"q1", {"E"}}}}}));

    // Progress: the student sees their own rows, the advisor and the teacher everyone's.
    const auto own = call(student_, "GET", coursePath("/progress"));
    ASSERT_EQ(own.status, 200) << own.body;
    const auto own_body = own.json();
    for (const char* key : {"attempts", "lesson_progress", "mastery"}) {
        EXPECT_TRUE(own_body.contains(key)) << key << " in " << own.body;
    }
    EXPECT_GE(own_body["attempts"].size(), 3u);
    for (const auto& a : own_body["attempts"]) EXPECT_EQ(a.value("user_id", ""), student_.id);
    for (const auto& row : own_body["lesson_progress"]) {
        EXPECT_EQ(row.value("user_id", ""), student_.id);
    }
    for (const auto& row : own_body["mastery"]) EXPECT_EQ(row.value("user_id", ""), student_.id);
    EXPECT_TRUE(parse(call(student2_, "GET", coursePath("/progress")))
                    .value("attempts", json::array())
                    .empty())
        << "student 2 sees none of student 1's attempts";
    const auto all = call(advisor_, "GET", coursePath("/progress"));
    ASSERT_EQ(all.status, 200) << all.body;
    EXPECT_GE(all.json()["attempts"].size(), 3u);
    bool mastery_row = false;
    const auto all_body = all.json();
    for (const auto& row : all_body["mastery"]) {
        if (row.value("user_id", "") != student_.id) continue;
        mastery_row = true;
        EXPECT_EQ(row.value("lessons_total", -1), 2) << row.dump();
        EXPECT_EQ(row.value("lessons_completed", -1), 1) << row.dump();
        EXPECT_EQ(row.value("mastery_percent", -1), 50) << row.dump();
    }
    EXPECT_TRUE(mastery_row) << all.body;
    EXPECT_FALSE(lessonProgress(owner_, student_.id).empty());
}

TEST_F(LearningCourse, Step7_AQuestionToTheAdvisorIsAnsweredAndClosed) {
    ASSERT_FALSE(course_.empty());
    const auto asked = call(student_, "POST", coursePath("/questions"),
                            json{{"target_role", "advisor"},
                                 {"question", "Should I retake the photosynthesis quiz?"},
                                 {"context", {{"lesson_id", lesson1_}}}});
    ASSERT_EQ(asked.status, 201) << asked.body;
    const auto q = asked.json();
    question_ = q.value("id", "");
    ASSERT_FALSE(question_.empty());
    EXPECT_EQ(q.value("assigned_to", ""), advisor_.id) << asked.body;
    EXPECT_EQ(q.value("status", ""), "open");
    // The teacher question goes to the first teacher: the creator.
    const auto to_teacher =
        call(student_, "POST", coursePath("/questions"), json{{"question", "When is the exam?"}});
    ASSERT_EQ(to_teacher.status, 201) << to_teacher.body;
    EXPECT_EQ(to_teacher.json().value("assigned_to", ""), owner_.id);
    expect422(call(student_, "POST", coursePath("/questions"), json{{"question", ""}}));

    const std::string path = coursePath("/questions/" + question_);
    // The asker answering their own question: 403; someone else's question is 404 to a student.
    EXPECT_EQ(call(student_, "PATCH", path, json{{"answer", "Yes."}}).status, 403);
    EXPECT_EQ(call(student2_, "PATCH", path, json{{"answer", "Yes."}}).status, 404);
    EXPECT_EQ(call(student2_, "PATCH", path, json{{"status", "closed"}}).status, 404);

    const auto answered =
        call(advisor_, "PATCH", path, json{{"answer", "Yes, aim for the passing score of 80."}});
    ASSERT_EQ(answered.status, 200) << answered.body;
    EXPECT_EQ(answered.json().value("status", ""), "answered") << answered.body;
    EXPECT_EQ(answered.json().value("answer", ""), "Yes, aim for the passing score of 80.");

    // A reviewer may not close for the asker; the asker may close.
    EXPECT_EQ(call(advisor_, "PATCH", path, json{{"status", "closed"}}).status, 403);
    const auto closed = call(student_, "PATCH", path, json{{"status", "closed"}});
    ASSERT_EQ(closed.status, 200) << closed.body;
    EXPECT_EQ(closed.json().value("status", ""), "closed");

    // Reassigning: only to a course admin, teacher or advisor (422 for a student).
    const std::string other = to_teacher.json().value("id", "");
    expect422(call(owner_, "PATCH", coursePath("/questions/" + other),
                   json{{"assigned_to", student2_.id}}));
    const auto moved = call(owner_, "PATCH", coursePath("/questions/" + other),
                            json{{"assigned_to", advisor_.id}});
    EXPECT_EQ(moved.status, 200) << moved.body;
    EXPECT_EQ(parse(moved).value("assigned_to", ""), advisor_.id) << moved.body;
    // The progress body shows a learner the questions they asked.
    const auto progress = parse(call(student_, "GET", coursePath("/progress")));
    std::set<std::string> asked_ids;
    for (const auto& q : progress.value("questions", json::array()))
        asked_ids.insert(q.value("id", ""));
    EXPECT_EQ(asked_ids, (std::set<std::string>{question_, other})) << progress.dump();
    EXPECT_TRUE(parse(call(student2_, "GET", coursePath("/progress")))
                    .value("questions", json::array())
                    .empty());
}

TEST_F(LearningCourse, Step8_TheLearningEventsAreInTheWorkspaceLog) {
    ASSERT_FALSE(course_.empty());
    std::set<std::string> types;
    std::vector<json> events;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    const std::set<std::string> wanted{"learning.course.created", "learning.content.attached",
                                       "learning.quiz.submitted", "learning.progress.updated",
                                       "learning.question.answered"};
    do {
        events = workspaceEvents();
        types.clear();
        for (const auto& e : events) types.insert(e.value("event_type", ""));
        if (std::includes(types.begin(), types.end(), wanted.begin(), wanted.end())) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    } while (std::chrono::steady_clock::now() < deadline);
    for (const auto& type : wanted) EXPECT_EQ(types.count(type), 1u) << type << " missing";
    bool created_for_course = false;
    for (const auto& e : events) {
        if (e.value("event_type", "") == "learning.course.created") {
            created_for_course |= e.value("resource_id", "") == course_;
        }
    }
    EXPECT_TRUE(created_for_course);
    // Another workspace's owner sees none of them.
    const auto r = server_->get("/api/v1/events?limit=500", foreigner_.token);
    ASSERT_EQ(r.status, 200) << r.body;
    const auto foreign_events = r.json();
    for (const auto& e : foreign_events["events"]) {
        EXPECT_EQ(e.value("event_type", "").rfind("learning.", 0), std::string::npos) << e.dump();
    }
}

TEST_F(LearningCourse, Step9_AnArchivedCourseIsReadOnlyForStudents) {
    ASSERT_FALSE(quiz_.empty());
    EXPECT_EQ(call(student_, "PATCH", coursePath(), json{{"status", "archived"}}).status, 403);
    const auto archived = call(owner_, "PATCH", coursePath(), json{{"status", "archived"}});
    ASSERT_EQ(archived.status, 200) << archived.body;
    EXPECT_EQ(archived.json().value("status", ""), "archived");

    expectError(call(student_, "POST", coursePath("/artifacts"),
                     json{{"artifact_type", "summary"}, {"content", "Plants make sugar."}}),
                403, "course_archived");
    expectError(call(student_, "POST", coursePath("/artifacts/" + quiz_ + "/attempts"),
                     json{{"answers", {{"q1", {"A"}}}}}),
                403, "course_archived");
    expectError(
        call(student_, "POST", coursePath("/questions"), json{{"question", "Is the course over?"}}),
        403, "course_archived");
    expectError(call(student_, "DELETE", coursePath("/artifacts/" + quiz_)), 403,
                "course_archived");

    // Reading still works, and the tutor.
    EXPECT_EQ(call(student_, "GET", coursePath()).status, 200);
    EXPECT_EQ(call(student_, "GET", coursePath("/scope?module_id=" + module1_)).status, 200);
    EXPECT_EQ(call(student_, "GET", coursePath("/artifacts")).status, 200);
    EXPECT_EQ(call(student_, "GET", coursePath("/progress")).status, 200);
    EXPECT_EQ(tutor(student_, "What is chlorophyll?", module1_).status, 200);
    // Managers still change it.
    const auto note = call(owner_, "POST", coursePath("/artifacts"),
                           json{{"artifact_type", "summary"}, {"content", "Teacher's note."}});
    EXPECT_EQ(note.status, 201) << note.body;

    const auto back = call(owner_, "PATCH", coursePath(), json{{"status", "active"}});
    ASSERT_EQ(back.status, 200) << back.body;
    EXPECT_EQ(back.json().value("status", ""), "active");
}

TEST_F(LearningCourse, Step10_ACurriculumWithoutAModuleDetachesItsContent) {
    ASSERT_FALSE(module2_.empty());
    // domain_config is merged key by key.
    const auto patched =
        call(owner_, "PATCH", coursePath(), json{{"domain_config", {{"difficulty", "intro"}}}});
    ASSERT_EQ(patched.status, 200) << patched.body;
    EXPECT_EQ(patched.json()["domain_config"].value("passing_score", -1), 80) << patched.body;
    EXPECT_EQ(patched.json()["domain_config"].value("difficulty", ""), "intro") << patched.body;

    // Module 2 left out: removed, its content detached, the document kept.
    const json only_first = {
        {"modules",
         {{{"id", module1_},
           {"title", "Plants"},
           {"lessons", {{{"id", lesson1_}, {"title", "Photosynthesis basics"}}}}}}}};
    const auto put = call(owner_, "PUT", coursePath("/curriculum"), only_first);
    ASSERT_EQ(put.status, 200) << put.body;
    const auto body = put.json();
    if (body.contains("removed_module_ids")) {
        EXPECT_EQ(body["removed_module_ids"], json::array({module2_})) << put.body;
    }
    const auto course = call(owner_, "GET", coursePath()).json();
    ASSERT_EQ(course["curriculum"]["modules"].size(), 1u) << course.dump();
    for (const auto& a : course["assets"]) {
        EXPECT_NE(a.value("document_id", ""), revolution_) << "module 2's content is detached";
    }
    const auto scope = call(student_, "GET", coursePath("/scope")).json();
    EXPECT_EQ(scope["document_ids"], json::array({photo_})) << scope.dump();
    EXPECT_EQ(call(student_, "GET", coursePath("/scope?module_id=" + module2_)).status, 404);
    const auto docs = call(owner_, "GET", "/api/v1/learning/documents?workspace_id=" + ws_);
    EXPECT_NE(docs.body.find(revolution_), std::string::npos) << "the document stays";
    // Progress now counts one lesson: the student's mastery is complete.
    const auto progress = call(advisor_, "GET", coursePath("/progress")).json();
    for (const auto& row : progress["mastery"]) {
        if (row.value("user_id", "") != student_.id) continue;
        EXPECT_EQ(row.value("lessons_total", -1), 1) << row.dump();
        EXPECT_EQ(row.value("mastery_percent", -1), 100) << row.dump();
    }
}

}  // namespace
}  // namespace docintel::test

// Acceptance test of the learning plugin's hot drop (docs/plugins.md, decision 0067): a running
// server without the plugin answers every one of the 20 learning operations 503
// `plugin_not_loaded` (after validation and scopes); build/plugins/learning.so copied into its
// plugins folder (written under another name, renamed into place) is loaded within seconds and
// then serves them all — a course created, listed, read — and /openapi.json is the same document
// as before (the core declares the operations; the plugin only attaches their handlers).

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Call {
    std::string operation_id;
    std::string method;
    std::string path;
    json body;
};

/// The 20 learning operations, each with a body its schema accepts, on `course` (ids that look
/// right; they need not exist for the 503).
std::vector<Call> learningCalls(const std::string& ws, const std::string& course,
                                const std::string& user) {
    const std::string any = "00000000-0000-4000-8000-0000000000dd";
    const std::string c = "/api/v1/learning/courses/" + course;
    return {
        {"api_list_learning_courses_api_v1_learning_courses_get", "GET",
         "/api/v1/learning/courses?workspace_id=" + ws, nullptr},
        {"api_create_learning_course_api_v1_learning_courses_post",
         "POST",
         "/api/v1/learning/courses",
         {{"workspace_id", ws}, {"title", "Hot course"}}},
        {"api_get_learning_course_api_v1_learning_courses__course_id__get", "GET", c, nullptr},
        {"api_update_learning_course_api_v1_learning_courses__course_id__patch",
         "PATCH",
         c,
         {{"description", "patched"}}},
        {"api_delete_learning_course_api_v1_learning_courses__course_id__delete", "DELETE",
         "/api/v1/learning/courses/" + any, nullptr},
        {"api_list_learning_artifacts_api_v1_learning_courses__course_id__artifacts_get", "GET",
         c + "/artifacts", nullptr},
        {"api_save_learning_artifact_api_v1_learning_courses__course_id__artifacts_post",
         "POST",
         c + "/artifacts",
         {{"artifact_type", "summary"}, {"content", "A note."}}},
        {"api_delete_learning_artifact_api_v1_learning_courses__course_id__artifacts__artifact_"
         "id__delete",
         "DELETE", c + "/artifacts/" + any, nullptr},
        {"api_submit_learning_quiz_api_v1_learning_courses__course_id__artifacts__artifact_id__"
         "attempts_post",
         "POST",
         c + "/artifacts/" + any + "/attempts",
         {{"answers", json::object()}}},
        {"api_attach_learning_content_api_v1_learning_courses__course_id__assets_post",
         "POST",
         c + "/assets",
         {{"document_id", any}}},
        {"api_remove_learning_content_api_v1_learning_courses__course_id__assets__asset_id__"
         "delete",
         "DELETE", c + "/assets/" + any, nullptr},
        {"api_save_learning_curriculum_api_v1_learning_courses__course_id__curriculum_put",
         "PUT",
         c + "/curriculum",
         {{"modules", json::array()}}},
        {"api_enroll_learning_member_api_v1_learning_courses__course_id__members_post",
         "POST",
         c + "/members",
         {{"email", "nobody@hot-drop.example"}}},
        {"api_remove_learning_member_api_v1_learning_courses__course_id__members__member_user_"
         "id__delete",
         "DELETE", c + "/members/" + user, nullptr},
        {"api_get_learning_progress_api_v1_learning_courses__course_id__progress_get", "GET",
         c + "/progress", nullptr},
        {"api_ask_learning_person_api_v1_learning_courses__course_id__questions_post",
         "POST",
         c + "/questions",
         {{"question", "Anyone there?"}}},
        {"api_update_learning_question_api_v1_learning_courses__course_id__questions__question_"
         "id__patch",
         "PATCH",
         c + "/questions/" + any,
         {{"status", "closed"}}},
        {"api_resolve_learning_scope_api_v1_learning_courses__course_id__scope_get", "GET",
         c + "/scope", nullptr},
        {"api_ask_learning_tutor_api_v1_learning_courses__course_id__tutor_query_stream_post",
         "POST",
         c + "/tutor/query/stream",
         {{"question", "What is this course about?"}}},
        {"api_list_learning_documents_api_v1_learning_documents_get", "GET",
         "/api/v1/learning/documents?workspace_id=" + ws, nullptr},
    };
}

TEST(LearningHotDrop, NotLoadedThen503ThenDroppedInServedWithTheSameOpenApi) {
    ASSERT_TRUE(fs::exists(builtPlugin("learning")))
        << builtPlugin("learning") << " is not built (cmake --build build --target learning)";
    TestServer server;  // no plugin
    const std::string user = server.createUser("hot-teacher@example.com");
    const std::string token = server.token(user, TestServer::allScopes(), 3600);
    const auto ws_r =
        server.request("POST", "/api/v1/workspaces", json{{"name", "hot drop"}}.dump(), token);
    ASSERT_EQ(ws_r.status, 201) << ws_r.body;
    const std::string ws = ws_r.json()["id"];
    const std::map<std::string, std::string> header{{"X-DocIntel-Workspace-ID", ws}};
    const std::string openapi_before = server.get("/openapi.json").body;
    ASSERT_FALSE(openapi_before.empty());

    const auto calls = learningCalls(ws, "00000000-0000-4000-8000-0000000000ee", user);
    ASSERT_EQ(calls.size(), 20u);
    // The calls are the contract's 20 learning operations, each once.
    const auto before = json::parse(openapi_before);
    std::set<std::string> declared;
    for (const auto& [path, item] : before["paths"].items()) {
        if (path.rfind("/api/v1/learning/", 0) != 0) continue;
        for (const auto& [method, op] : item.items()) {
            if (op.is_object() && op.contains("operationId")) declared.insert(op["operationId"]);
        }
    }
    std::set<std::string> called;
    for (const auto& call : calls) called.insert(call.operation_id);
    EXPECT_EQ(called, declared);

    for (const auto& call : calls) {
        const auto r =
            server.request(call.method, call.path,
                           call.body.is_null() ? std::string() : call.body.dump(), token, header);
        EXPECT_EQ(r.status, 503) << call.method << " " << call.path << " " << r.body;
        const auto body = json::parse(r.body, nullptr, false);
        EXPECT_EQ(body.is_object() ? body.value("code", "") : "", "plugin_not_loaded")
            << call.operation_id << " " << r.body;
    }

    // Hot drop: written under another name, renamed into place.
    const fs::path part = fs::path(server.pluginsDir()) / "learning.so.part";
    fs::copy_file(builtPlugin("learning"), part);
    fs::rename(part, fs::path(server.pluginsDir()) / "learning.so");
    const std::string list = "/api/v1/learning/courses?workspace_id=" + ws;
    const auto started = std::chrono::steady_clock::now();
    ASSERT_TRUE(eventually(
        [&] { return server.request("GET", list, {}, token, header).status == 200; }, 15))
        << server.request("GET", list, {}, token, header).body;
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
    EXPECT_LT(took, 10000) << "loaded in " << took << " ms";

    // Served: a course created, listed and read.
    const auto created = server.request(
        "POST", "/api/v1/learning/courses",
        json{{"workspace_id", ws}, {"title", "Dropped-in course"}}.dump(), token, header);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string course = created.json().value("id", "");
    ASSERT_FALSE(course.empty());
    const auto listed = server.request("GET", list, {}, token, header);
    ASSERT_EQ(listed.status, 200);
    EXPECT_NE(listed.body.find(course), std::string::npos) << listed.body;
    EXPECT_EQ(server.request("GET", "/api/v1/learning/courses/" + course, {}, token, header).status,
              200);

    // Every operation is now the plugin's: none is 503 (or any 5xx) any more.
    for (const auto& call : learningCalls(ws, course, user)) {
        const auto r =
            server.request(call.method, call.path,
                           call.body.is_null() ? std::string() : call.body.dump(), token, header);
        EXPECT_LT(r.status, 500) << call.method << " " << call.path << " " << r.body;
    }

    // The OpenAPI document is the same: the operations were declared all along.
    const auto after = json::parse(server.get("/openapi.json").body);
    for (const auto& [path, item] : before["paths"].items()) {
        if (path.rfind("/api/v1/learning/", 0) == 0) {
            EXPECT_EQ(after["paths"].value(path, json()), item) << path;
        }
    }
    // Nothing else changed either, except routes the plugin might add of its own (docs/plugins.md:
    // "the same with or without the plugin (apart from routes the plugin adds of its own)"),
    // which are never in the contract's /api/v1/learning/ namespace.
    for (const auto& [path, item] : before["paths"].items()) {
        EXPECT_EQ(after["paths"].value(path, json()), item) << path << " changed";
    }
    for (const auto& [path, item] : after["paths"].items()) {
        if (!before["paths"].contains(path)) {
            EXPECT_NE(path.rfind("/api/v1/learning", 0), 0u) << path << " added to the contract";
            std::cout << "[ note ] the plugin added its own route " << path << "\n";
        }
    }
    for (const auto& [name, schema] : before["components"]["schemas"].items()) {
        EXPECT_EQ(after["components"]["schemas"].value(name, json()), schema) << name;
    }
    EXPECT_EQ(after["info"], before["info"]);
    EXPECT_EQ(after["components"].value("securitySchemes", json()),
              before["components"].value("securitySchemes", json()));
    if (after != before) std::cout << "[ note ] /openapi.json differs outside the contract\n";

    const auto catalog = server.get("/api/v1", token).json();
    bool listed_plugin = false;
    for (const auto& p : catalog["plugins"]["plugins"]) {
        if (p.value("name", "") != "learning") continue;
        listed_plugin = true;
        EXPECT_EQ(p["attached_operations"].size(), 20u) << p.dump();
    }
    EXPECT_TRUE(listed_plugin) << catalog.dump();
}

}  // namespace
}  // namespace docintel::test

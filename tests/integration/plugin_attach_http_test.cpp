// Contract operations a feature plugin serves, over HTTP: declared by the core (so
// /openapi.json is the same with or without the plugin), 503 `plugin_not_loaded` until a plugin
// attaches its handler, and served by it — after validation and scopes — once a plugin dropped
// into the running server's folder is loaded.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;

const std::string kLearningDocs = "/api/v1/learning/documents";
const std::string kWorkspace = "00000000-0000-4000-8000-000000000000";

std::string sdkProbe(const std::string& name) { return testPluginDir() + "/sdk/" + name + ".so"; }

/// The OpenAPI document without what plugins add of their own (their `/api/v1/plugins/...`
/// routes, schemas and tags): what must not change when a plugin attaches operations.
nlohmann::json withoutPluginRoutes(nlohmann::json doc) {
    for (auto it = doc["paths"].begin(); it != doc["paths"].end();) {
        it = it.key().rfind("/api/v1/plugins/", 0) == 0 ? doc["paths"].erase(it) : std::next(it);
    }
    auto& schemas = doc["components"]["schemas"];
    for (auto it = schemas.begin(); it != schemas.end();) {
        it = it.key().rfind("SdkProbe", 0) == 0 ? schemas.erase(it) : std::next(it);
    }
    auto& tags = doc["tags"];
    tags.erase(std::remove_if(tags.begin(), tags.end(),
                              [](const nlohmann::json& t) {
                                  return t["name"].get<std::string>().rfind("sdk_", 0) == 0;
                              }),
               tags.end());
    return doc;
}

TEST(PluginAttachHttp, DeclaredOperationAnswers503UntilAPluginDroppedInServesIt) {
    TestServer server;
    const std::string token =
        server.token(server.createUser("attach@example.com"), TestServer::allScopes());
    const std::string openapi_before = server.get("/openapi.json").body;

    auto r = server.get(kLearningDocs + "?workspace_id=" + kWorkspace, token);
    ASSERT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(r.json()["code"], "plugin_not_loaded");
    EXPECT_EQ(r.json()["detail"], "the learning plugin is not loaded on this server");
    EXPECT_EQ(r.json()["trace_id"], r.header("x-trace-id"));
    // Validation and scopes come first, plugin or not.
    EXPECT_EQ(server.get(kLearningDocs, token).status, 422);
    const std::string narrow =
        server.token(server.createUser("narrow@example.com"), {"documents:read"});
    EXPECT_EQ(server.get(kLearningDocs + "?workspace_id=" + kWorkspace, narrow).status, 403);

    // Hot drop: copied under another name, renamed into place.
    const fs::path tmp = fs::path(server.pluginsDir()) / "sdk_dup_attach.so.part";
    fs::copy_file(sdkProbe("sdk_dup_attach"), tmp);
    fs::rename(tmp, fs::path(server.pluginsDir()) / "sdk_dup_attach.so");
    ASSERT_TRUE(eventually([&] {
        return server.get(kLearningDocs + "?workspace_id=" + kWorkspace, token).status == 200;
    }));

    r = server.get(kLearningDocs + "?workspace_id=" + kWorkspace, token);
    EXPECT_EQ(r.json()["served_by"], "sdk_dup_attach");
    EXPECT_EQ(r.json()["workspace_id"], kWorkspace);
    EXPECT_EQ(server.get(kLearningDocs, token).status, 422);
    EXPECT_EQ(server.get(kLearningDocs + "?workspace_id=" + kWorkspace, narrow).status, 403);
    // The attached operation's entry, and the whole document but for the plugin's own routes,
    // are exactly as before.
    const auto openapi_after = nlohmann::json::parse(server.get("/openapi.json").body);
    const auto before = nlohmann::json::parse(openapi_before);
    EXPECT_EQ(openapi_after["paths"][kLearningDocs], before["paths"][kLearningDocs]);
    EXPECT_TRUE(withoutPluginRoutes(openapi_after) == before);

    const auto catalog = server.get("/api/v1", token).json();
    bool listed = false;
    for (const auto& p : catalog["plugins"]["plugins"]) {
        if (p["name"] == "sdk_dup_attach") {
            listed = true;
            EXPECT_EQ(p["attached_operations"][0],
                      "api_list_learning_documents_api_v1_learning_documents_get");
        }
    }
    EXPECT_TRUE(listed) << catalog.dump();

    // A second plugin attaching the same operation is refused whole; the first keeps serving.
    fs::copy_file(sdkProbe("sdk_bad_attach"), fs::path(server.pluginsDir()) / "sdk_bad_attach.so");
    ASSERT_TRUE(eventually([&] {
        const auto refused = server.get("/api/v1", token).json()["plugins"]["refused"];
        return refused.dump().find("sdk_bad_attach") != std::string::npos;
    }));
    EXPECT_EQ(
        server.request("POST", "/api/v1/plugins/sdk_bad_attach/sql", R"({"sql":"SELECT 1"})", token)
            .status,
        404);
    EXPECT_EQ(server.get(kLearningDocs + "?workspace_id=" + kWorkspace, token).json()["served_by"],
              "sdk_dup_attach");
}

}  // namespace
}  // namespace docintel::test

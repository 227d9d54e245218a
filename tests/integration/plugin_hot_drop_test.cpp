// Plugins in a running server: a good plugin loaded at start serves its routes and shows in
// the catalog and OpenAPI; a plugin dropped into the folder while the server runs is loaded
// within seconds; wrong-ABI, throwing and colliding plugins are refused and the server keeps
// serving.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;

/// Polls `probe` until it returns true or `seconds` pass.
class PluginHotDrop : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.plugins = {testPluginDir() + "/good_plugin.so",
                           testPluginDir() + "/wrong_abi_plugin.so"};
        server_ = new TestServer(options);
        token_ =
            server_->token(server_->createUser("plugins@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }
    static void drop(const std::string& file) {
        // Copy under a temporary name, then rename: the watcher never sees a half file.
        const fs::path tmp = fs::path(server_->pluginsDir()) / (file + ".part");
        fs::copy_file(fs::path(testPluginDir()) / file, tmp);
        fs::rename(tmp, fs::path(server_->pluginsDir()) / file);
    }
    static TestServer* server_;
    static std::string token_;
};
TestServer* PluginHotDrop::server_ = nullptr;
std::string PluginHotDrop::token_;

TEST_F(PluginHotDrop, PluginLoadedAtStartServesValidatedRoutes) {
    auto r = server_->get("/api/v1/plugins/fixture_good/hello", token_);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["hello"], "world");
    r = server_->request("POST", "/api/v1/plugins/fixture_good/echo", R"({"text":""})", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["loc"], nlohmann::json({"body", "text"}));
    r = server_->request("POST", "/api/v1/plugins/fixture_good/echo", R"({"text":"hi"})", token_);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["echo"], "hi");
    // Plugin routes pass through the same auth boundary.
    EXPECT_EQ(server_->get("/api/v1/plugins/fixture_good/hello").status, 401);

    const auto doc = server_->get("/openapi.json").json();
    const auto& op = doc["paths"]["/api/v1/plugins/fixture_good/hello"]["get"];
    EXPECT_EQ(op["tags"][0], "fixture_good");
    const auto catalog = server_->get("/api/v1", token_).json();
    EXPECT_NE(catalog["plugins"].dump().find("fixture_good"), std::string::npos);
    EXPECT_NE(catalog["plugins"].dump().find("abi_mismatch"), std::string::npos);
}

TEST_F(PluginHotDrop, DroppedPluginLoadsWithoutRestart) {
    ASSERT_EQ(server_->get("/api/v1/plugins/fixture_hot/ping", token_).status, 404);
    drop("hot_plugin.so");
    ASSERT_TRUE(eventually(
        [] { return server_->get("/api/v1/plugins/fixture_hot/ping", token_).status == 200; }));
    EXPECT_EQ(server_->get("/api/v1/plugins/fixture_hot/ping", token_).json()["pong"], true);
    const auto doc = server_->get("/openapi.json").json();
    EXPECT_TRUE(doc["paths"].contains("/api/v1/plugins/fixture_hot/ping"));
}

TEST_F(PluginHotDrop, BadPluginsDroppedWhileRunningAreRefusedAndServingGoesOn) {
    drop("throwing_plugin.so");
    drop("colliding_plugin.so");
    ASSERT_TRUE(eventually([] {
        const auto plugins = server_->get("/api/v1", token_).json()["plugins"].dump();
        return plugins.find("registration_failed") != std::string::npos &&
               plugins.find("route_conflict") != std::string::npos;
    })) << server_->get("/api/v1", token_).body;
    EXPECT_EQ(server_->get("/api/v1/workspaces", token_).status, 200);
    EXPECT_EQ(server_->get("/healthz").status, 200);
}

}  // namespace
}  // namespace docintel::test

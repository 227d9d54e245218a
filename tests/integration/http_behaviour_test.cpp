// What every response carries and how unknown paths, wrong methods, unbuilt operations and
// rate limits are answered.

#include <gtest/gtest.h>

#include <regex>

#include "support/test_server.h"

namespace docintel::test {
namespace {

class HttpBehaviour : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        token_ = server_->token(server_->createUser("http@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }
    static TestServer* server_;
    static std::string token_;
};
TestServer* HttpBehaviour::server_ = nullptr;
std::string HttpBehaviour::token_;

TEST_F(HttpBehaviour, HealthAndReadiness) {
    EXPECT_EQ(server_->get("/healthz").status, 200);
    const auto r = server_->get("/readyz");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.json()["status"], "ready");
}

TEST_F(HttpBehaviour, EveryResponseHasATraceIdAndTraceparentIsHonoured) {
    const auto a = server_->get("/api/v1/workspaces", token_);
    EXPECT_TRUE(std::regex_match(a.header("x-trace-id"), std::regex("[0-9a-f]{32}")));
    const auto missing = server_->get("/api/v1/nope", token_);
    EXPECT_FALSE(missing.header("x-trace-id").empty());
    const auto traced = server_->request(
        "GET", "/api/v1/workspaces", {}, token_,
        {{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}});
    EXPECT_EQ(traced.header("x-trace-id"), "4bf92f3577b34da6a3ce929d0e0e4736");
}

TEST_F(HttpBehaviour, UnknownPathIs404AndWrongMethodIs405WithTheErrorShape) {
    auto r = server_->get("/api/v1/no-such-thing", token_);
    ASSERT_EQ(r.status, 404);
    EXPECT_EQ(r.json()["code"], "not_found");
    EXPECT_TRUE(r.json()["detail"].is_string());
    EXPECT_EQ(r.json()["trace_id"], r.header("x-trace-id"));

    r = server_->request("PUT", "/api/v1/workspaces", "{}", token_);
    ASSERT_EQ(r.status, 405);
    EXPECT_EQ(r.json()["code"], "method_not_allowed");
    EXPECT_NE(r.header("allow").find("GET"), std::string::npos);
}

TEST_F(HttpBehaviour, PluginOperationsAnswer503WithoutTheirPluginAfterValidation) {
    const auto r = server_->get(
        "/api/v1/learning/documents?workspace_id=00000000-0000-4000-8000-000000000000", token_);
    ASSERT_EQ(r.status, 503);
    EXPECT_EQ(r.json()["code"], "plugin_not_loaded");
    EXPECT_EQ(r.json()["detail"], "the learning plugin is not loaded on this server");
    EXPECT_EQ(server_->get("/api/v1/learning/documents", token_).status, 422);
}

TEST_F(HttpBehaviour, RateLimitHeadersAndRetryAfter) {
    TestServer::Options options;
    options.rate_limit_per_minute = 3;
    TestServer limited(options);
    const auto token = limited.token(limited.createUser("rl@example.com"), {"workspaces:read"});
    Response last;
    for (int i = 0; i < 3; ++i) {
        last = limited.get("/api/v1/workspaces", token);
        ASSERT_EQ(last.status, 200);
    }
    EXPECT_EQ(last.header("x-ratelimit-limit"), "3");
    EXPECT_EQ(last.header("x-ratelimit-remaining"), "0");
    EXPECT_NE(last.header("ratelimit-policy").find("q=3"), std::string::npos);
    EXPECT_FALSE(last.header("ratelimit").empty());
    const auto refused = limited.get("/api/v1/workspaces", token);
    ASSERT_EQ(refused.status, 429);
    EXPECT_EQ(refused.json()["code"], "rate_limited");
    EXPECT_FALSE(refused.header("retry-after").empty());
    // Another principal has its own quota.
    const auto other = limited.token(limited.createUser("rl2@example.com"), {"workspaces:read"});
    EXPECT_EQ(limited.get("/api/v1/workspaces", other).status, 200);
}

TEST_F(HttpBehaviour, CatalogListsAreasAndPlugins) {
    const auto r = server_->get("/api/v1", token_);
    ASSERT_EQ(r.status, 200);
    EXPECT_TRUE(r.json()["areas"].contains("workspaces"));
    EXPECT_TRUE(r.json().contains("plugins"));
}

}  // namespace
}  // namespace docintel::test

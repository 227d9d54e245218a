#include "http/router.h"

#include <gtest/gtest.h>

namespace docintel::http {
namespace {

plugin::RouteDefinition route(std::string method, std::string path, std::string id) {
    plugin::RouteDefinition d;
    d.method = std::move(method);
    d.path = std::move(path);
    d.operation_id = std::move(id);
    d.handler = [](const plugin::HttpRequest&) -> plugin::Result<plugin::HttpResponse> {
        return plugin::HttpResponse::json({});
    };
    return d;
}

TEST(RouterTest, LiteralSegmentsWinOverParameters) {
    Router r;
    ASSERT_TRUE(r.add(route("GET", "/api/v1/operations/{operation_id}", "get_op"), "ops"));
    ASSERT_TRUE(r.add(route("GET", "/api/v1/operations/catalog", "catalog"), "ops"));
    EXPECT_EQ(r.match("GET", "/api/v1/operations/catalog").route->def.operation_id, "catalog");
    const auto m = r.match("GET", "/api/v1/operations/abc");
    ASSERT_TRUE(m.route);
    EXPECT_EQ(m.route->def.operation_id, "get_op");
    EXPECT_EQ(m.path_params.at("operation_id"), "abc");
}

TEST(RouterTest, WrongMethodIsReportedWithTheAllowedOnes) {
    Router r;
    ASSERT_TRUE(r.add(route("GET", "/api/v1/workspaces", "list"), "ws"));
    ASSERT_TRUE(r.add(route("POST", "/api/v1/workspaces", "create"), "ws"));
    const auto m = r.match("DELETE", "/api/v1/workspaces");
    EXPECT_FALSE(m.route);
    EXPECT_TRUE(m.path_exists);
    EXPECT_EQ(m.allowed_methods.size(), 2u);
    EXPECT_FALSE(r.match("GET", "/api/v1/nothing").path_exists);
    EXPECT_FALSE(r.match("GET", "/api/v1/workspaces/").route);
}

TEST(RouterTest, AllowListsOnlyTheMethodsOfThePathsOwnTemplate) {
    Router r;
    ASSERT_TRUE(r.add(route("GET", "/api/v1/batches/{job_id}", "get_batch"), "b"));
    ASSERT_TRUE(r.add(route("POST", "/api/v1/batches/uploads", "create_upload"), "b"));
    const auto m = r.match("DELETE", "/api/v1/batches/uploads");
    EXPECT_FALSE(m.route);
    EXPECT_TRUE(m.path_exists);
    EXPECT_EQ(m.allowed_methods, std::vector<std::string>{"POST"});
    const auto get = r.match("GET", "/api/v1/batches/uploads");
    EXPECT_FALSE(get.route) << "the literal resource has no GET";
    EXPECT_EQ(get.allowed_methods, std::vector<std::string>{"POST"});
    EXPECT_EQ(r.match("DELETE", "/api/v1/batches/abc").allowed_methods,
              std::vector<std::string>{"GET"});
}

TEST(RouterTest, CollidingShapesAndDuplicateIdsAreRefused) {
    Router r;
    ASSERT_TRUE(r.add(route("GET", "/api/v1/items/{item_id}", "get_item"), "t"));
    const auto same_shape = r.add(route("GET", "/api/v1/items/{other}", "other_id"), "t");
    ASSERT_FALSE(same_shape);
    EXPECT_EQ(same_shape.error().code, "route_conflict");
    EXPECT_FALSE(r.add(route("POST", "/api/v1/else", "get_item"), "t"));
    EXPECT_TRUE(r.add(route("DELETE", "/api/v1/items/{item_id}", "delete_item"), "t"));
    EXPECT_FALSE(r.add(route("GET", "no-slash", "bad"), "t"));
    EXPECT_EQ(r.routes()->size(), 2u);
}

}  // namespace
}  // namespace docintel::http

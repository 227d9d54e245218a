// Request validation through the real server: for every request schema, each body breaking
// one stated limit is answered 422 with FastAPI's shape and the expected `loc`, on an
// operation that takes that schema; and path, query, header and JSON errors likewise.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

#include "support/spec_table.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

class RequestValidation : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        user_ = server_->createUser("validator@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
        std::ifstream in(sourceDir() + "/tests/data/validation_cases.json");
        cases_ = new nlohmann::json(nlohmann::json::parse(in));
    }
    static void TearDownTestSuite() {
        delete cases_;
        delete server_;
    }

    /// The concrete path of an operation, with placeholder ids.
    static std::string concretePath(const SpecOperation& op) {
        std::string path = std::regex_replace(op.path, std::regex(R"(\{workflow\})"), "lease");
        return std::regex_replace(path, std::regex(R"(\{[a-z_]+\})"),
                                  "00000000-0000-4000-8000-000000000000");
    }

    static TestServer* server_;
    static std::string user_;
    static std::string token_;
    static nlohmann::json* cases_;
};
TestServer* RequestValidation::server_ = nullptr;
std::string RequestValidation::user_;
std::string RequestValidation::token_;
nlohmann::json* RequestValidation::cases_ = nullptr;

TEST_F(RequestValidation, EveryStatedLimitOfEveryBodySchemaIsEnforcedOverHttp) {
    std::map<std::string, SpecOperation> first_op;
    for (const auto& op : specOperations()) first_op.emplace(op.body, op);
    int checked = 0;
    for (const auto& [schema, c] : cases_->items()) {
        if (!first_op.count(schema)) continue;  // UploadFileManifest is only nested
        const auto& op = first_op.at(schema);
        const std::string path = concretePath(op);
        for (const auto& bad : c["invalid"]) {
            const auto r = server_->request(op.method, path, bad["body"].dump(), token_);
            ASSERT_EQ(r.status, 422) << schema << " " << bad["loc"].dump() << " " << r.body;
            const auto detail = r.json()["detail"];
            ASSERT_TRUE(detail.is_array());
            ASSERT_EQ(detail.size(), 1u) << r.body;
            EXPECT_EQ(detail[0]["loc"], bad["loc"]) << schema;
            EXPECT_EQ(detail[0]["type"], bad["type"]) << schema;
            EXPECT_TRUE(detail[0]["msg"].is_string());
            ++checked;
        }
        const auto ok = server_->request(op.method, path, c["valid"][0].dump(), token_);
        EXPECT_NE(ok.status, 422) << schema << " " << ok.body;
    }
    EXPECT_GT(checked, 300);
}

TEST_F(RequestValidation, MalformedOrMissingBodies) {
    auto r = server_->request("POST", "/api/v1/workspaces", "{\"name\": ", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["type"], "json_invalid");
    EXPECT_EQ(r.json()["detail"][0]["loc"][0], "body");

    r = server_->request("POST", "/api/v1/workspaces", "", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["loc"], nlohmann::json::array({"body"}));
    EXPECT_EQ(r.json()["detail"][0]["type"], "missing");

    r = server_->request("POST", "/api/v1/workspaces", "[1,2]", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["type"], "model_attributes_type");
}

TEST_F(RequestValidation, PathQueryAndHeaderValues) {
    auto r = server_->get("/api/v1/workspaces/not-a-uuid", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["loc"], nlohmann::json({"path", "workspace_id"}));
    EXPECT_EQ(r.json()["detail"][0]["type"], "uuid_parsing");

    r = server_->get("/api/v1/batches?limit=abc", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["loc"], nlohmann::json({"query", "limit"}));
    EXPECT_EQ(r.json()["detail"][0]["type"], "int_parsing");

    r = server_->get("/api/v1/events?limit=0", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["type"], "greater_than_equal");

    r = server_->get("/api/v1/learning/courses", token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["loc"], nlohmann::json({"query", "workspace_id"}));
    EXPECT_EQ(r.json()["detail"][0]["type"], "missing");

    r = server_->request("GET", "/api/v1/workspaces", {}, token_,
                         {{"X-DocIntel-Workspace-ID", "nope"}});
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(r.json()["detail"][0]["loc"][0], "header");

    r = server_->request("GET", "/api/v1/workspaces", {}, token_,
                         {{"X-DocIntel-Workspace-ID", "personal"}});
    EXPECT_EQ(r.status, 200);
}

TEST_F(RequestValidation, ValidationNeverRunsTheHandler) {
    const auto before = server_->db().scalar("SELECT count(*) FROM workspaces");
    const auto r = server_->request("POST", "/api/v1/workspaces",
                                    nlohmann::json{{"name", std::string(201, 'x')}}.dump(), token_);
    ASSERT_EQ(r.status, 422);
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM workspaces"), before);
}

}  // namespace
}  // namespace docintel::test

// Issue 21's reproductions through the real server: what a fuzzer and a hostile client sent,
// and what they must get now — a 4xx in the error shape with a trace id, never a 500, a cut
// value or a crash.

#include <gtest/gtest.h>

#include <string>

#include "support/test_server.h"

namespace docintel::test {
namespace {

class HostileInput : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        user_ = server_->createUser("hostile@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    static Response post(const std::string& path, const std::string& body,
                         const std::map<std::string, std::string>& headers = {}) {
        return server_->request("POST", path, body, token_, headers);
    }

    /// The one 422 issue the response holds at `loc`, with `type`.
    static void expectIssue(const Response& r, const nlohmann::json& loc, const std::string& type) {
        ASSERT_EQ(r.status, 422) << r.body;
        const auto detail = r.json()["detail"];
        ASSERT_TRUE(detail.is_array()) << r.body;
        bool found = false;
        for (const auto& issue : detail)
            found = found || (issue["loc"] == loc && issue["type"] == type);
        EXPECT_TRUE(found) << "no " << type << " at " << loc.dump() << " in " << r.body;
    }

    static void expectError(const Response& r, int status, const std::string& code) {
        ASSERT_EQ(r.status, status) << r.body;
        EXPECT_EQ(r.json()["code"], code) << r.body;
        EXPECT_EQ(r.json()["trace_id"].get<std::string>().size(), 32u) << r.body;
        EXPECT_FALSE(r.header("x-trace-id").empty());
    }

    static TestServer* server_;
    static std::string user_;
    static std::string token_;
};
TestServer* HostileInput::server_ = nullptr;
std::string HostileInput::user_;
std::string HostileInput::token_;

TEST_F(HostileInput, ANumberBeyondDoubleRangeIs422AtItsField) {
    expectIssue(post("/api/v1/workspaces", R"({"name":"ok","x":1e400})"), {"body", "x"},
                "finite_number");
    expectIssue(post("/api/v1/workspaces", R"({"name":"ok","x":[1,-1e999]})"), {"body", "x", 1},
                "finite_number");
}

TEST_F(HostileInput, ANulCharacterIsRefusedNeverCut) {
    expectIssue(post("/api/v1/workspaces", R"({"name":"ws\u0000evil"})"), {"body", "name"},
                "string_nul");
    expectIssue(post("/api/v1/artifacts",
                     R"({"artifact_type":"note","title":"t1","content":{"a":"\u0000"}})"),
                {"body", "content", "a"}, "string_nul");
    expectIssue(post("/api/v1/workspaces", R"({"name":"ok","meta\u0000":1})"),
                {"body", std::string("meta\0", 5)}, "string_nul");
    const auto listed = server_->get("/api/v1/workspaces", token_);
    ASSERT_EQ(listed.status, 200);
    EXPECT_EQ(listed.body.find("\"ws\""), std::string::npos) << "a cut name was stored";
    expectIssue(server_->get("/api/v1/batches?status=a%00b", token_), {"query", "status"},
                "string_nul");
}

TEST_F(HostileInput, IntegersBeyondInt64Are422) {
    expectIssue(post("/api/v1/uploads", R"({"filename":"a.txt","content_type":"text/plain",)"
                                        R"("file_size":9223372036854775808})"),
                {"body", "file_size"}, "int_parsing_size");
    expectIssue(post("/api/v1/batches/uploads",
                     R"({"files":[{"filename":"a.txt","content_type":"text/plain",)"
                     R"("file_size":18446744073709551615}]})"),
                {"body", "files", 0, "file_size"}, "int_parsing_size");
    expectIssue(post("/api/v1/documents/00000000-0000-4000-8000-000000000000/versions",
                     R"({"changed_pages":[1,18446744073709551615]})"),
                {"body", "changed_pages", 1}, "int_parsing_size");
    // Beyond uint64 the parser reads a float: still not an integer of the schema.
    expectIssue(post("/api/v1/documents/00000000-0000-4000-8000-000000000000/versions",
                     R"({"changed_pages":[1e19]})"),
                {"body", "changed_pages", 0}, "int_type");
}

TEST_F(HostileInput, InvalidUtf8InPathOrQueryIs400WithTheErrorShape) {
    expectError(server_->get("/api/v1/batches?status=%FF", token_), 400, "invalid_encoding");
    expectError(server_->get("/api/v1/workflows/%FF/schema", token_), 400, "invalid_encoding");
    expectError(server_->get("/api/v1/workflows/%C0%AF/schema", token_), 400, "invalid_encoding");
    expectError(server_->get("/api/v1/batches?status=%G1", token_), 400, "invalid_encoding");
    // Well-formed UTF-8 that names nothing is an ordinary answer.
    EXPECT_EQ(server_->get("/api/v1/workflows/%C3%A9t%C3%A9/schema", token_).status, 404);
}

TEST_F(HostileInput, OnlyCanonicalLowerCaseUuidsAreIds) {
    const std::string id = "0000000A-0000-4000-8000-000000000000";
    expectIssue(server_->get("/api/v1/workspaces/" + id, token_), {"path", "workspace_id"},
                "uuid_parsing");
    expectIssue(
        server_->get("/api/v1/workspaces/%7B00000000-0000-4000-8000-000000000000%7D", token_),
        {"path", "workspace_id"}, "uuid_parsing");
    const auto r = server_->request("GET", "/api/v1/documents", {}, token_,
                                    {{"X-DocIntel-Workspace-ID", "%FF"}});
    expectIssue(r, {"header", "x-docintel-workspace-id"}, "uuid_parsing");
}

TEST_F(HostileInput, ABodyThatIsNotJsonByItsContentTypeIs415) {
    const std::string body = R"({"name":"typed"})";
    for (const std::string type :
         {"text/plain", "application/xml", "application/x-www-form-urlencoded", ""}) {
        expectError(post("/api/v1/workspaces", body, {{"Content-Type", type}}), 415,
                    "unsupported_media_type");
    }
    EXPECT_EQ(
        post("/api/v1/workspaces", body, {{"Content-Type", "application/json; charset=utf-8"}})
            .status,
        201);
    EXPECT_EQ(post("/api/v1/workspaces", R"({"name":"typed2"})",
                   {{"Content-Type", "Application/Merge-Patch+JSON"}})
                  .status,
              201);
}

TEST_F(HostileInput, DeepOrHugeJsonIsRefusedBeforeItIsBuilt) {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    expectIssue(post("/api/v1/workspaces", deep), {"body"}, "json_too_deep");
    std::string many = "{\"name\":\"ok\",\"x\":[0";
    for (int i = 0; i < 150000; ++i) many += ",0";
    many += "]}";
    expectIssue(post("/api/v1/workspaces", many), {"body"}, "json_too_large");
    // 64 levels are fine (the value is ignored by the schema).
    const std::string ok =
        R"({"name":"deep-ok","x":)" + std::string(62, '[') + std::string(62, ']') + "}";
    EXPECT_EQ(post("/api/v1/workspaces", ok).status, 201);
}

TEST_F(HostileInput, LongStringsAgainstPatternsAndFormatsAreAnsweredNotRecursedOn) {
    const std::string huge(30000, 'a');
    const auto r =
        post("/api/v1/reviews",
             nlohmann::json{
                 {"vertical", huge}, {"run_id", "r"}, {"title", "a title"}, {"due_at", huge + "1"}}
                 .dump());
    expectIssue(r, {"body", "vertical"}, "string_too_long");
    expectIssue(r, {"body", "due_at"}, "datetime_parsing");
    const auto bad_date = post("/api/v1/reviews", nlohmann::json{{"vertical", "lease"},
                                                                 {"run_id", "r"},
                                                                 {"title", "a title"},
                                                                 {"due_at", "2026-13-01T10:00Z"}}
                                                      .dump());
    expectIssue(bad_date, {"body", "due_at"}, "datetime_parsing");
}

TEST_F(HostileInput, TheMcpListenerReadsJsonWithTheSameLimits) {
    const auto r = server_->mcpRequest(
        "POST", "/mcp", R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e400}})",
        server_->token(user_, TestServer::allScopes(), 600, true),
        {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}});
    ASSERT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], -32700) << r.body;
}

}  // namespace
}  // namespace docintel::test

// The generated OpenAPI document against the spec's REST table (parsed from
// ../shared/spec/service-spec.md), and docs/API_STATUS.md against what the server answers.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "support/spec_table.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

class OpenApiContract : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.plugins = {testPluginDir() + "/good_plugin.so"};
        server_ = new TestServer(options);
        const auto r = server_->get("/openapi.json");
        ASSERT_EQ(r.status, 200);
        doc_ = new nlohmann::json(r.json());
    }
    static void TearDownTestSuite() {
        delete doc_;
        delete server_;
    }
    static TestServer* server_;
    static nlohmann::json* doc_;
};
TestServer* OpenApiContract::server_ = nullptr;
nlohmann::json* OpenApiContract::doc_ = nullptr;

TEST_F(OpenApiContract, HasExactlyTheSpecOperationsPlusTaggedExtras) {
    const auto spec = specOperations();
    ASSERT_EQ(spec.size(), 79u);
    std::set<std::string> spec_paths;
    std::set<std::string> spec_ops;
    for (const auto& op : spec) {
        spec_paths.insert(op.path);
        spec_ops.insert(op.method + " " + op.path + " " + op.operation_id);
    }
    EXPECT_EQ(spec_paths.size(), 66u);

    std::set<std::string> core_paths;
    std::set<std::string> core_ops;
    std::set<std::string> product_extras;
    int plugin_ops = 0;
    for (const auto& [path, methods] : (*doc_)["paths"].items()) {
        for (const auto& [method, op] : methods.items()) {
            if (op.value("x-docintel-extra", false)) {
                product_extras.insert(op["tags"][0].get<std::string>() + " " + path);
                continue;
            }
            if (op.contains("x-docintel-plugin")) {
                ++plugin_ops;
                EXPECT_EQ(op["tags"][0], op["x-docintel-plugin"]) << path;
                continue;
            }
            core_paths.insert(path);
            std::string m = method;
            for (auto& c : m) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            core_ops.insert(m + " " + path + " " + op["operationId"].get<std::string>());
        }
    }
    EXPECT_EQ(core_paths, spec_paths);
    EXPECT_EQ(core_ops, spec_ops);
    // Built-in operations beyond the spec, each marked and tagged with its area.
    EXPECT_EQ(product_extras,
              (std::set<std::string>{"events /api/v1/event-subscriptions/{subscription_id}/"
                                     "rotate-secret"}));
    EXPECT_GT(plugin_ops, 0) << "the fixture plugin's routes should appear, tagged";
}

TEST_F(OpenApiContract, ResponsesBodiesAndSecurityFollowTheSpec) {
    for (const auto& op : specOperations()) {
        SCOPED_TRACE(op.operation_id);
        const auto& o = (*doc_)["paths"][op.path][lower(op.method)];
        ASSERT_TRUE(o.is_object());
        const bool spec_422 =
            std::find(op.responses.begin(), op.responses.end(), 422) != op.responses.end();
        EXPECT_EQ(o["responses"].contains("422"), spec_422);
        EXPECT_TRUE(o["responses"].contains(std::to_string(op.responses.front())));
        if (std::regex_match(op.body, std::regex("[A-Za-z]+"))) {
            EXPECT_EQ(o["requestBody"]["content"]["application/json"]["schema"]["$ref"],
                      "#/components/schemas/" + op.body);
        }
        if (op.path.rfind("/api/v1", 0) == 0) {
            ASSERT_TRUE(o["security"].is_array());
            ASSERT_EQ(o["security"].size(), 1u);
            EXPECT_TRUE(o["security"][0].contains("OAuth2"));
            if (op.path != "/api/v1") {
                EXPECT_FALSE(o["security"][0]["OAuth2"].empty());
            }
        }
    }
}

TEST_F(OpenApiContract, ComponentsAndSecuritySchemes) {
    EXPECT_EQ((*doc_)["openapi"].get<std::string>().substr(0, 2), "3.");
    EXPECT_FALSE((*doc_)["info"]["title"].get<std::string>().empty());
    // Every schema named in spec §2.1 is a component under its own name.
    std::ifstream in(sharedDir() + "/spec/service-spec.md");
    std::string line;
    std::set<std::string> names;
    const std::regex named(R"(^\*\*([A-Za-z]+)\*\*)");
    bool in_section = false;
    while (std::getline(in, line)) {
        if (line.rfind("### 2.1", 0) == 0)
            in_section = true;
        else if (line.rfind("### ", 0) == 0)
            in_section = false;
        std::smatch m;
        if (in_section && std::regex_search(line, m, named)) names.insert(m[1]);
    }
    EXPECT_EQ(names.size(), 32u);
    for (const auto& name : names) {
        EXPECT_TRUE((*doc_)["components"]["schemas"].contains(name)) << name;
    }
    const auto& oauth = (*doc_)["components"]["securitySchemes"]["OAuth2"];
    EXPECT_EQ(oauth["type"], "oauth2");
    EXPECT_TRUE(oauth["flows"].contains("authorizationCode"));
    EXPECT_TRUE(oauth["flows"].contains("clientCredentials"));
    EXPECT_TRUE(oauth["flows"]["authorizationCode"]["scopes"].contains("workspaces:read"));
}

/// docs/API_STATUS.md lists exactly the operations that answer 501 not_implemented.
TEST_F(OpenApiContract, ApiStatusListsExactlyTheUnimplementedOperations) {
    std::ifstream status_doc(sourceDir() + "/docs/API_STATUS.md");
    ASSERT_TRUE(status_doc) << "docs/API_STATUS.md is missing";
    std::set<std::string> listed;
    std::string line;
    const std::regex row(R"(^\| `([a-z0-9_]+)` \|)");
    while (std::getline(status_doc, line)) {
        std::smatch m;
        if (std::regex_search(line, m, row)) listed.insert(m[1]);
    }

    std::ifstream cases_file(sourceDir() + "/tests/data/validation_cases.json");
    const auto cases = nlohmann::json::parse(cases_file);
    const std::string user = server_->createUser("status@example.com");
    const std::string token = server_->token(user, TestServer::allScopes());
    std::set<std::string> answered_501;
    for (const auto& op : specOperations()) {
        std::string path =
            std::regex_replace(op.path, std::regex(R"(\{workflow\})"), "healthcare_prior_auth");
        path = std::regex_replace(path, std::regex(R"(\{[a-z_]+\})"),
                                  "00000000-0000-4000-8000-000000000000");
        if (op.params.find("workspace_id (query, required)") != std::string::npos) {
            path += "?workspace_id=00000000-0000-4000-8000-000000000000";
        }
        std::string body;
        if (cases.contains(op.body)) body = cases[op.body]["valid"][0].dump();
        if (op.body == "free JSON object") body = "{}";
        const auto r = server_->request(op.method, path, body, token);
        EXPECT_NE(r.status, 422) << op.operation_id << " " << r.body;
        EXPECT_NE(r.status, 500) << op.operation_id << " " << r.body;
        if (r.status == 501) {
            EXPECT_EQ(r.json()["code"], "not_implemented");
            answered_501.insert(op.operation_id);
        }
    }
    EXPECT_EQ(listed, answered_501);
}

}  // namespace
}  // namespace docintel::test

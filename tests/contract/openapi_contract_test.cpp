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
        // The spec's 422s are a floor: every protected operation also validates the workspace
        // header, so it may answer 422 where the spec lists none.
        if (spec_422) EXPECT_TRUE(o["responses"].contains("422"));
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

/// Every operation's error statuses come with the error shapes; every `$ref` resolves.
TEST_F(OpenApiContract, ErrorsAreDeclaredWithTheirShapes) {
    int operations = 0;
    for (const auto& [path, methods] : (*doc_)["paths"].items()) {
        for (const auto& [method, op] : methods.items()) {
            SCOPED_TRACE(method + " " + path);
            ++operations;
            const auto& responses = op["responses"];
            EXPECT_TRUE(responses.contains("400"));
            const bool is_public = op["security"].empty();
            for (const char* status : {"403", "422", "429"}) {
                EXPECT_EQ(responses.contains(status), !is_public) << status;
            }
            // /token's 401 is RFC 6749's invalid_client, not a bearer token's.
            if (path != "/token") EXPECT_EQ(responses.contains("401"), !is_public);
            if (path.find('{') != std::string::npos) EXPECT_TRUE(responses.contains("404"));
            if (op.contains("requestBody") && path != "/token") {
                for (const char* status : {"411", "413", "415"}) {
                    EXPECT_TRUE(responses.contains(status)) << status;
                }
            }
            for (const auto& [status, response] : responses.items()) {
                if (status[0] != '4' && status[0] != '5') continue;
                const auto& ref = response["content"]["application/json"]["schema"]["$ref"];
                ASSERT_TRUE(ref.is_string()) << status;
                const std::string name = ref.get<std::string>().substr(21);
                EXPECT_TRUE((*doc_)["components"]["schemas"].contains(name)) << name;
            }
        }
    }
    EXPECT_GE(operations, 79);
    const std::regex ref(R"re("\$ref":"#/components/schemas/([A-Za-z_]+)")re");
    const std::string text = doc_->dump();
    for (std::sregex_iterator it(text.begin(), text.end(), ref), end; it != end; ++it) {
        EXPECT_TRUE((*doc_)["components"]["schemas"].contains((*it)[1].str())) << (*it)[1];
    }
}

/// Implemented operations describe their success body; the two answer streams are event streams
/// with their frame schema.
TEST_F(OpenApiContract, SuccessBodiesAndStreamsAreDescribed) {
    const auto& paths = (*doc_)["paths"];
    for (const auto& op : specOperations()) {
        SCOPED_TRACE(op.operation_id);
        const auto& o = paths[op.path][lower(op.method)];
        if (o["tags"][0] == "learning") continue;  // served by a plugin (docs/API_STATUS.md)
        const auto& content = o["responses"][std::to_string(op.responses.front())]["content"];
        if (content.contains("text/event-stream")) {
            EXPECT_TRUE(
                content["text/event-stream"]["schema"]["properties"]["data"]["contentSchema"]
                    .contains("$ref"));
        } else {
            EXPECT_TRUE(content["application/json"]["schema"].contains("$ref"));
        }
    }
    const auto frame = [&](const std::string& path) {
        return paths[path]["post"]["responses"]["200"]["content"]["text/event-stream"]["schema"]
                    ["properties"]["data"]["contentSchema"]["$ref"];
    };
    EXPECT_EQ(frame("/api/v1/knowledge/query/stream"), "#/components/schemas/AnswerStreamFrame");
    EXPECT_EQ(frame("/api/v1/summaries/documents/{document_id}/stream"),
              "#/components/schemas/SummaryStreamFrame");
    for (const auto& [path, methods] : paths.items()) {
        if (!methods.contains("get") || path.find("/verticals/") == std::string::npos) continue;
        EXPECT_TRUE(
            methods["get"]["responses"]["200"]["content"]["application/json"]["schema"].contains(
                "$ref"))
            << path;
    }
}

TEST_F(OpenApiContract, WorkspaceHeaderIsAUuidOrPersonal) {
    const auto& params = (*doc_)["paths"]["/api/v1/documents"]["get"]["parameters"];
    ASSERT_TRUE(params.is_array());
    bool found = false;
    for (const auto& p : params) {
        if (p["name"] != "X-DocIntel-Workspace-ID") continue;
        found = true;
        EXPECT_EQ(p["schema"]["anyOf"][0]["format"], "uuid");
        EXPECT_EQ(p["schema"]["anyOf"][1]["const"], "personal");
    }
    EXPECT_TRUE(found);
}

TEST_F(OpenApiContract, TokenDocumentsItsFormAndOAuthErrors) {
    const auto& token = (*doc_)["paths"]["/token"]["post"];
    const auto& form =
        token["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["oneOf"];
    ASSERT_EQ(form.size(), 3u);
    std::set<std::string> grants;
    for (const auto& g : form) grants.insert(g["properties"]["grant_type"]["const"]);
    EXPECT_EQ(grants,
              (std::set<std::string>{"authorization_code", "refresh_token", "client_credentials"}));
    for (const char* status : {"400", "401"}) {
        EXPECT_EQ(token["responses"][status]["content"]["application/json"]["schema"]["$ref"],
                  "#/components/schemas/OAuthError");
    }
    // What the endpoint answers to a form without a grant.
    const auto r = server_->request("POST", "/token", "client_id=x", "",
                                    {{"Content-Type", "application/x-www-form-urlencoded"}});
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json()["error"], "invalid_request");
}

TEST_F(OpenApiContract, LimitsEnforcedInCodeAreInTheSchemas) {
    const auto& c = (*doc_)["components"]["schemas"];
    for (const char* name :
         {"DirectUploadSessionRequest", "DirectUploadCompleteRequest", "UploadFileManifest"}) {
        EXPECT_EQ(c[name]["properties"]["file_size"]["maximum"], 100 * 1024 * 1024) << name;
    }
    EXPECT_EQ(c["WorkspaceSummaryRequest"]["properties"]["document_ids"]["maxItems"], 20);
    const auto& reviews = (*doc_)["paths"]["/api/v1/reviews"]["get"]["parameters"];
    bool status_enum = false;
    for (const auto& p : reviews) {
        if (p["name"] == "status") status_enum = p["schema"]["enum"].size() == 5;
    }
    EXPECT_TRUE(status_enum);
}

/// A 405 allows only the methods of the path's own resource.
TEST_F(OpenApiContract, MethodNotAllowedListsOnlyThePathsMethods) {
    const std::string user = server_->createUser("allow@example.com");
    const std::string token = server_->token(user, TestServer::allScopes());
    const auto r = server_->request("DELETE", "/api/v1/batches/uploads", "", token);
    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(r.header("allow"), "POST");
}

/// docs/API_STATUS.md lists exactly the operations that answer 503 plugin_not_loaded on a
/// server without feature plugins (and none answers 501).
TEST_F(OpenApiContract, ApiStatusListsExactlyThePluginServedOperations) {
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
    std::set<std::string> answered_by_plugin;
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
        EXPECT_NE(r.status, 501) << op.operation_id << " " << r.body;
        if (r.status == 503 && r.json()["code"] == "plugin_not_loaded") {
            answered_by_plugin.insert(op.operation_id);
        }
    }
    EXPECT_EQ(listed, answered_by_plugin);
}

}  // namespace
}  // namespace docintel::test

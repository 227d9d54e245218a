// The MCP server over real HTTP on its own listener: transport rules (sessions, protocol
// version, Origin, Accept, notifications, GET/DELETE, JSON-RPC errors), auth (audience, 401
// discovery header, per-tool scopes) and the tools and resources over the same services as REST.

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

const std::map<std::string, std::string> kAccept = {
    {"Accept", "application/json, text/event-stream"}};

json rpc(const std::string& method, json params = json::object(), json id = 1) {
    json m = {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
    if (!id.is_null()) m["id"] = std::move(id);
    return m;
}

class McpServerTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.plugins = {testPluginDir() + "/good_plugin.so"};
        server_ = new TestServer(options);
        alice_ = server_->createUser("alice@example.com");
        bob_ = server_->createUser("bob@example.com");
        token_ = server_->token(alice_, TestServer::allScopes(), 3600, true);
        bob_token_ = server_->token(bob_, TestServer::allScopes(), 3600, true);
        session_ = initialize(token_);
    }
    static void TearDownTestSuite() { delete server_; }

    static Response post(const json& body, const std::string& session,
                         const std::string& token = token_,
                         std::map<std::string, std::string> headers = kAccept) {
        if (!session.empty()) headers["Mcp-Session-Id"] = session;
        return server_->mcpRequest("POST", "/mcp", body.dump(), token, headers);
    }

    static std::string initialize(const std::string& token,
                                  const std::string& version = "2025-06-18",
                                  std::string* negotiated = nullptr) {
        const auto r = post(rpc("initialize", {{"protocolVersion", version},
                                               {"capabilities", json::object()},
                                               {"clientInfo", {{"name", "t"}, {"version", "1"}}}}),
                            "", token);
        EXPECT_EQ(r.status, 200) << r.body;
        if (negotiated) *negotiated = r.json()["result"]["protocolVersion"];
        const std::string id = r.header("mcp-session-id");
        EXPECT_FALSE(id.empty());
        EXPECT_EQ(post(rpc("notifications/initialized", json::object(), nullptr), id, token).status,
                  202);
        return id;
    }

    /// The JSON-RPC response to a request in the shared session (HTTP 200 expected).
    static json call(const std::string& method, json params = json::object(),
                     const std::string& token = token_, const std::string& session = session_) {
        const auto r = post(rpc(method, std::move(params)), session, token);
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.header("content-type").rfind("application/json", 0), 0u);
        return r.json();
    }

    static json tool(const std::string& name, json arguments = json::object(),
                     const std::string& token = token_, const std::string& session = session_) {
        return call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}}, token,
                    session)["result"];
    }

    /// Uploads a corpus file through the tools and returns its document id once ingested.
    static std::string uploadThroughTools(const std::string& path, const std::string& type,
                                          const std::string& filename) {
        const std::string bytes = readFile(path);
        const json created =
            tool("create_document_upload",
                 {{"filename", filename}, {"content_type", type}, {"file_size", bytes.size()}});
        EXPECT_EQ(created["isError"], false) << created.dump();
        const json session = created["structuredContent"]["result"];
        EXPECT_EQ(TestServer::putObject(session["upload_url"], bytes, type).status, 200);
        const json done = tool("complete_document_upload",
                               {{"doc_id", session["doc_id"]},
                                {"filename", filename},
                                {"content_type", type},
                                {"file_size", bytes.size()},
                                {"storage_source_path", session["storage_source_path"]}});
        EXPECT_EQ(done["isError"], false) << done.dump();
        const std::string id = session["doc_id"];
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            const json status = tool("get_ingestion_status", {{"document_id", id}});
            if (status["structuredContent"]["result"]["done"] == true) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return id;
    }

    static TestServer* server_;
    static std::string alice_, bob_, token_, bob_token_, session_;
};
TestServer* McpServerTest::server_ = nullptr;
std::string McpServerTest::alice_, McpServerTest::bob_, McpServerTest::token_,
    McpServerTest::bob_token_, McpServerTest::session_;

// ---- transport ----

TEST_F(McpServerTest, InitializeIssuesAVisibleAsciiSessionAndNegotiatesTheVersion) {
    for (const std::string v : {"2025-06-18", "2025-03-26", "2025-11-25"}) {
        std::string negotiated;
        const std::string id = initialize(token_, v, &negotiated);
        EXPECT_EQ(negotiated, v);
        EXPECT_GE(id.size(), 32u);
        for (const char c : id) EXPECT_TRUE(c >= 0x21 && c <= 0x7e) << id;
    }
    std::string negotiated;
    initialize(token_, "1999-01-01", &negotiated);
    EXPECT_EQ(negotiated, "2025-06-18");
    const json init = post(rpc("initialize", {{"protocolVersion", "2025-06-18"},
                                              {"capabilities", json::object()},
                                              {"clientInfo", {{"name", "t"}, {"version", "1"}}}}),
                           "")
                          .json()["result"];
    EXPECT_TRUE(init["capabilities"].contains("tools"));
    EXPECT_TRUE(init["capabilities"].contains("resources"));
    EXPECT_EQ(init["serverInfo"]["name"], "docintel");
}

TEST_F(McpServerTest, RequestsAfterInitializeNeedTheirOwnLiveSession) {
    auto r = post(rpc("tools/list"), "");
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json()["error"]["code"], -32000);
    r = post(rpc("tools/list"), "no-such-session");
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.json()["error"]["code"], -32001);
    // Another user's session id reads as unknown.
    EXPECT_EQ(post(rpc("tools/list"), session_, bob_token_).status, 404);
}

TEST_F(McpServerTest, ProtocolVersionHeaderIsCheckedOnEveryRequest) {
    auto headers = kAccept;
    headers["MCP-Protocol-Version"] = "2024-01-01";
    auto r = post(rpc("ping"), session_, token_, headers);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.json()["error"]["message"].get<std::string>().find("2024-01-01"),
              std::string::npos);
    headers["MCP-Protocol-Version"] = "2025-06-18";
    r = post(rpc("ping"), session_, token_, headers);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["result"], json::object());
    EXPECT_EQ(r.json()["id"], 1);
}

TEST_F(McpServerTest, NotificationsAndResponsesAreAcceptedWith202AndNoBody) {
    auto r = post(rpc("notifications/cancelled", {{"requestId", 7}}, nullptr), session_);
    EXPECT_EQ(r.status, 202);
    EXPECT_TRUE(r.body.empty());
    r = post(json{{"jsonrpc", "2.0"}, {"id", 5}, {"result", json::object()}}, session_);
    EXPECT_EQ(r.status, 202);
    EXPECT_TRUE(r.body.empty());
}

TEST_F(McpServerTest, GetIsNotAllowedAndDeleteEndsTheSession) {
    const auto get = server_->mcpRequest(
        "GET", "/mcp", {}, token_, {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", session_}});
    EXPECT_EQ(get.status, 405);
    EXPECT_EQ(get.header("allow"), "POST, DELETE");

    const std::string id = initialize(token_);
    EXPECT_EQ(server_->mcpRequest("DELETE", "/mcp", {}, token_, {}).status, 400);
    EXPECT_EQ(
        server_->mcpRequest("DELETE", "/mcp", {}, bob_token_, {{"Mcp-Session-Id", id}}).status,
        404);
    EXPECT_EQ(server_->mcpRequest("DELETE", "/mcp", {}, token_, {{"Mcp-Session-Id", id}}).status,
              204);
    EXPECT_EQ(post(rpc("ping"), id).status, 404);
    EXPECT_EQ(server_->mcpRequest("DELETE", "/mcp", {}, token_, {{"Mcp-Session-Id", id}}).status,
              404);
}

TEST_F(McpServerTest, OriginIsValidatedAgainstDnsRebinding) {
    auto headers = kAccept;
    headers["Origin"] = "http://evil.example.com";
    auto r = post(rpc("ping"), session_, token_, headers);
    EXPECT_EQ(r.status, 403);
    const std::string port = std::to_string(server_->mcpPort());
    for (const std::string& origin : {"http://localhost:" + port, "http://127.0.0.1:" + port}) {
        headers["Origin"] = origin;
        EXPECT_EQ(post(rpc("ping"), session_, token_, headers).status, 200) << origin;
    }
    headers["Origin"] = "http://localhost:1";
    EXPECT_EQ(post(rpc("ping"), session_, token_, headers).status, 403);
}

TEST_F(McpServerTest, AcceptAndContentTypeAreRequired) {
    auto r = post(rpc("ping"), session_, token_, {{"Accept", "application/json"}});
    EXPECT_EQ(r.status, 406);
    r = server_->mcpRequest("POST", "/mcp", rpc("ping").dump(), token_,
                            {{"Accept", "application/json, text/event-stream"},
                             {"Content-Type", "text/plain"},
                             {"Mcp-Session-Id", session_}});
    EXPECT_EQ(r.status, 415);
}

TEST_F(McpServerTest, MalformedMessagesGetTheJsonRpcErrorCodes) {
    auto headers = kAccept;
    headers["Mcp-Session-Id"] = session_;
    auto r = server_->mcpRequest("POST", "/mcp", "{not json", token_, headers);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.json()["error"]["code"], -32700);
    r = server_->mcpRequest("POST", "/mcp", json::array({rpc("ping")}).dump(), token_, headers);
    EXPECT_EQ(r.json()["error"]["code"], -32600);
    r = server_->mcpRequest("POST", "/mcp", R"({"id":1,"method":"ping"})", token_, headers);
    EXPECT_EQ(r.json()["error"]["code"], -32600);

    EXPECT_EQ(call("no/such/method")["error"]["code"], -32601);
    const json unknown = call("tools/call", {{"name", "no_such_tool"}});
    EXPECT_EQ(unknown["error"]["code"], -32602);
    const json bad = call("tools/call", {{"name", "get_document"}, {"arguments", {{"x", 1}}}});
    EXPECT_EQ(bad["error"]["code"], -32602);
    EXPECT_NE(bad["error"]["message"].get<std::string>().find("document_id"), std::string::npos);
    const json wrong_type =
        call("tools/call", {{"name", "get_document"}, {"arguments", {{"document_id", 5}}}});
    EXPECT_EQ(wrong_type["error"]["code"], -32602);
    const json missing =
        call("resources/read", {{"uri", "docintel://documents/" + std::string(36, '0')}});
    EXPECT_EQ(missing["error"]["code"], -32002);
    EXPECT_EQ(call("resources/read", {{"uri", "nowhere://x"}})["error"]["code"], -32002);
}

// ---- auth ----

TEST_F(McpServerTest, NoTokenGets401PointingAtTheProtectedResourceMetadata) {
    const auto r = post(rpc("initialize"), "", "");
    EXPECT_EQ(r.status, 401);
    const std::string metadata_url = "http://localhost:" + std::to_string(server_->mcpPort()) +
                                     "/.well-known/oauth-protected-resource/mcp";
    EXPECT_EQ(r.header("www-authenticate"), "Bearer resource_metadata=\"" + metadata_url + "\"");

    const auto doc = server_->mcpRequest("GET", "/.well-known/oauth-protected-resource/mcp");
    ASSERT_EQ(doc.status, 200);
    EXPECT_EQ(doc.json()["resource"], server_->mcpUrl());
    EXPECT_EQ(doc.json()["authorization_servers"], json::array({server_->baseUrl()}));
}

TEST_F(McpServerTest, ARestTokenIsRefusedAndAnMcpTokenIsRefusedByRest) {
    const std::string rest = server_->token(alice_, TestServer::allScopes());
    const auto r = post(rpc("initialize"), "", rest);
    EXPECT_EQ(r.status, 401);
    EXPECT_NE(r.header("www-authenticate").find("error=\"invalid_token\""), std::string::npos);
    EXPECT_NE(r.header("www-authenticate").find("resource_metadata="), std::string::npos);
    EXPECT_EQ(server_->get("/api/v1/workspaces", token_).status, 401);
}

TEST_F(McpServerTest, AMissingScopeIs403NamingTheScope) {
    const std::string reader = server_->token(alice_, {"documents:read"}, 600, true);
    const std::string session = initialize(reader);
    const auto r =
        post(rpc("tools/call",
                 {{"name", "delete_document"},
                  {"arguments", {{"document_id", std::string(36, '0')}, {"confirm", true}}}}),
             session, reader);
    EXPECT_EQ(r.status, 403);
    const std::string challenge = r.header("www-authenticate");
    EXPECT_NE(challenge.find("error=\"insufficient_scope\""), std::string::npos) << challenge;
    EXPECT_NE(challenge.find("scope=\"documents:write\""), std::string::npos) << challenge;
    EXPECT_EQ(r.json()["error"]["data"]["scope"], "documents:write");
    // The scope it has is enough for a read.
    EXPECT_EQ(post(rpc("tools/call", {{"name", "list_documents"}}), session, reader).status, 200);
    const auto ws = post(rpc("tools/call", {{"name", "list_workspaces"}}), session, reader);
    EXPECT_EQ(ws.status, 403);
    EXPECT_EQ(ws.json()["error"]["data"]["scope"], "workspaces:read");
}

// ---- tools and resources ----

TEST_F(McpServerTest, ToolsListShowsEveryToolWithSchemasAndNoConformanceFixtures) {
    const json tools = call("tools/list")["result"]["tools"];
    std::set<std::string> names;
    for (const auto& t : tools) {
        names.insert(t["name"]);
        EXPECT_FALSE(t["description"].get<std::string>().empty()) << t["name"];
        EXPECT_EQ(t["inputSchema"]["type"], "object") << t["name"];
        EXPECT_EQ(t["outputSchema"]["required"], json::array({"result"})) << t["name"];
    }
    for (const char* name :
         {"list_workspaces", "list_documents", "get_document", "create_document_upload",
          "complete_document_upload", "get_ingestion_status", "get_document_chunks",
          "embed_document", "delete_document", "fixture_good_echo"}) {
        EXPECT_TRUE(names.count(name)) << name;
    }
    EXPECT_FALSE(names.count("test_simple_text"));
    for (const auto& t : tools) {
        if (t["name"] == "create_document_upload") {
            EXPECT_EQ(t["inputSchema"]["required"], json::array({"filename", "file_size"}));
            EXPECT_EQ(t["inputSchema"]["properties"]["file_size"]["type"], "integer");
        }
        if (t["name"] == "delete_document") {
            EXPECT_EQ(t["annotations"]["destructiveHint"], true);
        }
    }
    const json templates = call("resources/templates/list")["result"]["resourceTemplates"];
    std::set<std::string> uris;
    for (const auto& t : templates) uris.insert(t["uriTemplate"]);
    EXPECT_TRUE(uris.count("docintel://documents/{document_id}"));
    EXPECT_TRUE(uris.count("docintel://documents/{document_id}/chunks"));
    EXPECT_TRUE(uris.count("docintel://fixture_good/{id}"));
    // The one fixed resource is the workflow catalog (docs/mcp.md, Resources).
    const json fixed = call("resources/list")["result"]["resources"];
    ASSERT_EQ(fixed.size(), 1u) << fixed.dump();
    EXPECT_EQ(fixed[0]["uri"], "docintel://workflows/catalog");
}

TEST_F(McpServerTest, AnUploadThroughToolsMatchesWhatRestAndResourcesShow) {
    const std::string id =
        uploadThroughTools(sharedDir() + "/datasets/doc-corpus/pdf/text/minimal-document.pdf",
                           "application/pdf", "minimal.pdf");
    const json status = tool("get_ingestion_status", {{"document_id", id}});
    EXPECT_EQ(status["structuredContent"]["result"]["status"], "embedded") << status.dump();

    const json got = tool("get_document", {{"document_id", id}});
    EXPECT_EQ(got["isError"], false);
    const json document = got["structuredContent"]["result"];
    EXPECT_EQ(json::parse(got["content"][0]["text"].get<std::string>()), got["structuredContent"]);
    const std::string rest_token = server_->token(alice_, TestServer::allScopes());
    EXPECT_EQ(document, server_->get("/api/v1/documents/" + id, rest_token).json());

    const json chunks = tool("get_document_chunks", {{"document_id", id}});
    EXPECT_GT(chunks["structuredContent"]["result"]["count"].get<int>(), 0);

    const json read = call("resources/read", {{"uri", "docintel://documents/" + id}})["result"];
    EXPECT_EQ(read["contents"][0]["mimeType"], "application/json");
    EXPECT_EQ(read["contents"][0]["uri"], "docintel://documents/" + id);
    EXPECT_EQ(json::parse(read["contents"][0]["text"].get<std::string>()), document);
    const json read_chunks =
        call("resources/read", {{"uri", "docintel://documents/" + id + "/chunks"}})["result"];
    EXPECT_EQ(json::parse(read_chunks["contents"][0]["text"].get<std::string>()),
              chunks["structuredContent"]["result"]);

    const json embed = tool("embed_document", {{"document_id", id}});
    EXPECT_EQ(embed["structuredContent"]["result"]["status"], "embedding") << embed.dump();

    // Bob sees none of it, through tools or resources.
    const std::string bob_session = initialize(bob_token_);
    const json hidden = tool("get_document", {{"document_id", id}}, bob_token_, bob_session);
    EXPECT_EQ(hidden["isError"], true);
    EXPECT_EQ(hidden["structuredContent"]["ok"], false);
    EXPECT_EQ(hidden["structuredContent"]["error"]["code"], "document_not_found");
    EXPECT_EQ(call("resources/read", {{"uri", "docintel://documents/" + id}}, bob_token_,
                   bob_session)["error"]["code"],
              -32002);
}

TEST_F(McpServerTest, DeleteDocumentDoesNothingWithoutConfirm) {
    const std::string bytes =
        readFile(sharedDir() + "/datasets/doc-corpus/text/book-war-and-peace-1p.txt");
    const json created =
        tool("create_document_upload",
             {{"filename", "wp.txt"}, {"content_type", "text/plain"}, {"file_size", bytes.size()}});
    const std::string id = created["structuredContent"]["result"]["doc_id"];
    for (const json& args :
         {json{{"document_id", id}}, json{{"document_id", id}, {"confirm", false}}}) {
        const json refused = tool("delete_document", args);
        EXPECT_EQ(refused["isError"], true);
        EXPECT_EQ(refused["structuredContent"]["error"]["code"], "confirmation_required");
        EXPECT_EQ(tool("get_document", {{"document_id", id}})["isError"], false);
    }
    const json deleted = tool("delete_document", {{"document_id", id}, {"confirm", true}});
    EXPECT_EQ(deleted["structuredContent"]["result"]["deleted"], true) << deleted.dump();
    EXPECT_EQ(tool("get_document", {{"document_id", id}})["structuredContent"]["error"]["code"],
              "document_not_found");
}

TEST_F(McpServerTest, WorkspaceArgumentSelectsTheScopeAndMembershipIsChecked) {
    const std::string rest_token = server_->token(alice_, TestServer::allScopes());
    const auto ws =
        server_->request("POST", "/api/v1/workspaces", R"({"name":"team"})", rest_token);
    ASSERT_EQ(ws.status, 201) << ws.body;
    const std::string ws_id = ws.json()["id"];
    const json listed = tool("list_workspaces");
    bool found = false;
    for (const auto& w : listed["structuredContent"]["result"]["workspaces"]) {
        found = found || w["id"] == ws_id;
    }
    EXPECT_TRUE(found) << listed.dump();
    const json docs = tool("list_documents", {{"workspace_id", ws_id}});
    EXPECT_EQ(docs["structuredContent"]["result"]["workspace_id"], ws_id);
    EXPECT_EQ(tool("list_documents",
                   {{"workspace_id", nullptr}})["structuredContent"]["result"]["workspace_id"],
              nullptr);
    const std::string bob_session = initialize(bob_token_);
    const json refused = tool("list_documents", {{"workspace_id", ws_id}}, bob_token_, bob_session);
    EXPECT_EQ(refused["isError"], true) << refused.dump();
}

TEST_F(McpServerTest, PluginToolsAndResourcesAreServed) {
    const json echo = tool("fixture_good_echo", {{"text", "hi"}});
    EXPECT_EQ(echo["structuredContent"]["result"]["echo"], "hi") << echo.dump();
    EXPECT_EQ(call("tools/call",
                   {{"name", "fixture_good_echo"}, {"arguments", json::object()}})["error"]["code"],
              -32602);
    const json item = call("resources/read", {{"uri", "docintel://fixture_good/42"}})["result"];
    EXPECT_EQ(json::parse(item["contents"][0]["text"].get<std::string>())["uri"],
              "docintel://fixture_good/42");
}

TEST_F(McpServerTest, LoggingLevelIsAcceptedPerSession) {
    EXPECT_EQ(call("logging/setLevel", {{"level", "warning"}})["result"], json::object());
    EXPECT_EQ(call("logging/setLevel", {{"level", "loud"}})["error"]["code"], -32602);
}

// ---- the test profile (conformance fixtures) and SSE answers ----

/// The `data:` payloads of an SSE body, in order.
std::vector<json> sseMessages(const std::string& body) {
    std::vector<json> out;
    std::istringstream in(body);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("data: ", 0) == 0) out.push_back(json::parse(line.substr(6)));
    }
    return out;
}

TEST(McpTestProfile, ProgressAndLogsStreamAsSseBeforeTheResponseOnlyWhenAskedFor) {
    TestServer::Options options;
    options.mcp_test_profile = true;
    TestServer server(options);
    const std::string user = server.createUser("profile@example.com");
    const std::string token = server.token(user, {"documents:read"}, 600, true);
    auto headers = kAccept;
    const auto init =
        server.mcpRequest("POST", "/mcp",
                          rpc("initialize", {{"protocolVersion", "2025-06-18"},
                                             {"capabilities", json::object()},
                                             {"clientInfo", {{"name", "t"}, {"version", "1"}}}})
                              .dump(),
                          token, headers);
    ASSERT_EQ(init.status, 200);
    headers["Mcp-Session-Id"] = init.header("mcp-session-id");

    const auto progress = server.mcpRequest(
        "POST", "/mcp",
        rpc("tools/call",
            {{"name", "test_tool_with_progress"}, {"_meta", {{"progressToken", "p1"}}}}, 9)
            .dump(),
        token, headers);
    ASSERT_EQ(progress.status, 200);
    EXPECT_EQ(progress.header("content-type"), "text/event-stream");
    const auto events = sseMessages(progress.body);
    ASSERT_EQ(events.size(), 4u) << progress.body;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(events[i]["method"], "notifications/progress");
        EXPECT_EQ(events[i]["params"]["progressToken"], "p1");
        EXPECT_EQ(events[i]["params"]["progress"], i * 50);
    }
    EXPECT_EQ(events[3]["id"], 9);
    EXPECT_EQ(events[3]["result"]["content"][0]["type"], "text");

    // Without a progress token there is nothing to stream: plain JSON.
    const auto plain = server.mcpRequest(
        "POST", "/mcp", rpc("tools/call", {{"name", "test_tool_with_progress"}}).dump(), token,
        headers);
    EXPECT_EQ(plain.header("content-type"), "application/json");
    // Log messages below the session's level are not sent.
    server.mcpRequest("POST", "/mcp", rpc("logging/setLevel", {{"level", "error"}}).dump(), token,
                      headers);
    const auto quiet = server.mcpRequest(
        "POST", "/mcp", rpc("tools/call", {{"name", "test_tool_with_logging"}}).dump(), token,
        headers);
    EXPECT_EQ(quiet.header("content-type"), "application/json");
    server.mcpRequest("POST", "/mcp", rpc("logging/setLevel", {{"level", "debug"}}).dump(), token,
                      headers);
    const auto logged = server.mcpRequest(
        "POST", "/mcp", rpc("tools/call", {{"name", "test_tool_with_logging"}}).dump(), token,
        headers);
    const auto logs = sseMessages(logged.body);
    ASSERT_EQ(logs.size(), 4u) << logged.body;
    EXPECT_EQ(logs[0]["params"]["data"], "Tool execution started");
    EXPECT_EQ(logs[0]["params"]["level"], "info");

    const json fixtures = json::parse(
        server.mcpRequest("POST", "/mcp", rpc("resources/list").dump(), token, headers).body);
    // The suite's three fixture resources and the workflow catalog.
    EXPECT_EQ(fixtures["result"]["resources"].size(), 4u) << fixtures.dump();
}

}  // namespace
}  // namespace docintel::test

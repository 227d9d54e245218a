// Answer traces, groundedness evaluations, chat sessions and the MCP knowledge tools over real
// HTTP (real server, real Postgres, real model, the node's real indexes): every answer stores
// a trace under its trace id; POST /api/v1/evaluations scores a grounded answer high and one
// whose sentence was edited to unsupported text lower; traces of others or of other workspaces
// are 404; search_knowledgebase, ask (with redact_pii and in a session whose turns are the
// history), and the chat-session tools and resource, with their failure paths.

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "support/sample_texts.h"
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

/// An MCP client session on the test server with one token.
class McpClient {
  public:
    McpClient(TestServer& server, std::string token) : server_(server), token_(std::move(token)) {
        const auto r = post(rpc("initialize", {{"protocolVersion", "2025-06-18"},
                                               {"capabilities", json::object()},
                                               {"clientInfo", {{"name", "t"}, {"version", "1"}}}}));
        EXPECT_EQ(r.status, 200) << r.body;
        session_ = r.header("mcp-session-id");
        EXPECT_EQ(post(rpc("notifications/initialized", json::object(), nullptr)).status, 202);
    }

    Response post(const json& body) const {
        auto headers = kAccept;
        if (!session_.empty()) {
            headers["Mcp-Session-Id"] = session_;
            headers["MCP-Protocol-Version"] = "2025-06-18";
        }
        return server_.mcpRequest("POST", "/mcp", body.dump(), token_, headers);
    }
    /// The JSON-RPC response (result or error).
    json call(const std::string& method, json params = json::object()) const {
        const auto r = post(rpc(method, std::move(params)));
        return r.body.empty() ? json{{"http_status", r.status}} : r.json();
    }
    /// tools/call's result (content, structuredContent, isError).
    json tool(const std::string& name, json arguments = json::object()) const {
        return call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}})["result"];
    }
    /// The `result` of a successful tool call (fails the test on a tool error).
    json ok(const std::string& name, json arguments = json::object()) const {
        const json r = tool(name, std::move(arguments));
        EXPECT_EQ(r.value("isError", true), false) << name << ": " << r.dump();
        return r.contains("structuredContent") ? r["structuredContent"]["result"] : json();
    }
    /// The error code of a failed tool call ("" when it succeeded).
    std::string errorCode(const std::string& name, json arguments = json::object()) const {
        const json r = tool(name, std::move(arguments));
        if (r.value("isError", false) != true) return "";
        return r["structuredContent"]["error"]["code"];
    }

  private:
    TestServer& server_;
    std::string token_;
    std::string session_;
};

struct Stream {
    int status = 0;
    std::vector<json> frames;
    json done() const {
        for (const auto& f : frames) {
            if (f.value("type", "") == "done") return f;
        }
        return json();
    }
};

class KnowledgeSessions : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        alice_ = server_->createUser("alice@example.com");
        bob_ = server_->createUser("bob@example.com");
        alice_rest_ = server_->token(alice_, TestServer::allScopes());
        bob_rest_ = server_->token(bob_, TestServer::allScopes());
        lease_ = server_->uploadDocument(alice_rest_, "lease.txt", "text/plain",
                                         std::string(kLeaseText) + kLeaseRenewal);
        contacts_ = server_->uploadDocument(
            alice_rest_, "contacts.txt", "text/plain",
            "Building contacts\n\nThe property manager can be reached by e-mail at "
            "jane.doe@example.com for maintenance requests. Emergency repairs are handled by "
            "the on-site engineer during business hours.");
        const auto ws = server_->request("POST", "/api/v1/workspaces",
                                         json{{"name", "Plant team"}}.dump(), alice_rest_);
        ASSERT_EQ(ws.status, 201) << ws.body;
        workspace_ = ws.json()["id"];
        memo_ = server_->uploadDocument(
            alice_rest_, "memo.txt", "text/plain",
            "Production memo\n\nThe bottling plant in Leeds produced 20,000 bottles of sparkling "
            "water in June. Line 2 was down for maintenance for four days. The quality team "
            "rejected 1.2% of bottles because of faulty caps.",
            workspace_);
        for (const auto& id : {lease_, contacts_, memo_}) {
            ASSERT_EQ(server_->waitForDocument(id, alice_rest_)["status"], "embedded");
        }
        // The node's indexes follow the change feed; wait until all three are searchable.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (;;) {
            const auto a = ask("monthly rent e-mail", {lease_, contacts_});
            const auto b = ask("bottles Leeds", {memo_});
            const auto sa = a.frames.empty() ? json() : a.frames.front();
            const auto sb = b.frames.empty() ? json() : b.frames.front();
            if ((sa.value("sources", json::array()).size() >= 2 &&
                 !sb.value("sources", json::array()).empty()) ||
                std::chrono::steady_clock::now() > deadline) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        alice_mcp_ =
            new McpClient(*server_, server_->token(alice_, TestServer::allScopes(), 3600, true));
        bob_mcp_ =
            new McpClient(*server_, server_->token(bob_, TestServer::allScopes(), 3600, true));
    }
    static void TearDownTestSuite() {
        delete alice_mcp_;
        delete bob_mcp_;
        delete server_;
    }

    static Stream ask(const std::string& question, const std::vector<std::string>& ids,
                      const std::string& token = alice_rest_, json extra = json::object()) {
        json body = {{"question", question}, {"document_ids", ids}};
        for (const auto& [k, v] : extra.items()) body[k] = v;
        const auto r =
            server_->request("POST", "/api/v1/knowledge/query/stream", body.dump(), token);
        Stream out;
        out.status = r.status;
        out.frames = sseFrames(r.body);
        return out;
    }

    static Response evaluate(const std::string& trace_id, const std::string& token = alice_rest_,
                             const std::string& type = "") {
        json body = {{"trace_id", trace_id}};
        if (!type.empty()) body["evaluation_type"] = type;
        return server_->request("POST", "/api/v1/evaluations", body.dump(), token);
    }

    static std::string sql(const std::string& query) { return server_->db().scalar(query); }

    static TestServer* server_;
    static McpClient* alice_mcp_;
    static McpClient* bob_mcp_;
    static std::string alice_, bob_, alice_rest_, bob_rest_, lease_, contacts_, memo_, workspace_;
};
TestServer* KnowledgeSessions::server_ = nullptr;
McpClient* KnowledgeSessions::alice_mcp_ = nullptr;
McpClient* KnowledgeSessions::bob_mcp_ = nullptr;
std::string KnowledgeSessions::alice_, KnowledgeSessions::bob_, KnowledgeSessions::alice_rest_,
    KnowledgeSessions::bob_rest_, KnowledgeSessions::lease_, KnowledgeSessions::contacts_,
    KnowledgeSessions::memo_, KnowledgeSessions::workspace_;

// ---- traces and evaluations ----

TEST_F(KnowledgeSessions, EveryAnswerStoresATraceUnderItsTraceId) {
    const auto s = ask("How much is the monthly rent?", {lease_});
    ASSERT_EQ(s.status, 200);
    const json done = s.done();
    ASSERT_TRUE(done.is_object());
    const std::string trace_id = done["trace_id"];
    const std::string where = " FROM answer_traces WHERE trace_id = '" + trace_id + "'";
    EXPECT_EQ(sql("SELECT count(*)" + where), "1");
    EXPECT_EQ(sql("SELECT user_id::text" + where), alice_);
    EXPECT_EQ(sql("SELECT question" + where), "How much is the monthly rent?");
    EXPECT_EQ(sql("SELECT answer" + where), done["answer"].get<std::string>());
    EXPECT_NE(sql("SELECT jsonb_array_length(candidates)" + where), "0");
    EXPECT_EQ(sql("SELECT candidates->0->>'rank'" + where), "1");
    EXPECT_FALSE(sql("SELECT candidates->0->>'match_type'" + where).empty());
    EXPECT_EQ(sql("SELECT sources->0->>'document_id'" + where), lease_);
    EXPECT_EQ(sql("SELECT jsonb_array_length(sentences)" + where),
              std::to_string(done["citations"].size()));
    EXPECT_FALSE(sql("SELECT timings->>'retrieval'" + where).empty());
    EXPECT_EQ(sql("SELECT models->>'encoder'" + where), done["model"].get<std::string>());
    // The cited span of the trace is the quoted sentence.
    EXPECT_EQ(sql("SELECT substr(sources->0->>'excerpt', (sentences->0->>'span_start')::int + 1, "
                  "(sentences->0->>'span_end')::int - (sentences->0->>'span_start')::int)" +
                  where),
              done["citations"][0]["quote"].get<std::string>());
}

TEST_F(KnowledgeSessions, AGroundedAnswerScoresHighAndAnEditedOneLower) {
    const json done =
        ask("How much is the monthly rent and the security deposit?", {lease_}).done();
    ASSERT_FALSE(done["refused"].get<bool>()) << done.dump();
    const std::string trace_id = done["trace_id"];

    const auto r = evaluate(trace_id);
    ASSERT_EQ(r.status, 201) << r.body;
    const json e = r.json();
    EXPECT_EQ(e["trace_id"], trace_id);
    EXPECT_EQ(e["evaluation_type"], "groundedness");
    EXPECT_DOUBLE_EQ(e["metrics"]["groundedness"].get<double>(), 1.0) << e.dump(2);
    EXPECT_DOUBLE_EQ(e["metrics"]["citation_precision"].get<double>(), 1.0);
    EXPECT_GT(e["metrics"]["retrieval_agreement"].get<double>(), 0.0);
    EXPECT_EQ(e["score"], e["metrics"]["groundedness"]);
    EXPECT_EQ(e["details"]["sentences"].size(), done["citations"].size());
    EXPECT_EQ(sql("SELECT count(*) FROM answer_evaluations WHERE trace_id = '" + trace_id + "'"),
              "1");
    const int sentences = e["metrics"]["sentences"];
    ASSERT_GE(sentences, 1);

    // Test-only edit: the first answer sentence now says something no source supports.
    sql("UPDATE answer_traces SET sentences = jsonb_set(sentences, '{0,text}', "
        "'\"The moon is made of green cheese and orbits the bottling plant.\"') "
        "WHERE trace_id = '" +
        trace_id + "' RETURNING 1");
    const auto edited = evaluate(trace_id);
    ASSERT_EQ(edited.status, 201) << edited.body;
    const json m = edited.json()["metrics"];
    EXPECT_LT(m["groundedness"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(m["groundedness"].get<double>(),
                     static_cast<double>(sentences - 1) / sentences);
    EXPECT_LT(m["citation_precision"].get<double>(), 1.0);
    EXPECT_EQ(edited.json()["details"]["sentences"][0]["supported"], false);
}

TEST_F(KnowledgeSessions, EvaluationTypesNameTheScoreAndUnknownOnesAre422) {
    const std::string trace_id =
        ask("When does the initial term start?", {lease_}).done()["trace_id"];
    const json citation = evaluate(trace_id, alice_rest_, "citation").json();
    EXPECT_EQ(citation["evaluation_type"], "citation");
    EXPECT_EQ(citation["score"], citation["metrics"]["citation_precision"]);
    const json retrieval = evaluate(trace_id, alice_rest_, "retrieval").json();
    EXPECT_EQ(retrieval["evaluation_type"], "retrieval");
    EXPECT_EQ(retrieval["score"], retrieval["metrics"]["retrieval_agreement"]);

    const auto bad = evaluate(trace_id, alice_rest_, "vibes");
    EXPECT_EQ(bad.status, 422) << bad.body;
    EXPECT_EQ(bad.json()["detail"][0]["loc"], json::array({"body", "evaluation_type"}));
    EXPECT_EQ(server_->request("POST", "/api/v1/evaluations", "{}", alice_rest_).status, 422);
}

TEST_F(KnowledgeSessions, TracesOfOthersAndOfOtherWorkspacesAre404) {
    const auto in_workspace = ask("How many bottles did the plant produce?", {}, alice_rest_,
                                  {{"workspace_id", workspace_}});
    ASSERT_EQ(in_workspace.status, 200);
    const json done = in_workspace.done();
    ASSERT_FALSE(done["refused"].get<bool>()) << done.dump();
    const std::string ws_trace = done["trace_id"];
    EXPECT_EQ(
        sql("SELECT workspace_id::text FROM answer_traces WHERE trace_id = '" + ws_trace + "'"),
        workspace_);
    EXPECT_EQ(evaluate(ws_trace).status, 201);
    // Bob is not a member of the workspace: its trace does not exist for him.
    const auto hidden = evaluate(ws_trace, bob_rest_);
    EXPECT_EQ(hidden.status, 404) << hidden.body;
    EXPECT_EQ(hidden.json()["code"], "trace_not_found");
    // Nor do Alice's personal traces, or traces that never were.
    const std::string personal = ask("How much is the monthly rent?", {lease_}).done()["trace_id"];
    EXPECT_EQ(evaluate(personal, bob_rest_).status, 404);
    EXPECT_EQ(evaluate("0123456789abcdef0123456789abcdef").status, 404);
    // A member who did not ask sees no one else's trace either (traces are the asker's).
    ASSERT_EQ(
        server_
            ->request("POST", "/api/v1/workspaces/" + workspace_ + "/members",
                      json{{"email", "bob@example.com"}, {"role", "viewer"}}.dump(), alice_rest_)
            .status,
        201);
    EXPECT_EQ(evaluate(ws_trace, bob_rest_).status, 404);
    ASSERT_EQ(server_->request("DELETE", "/api/v1/workspaces/" + workspace_ + "/members/" + bob_,
                               "", alice_rest_)
                      .status /
                  100,
              2);
}

// ---- MCP: search_knowledgebase and ask ----

TEST_F(KnowledgeSessions, ToolsAndTheSessionTemplateAreListedWithSchemasAndScopes) {
    const json tools = alice_mcp_->call("tools/list")["result"]["tools"];
    std::map<std::string, json> by_name;
    for (const auto& t : tools) by_name[t["name"]] = t;
    const std::map<std::string, std::string> scope = {
        {"search_knowledgebase", "knowledge:query"}, {"ask", "knowledge:query"},
        {"create_chat_session", "sessions:write"},   {"list_chat_sessions", "knowledge:query"},
        {"get_chat_session", "knowledge:query"},     {"update_chat_session", "sessions:write"},
        {"delete_chat_session", "sessions:write"}};
    for (const auto& [name, s] : scope) {
        ASSERT_TRUE(by_name.count(name)) << name;
        const json& t = by_name[name];
        EXPECT_EQ(t["_meta"]["docintel/scopes"], json::array({s})) << name;
        EXPECT_EQ(t["inputSchema"]["type"], "object") << name;
        EXPECT_EQ(t["outputSchema"]["required"], json::array({"result"})) << name;
    }
    for (const char* arg :
         {"question", "workspace_id", "document_ids", "session_id", "redact_pii"}) {
        EXPECT_TRUE(by_name["ask"]["inputSchema"]["properties"].contains(arg)) << arg;
    }
    for (const char* arg : {"question", "workspace_id", "document_ids", "history", "redact_pii"}) {
        EXPECT_TRUE(by_name["search_knowledgebase"]["inputSchema"]["properties"].contains(arg))
            << arg;
    }
    EXPECT_EQ(by_name["delete_chat_session"]["annotations"]["destructiveHint"], true);
    const json templates =
        alice_mcp_->call("resources/templates/list")["result"]["resourceTemplates"];
    bool found = false;
    for (const auto& t : templates)
        found = found || t["uriTemplate"] == "docintel://sessions/{session_id}";
    EXPECT_TRUE(found);
}

TEST_F(KnowledgeSessions, SearchKnowledgebaseRanksSourcesAndHidesOthersDocuments) {
    const json r = alice_mcp_->ok(
        "search_knowledgebase",
        {{"question", "security deposit"}, {"document_ids", json::array({lease_, contacts_})}});
    ASSERT_FALSE(r["sources"].empty()) << r.dump();
    EXPECT_EQ(r["sources"][0]["document_id"], lease_);
    EXPECT_NE(r["sources"][0]["excerpt"].get<std::string>().find("$9,000"), std::string::npos);
    // The workspace scope: only its documents.
    const json ws = alice_mcp_->ok("search_knowledgebase",
                                   {{"question", "bottles"}, {"workspace_id", workspace_}});
    ASSERT_FALSE(ws["sources"].empty());
    for (const auto& s : ws["sources"]) EXPECT_EQ(s["document_id"], memo_);

    EXPECT_EQ(bob_mcp_->errorCode("search_knowledgebase",
                                  {{"question", "rent"}, {"document_ids", json::array({lease_})}}),
              "document_not_found");
    EXPECT_EQ(bob_mcp_->errorCode("search_knowledgebase",
                                  {{"question", "rent"}, {"workspace_id", workspace_}}),
              "workspace_not_found");
    EXPECT_EQ(alice_mcp_->call(
                  "tools/call",
                  {{"name", "search_knowledgebase"},
                   {"arguments", {{"document_ids", json::array({lease_})}}}})["error"]["code"],
              -32602);
}

TEST_F(KnowledgeSessions, AskReturnsACitedAnswerWhoseTraceCanBeEvaluated) {
    const json r = alice_mcp_->ok("ask", {{"question", "How much is the monthly rent?"},
                                          {"document_ids", json::array({lease_})}});
    EXPECT_NE(r["answer"].get<std::string>().find("$4,500"), std::string::npos) << r.dump();
    ASSERT_FALSE(r["citations"].empty());
    EXPECT_EQ(r["citations"][0]["document_id"], lease_);
    ASSERT_FALSE(r["sources"].empty());
    EXPECT_EQ(r["session_id"], nullptr);
    const std::string trace_id = r["trace_id"];
    ASSERT_FALSE(trace_id.empty());
    const auto e = evaluate(trace_id);
    ASSERT_EQ(e.status, 201) << e.body;
    EXPECT_DOUBLE_EQ(e.json()["metrics"]["groundedness"].get<double>(), 1.0);

    const json refused = alice_mcp_->ok("ask", {{"question", "Who won the football world cup?"},
                                                {"document_ids", json::array({lease_})}});
    EXPECT_EQ(refused["refused"], true);
    const auto not_scored = evaluate(refused["trace_id"]);
    ASSERT_EQ(not_scored.status, 201) << not_scored.body;
    EXPECT_TRUE(not_scored.json()["score"].is_null()) << "a refusal has nothing to score";
    EXPECT_TRUE(not_scored.json()["metrics"]["groundedness"].is_null());
    EXPECT_EQ(not_scored.json()["metrics"]["refused"], true);

    EXPECT_EQ(bob_mcp_->errorCode("ask",
                                  {{"question", "rent?"}, {"document_ids", json::array({lease_})}}),
              "document_not_found");
    EXPECT_EQ(alice_mcp_->errorCode(
                  "ask", {{"question", "rent?"},
                          {"document_ids", json::array({"4f1c2a8e-0000-4000-8000-000000000000"})}}),
              "document_not_found");
    EXPECT_EQ(alice_mcp_->call("tools/call", {{"name", "ask"},
                                              {"arguments", {{"question", 7}}}})["error"]["code"],
              -32602);
}

TEST_F(KnowledgeSessions, AskRedactsPersonalDataInTheAnswerAndExcerpts) {
    const json plain = alice_mcp_->ok(
        "ask", {{"question", "What is the property manager's e-mail address for maintenance?"},
                {"document_ids", json::array({contacts_})}});
    ASSERT_NE(plain["answer"].get<std::string>().find("jane.doe@example.com"), std::string::npos)
        << plain.dump();

    const json r = alice_mcp_->ok(
        "ask", {{"question", "What is the property manager's e-mail address for maintenance?"},
                {"document_ids", json::array({contacts_})},
                {"redact_pii", true}});
    EXPECT_EQ(r["redacted"], true);
    const std::string answer = r["answer"];
    EXPECT_EQ(answer.find("jane.doe@example.com"), std::string::npos) << answer;
    EXPECT_NE(answer.find("[EMAIL_1]"), std::string::npos) << answer;
    for (const auto& s : r["sources"]) {
        EXPECT_EQ(s["excerpt"].get<std::string>().find("jane.doe"), std::string::npos);
    }
    for (const auto& c : r["citations"]) {
        EXPECT_EQ(c["quote"].get<std::string>().find("jane.doe"), std::string::npos);
    }
    const std::string trace_id = r["trace_id"];
    EXPECT_EQ(sql("SELECT position('jane.doe' in sources::text || sentences::text || answer) "
                  "FROM answer_traces WHERE trace_id = '" +
                  trace_id + "'"),
              "0")
        << "the trace keeps what was shown";
    const auto e = evaluate(trace_id);
    ASSERT_EQ(e.status, 201);
    EXPECT_DOUBLE_EQ(e.json()["metrics"]["groundedness"].get<double>(), 1.0) << e.body;

    const json searched =
        alice_mcp_->ok("search_knowledgebase", {{"question", "manager e-mail"},
                                                {"document_ids", json::array({contacts_})},
                                                {"redact_pii", true}});
    ASSERT_FALSE(searched["sources"].empty());
    EXPECT_NE(searched["sources"][0]["excerpt"].get<std::string>().find("[EMAIL_1]"),
              std::string::npos);
}

// ---- MCP: chat sessions ----

TEST_F(KnowledgeSessions, ASessionKeepsTheTurnsAndUsesThemAsHistory) {
    const json created =
        alice_mcp_->ok("create_chat_session",
                       {{"title", "Lease questions"}, {"document_ids", json::array({lease_})}});
    const std::string id = created["session_id"];
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(created["title"], "Lease questions");
    EXPECT_EQ(created["workspace_id"], nullptr);
    EXPECT_EQ(created["document_ids"], json::array({lease_}));

    // No document_ids: the session's apply.
    const json first = alice_mcp_->ok(
        "ask",
        {{"question", "How much is the security deposit for the lease?"}, {"session_id", id}});
    EXPECT_NE(first["answer"].get<std::string>().find("$9,000"), std::string::npos) << first.dump();
    EXPECT_EQ(first["session_id"], id);
    // A short follow-up is retrieved with the earlier question's words (the session's history).
    const json second =
        alice_mcp_->ok("ask", {{"question", "And when is it returned?"}, {"session_id", id}});
    const std::string trace_id = second["trace_id"];
    const std::string query =
        sql("SELECT retrieval_query FROM answer_traces WHERE trace_id = '" + trace_id + "'");
    EXPECT_NE(query.find("security deposit"), std::string::npos) << query;
    EXPECT_EQ(sql("SELECT session_id::text FROM answer_traces WHERE trace_id = '" + trace_id + "'"),
              id);
    EXPECT_NE(second["answer"].get<std::string>().find("30 days"), std::string::npos)
        << second.dump();

    const json got = alice_mcp_->ok("get_chat_session", {{"session_id", id}});
    ASSERT_EQ(got["turns"].size(), 4u) << got.dump();
    EXPECT_EQ(got["turn_count"], 4);
    const std::vector<std::string> roles = {"user", "assistant", "user", "assistant"};
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(got["turns"][i]["role"], roles[i]);
    EXPECT_EQ(got["turns"][0]["content"], "How much is the security deposit for the lease?");
    EXPECT_EQ(got["turns"][1]["content"], first["answer"]);
    EXPECT_EQ(got["turns"][1]["trace_id"], first["trace_id"]);
    EXPECT_FALSE(got["turns"][3]["citations"].empty());

    // The resource shows the same session.
    const json read = alice_mcp_->call("resources/read", {{"uri", "docintel://sessions/" + id}});
    const json contents = read["result"]["contents"][0];
    EXPECT_EQ(contents["mimeType"], "application/json");
    EXPECT_EQ(json::parse(contents["text"].get<std::string>())["turns"].size(), 4u);
    EXPECT_EQ(
        bob_mcp_->call("resources/read", {{"uri", "docintel://sessions/" + id}})["error"]["code"],
        -32002);
}

TEST_F(KnowledgeSessions, SessionsAreListedRenamedAndDeletedOnlyWithConfirm) {
    const std::string id =
        alice_mcp_->ok("create_chat_session", {{"title", "To rename"}})["session_id"];
    const std::string in_ws = alice_mcp_->ok(
        "create_chat_session", {{"title", "Plant"}, {"workspace_id", workspace_}})["session_id"];
    const std::string untitled = alice_mcp_->ok("create_chat_session")["session_id"];

    const json personal = alice_mcp_->ok("list_chat_sessions");
    std::set<std::string> ids;
    for (const auto& s : personal["sessions"]) ids.insert(s["session_id"]);
    EXPECT_TRUE(ids.count(id));
    EXPECT_TRUE(ids.count(untitled));
    EXPECT_FALSE(ids.count(in_ws)) << "the personal list leaves out workspace sessions";
    const json team = alice_mcp_->ok("list_chat_sessions", {{"workspace_id", workspace_}});
    ASSERT_EQ(team["sessions"].size(), 1u);
    EXPECT_EQ(team["sessions"][0]["session_id"], in_ws);
    EXPECT_EQ(bob_mcp_->ok("list_chat_sessions")["sessions"].size(), 0u);

    const json renamed =
        alice_mcp_->ok("update_chat_session", {{"session_id", id}, {"title", "Renamed"}});
    EXPECT_EQ(renamed["title"], "Renamed");
    EXPECT_EQ(alice_mcp_->ok("get_chat_session", {{"session_id", id}})["title"], "Renamed");
    EXPECT_EQ(
        alice_mcp_->call("tools/call",
                         {{"name", "update_chat_session"},
                          {"arguments", {{"session_id", id}, {"title", ""}}}})["error"]["code"],
        -32602);

    EXPECT_EQ(alice_mcp_->errorCode("delete_chat_session", {{"session_id", id}}),
              "confirmation_required");
    EXPECT_EQ(alice_mcp_->ok("get_chat_session", {{"session_id", id}})["session_id"], id);
    EXPECT_EQ(bob_mcp_->errorCode("delete_chat_session", {{"session_id", id}, {"confirm", true}}),
              "session_not_found");
    const json deleted =
        alice_mcp_->ok("delete_chat_session", {{"session_id", id}, {"confirm", true}});
    EXPECT_EQ(deleted["deleted"], true);
    EXPECT_EQ(alice_mcp_->errorCode("get_chat_session", {{"session_id", id}}), "session_not_found");
    EXPECT_EQ(alice_mcp_->errorCode("delete_chat_session", {{"session_id", id}, {"confirm", true}}),
              "session_not_found");
}

TEST_F(KnowledgeSessions, SessionsOfOthersAndForbiddenScopesAreRefused) {
    const std::string id =
        alice_mcp_->ok("create_chat_session", {{"title", "Private"}})["session_id"];
    for (const char* tool : {"get_chat_session", "update_chat_session"}) {
        EXPECT_EQ(bob_mcp_->errorCode(tool, {{"session_id", id}, {"title", "mine"}}),
                  "session_not_found")
            << tool;
    }
    EXPECT_EQ(bob_mcp_->errorCode("ask", {{"question", "rent?"}, {"session_id", id}}),
              "session_not_found");
    EXPECT_EQ(alice_mcp_->errorCode("get_chat_session", {{"session_id", "not-a-uuid"}}),
              "session_not_found");
    EXPECT_EQ(
        bob_mcp_->errorCode("create_chat_session", {{"title", "x"}, {"workspace_id", workspace_}}),
        "workspace_not_found");
    EXPECT_EQ(bob_mcp_->errorCode("create_chat_session",
                                  {{"title", "x"}, {"document_ids", json::array({lease_})}}),
              "document_not_found");

    // Without sessions:write: creating is refused with 403 naming the scope, and asking in a
    // session is a tool error; asking outside one is allowed.
    McpClient reader(*server_, server_->token(alice_, {"knowledge:query"}, 600, true));
    const auto r = reader.post(
        rpc("tools/call", {{"name", "create_chat_session"}, {"arguments", {{"title", "x"}}}}));
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_NE(r.body.find("sessions:write"), std::string::npos);
    EXPECT_EQ(reader.errorCode("ask", {{"question", "rent?"}, {"session_id", id}}),
              "insufficient_scope");
    EXPECT_EQ(reader.ok("get_chat_session", {{"session_id", id}})["session_id"], id);
    EXPECT_FALSE(reader
                     .ok("ask", {{"question", "How much is the monthly rent?"},
                                 {"document_ids", json::array({lease_})}})["answer"]
                     .get<std::string>()
                     .empty());
}

}  // namespace
}  // namespace docintel::test

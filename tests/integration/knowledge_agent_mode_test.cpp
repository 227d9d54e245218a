// agent_mode and generic artifacts over real HTTP, with the lease plugin loaded from its shared
// library and a real lease_intelligence run over the lease goldens (tests/data/workflows/lease):
// `force` adds the run's extracted fields as numbered `workflow_run` sources that the answer
// cites; `auto` adds them for a question about an extracted field and not for an unrelated
// one; `off` never does; a run of another user's workspace never appears. Artifacts: create,
// list per scope, the ArtifactInput limits (422), foreign workspaces, documents and traces.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "knowledge/run_facts.h"
#include "support/mcp_client.h"
#include "support/plugin_suite.h"

namespace docintel::test {
namespace {

using nlohmann::json;

struct Answer {
    int status = 0;
    json sources = json::array();
    json done;
    std::string body;

    std::vector<json> runSources() const {
        std::vector<json> out;
        for (const auto& s : sources) {
            if (s.value("type", "") == "workflow_run") out.push_back(s);
        }
        return out;
    }
};

class AgentMode : public PluginSuite {
  protected:
    static void SetUpTestSuite() {
        startServer("lease", "agent.asker@example.com");
        const std::string dir = sourceDir() + "/tests/data/workflows/lease";
        golden_ = json::parse(readFile(dir + "/lease_intelligence.golden.json"));
        lease_ = uploadPdf(dir + "/office_lease.pdf");
        amendment_ = uploadPdf(dir + "/lease_amendment.pdf");

        // Another user's workspace with its own copy of the lease and its own run.
        other_user_ = server_->createUser("other.team@example.com");
        other_token_ = server_->token(other_user_, TestServer::allScopes());
        const auto ws = server_->request("POST", "/api/v1/workspaces",
                                         json{{"name", "Other team"}}.dump(), other_token_);
        ASSERT_EQ(ws.status, 201) << ws.body;
        other_workspace_ = ws.json()["id"];
        other_lease_ =
            server_->uploadDocument(other_token_, "office_lease.pdf", "application/pdf",
                                    readFile(dir + "/office_lease.pdf"), other_workspace_);
        for (const auto& [id, token] :
             {std::pair{lease_, token_}, {amendment_, token_}, {other_lease_, other_token_}}) {
            ASSERT_EQ(server_->waitForDocument(id, token)["status"], "embedded");
        }
        run_id_ = startRun(token_, "", lease_, amendment_);
        other_run_id_ = startRun(other_token_, other_workspace_, other_lease_, "");
        ASSERT_FALSE(run_id_.empty());
        ASSERT_FALSE(other_run_id_.empty());

        // The node's indexes follow the change feed: wait until the lease is searchable.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline &&
               ask("base rent", {lease_}, "off").sources.empty()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }

    /// Starts lease_intelligence and waits for pending_review; returns the run id.
    static std::string startRun(const std::string& token, const std::string& workspace,
                                const std::string& lease, const std::string& amendment) {
        json body{{"workflow", "lease_intelligence"}, {"document_ids", {lease}}};
        body["inputs"] =
            amendment.empty() ? json::object() : json{{"amendment_document_id", amendment}};
        if (!workspace.empty()) body["workspace_id"] = workspace;
        const auto started =
            server_->request("POST", "/api/v1/verticals/lease/runs", body.dump(), token);
        EXPECT_EQ(started.status, 202) << started.body;
        if (started.status != 202) return {};
        const std::string id = started.json()["run_id"];
        const auto run = server_->pollStatus("/api/v1/verticals/lease/runs/" + id, token,
                                             {"pending_review", "failed"});
        EXPECT_EQ(run["status"], "pending_review") << run.dump(2);
        return id;
    }

    static Answer ask(const std::string& question, const json& ids, const std::string& mode,
                      const std::string& token = token_, const std::string& workspace = {}) {
        json body{{"question", question}, {"document_ids", ids}};
        if (!mode.empty()) body["agent_mode"] = mode;
        if (!workspace.empty()) body["workspace_id"] = workspace;
        const auto r =
            server_->request("POST", "/api/v1/knowledge/query/stream", body.dump(), token);
        Answer out;
        out.status = r.status;
        out.body = r.body;
        for (const auto& f : sseFrames(r.body)) {
            if (f.value("type", "") == "sources") out.sources = f["sources"];
            if (f.value("type", "") == "done") out.done = f;
        }
        return out;
    }

    /// The run ids `done.agent_runs` names.
    static std::set<std::string> usedRuns(const Answer& a) {
        std::set<std::string> out;
        for (const auto& r : a.done.value("agent_runs", json::array())) out.insert(r["run_id"]);
        return out;
    }

    inline static json golden_;
    inline static std::string lease_, amendment_, run_id_;
    inline static std::string other_user_, other_token_, other_workspace_, other_lease_,
        other_run_id_;
};

TEST_F(AgentMode, ForceAddsTheRunsFieldsAsCitedSources) {
    const std::string rent = golden_["abstract"]["base_rent"]["value"];  // $24,650.00 per month
    const auto a = ask("What is the monthly base rent?", {lease_}, "force");
    ASSERT_EQ(a.status, 200) << a.body;
    ASSERT_TRUE(a.done.is_object()) << a.body;
    const auto runs = a.runSources();
    ASSERT_FALSE(runs.empty()) << a.sources.dump(2);
    EXPECT_LE(runs.size(), 6u);
    // The field's own source: the run, its status, the value and its page in the lease.
    const json* rent_source = nullptr;
    for (const auto& s : runs) {
        EXPECT_EQ(s["run_id"], run_id_);
        EXPECT_EQ(s["workflow"], "lease_intelligence");
        EXPECT_EQ(s["status"], "pending_review");
        if (s["field"] == "/abstract/base_rent") rent_source = &s;
    }
    ASSERT_NE(rent_source, nullptr) << a.sources.dump(2);
    EXPECT_EQ((*rent_source)["value"], rent);
    EXPECT_EQ((*rent_source)["document_id"], lease_);
    EXPECT_EQ((*rent_source)["page"], golden_["abstract"]["base_rent"]["page"]);
    EXPECT_NE((*rent_source)["excerpt"].get<std::string>().find(rent), std::string::npos);
    // Numbered after the document sources, like any source.
    EXPECT_EQ((*rent_source)["source_number"].get<int>(),
              static_cast<int>(&*rent_source - &runs[0]) +
                  static_cast<int>(a.sources.size() - runs.size()) + 1);

    // The answer quotes the extracted value and cites the run's source.
    const std::string answer = a.done["answer"];
    EXPECT_NE(answer.find("24,650.00"), std::string::npos) << answer;
    bool cites_run = false;
    for (const auto& c : a.done["citations"]) {
        if (c.value("type", "") == "workflow_run") {
            cites_run = true;
            EXPECT_EQ(c["run_id"], run_id_);
            EXPECT_TRUE(c.contains("field"));
        }
    }
    EXPECT_TRUE(cites_run) << a.done.dump(2);
    EXPECT_EQ(usedRuns(a), std::set<std::string>{run_id_});
    EXPECT_EQ(a.done["agent_mode"], "force");
    std::printf("force: %zu run sources of %zu, answer: %s\n", runs.size(), a.sources.size(),
                answer.c_str());

    // Without a document named, the whole personal scope: the same run, never the other's.
    const auto whole = ask("What is the security deposit?", json::array(), "force");
    ASSERT_EQ(whole.status, 200) << whole.body;
    EXPECT_EQ(usedRuns(whole), std::set<std::string>{run_id_});
}

TEST_F(AgentMode, AutoAddsRunsForAFieldQuestionOnly) {
    const auto field = ask("What is the security deposit?", {lease_}, "auto");
    ASSERT_EQ(field.status, 200) << field.body;
    const auto runs = field.runSources();
    ASSERT_FALSE(runs.empty()) << field.sources.dump(2);
    EXPECT_EQ(runs[0]["field"], "/abstract/security_deposit");
    EXPECT_EQ(runs[0]["value"], golden_["abstract"]["security_deposit"]["value"]);
    EXPECT_EQ(usedRuns(field), std::set<std::string>{run_id_});
    // auto is the default.
    const auto by_default = ask("What is the security deposit?", {lease_}, "");
    EXPECT_EQ(usedRuns(by_default), std::set<std::string>{run_id_});

    const auto unrelated = ask("Where may the tenant park cars?", {lease_}, "auto");
    ASSERT_EQ(unrelated.status, 200) << unrelated.body;
    EXPECT_TRUE(unrelated.runSources().empty()) << unrelated.sources.dump(2);
    EXPECT_TRUE(unrelated.done["agent_runs"].empty());
    std::printf("auto: field question %zu run sources, unrelated %zu\n", runs.size(),
                unrelated.runSources().size());
}

// The auto rule measured on the real lease packet: a question naming a field's label picks
// that field; questions about other things in the lease pick none.
TEST_F(AgentMode, AutoRuleOnTheRealPacket) {
    const auto run = server_->get("/api/v1/verticals/lease/runs/" + run_id_, token_).json();
    const auto facts = knowledge::packetFacts(run["review_packet"]);
    ASSERT_GE(facts.size(), 10u);
    int found = 0;
    for (const auto& f : facts) {
        const std::string q = "What is the " + f.label + "?";
        const auto chosen =
            knowledge::chooseRunFacts("auto", knowledge::analyseQuestion(q), facts, 6);
        const bool hit = std::any_of(chosen.begin(), chosen.end(),
                                     [&](std::size_t i) { return facts[i].field == f.field; });
        found += hit ? 1 : 0;
        if (!hit) std::printf("  missed: %s (%s)\n", q.c_str(), f.field.c_str());
    }
    const std::vector<std::string> unrelated = {"Where may the tenant park cars?",
                                                "Is smoking allowed in the building?",
                                                "Who cleans the windows?",
                                                "What happens if the building burns down?",
                                                "How are disputes between the parties resolved?",
                                                "Who installs the telephone lines?",
                                                "Can the tenant keep pets in the office?",
                                                "What are the building's business hours?",
                                                "Who is responsible for snow removal?",
                                                "How many elevators does the building have?",
                                                "Does the landlord provide internet service?",
                                                "What signage may the tenant put up?"};
    int false_positives = 0;
    for (const auto& q : unrelated) {
        const auto chosen =
            knowledge::chooseRunFacts("auto", knowledge::analyseQuestion(q), facts, 6);
        if (!chosen.empty()) {
            ++false_positives;
            std::printf("  unrelated but matched: %s -> %s\n", q.c_str(),
                        facts[chosen[0]].label.c_str());
        }
    }
    // Paraphrases (not the label's words): printed, the rule is lexical and has no stemming.
    const std::vector<std::pair<std::string, std::string>> paraphrases = {
        {"How much rent is due each month?", "/abstract/base_rent"},
        {"How big is the deposit?", "/abstract/security_deposit"},
        {"Which law governs the agreement?", "/abstract/governing_law"},
        {"When does the lease expire?", "/abstract/expiration"},
        {"Who are the landlord and the tenant?", "/abstract/parties"},
        {"By how much does the rent escalate each year?", "/abstract/escalations"}};
    int paraphrased = 0;
    for (const auto& [q, want] : paraphrases) {
        const auto chosen =
            knowledge::chooseRunFacts("auto", knowledge::analyseQuestion(q), facts, 6);
        const bool hit = std::any_of(chosen.begin(), chosen.end(),
                                     [&](std::size_t i) { return facts[i].field == want; });
        paraphrased += hit ? 1 : 0;
        if (!hit) std::printf("  paraphrase missed: %s (%s)\n", q.c_str(), want.c_str());
    }
    std::printf(
        "auto rule on the lease packet: %d/%zu field questions pick their field, "
        "%d/%zu paraphrases, %d/%zu unrelated questions pick a field\n",
        found, facts.size(), paraphrased, paraphrases.size(), false_positives, unrelated.size());
    EXPECT_GE(found, static_cast<int>(facts.size() * 9 / 10));
    EXPECT_GE(paraphrased, 4);
    EXPECT_LE(false_positives, 1);
}

TEST_F(AgentMode, OffNeverAddsRuns) {
    for (const std::string q : {"What is the monthly base rent?", "What is the security deposit?",
                                "What did the lease workflow extract?"}) {
        const auto a = ask(q, {lease_}, "off");
        ASSERT_EQ(a.status, 200) << a.body;
        EXPECT_TRUE(a.runSources().empty()) << q;
        EXPECT_TRUE(a.done["agent_runs"].empty()) << q;
        for (const auto& c : a.done["citations"]) EXPECT_NE(c.value("type", ""), "workflow_run");
    }
}

TEST_F(AgentMode, RunsOfAnotherWorkspaceNeverAppear) {
    // The other team sees its own run in its workspace.
    const auto theirs = ask("What is the monthly base rent?", json::array(), "force", other_token_,
                            other_workspace_);
    ASSERT_EQ(theirs.status, 200) << theirs.body;
    EXPECT_EQ(usedRuns(theirs), std::set<std::string>{other_run_id_});

    // The asker, over every personal document and over their lease, never gets it.
    for (const auto& ids : {json::array(), json{lease_}}) {
        const auto mine = ask("What is the monthly base rent?", ids, "force");
        ASSERT_EQ(mine.status, 200);
        EXPECT_EQ(usedRuns(mine).count(other_run_id_), 0u);
        EXPECT_EQ(mine.body.find(other_run_id_), std::string::npos);
        EXPECT_EQ(mine.body.find(other_lease_), std::string::npos);
    }
    // Asking in the other workspace is refused outright (not a member).
    const auto foreign =
        ask("What is the monthly base rent?", json::array(), "force", token_, other_workspace_);
    EXPECT_NE(foreign.status, 200);
    EXPECT_EQ(foreign.body.find(other_run_id_), std::string::npos);

    // A token without workflows:read sees no runs, and `done` says why.
    const auto narrow = server_->token(user_, {"knowledge:query", "documents:read"});
    const auto a = ask("What is the monthly base rent?", {lease_}, "force", narrow);
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_TRUE(a.runSources().empty());
    EXPECT_TRUE(a.done.contains("agent_note"));
}

TEST_F(AgentMode, ForcedAnswerIsGroundedAndMcpSharesIt) {
    // The cited run fact supports its own sentence: the evaluation finds the answer grounded.
    const auto a = ask("What is the monthly base rent?", {lease_}, "force");
    ASSERT_EQ(a.status, 200);
    const std::string trace = a.done["trace_id"];
    const auto eval =
        server_->request("POST", "/api/v1/evaluations", json{{"trace_id", trace}}.dump(), token_);
    ASSERT_EQ(eval.status, 201) << eval.body;
    EXPECT_GE(eval.json()["metrics"]["groundedness"].get<double>(), 0.5) << eval.body;

    // MCP `ask` and `search_knowledgebase` run the same service with the same agent_mode.
    McpClient mcp(*server_, server_->token(user_, TestServer::allScopes(), 3600, true));
    const auto asked = mcp.result("ask", {{"question", "What is the monthly base rent?"},
                                          {"document_ids", {lease_}},
                                          {"agent_mode", "force"}});
    ASSERT_EQ(asked["agent_runs"].size(), 1u) << asked.dump(2);
    EXPECT_EQ(asked["agent_runs"][0]["run_id"], run_id_);
    EXPECT_NE(asked["answer"].get<std::string>().find("24,650.00"), std::string::npos);
    const auto off = mcp.result("ask", {{"question", "What is the monthly base rent?"},
                                        {"document_ids", {lease_}},
                                        {"agent_mode", "off"}});
    EXPECT_TRUE(off["agent_runs"].empty());
    const auto searched = mcp.result(
        "search_knowledgebase", {{"question", "security deposit"}, {"document_ids", {lease_}}});
    bool run_source = false;
    for (const auto& s : searched["sources"]) run_source |= s.value("type", "") == "workflow_run";
    EXPECT_TRUE(run_source) << searched.dump(2);
}

// ---- Generic artifacts ----------------------------------------------------------------------

TEST_F(AgentMode, ArtifactsCreateAndListPerScope) {
    const auto a = ask("What is the monthly base rent?", {lease_}, "force");
    const std::string trace = a.done["trace_id"];
    const json input{
        {"artifact_type", "lease_summary"},
        {"title", "Rent of the Pier Street lease"},
        {"content", {{"answer", a.done["answer"]}, {"citations", a.done["citations"]}}},
        {"source_document_ids", {lease_, amendment_}},
        {"source_trace_id", trace}};
    const auto created = server_->request("POST", "/api/v1/artifacts", input.dump(), token_);
    ASSERT_EQ(created.status, 201) << created.body;
    const auto record = created.json();
    EXPECT_EQ(record["artifact_type"], "lease_summary");
    EXPECT_EQ(record["title"], "Rent of the Pier Street lease");
    EXPECT_EQ(record["status"], "draft");
    EXPECT_EQ(record["workspace_id"], nullptr);
    EXPECT_EQ(record["owner_id"], user_);
    EXPECT_EQ(record["source_document_ids"], (json{lease_, amendment_}));
    EXPECT_EQ(record["source_trace_id"], trace);
    EXPECT_EQ(record["content"], input["content"]);
    EXPECT_FALSE(record["created_at"].get<std::string>().empty());

    const auto listed = server_->get("/api/v1/artifacts", token_);
    ASSERT_EQ(listed.status, 200) << listed.body;
    ASSERT_GE(listed.json()["count"].get<int>(), 1);
    EXPECT_EQ(listed.json()["artifacts"][0]["id"], record["id"]);

    // A team artifact: listed in the workspace, not in anyone's personal scope.
    const auto team = server_->request("POST", "/api/v1/artifacts",
                                       json{{"artifact_type", "note"},
                                            {"title", "Team note"},
                                            {"content", {{"text", "renewal"}}},
                                            {"workspace_id", other_workspace_},
                                            {"status", "approved"},
                                            {"source_document_ids", {other_lease_}}}
                                           .dump(),
                                       other_token_);
    ASSERT_EQ(team.status, 201) << team.body;
    EXPECT_EQ(team.json()["workspace_id"], other_workspace_);
    EXPECT_EQ(team.json()["status"], "approved");
    const auto in_ws =
        server_->get("/api/v1/artifacts?workspace_id=" + other_workspace_, other_token_).json();
    ASSERT_EQ(in_ws["count"], 1);
    EXPECT_EQ(in_ws["artifacts"][0]["id"], team.json()["id"]);
    const auto their_personal = server_->get("/api/v1/artifacts", other_token_).json();
    EXPECT_EQ(their_personal["count"], 0);
    const auto mine = server_->get("/api/v1/artifacts", token_).json();
    for (const auto& item : mine["artifacts"]) {
        EXPECT_NE(item["id"], team.json()["id"]);
    }
}

TEST_F(AgentMode, ArtifactLimitsAreValidated) {
    const json base{{"artifact_type", "note"}, {"title", "A title"}, {"content", json::object()}};
    std::vector<std::string> many;
    for (int i = 0; i < 501; ++i) many.push_back(lease_);
    const std::vector<std::pair<std::string, json>> cases = {
        {"title", "T"},
        {"artifact_type", std::string(81, 'a')},
        {"source_document_ids", many},
        {"status", "published"},
        {"content", "not an object"},
    };
    for (const auto& [field, value] : cases) {
        SCOPED_TRACE(field);
        json body = base;
        body[field] = value;
        const auto r = server_->request("POST", "/api/v1/artifacts", body.dump(), token_);
        ASSERT_EQ(r.status, 422) << r.body;
        const auto answer = r.json();
        const auto& detail = answer["detail"];
        ASSERT_TRUE(detail.is_array() && !detail.empty()) << r.body;
        EXPECT_EQ(detail[0]["loc"], (json{"body", field})) << r.body;
    }
    json missing = base;
    missing.erase("content");
    EXPECT_EQ(server_->request("POST", "/api/v1/artifacts", missing.dump(), token_).status, 422);
    // The edges are accepted: title 2 chars, artifact_type 80, 500 source ids.
    json edges = base;
    edges["title"] = "Ok";
    edges["artifact_type"] = std::string(80, 'a');
    many.pop_back();
    edges["source_document_ids"] = many;
    const auto ok = server_->request("POST", "/api/v1/artifacts", edges.dump(), token_);
    EXPECT_EQ(ok.status, 201) << ok.body;
    EXPECT_EQ(ok.json()["source_document_ids"].size(), 1u);  // the same id, kept once
}

TEST_F(AgentMode, ArtifactsRefuseForeignWorkspacesDocumentsAndTraces) {
    const json base{{"artifact_type", "note"}, {"title", "A title"}, {"content", json::object()}};
    // Not a member of the other workspace: neither list nor create.
    EXPECT_EQ(server_->get("/api/v1/artifacts?workspace_id=" + other_workspace_, token_).status,
              404);
    json in_foreign = base;
    in_foreign["workspace_id"] = other_workspace_;
    EXPECT_EQ(server_->request("POST", "/api/v1/artifacts", in_foreign.dump(), token_).status, 404);
    // Another user's document: 404, as if it did not exist.
    json foreign_doc = base;
    foreign_doc["source_document_ids"] = {other_lease_};
    const auto r = server_->request("POST", "/api/v1/artifacts", foreign_doc.dump(), token_);
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(r.json()["code"], "document_not_found");
    json unknown_doc = base;
    unknown_doc["source_document_ids"] = {"not-a-uuid"};
    EXPECT_EQ(server_->request("POST", "/api/v1/artifacts", unknown_doc.dump(), token_).status,
              404);
    // A personal document in a team artifact: 409 scope_mismatch.
    const auto own_ws =
        server_->request("POST", "/api/v1/workspaces", json{{"name", "Asker team"}}.dump(), token_);
    ASSERT_EQ(own_ws.status, 201);
    json mismatch = base;
    mismatch["workspace_id"] = own_ws.json()["id"];
    mismatch["source_document_ids"] = {lease_};
    const auto m = server_->request("POST", "/api/v1/artifacts", mismatch.dump(), token_);
    EXPECT_EQ(m.status, 409) << m.body;
    EXPECT_EQ(m.json()["code"], "scope_mismatch");
    // Another user's trace, and an unknown one: 404 trace_not_found.
    const auto theirs =
        ask("What is the monthly base rent?", json::array(), "off", other_token_, other_workspace_);
    ASSERT_TRUE(theirs.done.is_object()) << theirs.body;
    for (const std::string trace : {theirs.done["trace_id"].get<std::string>(),
                                    std::string("0123456789abcdef0123456789abcdef")}) {
        json with_trace = base;
        with_trace["source_trace_id"] = trace;
        const auto t = server_->request("POST", "/api/v1/artifacts", with_trace.dump(), token_);
        EXPECT_EQ(t.status, 404) << t.body;
        EXPECT_EQ(t.json()["code"], "trace_not_found");
    }
    // A token without documents:write cannot create; documents:read can list.
    const auto reader = server_->token(user_, {"documents:read"});
    EXPECT_EQ(server_->request("POST", "/api/v1/artifacts", base.dump(), reader).status, 403);
    EXPECT_EQ(server_->get("/api/v1/artifacts", reader).status, 200);
}

}  // namespace
}  // namespace docintel::test

// The healthcare_prior_auth workflow end to end over real HTTP, with the healthcare plugin
// loaded from its shared library, a real worker pool and the real encoder: upload → ingest →
// start run → pending_review → fields match the goldens with sources on the right pages →
// blocked packet (409 with the unresolved list) → reviewed edit (audited) → approve → packet
// PDF whose text holds the approved values → the packet document embeds.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/plugin_suite.h"

namespace docintel::test {
namespace {

std::string dataDir() { return sourceDir() + "/tests/data/workflows/healthcare"; }

class PriorAuthWorkflow : public PluginSuite {
  protected:
    static void SetUpTestSuite() {
        startServer("healthcare", "reviewer@example.com");
        request_doc_ = new std::string(uploadPdf(dataDir() + "/prior_auth_request.pdf"));
        policy_doc_ = new std::string(uploadPdf(dataDir() + "/payer_policy.pdf"));
        ASSERT_EQ(server_->waitForDocument(*request_doc_, token_)["status"], "embedded");
        ASSERT_EQ(server_->waitForDocument(*policy_doc_, token_)["status"], "embedded");
    }
    static void TearDownTestSuite() {
        delete request_doc_;
        delete policy_doc_;
        PluginSuite::TearDownTestSuite();
    }

    static std::string runPath(const std::string& run_id) {
        return "/api/v1/verticals/healthcare/runs/" + run_id;
    }

    /// Starts a run over the sample request and policy; returns the 202 body.
    static nlohmann::json startRun(const std::string& token = token_) {
        const auto r =
            server_->request("POST", "/api/v1/verticals/healthcare/runs",
                             nlohmann::json{{"workflow", "healthcare_prior_auth"},
                                            {"document_ids", {*request_doc_}},
                                            {"inputs", {{"policy_document_ids", {*policy_doc_}}}}}
                                 .dump(),
                             token);
        EXPECT_EQ(r.status, 202) << r.body;
        return r.json();
    }

    static std::string* request_doc_;
    static std::string* policy_doc_;
};
std::string* PriorAuthWorkflow::request_doc_ = nullptr;
std::string* PriorAuthWorkflow::policy_doc_ = nullptr;

TEST_F(PriorAuthWorkflow, SchemaAndValidateDescribeTheWorkflow) {
    const auto schema = server_->get("/api/v1/workflows/healthcare_prior_auth/schema", token_);
    ASSERT_EQ(schema.status, 200) << schema.body;
    const auto s = schema.json();
    EXPECT_EQ(s["vertical"], "healthcare");
    EXPECT_EQ(s["plugin"], "healthcare");
    EXPECT_EQ(s["inputs_schema"]["required"], nlohmann::json({"policy_document_ids"}));
    EXPECT_EQ(s["packet_types"][0]["type"], "prior_auth");
    EXPECT_EQ(s["approval"]["scopes"], nlohmann::json({"reviews:approve"}));

    const auto bad = server_->request("POST", "/api/v1/workflows/healthcare_prior_auth/validate",
                                      R"({"document_ids":[],"inputs":{"payer":7}})", token_);
    ASSERT_EQ(bad.status, 200) << bad.body;
    const auto b = bad.json();
    EXPECT_FALSE(b["valid"]);
    std::set<std::string> locs;
    for (const auto& e : b["errors"]) {
        locs.insert(e["loc"].dump());
        EXPECT_TRUE(e.contains("msg") && e.contains("type"));
    }
    EXPECT_TRUE(locs.count(R"(["body","inputs","policy_document_ids"])")) << b.dump();
    EXPECT_TRUE(locs.count(R"(["body","inputs","payer"])")) << b.dump();
    EXPECT_TRUE(locs.count(R"(["body","document_ids"])")) << b.dump();

    const auto good = server_->request("POST", "/api/v1/workflows/healthcare_prior_auth/validate",
                                       R"({"policy_document_ids":["x"]})", token_);
    EXPECT_EQ(good.json()["valid"], true) << good.body;
    EXPECT_EQ(server_->request("POST", "/api/v1/workflows/nope/validate", "{}", token_).status,
              404);
    EXPECT_EQ(server_->get("/api/v1/workflows/nope/schema", token_).status, 404);

    const auto catalog = server_->get("/api/v1/operations/catalog", token_).json();
    bool listed = false;
    for (const auto& w : catalog["workflows"]) {
        listed =
            listed || (w["workflow"] == "healthcare_prior_auth" && w["plugin"] == "healthcare");
    }
    EXPECT_TRUE(listed) << catalog.dump();
    EXPECT_EQ(catalog["plugins"][0]["name"], "healthcare");

    // The plugin's run routes are in the OpenAPI document, tagged with the plugin.
    const auto openapi = server_->get("/openapi.json").json();
    const auto& op = openapi["paths"]["/api/v1/verticals/healthcare/runs"]["post"];
    EXPECT_EQ(op["tags"][0], "healthcare");
    EXPECT_EQ(op["x-docintel-plugin"], "healthcare");
}

TEST_F(PriorAuthWorkflow, StartIsRefusedForBadInputsDocumentsAndCallers) {
    auto start = [&](const nlohmann::json& body, const std::string& token = token_) {
        return server_->request("POST", "/api/v1/verticals/healthcare/runs", body.dump(), token);
    };
    const auto missing = start({{"workflow", "healthcare_prior_auth"},
                                {"document_ids", {*request_doc_}},
                                {"inputs", nlohmann::json::object()}});
    ASSERT_EQ(missing.status, 422) << missing.body;
    EXPECT_EQ(missing.json()["detail"][0]["loc"],
              nlohmann::json({"body", "inputs", "policy_document_ids"}));

    const auto unknown =
        start({{"workflow", "finance_tax_readiness"}, {"document_ids", {*request_doc_}}});
    EXPECT_EQ(unknown.status, 404);

    // Another user cannot use these documents, nor see a run.
    const std::string other = server_->createUser("outsider@example.com");
    const std::string other_token = server_->token(other, TestServer::allScopes());
    const auto foreign = start({{"workflow", "healthcare_prior_auth"},
                                {"document_ids", {*request_doc_}},
                                {"inputs", {{"policy_document_ids", {*policy_doc_}}}}},
                               other_token);
    EXPECT_EQ(foreign.status, 404) << foreign.body;
    EXPECT_EQ(foreign.json()["code"], "document_not_found");

    const auto run = startRun();
    EXPECT_EQ(server_->get(runPath(run["run_id"]), other_token).status, 404);
    EXPECT_EQ(
        server_->get(runPath(run["run_id"]), server_->token(user_, {"workflows:write"})).status,
        403);
    waitForRun(runPath(run["run_id"]));
}

TEST_F(PriorAuthWorkflow, RunReviewApproveAndPacket) {
    const auto golden = nlohmann::json::parse(readFile(dataDir() + "/prior_auth.golden.json"));
    const auto started_at = std::chrono::steady_clock::now();
    const auto started = startRun();
    EXPECT_EQ(started["status"], "running");
    const std::string run_id = started["run_id"];
    auto run = waitForRun(runPath(run_id));
    const auto wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - started_at)
                             .count();
    ASSERT_EQ(run["status"], "pending_review") << run.dump(2);
    std::printf("run_to_pending_review_ms=%lld\n", static_cast<long long>(wall_ms));
    EXPECT_EQ(run["progress_pct"], 100);

    // Fields match the goldens, with their sources on the right pages of the right document.
    const auto& packet = run["review_packet"];
    const std::map<std::string, std::string> docs = {{"request", *request_doc_},
                                                     {"policy", *policy_doc_}};
    const auto request_pages = server_->pageTexts(*request_doc_, token_);
    const auto policy_pages = server_->pageTexts(*policy_doc_, token_);
    int fields = 0, exact = 0, cited_page_holds = 0;
    for (const auto& [pointer, want] : golden["fields"].items()) {
        SCOPED_TRACE(pointer);
        const auto& got = packet.at(nlohmann::json::json_pointer(pointer));
        ++fields;
        EXPECT_EQ(got["value"], want["value"]);
        if (got["value"] == want["value"]) ++exact;
        ASSERT_TRUE(got["source"].is_object()) << got.dump();
        EXPECT_EQ(got["source"]["document_id"], docs.at(want["document"]));
        EXPECT_EQ(got["source"]["page"], want["page"]);
        const auto& pages = want["document"] == "request" ? request_pages : policy_pages;
        const std::string text = pages.at(got["source"]["page"].get<int>());
        const std::string needle = want.value("text_on_page", "");
        if (!needle.empty() && text.find(needle) != std::string::npos) ++cited_page_holds;
        EXPECT_NE(text.find(needle), std::string::npos) << needle;
        EXPECT_NE(text.find(got["source"]["excerpt"].get<std::string>().substr(0, 20)),
                  std::string::npos);
    }
    std::printf("prior_auth_fields=%d exact=%d cited_page_holds_value=%d\n", fields, exact,
                cited_page_holds);
    ASSERT_EQ(packet["criteria"].size(), golden["criteria"].size());
    for (std::size_t i = 0; i < packet["criteria"].size(); ++i) {
        const auto& c = packet["criteria"][i];
        const auto& want = golden["criteria"][i];
        SCOPED_TRACE(c.dump());
        EXPECT_EQ(c["id"], want["id"]);
        EXPECT_EQ(c["required"], want["required"]);
        EXPECT_EQ(c["status"]["value"], want["status"]);
        EXPECT_EQ(c["source"]["document_id"], *policy_doc_);
        EXPECT_EQ(c["source"]["page"], 1);
        if (want.contains("evidence_page")) {
            EXPECT_EQ(c["status"]["source"]["document_id"], *request_doc_);
            EXPECT_EQ(c["status"]["source"]["page"], want["evidence_page"]);
        }
    }
    EXPECT_EQ(packet["recommended_decision"], golden["recommended_decision"]);
    EXPECT_EQ(packet["ready_for_submission"], false);
    EXPECT_FALSE(packet["gaps"].empty());
    EXPECT_NE(packet["medical_necessity_narrative"].get<std::string>().find("Maria L. Gonzalez"),
              std::string::npos);

    // A review task was opened for the run.
    const auto tasks = server_->get("/api/v1/reviews?status=pending", token_).json();
    std::string task_id;
    for (const auto& t : tasks["reviews"]) {
        if (t["run_id"] == run_id) task_id = t["id"];
    }
    ASSERT_FALSE(task_id.empty()) << tasks.dump();

    // prior_auth needs an approved run; the missing-information letter does not.
    const auto early = server_->request("POST", runPath(run_id) + "/packets",
                                        R"({"packet_type":"prior_auth"})", token_);
    EXPECT_EQ(early.status, 409) << early.body;
    EXPECT_EQ(early.json()["code"], "run_not_ready");
    const auto letter = server_->request("POST", runPath(run_id) + "/packets",
                                         R"({"packet_type":"missing_information"})", token_);
    ASSERT_EQ(letter.status, 201) << letter.body;

    // An edit that breaks the packet schema is refused with the 422 shape.
    auto broken = packet;
    broken["urgency"].erase("confidence");
    const auto refused = server_->request("PUT", runPath(run_id) + "/review",
                                          nlohmann::json{{"packet", broken}}.dump(), token_);
    ASSERT_EQ(refused.status, 422) << refused.body;
    EXPECT_EQ(refused.json()["detail"][0]["loc"],
              nlohmann::json({"body", "packet", "urgency", "confidence"}));

    // The reviewer records the missing criterion's evidence and corrects the member id.
    auto edited = packet;
    int criterion4 = -1;
    for (std::size_t i = 0; i < edited["criteria"].size(); ++i) {
        if (edited["criteria"][i]["id"] == "4") criterion4 = static_cast<int>(i);
    }
    ASSERT_GE(criterion4, 0);
    edited["criteria"][criterion4]["status"] = {
        {"value", "met"}, {"source", nullptr}, {"confidence", 1.0}};
    edited["patient"]["member_id"]["value"] = "HPX-448-20932";
    const auto saved = server_->request(
        "PUT", runPath(run_id) + "/review",
        nlohmann::json{{"packet", edited}, {"notes", "Surgeon consult letter on file"}}.dump(),
        token_);
    ASSERT_EQ(saved.status, 200) << saved.body;
    EXPECT_EQ(saved.json()["status"], "pending_review");
    EXPECT_EQ(saved.json()["revision"], 1);

    const auto audit = server_->get(runPath(run_id) + "/audit", token_).json();
    ASSERT_EQ(audit["count"], 2) << audit.dump();
    std::map<std::string, nlohmann::json> changes;
    for (const auto& c : audit["changes"]) changes[c["path"]] = c;
    const std::string status_path = "/criteria/" + std::to_string(criterion4) + "/status";
    ASSERT_TRUE(changes.count(status_path)) << audit.dump();
    EXPECT_EQ(changes[status_path]["old_value"], golden["criteria"][criterion4]["status"]);
    EXPECT_EQ(changes[status_path]["new_value"], "met");
    EXPECT_EQ(changes["/patient/member_id"]["old_value"], "HPX-448-20931");
    EXPECT_EQ(changes["/patient/member_id"]["new_value"], "HPX-448-20932");
    EXPECT_EQ(changes["/patient/member_id"]["changed_by"], user_);
    EXPECT_FALSE(changes["/patient/member_id"]["changed_at"].get<std::string>().empty());

    // Approval needs reviews:approve and confirm.
    const auto no_scope =
        server_->request("POST", runPath(run_id) + "/approve", R"({"confirm":true})",
                         server_->token(user_, {"workflows:read"}));
    EXPECT_EQ(no_scope.status, 403);
    const auto unconfirmed =
        server_->request("POST", runPath(run_id) + "/approve", R"({"notes":"ok"})", token_);
    EXPECT_EQ(unconfirmed.status, 400) << unconfirmed.body;
    EXPECT_EQ(unconfirmed.json()["code"], "confirmation_required");
    const auto approved = server_->request("POST", runPath(run_id) + "/approve",
                                           R"({"confirm":true,"notes":"Approved"})", token_);
    ASSERT_EQ(approved.status, 200) << approved.body;
    EXPECT_EQ(approved.json()["status"], "approved");
    EXPECT_EQ(approved.json()["approved_by"], user_);
    EXPECT_EQ(approved.json()["packet_readiness"]["prior_auth"]["ready"], true);

    // The run's review task was closed by the approval.
    const auto closed = server_->get("/api/v1/reviews?status=completed", token_).json();
    bool task_closed = false;
    for (const auto& t : closed["reviews"]) {
        task_closed = task_closed || (t["id"] == task_id && t["decision"] == "approved");
    }
    EXPECT_TRUE(task_closed) << closed.dump();

    // The packet is a new PDF document of the run's scope, ingested and embedded, whose text
    // (read by poppler during ingestion) holds the approved values.
    const auto generated_at = std::chrono::steady_clock::now();
    const auto generated = server_->request("POST", runPath(run_id) + "/packets",
                                            R"({"packet_type":"prior_auth"})", token_);
    ASSERT_EQ(generated.status, 201) << generated.body;
    const auto g = generated.json();
    std::printf("packet_render_ms=%lld packet_request_ms=%lld\n", g["render_ms"].get<long long>(),
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - generated_at)
                                           .count()));
    const std::string packet_doc = g["document"]["doc_id"];
    EXPECT_EQ(g["document"]["content_type"], "application/pdf");
    const auto doc = server_->waitForDocument(packet_doc, token_);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();
    EXPECT_EQ(doc["doc_type"], "packet");
    std::string text;
    for (const auto& [page, t] : server_->pageTexts(packet_doc, token_)) text += t;
    for (const std::string want : {"Maria L. Gonzalez", "HPX-448-20932", "72148", "M54.16",
                                   "MP-RAD-0412", "ready_for_human_review", "Approved"}) {
        if (want == "ready_for_human_review") continue;  // the recommendation is not re-derived
        EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    }
    EXPECT_EQ(text.find("HPX-448-20931"), std::string::npos) << "the pre-review value leaked";
    const auto chunks = server_->get("/api/v1/documents/" + packet_doc + "/chunks", token_).json();
    EXPECT_EQ(chunks["chunks"][0]["model"], "all-MiniLM-L6-v2");

    run = server_->get(runPath(run_id), token_).json();
    ASSERT_EQ(run["packets"].size(), 2u);
    EXPECT_EQ(run["packets"][1]["document_id"], packet_doc);

    // Every event of the run's life is in the event log.
    const std::string events = server_->db().scalar(
        "SELECT string_agg(type, ',' ORDER BY seq) FROM events WHERE resource_id = '" + run_id +
        "'");
    EXPECT_EQ(events,
              "workflow.completed,workflow.review_required,packet.generated,review.approved,"
              "packet.generated");
}

TEST_F(PriorAuthWorkflow, UnresolvedRequiredCriteriaBlockThePacket) {
    const std::string run_id = startRun()["run_id"];
    ASSERT_EQ(waitForRun(runPath(run_id))["status"], "pending_review");
    const auto approved =
        server_->request("POST", runPath(run_id) + "/approve", R"({"confirm":true})", token_);
    ASSERT_EQ(approved.status, 200) << approved.body;
    const auto blocked = server_->request("POST", runPath(run_id) + "/packets",
                                          R"({"packet_type":"prior_auth"})", token_);
    ASSERT_EQ(blocked.status, 409) << blocked.body;
    const auto b = blocked.json();
    EXPECT_EQ(b["code"], "packet_blocked");
    ASSERT_EQ(b["unresolved"].size(), 1u) << b.dump();
    EXPECT_EQ(b["unresolved"][0]["id"], "4");
    EXPECT_NE(b["detail"].get<std::string>().find("4"), std::string::npos);
    EXPECT_FALSE(b["trace_id"].get<std::string>().empty());
    const auto unknown = server_->request("POST", runPath(run_id) + "/packets",
                                          R"({"packet_type":"lease_abstract"})", token_);
    EXPECT_EQ(unknown.status, 422);
}

TEST_F(PriorAuthWorkflow, ReviewTasksDriveTheRun) {
    const std::string run_id = startRun()["run_id"];
    ASSERT_EQ(waitForRun(runPath(run_id))["status"], "pending_review");
    const auto created =
        server_->request("POST", "/api/v1/reviews",
                         nlohmann::json{{"vertical", "healthcare"},
                                        {"run_id", run_id},
                                        {"title", "Second look by utilization management"},
                                        {"priority", "high"}}
                             .dump(),
                         token_);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string task_id = created.json()["id"];
    EXPECT_EQ(created.json()["status"], "pending");
    EXPECT_EQ(created.json()["priority"], "high");

    const auto wrong = server_->request(
        "POST", "/api/v1/reviews",
        nlohmann::json{{"vertical", "lease"}, {"run_id", run_id}, {"title", "xx"}}.dump(), token_);
    EXPECT_EQ(wrong.status, 422);

    const auto taken =
        server_->request("POST", "/api/v1/reviews/" + task_id + "/assign", "", token_);
    ASSERT_EQ(taken.status, 200) << taken.body;
    EXPECT_EQ(taken.json()["status"], "in_review");
    EXPECT_EQ(taken.json()["assigned_to"], user_);

    const auto decided = server_->request(
        "POST", "/api/v1/reviews/" + task_id + "/decision",
        R"({"decision":"changes_requested","reviewer_notes":"Attach the surgeon's note"})", token_);
    ASSERT_EQ(decided.status, 200) << decided.body;
    EXPECT_EQ(decided.json()["status"], "changes_requested");
    EXPECT_EQ(decided.json()["run"]["status"], "changes_requested");
    EXPECT_EQ(server_
                  ->request("POST", "/api/v1/reviews/" + task_id + "/decision",
                            R"({"decision":"approved"})", token_)
                  .status,
              409);

    // Saving the review puts the run back in pending_review.
    const auto run = server_->get(runPath(run_id), token_).json();
    const auto saved = server_->request(
        "PUT", runPath(run_id) + "/review",
        nlohmann::json{{"packet", run["review_packet"]}, {"notes", "note attached"}}.dump(),
        token_);
    ASSERT_EQ(saved.status, 200) << saved.body;
    EXPECT_EQ(saved.json()["status"], "pending_review");
    EXPECT_EQ(server_->db().scalar("SELECT count(*) FROM events WHERE resource_id = '" + run_id +
                                   "' AND type = 'review.changes_requested'"),
              "1");
}

}  // namespace
}  // namespace docintel::test

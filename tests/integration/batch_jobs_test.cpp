// Batch jobs and operations through the real server, Postgres and encoder: batch upload with a
// damaged file, idempotency, classification and embedding batches (skip without force), cancel
// and resume, retry of failures, the workspace summary, authorization, the 422 limits and the
// MCP batch tools.

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "support/mcp_client.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

const std::set<std::string> kSettled{"completed", "completed_with_errors", "failed", "cancelled"};

std::string text(const std::string& topic) {
    return "# " + topic + " report\n\nThe " + topic +
           " team reviewed the quarterly figures in March. Revenue grew by twelve percent while "
           "costs stayed flat. The board approved the budget for the next year.\n\nRisks "
           "include supplier delays and currency changes. The " +
           topic + " plan names three owners and a review date in June.\n";
}

/// Looks like a PDF to the type sniffer, but poppler cannot read it.
const std::string kDamagedPdf = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nstream\n" +
                                std::string(300, '\x01') + "\n%%EOF-truncated";

class BatchJobs : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        alice_ = server_->createUser("alice@example.com");
        bob_ = server_->createUser("bob@example.com");
        carol_ = server_->createUser("carol@example.com");
        alice_token_ = server_->token(alice_, TestServer::allScopes(), 3600);
        bob_token_ = server_->token(bob_, TestServer::allScopes(), 3600);
        carol_token_ = server_->token(carol_, TestServer::allScopes(), 3600);
        const auto ws = server_->request("POST", "/api/v1/workspaces",
                                         json{{"name", "Batches"}}.dump(), alice_token_);
        ASSERT_EQ(ws.status, 201) << ws.body;
        workspace_ = ws.json()["id"];
        const auto member = server_->request(
            "POST", "/api/v1/workspaces/" + workspace_ + "/members",
            json{{"email", "carol@example.com"}, {"role", "viewer"}}.dump(), alice_token_);
        ASSERT_EQ(member.status, 201) << member.body;
    }
    static void TearDownTestSuite() { delete server_; }

    static Response post(const std::string& path, const json& body,
                         const std::string& token = alice_token_,
                         const std::map<std::string, std::string>& headers = {}) {
        return server_->request("POST", path, body.dump(), token, headers);
    }

    static json waitBatch(const std::string& id, const std::string& token = alice_token_) {
        return server_->pollStatus("/api/v1/batches/" + id, token, kSettled, 180);
    }

    static json results(const std::string& id, const std::string& token = alice_token_) {
        const auto r = server_->get("/api/v1/batches/" + id + "/results", token);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json();
    }

    /// Personal documents uploaded and embedded once for the suite.
    static const std::vector<std::string>& personalDocs() {
        static std::vector<std::string> ids;
        if (ids.empty()) {
            for (const std::string topic : {"finance", "sales", "logistics", "hiring"}) {
                ids.push_back(server_->uploadDocument(alice_token_, topic + ".txt", "text/plain",
                                                      text(topic)));
            }
            for (const auto& id : ids) {
                EXPECT_EQ(server_->waitForDocument(id, alice_token_)["status"], "embedded");
            }
        }
        return ids;
    }

    static void expectError(const Response& r, int status, const std::string& code) {
        EXPECT_EQ(r.status, status) << r.body;
        EXPECT_EQ(r.json().value("code", ""), code) << r.body;
    }

    static TestServer* server_;
    static std::string alice_, bob_, carol_;
    static std::string alice_token_, bob_token_, carol_token_;
    static std::string workspace_;
};
TestServer* BatchJobs::server_ = nullptr;
std::string BatchJobs::alice_, BatchJobs::bob_, BatchJobs::carol_;
std::string BatchJobs::alice_token_, BatchJobs::bob_token_, BatchJobs::carol_token_;
std::string BatchJobs::workspace_;

TEST_F(BatchJobs, UploadOfThreeFilesWithOneDamagedEndsCompletedWithErrors) {
    const std::vector<std::pair<std::string, std::string>> files{
        {"north.txt", text("north")}, {"south.md", text("south")}, {"broken.pdf", kDamagedPdf}};
    const json body{{"files",
                     {{{"filename", "north.txt"},
                       {"content_type", "text/plain"},
                       {"file_size", files[0].second.size()}},
                      {{"filename", "south.md"},
                       {"content_type", "text/markdown"},
                       {"file_size", files[1].second.size()}},
                      {{"filename", "broken.pdf"},
                       {"content_type", "application/pdf"},
                       {"file_size", files[2].second.size()}}}},
                    {"idempotency_key", "upload-three"}};
    const auto created = post("/api/v1/batches/uploads", body);
    ASSERT_EQ(created.status, 201) << created.body;
    const json batch = created.json();
    const std::string id = batch["batch_job_id"];
    ASSERT_EQ(batch["files"].size(), 3u);
    EXPECT_EQ(batch["status"], "awaiting_upload");
    EXPECT_EQ(batch["counts"]["awaiting_upload"], 3);
    for (const auto& f : batch["files"]) {
        EXPECT_TRUE(f["upload_url"].is_string()) << f.dump();
        EXPECT_TRUE(f["storage_source_path"].is_string()) << f.dump();
        EXPECT_EQ(f["upload_method"], "PUT");
        EXPECT_TRUE(f["upload_headers"].contains("Content-Type")) << f.dump();
    }

    // The same key by the same caller: the same job and documents, nothing new.
    const auto again = post("/api/v1/batches/uploads", body);
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(again.json()["batch_job_id"], id);
    EXPECT_EQ(again.json()["files"][2]["document_id"], batch["files"][2]["document_id"]);
    EXPECT_EQ(again.json()["files"][2]["upload_url"], batch["files"][2]["upload_url"]);
    // Another caller's same key is another job.
    const auto bobs = post("/api/v1/batches/uploads", body, bob_token_);
    ASSERT_EQ(bobs.status, 201) << bobs.body;
    EXPECT_NE(bobs.json()["batch_job_id"], id);

    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto& f = batch["files"][i];
        const auto put = TestServer::putObject(f["upload_url"], files[i].second,
                                               f["upload_headers"]["Content-Type"]);
        ASSERT_EQ(put.status, 200) << put.body;
    }
    const auto completed = post("/api/v1/batches/" + id + "/uploads/complete", json::object());
    ASSERT_EQ(completed.status, 202) << completed.body;
    EXPECT_EQ(completed.json()["completed_now"], 3);

    const json done = waitBatch(id);
    EXPECT_EQ(done["status"], "completed_with_errors") << done.dump();
    EXPECT_EQ(done["counts"]["succeeded"], 2) << done.dump();
    EXPECT_EQ(done["counts"]["failed"], 1) << done.dump();
    EXPECT_EQ(done["progress_pct"], 100);
    const json items = results(id)["items"];
    ASSERT_EQ(items.size(), 3u);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(items[i]["status"], "succeeded") << items[i].dump();
        EXPECT_EQ(items[i]["result"]["status"], "embedded") << items[i].dump();
    }
    const std::string broken_id = items[2]["document_id"];
    const json broken = server_->get("/api/v1/documents/" + broken_id, alice_token_).json();
    EXPECT_EQ(broken["status"], "error");
    EXPECT_EQ(items[2]["status"], "failed");
    EXPECT_FALSE(items[2]["error_code"].get<std::string>().empty());
    EXPECT_EQ(items[2]["error_code"], broken["error_code"]) << items[2].dump();
    EXPECT_EQ(items[2]["error_code"], "unreadable_document") << items[2].dump();

    // The operations view shows the batch and each document's ingestion.
    const json ops = server_->get("/api/v1/operations", alice_token_).json();
    bool listed = false;
    for (const auto& op : ops["operations"]) listed |= op["operation_id"] == id;
    EXPECT_TRUE(listed) << ops.dump();
    const json op = server_->get("/api/v1/operations/" + id, alice_token_).json();
    EXPECT_EQ(op["kind"], "batch_upload");
    EXPECT_EQ(op["status"], "completed_with_errors");
    const json ingest =
        server_
            ->get("/api/v1/operations/" + items[0]["document_id"].get<std::string>(), alice_token_)
            .json();
    EXPECT_EQ(ingest["kind"], "document_ingestion");
    EXPECT_EQ(ingest["status"], "completed");
    EXPECT_EQ(server_->get("/api/v1/operations/" + broken_id, alice_token_).json()["status"],
              "failed");
    const json failed_ops =
        server_->get("/api/v1/operations?status=failed", alice_token_).json()["operations"];
    for (const auto& o : failed_ops) EXPECT_EQ(o["status"], "failed");
    EXPECT_GE(failed_ops.size(), 1u);

    // GET /batches filters by operation and status.
    const json listed_uploads =
        server_->get("/api/v1/batches?operation=upload&status=completed_with_errors", alice_token_)
            .json();
    ASSERT_EQ(listed_uploads["batch_jobs"].size(), 1u) << listed_uploads.dump();
    EXPECT_EQ(listed_uploads["batch_jobs"][0]["batch_job_id"], id);
    EXPECT_TRUE(server_->get("/api/v1/batches?operation=embedding", alice_token_)
                    .json()["batch_jobs"]
                    .empty());
}

TEST_F(BatchJobs, EmbeddingAndClassificationSkipDoneDocumentsUnlessForced) {
    const auto& docs = personalDocs();
    const json ids = {docs[0], docs[1]};

    auto run = [&](const std::string& kind, bool force) {
        const auto r = post("/api/v1/batches/" + kind, {{"document_ids", ids}, {"force", force}});
        EXPECT_EQ(r.status, 202) << r.body;
        const std::string id = r.json()["batch_job_id"];
        EXPECT_EQ(waitBatch(id)["status"], "completed");
        return results(id)["items"];
    };
    for (const auto& item : run("embedding", false)) {
        EXPECT_EQ(item["status"], "skipped") << item.dump();
        EXPECT_EQ(item["result"]["reason"], "already_embedded");
    }
    for (const auto& item : run("embedding", true)) {
        EXPECT_EQ(item["status"], "succeeded") << item.dump();
        EXPECT_EQ(item["result"]["status"], "embedded");
    }
    for (const auto& item : run("classification", false)) {
        EXPECT_EQ(item["status"], "skipped") << item.dump();
        EXPECT_EQ(item["result"]["reason"], "already_classified");
        EXPECT_FALSE(item["result"]["doc_type"].get<std::string>().empty());
    }
    for (const auto& item : run("classification", true)) {
        EXPECT_EQ(item["status"], "succeeded") << item.dump();
        EXPECT_FALSE(item["result"]["doc_type"].get<std::string>().empty());
        EXPECT_GT(item["result"]["confidence"].get<double>(), 0.0);
        const json doc =
            server_
                ->get("/api/v1/documents/" + item["document_id"].get<std::string>(), alice_token_)
                .json();
        EXPECT_EQ(doc["doc_type"], item["result"]["doc_type"]) << doc.dump();
    }

    // The idempotency key returns the first job, even with other documents.
    const auto first = post("/api/v1/batches/embedding",
                            {{"document_ids", ids}, {"idempotency_key", "embed-once"}});
    ASSERT_EQ(first.status, 202) << first.body;
    const auto second = post("/api/v1/batches/embedding",
                             {{"document_ids", {docs[2]}}, {"idempotency_key", "embed-once"}});
    ASSERT_EQ(second.status, 202) << second.body;
    EXPECT_EQ(second.json()["batch_job_id"], first.json()["batch_job_id"]);
    EXPECT_EQ(second.json()["counts"]["total"], 2);
    // The same key for another kind of batch is a conflict.
    expectError(post("/api/v1/batches/classification",
                     {{"document_ids", ids}, {"idempotency_key", "embed-once"}}),
                409, "idempotency_key_reused");
}

TEST_F(BatchJobs, CancelStopsPendingItemsAndResumeFinishesThem) {
    const auto& docs = personalDocs();
    const auto started = post("/api/v1/batches/embedding",
                              {{"document_ids", docs}, {"force", true}, {"concurrency", 1}});
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string id = started.json()["batch_job_id"];
    const auto cancelled = post("/api/v1/batches/" + id + "/cancel", json::object());
    ASSERT_EQ(cancelled.status, 202) << cancelled.body;
    EXPECT_TRUE(cancelled.json()["status"] == "cancelling" ||
                cancelled.json()["status"] == "cancelled")
        << cancelled.body;
    EXPECT_GE(cancelled.json()["cancelled_items"].get<int>(), 2) << cancelled.body;

    // Running items finish; nothing new starts.
    json now = server_->pollStatus("/api/v1/batches/" + id, alice_token_, {"cancelled"}, 120);
    EXPECT_EQ(now["status"], "cancelled");
    EXPECT_EQ(now["counts"]["running"], 0) << now.dump();
    const int cancelled_items = now["counts"]["cancelled"];
    EXPECT_GE(cancelled_items, 2) << now.dump();
    EXPECT_EQ(now["counts"]["succeeded"].get<int>() + cancelled_items, 4) << now.dump();
    // Retry is refused on a cancelled job: resume it.
    expectError(post("/api/v1/batches/" + id + "/retry", json::object()), 409, "batch_cancelled");

    const auto resumed = post("/api/v1/batches/" + id + "/resume", json::object());
    ASSERT_EQ(resumed.status, 202) << resumed.body;
    EXPECT_EQ(resumed.json()["resumed_items"], cancelled_items);
    const json done = waitBatch(id);
    EXPECT_EQ(done["status"], "completed") << done.dump();
    EXPECT_EQ(done["counts"]["succeeded"], 4) << done.dump();
    const json final_items = results(id)["items"];
    for (const auto& item : final_items) EXPECT_EQ(item["status"], "succeeded");
    // A finished job cannot be cancelled.
    expectError(post("/api/v1/batches/" + id + "/cancel", json::object()), 409, "batch_finished");
}

TEST_F(BatchJobs, RetryRunsOnlyTheFailedItemsAgain) {
    const std::string a = text("east"), b = text("west");
    const auto created = post(
        "/api/v1/batches/uploads",
        {{"files",
          {{{"filename", "east.txt"}, {"content_type", "text/plain"}, {"file_size", a.size()}},
           {{"filename", "west.txt"}, {"content_type", "text/plain"}, {"file_size", b.size()}}}}});
    ASSERT_EQ(created.status, 201) << created.body;
    const json files = created.json()["files"];
    const std::string id = created.json()["batch_job_id"];
    ASSERT_EQ(TestServer::putObject(files[0]["upload_url"], a, "text/plain").status, 200);
    // west.txt is completed before its bytes arrive: its item fails with upload_missing.
    ASSERT_EQ(post("/api/v1/batches/" + id + "/uploads/complete", json::object()).status, 202);
    json done = waitBatch(id);
    EXPECT_EQ(done["status"], "completed_with_errors") << done.dump();
    json items = results(id)["items"];
    EXPECT_EQ(items[0]["status"], "succeeded");
    EXPECT_EQ(items[1]["status"], "failed");
    EXPECT_EQ(items[1]["error_code"], "upload_missing") << items[1].dump();
    const std::string first_finished = items[0]["finished_at"];

    ASSERT_EQ(TestServer::putObject(files[1]["upload_url"], b, "text/plain").status, 200);
    const auto retried = post("/api/v1/batches/" + id + "/retry", json::object());
    ASSERT_EQ(retried.status, 202) << retried.body;
    EXPECT_EQ(retried.json()["retried_items"], 1);
    done = waitBatch(id);
    EXPECT_EQ(done["status"], "completed") << done.dump();
    items = results(id)["items"];
    EXPECT_EQ(items[1]["status"], "succeeded") << items[1].dump();
    EXPECT_EQ(items[1]["result"]["status"], "embedded");
    EXPECT_EQ(items[1]["attempts"], 1);
    EXPECT_EQ(items[0]["attempts"], 0);
    EXPECT_EQ(items[0]["finished_at"], first_finished);  // the done item was not redone
}

// A worker killed in the middle of a classification item: its lease runs out, the run is
// claimed again and works only the item that had not finished.
TEST_F(BatchJobs, AReclaimedRunRedoesOnlyUnfinishedItems) {
    const auto& docs = personalDocs();
    const auto started = post("/api/v1/batches/classification",
                              {{"document_ids", {docs[0], docs[1], docs[2]}}, {"force", true}});
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string id = started.json()["batch_job_id"];
    ASSERT_EQ(waitBatch(id)["status"], "completed");
    const json before = results(id)["items"];

    // The state a killed run leaves: item 1 running, the job running, its batch_run leased.
    auto& db = server_->db();
    db.scalar(
        "UPDATE batch_items SET status = 'running', finished_at = NULL, result = NULL "
        "WHERE batch_id = '" +
        id + "' AND position = 1");
    const std::string run = db.scalar(
        "INSERT INTO jobs (id, kind, payload, status, lease_owner, lease_expires_at, attempts) "
        "VALUES (gen_random_uuid(), 'batch_run', '{\"batch_id\": \"" +
        id +
        "\"}', 'running', "
        "'killed-worker', now() - interval '1 second', 1) RETURNING id");
    db.scalar("UPDATE batch_jobs SET status = 'running', finished_at = NULL, job_id = '" + run +
              "' WHERE id = '" + id + "'");
    EXPECT_EQ(server_->get("/api/v1/batches/" + id, alice_token_).json()["counts"]["running"], 1);

    const json done = waitBatch(id);
    EXPECT_EQ(done["status"], "completed") << done.dump();
    const json after = results(id)["items"];
    EXPECT_EQ(after[0]["finished_at"], before[0]["finished_at"]);
    EXPECT_EQ(after[2]["finished_at"], before[2]["finished_at"]);
    EXPECT_EQ(after[1]["status"], "succeeded") << after[1].dump();
    EXPECT_NE(after[1]["finished_at"], before[1]["finished_at"]);
    EXPECT_EQ(after[1]["result"]["doc_type"], before[1]["result"]["doc_type"]);
    // The batch reads completed as the run's last item ends; the job row is marked right after.
    std::string job_status;
    for (int i = 0; i < 100 && job_status != "succeeded"; ++i) {
        if (i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        job_status = db.scalar("SELECT status FROM jobs WHERE id = '" + run + "'");
    }
    EXPECT_EQ(job_status, "succeeded");
}

TEST_F(BatchJobs, WorkspaceSummaryIsStoredWithCitations) {
    const std::map<std::string, std::string> in_ws{{"X-DocIntel-Workspace-ID", workspace_}};
    std::vector<std::string> ids;
    for (const std::string topic : {"research", "support"}) {
        ids.push_back(server_->uploadDocument(alice_token_, topic + ".txt", "text/plain",
                                              text(topic), workspace_));
    }
    for (const auto& id : ids) server_->waitForDocument(id, alice_token_);

    const auto started =
        post("/api/v1/batches/workspace-summary",
             {{"workspace_id", workspace_}, {"summary_type", "executive"}, {"concurrency", 2}});
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string id = started.json()["batch_job_id"];
    EXPECT_EQ(started.json()["workspace_id"], workspace_);
    const json done = waitBatch(id);
    ASSERT_EQ(done["status"], "completed") << done.dump();
    const json result = done["result"];
    EXPECT_FALSE(result["summary"].get<std::string>().empty()) << result.dump();
    ASSERT_FALSE(result["citations"].empty()) << result.dump();
    for (const auto& c : result["citations"]) {
        EXPECT_TRUE(c["document_id"] == ids[0] || c["document_id"] == ids[1]) << c.dump();
        EXPECT_FALSE(c["quote"].get<std::string>().empty());
    }
    EXPECT_EQ(result["documents"].size(), 2u);
    EXPECT_FALSE(result["sources"].empty());

    // The viewer reads it, but cannot start, cancel or retry batches.
    EXPECT_EQ(server_->get("/api/v1/batches/" + id, carol_token_).status, 200);
    EXPECT_EQ(server_->get("/api/v1/batches/" + id + "/results", carol_token_).status, 200);
    const json carol_list =
        server_->get("/api/v1/batches?workspace_id=" + workspace_, carol_token_).json();
    EXPECT_EQ(carol_list["batch_jobs"].size(), 1u) << carol_list.dump();
    expectError(post("/api/v1/batches/embedding", {{"document_ids", ids}}, carol_token_, in_ws),
                403, "forbidden");
    expectError(
        post("/api/v1/batches/workspace-summary", {{"workspace_id", workspace_}}, carol_token_),
        403, "forbidden");
    expectError(post("/api/v1/batches/" + id + "/retry", json::object(), carol_token_), 403,
                "forbidden");

    // A non-member sees nothing of the workspace or its batches.
    expectError(server_->get("/api/v1/batches/" + id, bob_token_), 404, "batch_not_found");
    expectError(server_->get("/api/v1/batches/" + id + "/results", bob_token_), 404,
                "batch_not_found");
    expectError(post("/api/v1/batches/" + id + "/cancel", json::object(), bob_token_), 404,
                "batch_not_found");
    expectError(server_->get("/api/v1/operations/" + id, bob_token_), 404, "operation_not_found");
    expectError(
        post("/api/v1/batches/workspace-summary", {{"workspace_id", workspace_}}, bob_token_), 404,
        "workspace_not_found");
    expectError(server_->get("/api/v1/batches?workspace_id=" + workspace_, bob_token_), 404,
                "workspace_not_found");
    // Another user's personal documents and batches are not found either.
    const auto& mine = personalDocs();
    expectError(post("/api/v1/batches/embedding", {{"document_ids", {mine[0]}}}, bob_token_), 404,
                "document_not_found");
    expectError(server_->get("/api/v1/operations/" + mine[0], bob_token_), 404,
                "operation_not_found");
    EXPECT_TRUE(server_->get("/api/v1/batches", bob_token_).json()["batch_jobs"].size() <= 1u);
    expectError(server_->get("/api/v1/batches/00000000-0000-0000-0000-000000000000", alice_token_),
                404, "batch_not_found");
}

TEST_F(BatchJobs, LimitsAreValidationErrors) {
    const json ids = {"00000000-0000-0000-0000-000000000000"};
    for (const int concurrency : {0, 11}) {
        const auto r = post("/api/v1/batches/embedding",
                            {{"document_ids", ids}, {"concurrency", concurrency}});
        EXPECT_EQ(r.status, 422) << r.body;
        EXPECT_TRUE(r.json()["detail"].is_array());
        EXPECT_EQ(post("/api/v1/batches/classification",
                       {{"document_ids", ids}, {"concurrency", concurrency}})
                      .status,
                  422);
        const auto c = post("/api/v1/batches/00000000-0000-0000-0000-000000000000/uploads/complete",
                            {{"concurrency", concurrency}});
        EXPECT_EQ(c.status, 422) << c.body;
        EXPECT_EQ(c.json()["detail"][0]["loc"].back(), "concurrency") << c.body;
    }
    EXPECT_EQ(post("/api/v1/batches/embedding", {{"document_ids", json::array()}}).status, 422);
    EXPECT_EQ(post("/api/v1/batches/workspace-summary",
                   {{"workspace_id", workspace_}, {"concurrency", 7}})
                  .status,
              422);
    EXPECT_EQ(post("/api/v1/batches/uploads", {{"files", json::array()}}).status, 422);
    EXPECT_EQ(
        post("/api/v1/batches/uploads", {{"files", {{{"filename", "a.txt"}, {"file_size", 0}}}}})
            .status,
        422);
    EXPECT_EQ(
        post("/api/v1/batches/uploads", {{"files", {{{"filename", "a.txt"}, {"file_size", 10}}}},
                                         {"idempotency_key", std::string(201, 'k')}})
            .status,
        422);
    EXPECT_EQ(server_->get("/api/v1/batches?limit=0", alice_token_).status, 422);
    // A token without the batch scopes is refused.
    const std::string docs_only = server_->token(alice_, {"documents:read", "documents:write"});
    EXPECT_EQ(server_->get("/api/v1/batches", docs_only).status, 403);
}

TEST_F(BatchJobs, McpToolsDriveTheSameService) {
    McpClient mcp(*server_, server_->token(alice_, TestServer::allScopes(), 3600, true));
    std::set<std::string> names;
    const json listed = mcp.call("tools/list");
    for (const auto& t : listed["result"]["tools"]) names.insert(t["name"]);
    for (const char* name :
         {"create_batch_upload", "complete_batch_upload", "start_batch_classification",
          "start_batch_embedding", "start_workspace_summary", "get_batch_status",
          "get_batch_results", "retry_batch_failures", "cancel_batch_job"}) {
        EXPECT_TRUE(names.count(name)) << name;
    }

    const std::string bytes = text("mcp");
    const json created = mcp.result("create_batch_upload", {{"files",
                                                             {{{"filename", "mcp.txt"},
                                                               {"content_type", "text/plain"},
                                                               {"file_size", bytes.size()}}}}});
    const std::string id = created["batch_job_id"];
    ASSERT_EQ(created["files"].size(), 1u);
    ASSERT_EQ(TestServer::putObject(created["files"][0]["upload_url"], bytes, "text/plain").status,
              200);
    EXPECT_EQ(mcp.result("complete_batch_upload", {{"batch_job_id", id}})["batch_job_id"], id);
    json status;
    for (int i = 0; i < 240; ++i) {
        status = mcp.result("get_batch_status", {{"batch_job_id", id}});
        if (kSettled.count(status["status"])) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    EXPECT_EQ(status["status"], "completed") << status.dump();
    const json items = mcp.result("get_batch_results", {{"batch_job_id", id}})["items"];
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0]["status"], "succeeded");
    const std::string doc = items[0]["document_id"];

    const json embed = mcp.result("start_batch_embedding", {{"document_ids", {doc}}});
    const std::string embed_id = embed["batch_job_id"];
    EXPECT_EQ(mcp.result("start_batch_classification", {{"document_ids", {doc}}})["operation"],
              "classification");
    EXPECT_EQ(mcp.result("retry_batch_failures", {{"batch_job_id", id}})["retried_items"], 0);
    // cancel_batch_job needs confirm: true.
    const json unconfirmed = mcp.tool("cancel_batch_job", {{"batch_job_id", embed_id}});
    EXPECT_EQ(unconfirmed["isError"], true);
    EXPECT_EQ(unconfirmed["structuredContent"]["error"]["code"], "confirmation_required");
    const json summary = mcp.result("start_workspace_summary", {{"document_ids", {doc}}});
    EXPECT_EQ(summary["operation"], "workspace_summary");
    EXPECT_TRUE(summary["workspace_id"].is_null());
    // Resources.
    const json read = mcp.call("resources/read", {{"uri", "docintel://batches/" + id}})["result"];
    EXPECT_EQ(json::parse(read["contents"][0]["text"].get<std::string>())["batch_job_id"], id);
    const json read_results =
        mcp.call("resources/read", {{"uri", "docintel://batches/" + id + "/results"}})["result"];
    EXPECT_EQ(json::parse(read_results["contents"][0]["text"].get<std::string>())["items"].size(),
              1u);
    // Another user's batch is not found through MCP either.
    McpClient bob(*server_, server_->token(bob_, TestServer::allScopes(), 3600, true));
    const json foreign = bob.tool("get_batch_status", {{"batch_job_id", id}});
    EXPECT_EQ(foreign["isError"], true);
    EXPECT_EQ(foreign["structuredContent"]["error"]["code"], "batch_not_found");
    EXPECT_EQ(waitBatch(embed_id)["status"], "completed");
    const json summarized = waitBatch(summary["batch_job_id"]);
    EXPECT_EQ(summarized["status"], "completed") << summarized.dump();
    EXPECT_FALSE(summarized["result"]["citations"].empty());
}

}  // namespace
}  // namespace docintel::test

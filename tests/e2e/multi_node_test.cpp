// Many nodes (issue 19 item 4, docs/deployment.md): two `--role api` and two `--role worker`
// processes of the shipped binary share one Postgres and one S3 store (SeaweedFS). An upload
// through one API node is answerable through the other; a worker killed with SIGKILL loses no
// upload and shows no duplicate; an API node killed and restarted catches its indexes up from
// the change feed (an upload it signed before dying completes through the other), and a new
// one builds them from scratch; a revoked token is refused by every
// node within 5 s; every node serves /metrics.

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/base64url.h"
#include "support/mcp_client.h"
#include "support/metrics_scrape.h"
#include "support/seaweed_server.h"
#include "support/server_process.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kScopes =
    "workspaces:read workspaces:write documents:read documents:write knowledge:query";

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// One of the texts; each names a fact only it holds.
std::string report(const std::string& site, int crates) {
    return "Inspection of the " + site + " depot\n\nThe " + site + " depot holds " +
           std::to_string(crates) + " crates of spare valves. The " + site +
           " inspector signed the report on the second Monday of the month.\n";
}

class Cluster : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        s3_ = new SeaweedServer();
        db_ = new TestDatabase();
        mcp_a_ = ServerProcesses::freePort();
        mcp_b_ = ServerProcesses::freePort();
        // Behind a load balancer every node has the same public URLs (the tokens' audiences).
        procs_ = new ServerProcesses(
            db_->url(), "DOCINTEL_MODELS_DIR='" + modelsDir() + "' DOCINTEL_OBJECT_STORE=s3" +
                            " DOCINTEL_MCP_URL=http://127.0.0.1:" + std::to_string(mcp_a_) +
                            "/mcp" + " DOCINTEL_S3_ENDPOINT=" + s3_->endpoint() +
                            " DOCINTEL_S3_BUCKET=cluster-docs" +
                            " DOCINTEL_S3_ACCESS_KEY=" + SeaweedServer::kAccessKey +
                            " DOCINTEL_S3_SECRET_KEY=" + SeaweedServer::kSecretKey +
                            " DOCINTEL_JOB_LEASE_SECONDS=4 DOCINTEL_INDEX_POLL_MS=100");
        token_ = procs_->preparedToken("ops@example.com", kScopes);
        ASSERT_FALSE(token_.empty());
        for (auto* port : {&api_a_, &api_b_, &worker_1_, &worker_2_}) {
            *port = ServerProcesses::freePort();
        }
        pid_a_ = startApi(api_a_, "a", mcp_a_);
        pid_b_ = startApi(api_b_, "b", mcp_b_);
        pid_w1_ = startWorker(worker_1_);
        pid_w2_ = startWorker(worker_2_);
        ASSERT_GT(pid_a_, 0);
        ASSERT_GT(pid_b_, 0);
        ASSERT_GT(pid_w1_, 0);
        ASSERT_GT(pid_w2_, 0);
        const auto ws =
            httpRequest(api_a_, "POST", "/api/v1/workspaces", R"({"name":"Depots"})", token_);
        ASSERT_EQ(ws.status, 201) << ws.body;
        workspace_ = ws.json()["id"];
    }
    static void TearDownTestSuite() {
        delete procs_;
        delete db_;
        delete s3_;
    }

    static pid_t startApi(int port, const std::string& index, int mcp_port = 0) {
        std::string env = "DOCINTEL_INDEX_DIR=" + procs_->dataDir() + "/index-" + index;
        if (mcp_port) env += " DOCINTEL_MCP_PORT=" + std::to_string(mcp_port);
        return procs_->startNode(port, "--role api", env);
    }
    static pid_t startWorker(int port) { return procs_->startNode(port, "--role worker"); }

    static std::string upload(int port, const std::string& name, const std::string& text) {
        return uploadDocumentTo(port, token_, name, "text/plain", text, workspace_);
    }
    static json waitEmbedded(int port, const std::string& id, int seconds = 90) {
        return pollStatusAt(port, "/api/v1/documents/" + id, token_, {"embedded", "error"},
                            seconds);
    }

    /// The document ids a grounded query through `port` cites or ranks.
    static std::set<std::string> sourcesFor(int port, const std::string& question) {
        const json body{
            {"question", question}, {"document_ids", json::array()}, {"workspace_id", workspace_}};
        std::set<std::string> ids;
        const auto r =
            httpRequest(port, "POST", "/api/v1/knowledge/query/stream", body.dump(), token_);
        if (r.status != 200) return ids;
        for (const auto& f : sseFrames(r.body)) {
            for (const auto& s : f.value("sources", json::array())) ids.insert(s["document_id"]);
        }
        return ids;
    }
    /// Seconds until a query through `port` finds `id` (-1: not within `seconds`).
    static double secondsUntilFound(int port, const std::string& question, const std::string& id,
                                    int seconds = 20) {
        const auto started = Clock::now();
        while (secondsSince(started) < seconds) {
            if (sourcesFor(port, question).count(id)) return secondsSince(started);
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return -1;
    }

    /// Kills `worker` (SIGKILL) while a document job it claimed is running; false when it
    /// held none within a minute.
    static bool killMidJob(pid_t worker) {
        const std::string held =
            "SELECT count(*) FROM jobs WHERE status = 'running' AND lease_owner LIKE '%:" +
            std::to_string(worker) + ":%' AND lease_owner NOT LIKE '%/%'";
        const auto started = Clock::now();
        while (secondsSince(started) < 60) {
            if (db_->scalar(held) != "0") {
                ::kill(worker, SIGSTOP);
                if (db_->scalar(held) != "0") {
                    procs_->kill(worker);
                    return true;
                }
                ::kill(worker, SIGCONT);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }

    static inline SeaweedServer* s3_ = nullptr;
    static inline TestDatabase* db_ = nullptr;
    static inline ServerProcesses* procs_ = nullptr;
    static inline std::string token_, workspace_;
    static inline int api_a_ = 0, api_b_ = 0, worker_1_ = 0, worker_2_ = 0, mcp_a_ = 0, mcp_b_ = 0;
    static inline pid_t pid_a_ = -1, pid_b_ = -1, pid_w1_ = -1, pid_w2_ = -1;
};

TEST_F(Cluster, AnUploadThroughOneApiNodeIsAnswerableThroughTheOther) {
    const std::string harbour = upload(api_a_, "harbour.txt", report("Harbour", 412));
    ASSERT_EQ(waitEmbedded(api_b_, harbour)["status"], "embedded");
    // Embedded is visible everywhere at once (Postgres); the other node's indexes follow the
    // change feed within its poll.
    const double on_b =
        secondsUntilFound(api_b_, "How many crates does the Harbour depot hold?", harbour);
    EXPECT_GE(on_b, 0) << "node B never found the document";
    EXPECT_LT(on_b, 5);
    RecordProperty("found_on_other_node_seconds", std::to_string(on_b));
    EXPECT_GE(secondsUntilFound(api_a_, "How many crates does the Harbour depot hold?", harbour),
              0);
}

TEST_F(Cluster, AWorkerKilledMidIngestionLosesNoUploadAndDuplicatesNone) {
    std::vector<std::string> ids;
    for (int i = 0; i < 6; ++i) {
        const std::string site = "Site" + std::to_string(i);
        std::string text = report(site, 100 + i);
        for (int p = 0; p < 60; ++p) {  // long enough to be mid-ingestion when the kill comes
            text += "\nLogbook entry " + std::to_string(p) + " of the " + site +
                    " depot: the valves were counted, the shelves checked and the pumps " +
                    "tested; nothing was found missing or out of place on that day.\n";
        }
        ids.push_back(upload(i % 2 ? api_a_ : api_b_, site + ".txt", text));
    }
    // W1 is killed while it holds a document job: stopped first, so the job cannot finish
    // between the check and the kill. Its leases run out and W2 takes its jobs over from their
    // last checkpoint.
    ASSERT_TRUE(killMidJob(pid_w1_)) << "worker 1 never held a document job";
    for (const auto& id : ids) {
        const auto d = waitEmbedded(api_a_, id);
        EXPECT_EQ(d["status"], "embedded") << d.dump();
    }
    // The kill did land mid-work: some job ran a second time.
    EXPECT_GE(std::stoi(db_->scalar("SELECT count(*) FROM jobs WHERE attempts > 1")), 1);
    for (const auto& id : ids) {
        // One chunk sequence, and one `document.embedded` event, per document.
        const auto chunks =
            httpRequest(api_b_, "GET", "/api/v1/documents/" + id + "/chunks", "", token_).json();
        std::set<int> indexes;
        for (const auto& c : chunks["chunks"]) indexes.insert(c.value("chunk_index", -1));
        EXPECT_EQ(indexes.size(), chunks["chunks"].size()) << chunks.dump();
        const auto events = httpRequest(api_b_, "GET",
                                        "/api/v1/events?limit=500&resource_type=document&"
                                        "resource_id=" +
                                            id,
                                        "", token_, {{"X-DocIntel-Workspace-ID", workspace_}})
                                .json();
        int embedded = 0;
        for (const auto& e : events["events"]) embedded += e["event_type"] == "document.embedded";
        EXPECT_EQ(embedded, 1) << events.dump();
    }
}

TEST_F(Cluster, AnApiNodeKilledAndRestartedCatchesUpAndANewOneBuildsItsIndexes) {
    const std::string harbour = upload(api_a_, "harbour.txt", report("Harbour", 412));
    ASSERT_EQ(waitEmbedded(api_a_, harbour)["status"], "embedded");

    // Killed mid-upload: A signed the upload, then died; the client PUTs to the bucket and
    // completes through B, which finds the session in Postgres.
    const std::string text = report("Ferry", 57);
    const std::map<std::string, std::string> in_workspace{{"X-DocIntel-Workspace-ID", workspace_}};
    const auto created = httpRequest(
        api_a_, "POST", "/api/v1/uploads",
        json{{"filename", "ferry.txt"}, {"content_type", "text/plain"}, {"file_size", text.size()}}
            .dump(),
        token_, in_workspace);
    ASSERT_EQ(created.status, 201) << created.body;
    const json session = created.json();
    procs_->kill(pid_a_);
    ASSERT_LT(TestServer::putObject(session["upload_url"], text, "text/plain").status, 300);
    const auto completed = httpRequest(api_b_, "POST", "/api/v1/uploads/complete",
                                       json{{"filename", "ferry.txt"},
                                            {"file_size", text.size()},
                                            {"doc_id", session["doc_id"]},
                                            {"storage_source_path", session["storage_source_path"]}}
                                           .dump(),
                                       token_, in_workspace);
    ASSERT_EQ(completed.status, 202) << completed.body;
    const std::string ferry = session["doc_id"];
    ASSERT_EQ(waitEmbedded(api_b_, ferry)["status"], "embedded");

    pid_a_ = startApi(api_a_, "a");  // the same index folder: it catches up from the feed
    ASSERT_GT(pid_a_, 0);
    const auto ready = httpRequest(api_a_, "GET", "/readyz");
    EXPECT_EQ(ready.status, 200) << ready.body;
    EXPECT_EQ(ready.json()["index"], "caught_up") << ready.body;
    EXPECT_GE(secondsUntilFound(api_a_, "How many crates does the Ferry depot hold?", ferry, 5), 0);

    // A node that never ran builds its indexes from scratch before it serves.
    const int api_c = ServerProcesses::freePort();
    const pid_t pid_c = startApi(api_c, "c");
    ASSERT_GT(pid_c, 0);
    EXPECT_EQ(httpRequest(api_c, "GET", "/readyz").status, 200);
    EXPECT_GE(secondsUntilFound(api_c, "How many crates does the Ferry depot hold?", ferry, 5), 0);
    EXPECT_GE(secondsUntilFound(api_c, "How many crates does the Harbour depot hold?", harbour, 5),
              0);
    procs_->kill(pid_c);
}

TEST_F(Cluster, ARevokedTokenIsRefusedByEveryNodeWithinFiveSeconds) {
    const auto minted =
        procs_->admin("token --email ops@example.com --audience rest --scope workspaces:read");
    ASSERT_EQ(minted.first, 0);
    const std::string token = minted.second;
    ASSERT_EQ(httpRequest(api_a_, "GET", "/api/v1/workspaces", "", token).status, 200);
    ASSERT_EQ(httpRequest(api_b_, "GET", "/api/v1/workspaces", "", token).status, 200);
    const auto payload = common::base64UrlDecode(
        token.substr(token.find('.') + 1, token.rfind('.') - token.find('.') - 1));
    ASSERT_TRUE(payload);
    const std::string jti = json::parse(*payload)["jti"];
    ASSERT_EQ(procs_->admin("revoke-token --jti " + jti).first, 0);
    const auto revoked = Clock::now();
    std::map<int, double> refused_after;
    while (secondsSince(revoked) < 10 && refused_after.size() < 2) {
        for (int port : {api_a_, api_b_}) {
            if (refused_after.count(port)) continue;
            if (httpRequest(port, "GET", "/api/v1/workspaces", "", token).status == 401) {
                refused_after[port] = secondsSince(revoked);
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (int port : {api_a_, api_b_}) {
        ASSERT_TRUE(refused_after.count(port)) << "node on port " << port << " still accepts";
        EXPECT_LT(refused_after[port], 5);
    }
}

TEST_F(Cluster, AnMcpSessionMovesBetweenNodes) {
    const auto minted = procs_->admin("token --email ops@example.com --audience mcp --scope '" +
                                      std::string(kScopes) + "'");
    ASSERT_EQ(minted.first, 0);
    const McpClient on_a(mcp_a_, minted.second);
    ASSERT_FALSE(on_a.sessionId().empty());
    // The load balancer sends the next request to B: the session is known there.
    const McpClient on_b(mcp_b_, minted.second, on_a.sessionId());
    const auto tools = on_b.call("tools/list");
    EXPECT_FALSE(tools["result"]["tools"].empty()) << tools.dump();
    // A restarted node knows it too. Ended through B, it is gone there at once (and on A once
    // A's copy is due for a look at the table, SessionStore::kRecheckSeconds).
    procs_->kill(pid_a_);
    pid_a_ = startApi(api_a_, "a", mcp_a_);
    ASSERT_GT(pid_a_, 0);
    EXPECT_EQ(on_a.send(rpc("tools/list")).status, 200);
    std::map<std::string, std::string> headers{{"Mcp-Session-Id", on_a.sessionId()}};
    EXPECT_EQ(httpRequest(mcp_b_, "DELETE", "/mcp", "", minted.second, headers).status, 204);
    EXPECT_EQ(on_b.send(rpc("tools/list")).status, 404);
}

TEST_F(Cluster, EveryNodeServesMetrics) {
    const std::string id = upload(api_a_, "quay.txt", report("Quay", 9));
    ASSERT_EQ(waitEmbedded(api_a_, id)["status"], "embedded");
    const auto api = parseMetrics(httpRequest(api_a_, "GET", "/metrics").body);
    ASSERT_TRUE(api.parsed) << api.error;
    EXPECT_DOUBLE_EQ(api.sum("docintel_node_info", {{"role", "api"}}), 1);
    EXPECT_GE(api.sum("docintel_http_requests_total"), 1);
    EXPECT_EQ(api.count("docintel_index_lag_seconds"), 1);
    EXPECT_EQ(api.type("docintel_jobs"), "gauge");

    double embedded = 0;
    for (int port : {worker_1_, worker_2_}) {
        const auto worker = parseMetrics(httpRequest(port, "GET", "/metrics").body);
        ASSERT_TRUE(worker.parsed) << worker.error;
        EXPECT_DOUBLE_EQ(worker.sum("docintel_node_info", {{"role", "worker"}}), 1);
        EXPECT_EQ(worker.count("docintel_index_lag_seconds"), 0);  // workers keep no indexes
        EXPECT_GE(worker.sum("docintel_db_pool_connections", {{"state", "max"}}), 1);
        embedded += worker.sum("docintel_documents_embedded_total");
    }
    EXPECT_GE(embedded, 1);
}

TEST(ClusterLimits, ARateLimitHoldsAcrossNodes) {
    TestDatabase db;
    ServerProcesses procs(
        db.url(), "DOCINTEL_MODELS_DIR='" + modelsDir() + "' DOCINTEL_RATE_LIMIT_PER_MINUTE=40");
    const std::string token = procs.preparedToken("busy@example.com", kScopes);
    ASSERT_FALSE(token.empty());
    const int a = ServerProcesses::freePort();
    const int b = ServerProcesses::freePort();
    ASSERT_GT(procs.startNode(a, "--role api", "DOCINTEL_INDEX_DIR=" + procs.dataDir() + "/ia"), 0);
    ASSERT_GT(procs.startNode(b, "--role api", "DOCINTEL_INDEX_DIR=" + procs.dataDir() + "/ib"), 0);
    // The quota is per minute of the clock: do it all inside one minute.
    const auto epoch = [] {
        return std::chrono::duration_cast<std::chrono::seconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
    if (epoch() % 60 > 45) std::this_thread::sleep_for(std::chrono::seconds(61 - epoch() % 60));
    const auto served = [&](int port, int n) {
        int ok = 0;
        for (int i = 0; i < n; ++i) {
            const int status = httpRequest(port, "GET", "/api/v1/workspaces", "", token).status;
            EXPECT_TRUE(status == 200 || status == 429) << status;
            ok += status == 200;
        }
        return ok;
    };
    EXPECT_EQ(served(a, 30), 30);
    // Each node shares its counts about once a second: B learns A's 30 within two seconds.
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    EXPECT_EQ(served(b, 30), 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    EXPECT_EQ(served(a, 5), 0);  // and A learns B's 10
}

}  // namespace
}  // namespace docintel::test

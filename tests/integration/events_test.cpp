// The event log through the API: every change's event in order, a cursor that never skips
// under concurrent writers committing out of order, who sees what, and which webhook URLs a
// subscription may name (the private-address flag off, http allowed).

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "storage/database.h"
#include "storage/event_repository.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

class Events : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.webhook_allow_http = true;  // private addresses stay refused
        server_ = new TestServer(options);
        alice_ = server_->createUser("alice@example.com");
        bob_ = server_->createUser("bob@example.com");
        vera_ = server_->createUser("vera@example.com");
        alice_token_ = server_->token(alice_, TestServer::allScopes(), 3600);
        bob_token_ = server_->token(bob_, TestServer::allScopes(), 3600);
        vera_token_ = server_->token(vera_, TestServer::allScopes(), 3600);
        const auto ws = post("/api/v1/workspaces", {{"name", "events team"}}, alice_token_);
        ASSERT_EQ(ws.status, 201) << ws.body;
        workspace_ = ws.json()["id"];
        const auto member = post("/api/v1/workspaces/" + workspace_ + "/members",
                                 {{"email", "vera@example.com"}, {"role", "viewer"}}, alice_token_);
        ASSERT_EQ(member.status, 201) << member.body;
    }
    static void TearDownTestSuite() { delete server_; }

    static Response post(const std::string& path, const json& body, const std::string& token) {
        return server_->request("POST", path, body.dump(), token);
    }
    /// Every event the caller sees with `query`, paging with after=next_sequence.
    static std::vector<json> allEvents(const std::string& token, const std::string& query = "") {
        std::vector<json> out;
        long long after = 0;
        while (true) {
            const auto r = server_->get(
                "/api/v1/events?limit=500&after=" + std::to_string(after) + query, token);
            EXPECT_EQ(r.status, 200) << r.body;
            const auto page = r.json();
            for (const auto& e : page["events"]) out.push_back(e);
            if (page["events"].empty()) return out;
            after = page["next_sequence"];
        }
    }
    static std::vector<std::string> types(const std::vector<json>& events) {
        std::vector<std::string> out;
        for (const auto& e : events) out.push_back(e["event_type"]);
        return out;
    }

    static TestServer* server_;
    static std::string alice_, bob_, vera_, alice_token_, bob_token_, vera_token_, workspace_;
};
TestServer* Events::server_ = nullptr;
std::string Events::alice_, Events::bob_, Events::vera_, Events::alice_token_, Events::bob_token_,
    Events::vera_token_, Events::workspace_;

TEST_F(Events, AnUploadRecordsUploadedChunkedEmbeddedInOrder) {
    const std::string id = server_->uploadDocument(
        alice_token_, "notes.txt", "text/plain",
        "Quarterly notes.\n\nThe warehouse moved to Leeds in March. Costs fell by a tenth.\n");
    const auto doc = server_->waitForDocument(id, alice_token_);
    ASSERT_EQ(doc["status"], "embedded") << doc.dump();

    const auto events = allEvents(alice_token_, "&resource_type=document&resource_id=" + id);
    EXPECT_EQ(types(events), (std::vector<std::string>{"document.uploaded", "document.chunked",
                                                       "document.embedded"}));
    long long previous = 0;
    for (const auto& e : events) {
        EXPECT_GT(e["sequence_number"].get<long long>(), previous);
        previous = e["sequence_number"];
        EXPECT_EQ(e["resource_id"], id);
        EXPECT_TRUE(e["workspace_id"].is_null());
        EXPECT_EQ(e["payload"]["document_id"], id);
        EXPECT_FALSE(e["payload"].dump().find("warehouse") != std::string::npos)
            << "an event never carries document text";
        EXPECT_FALSE(e["trace_id"].is_null()) << "the trace of the upload request";
    }
    EXPECT_EQ(events[0]["actor"], alice_);
    EXPECT_GT(events[2]["payload"]["chunk_count"].get<int>(), 0);
}

TEST_F(Events, AnUnreadableFileRecordsDocumentFailed) {
    const std::string damaged = "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nstream\n" +
                                std::string(300, '\x01') + "\n%%EOF-truncated";
    const std::string id =
        server_->uploadDocument(alice_token_, "broken.pdf", "application/pdf", damaged);
    const auto doc = server_->waitForDocument(id, alice_token_);
    ASSERT_EQ(doc["status"], "error") << doc.dump();
    const auto events = allEvents(alice_token_, "&resource_id=" + id);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.back()["event_type"], "document.failed");
    EXPECT_FALSE(events.back()["payload"]["error_code"].get<std::string>().empty());
}

TEST_F(Events, ABatchRecordsCreatedAndCancelled) {
    const auto created = post(
        "/api/v1/batches/uploads",
        {{"files", {{{"filename", "a.txt"}, {"content_type", "text/plain"}, {"file_size", 10}}}}},
        alice_token_);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string id = created.json()["batch_job_id"];
    const auto cancelled = post("/api/v1/batches/" + id + "/cancel", json::object(), alice_token_);
    ASSERT_EQ(cancelled.status, 202) << cancelled.body;
    const auto events = allEvents(alice_token_, "&resource_type=batch_job&resource_id=" + id);
    EXPECT_EQ(types(events), (std::vector<std::string>{"batch.created", "batch.cancelled"}));
}

// Writers hold their transactions open for random times, so later sequence-order inserts commit
// first; a reader paging all along must still see every event once, in increasing order.
TEST_F(Events, APagingReaderSeesEveryEventOnceWhileWritersCommitOutOfOrder) {
    constexpr int kWriters = 8;
    constexpr int kEach = 40;
    const std::string marker = "concurrency-" + std::to_string(std::random_device{}());
    std::atomic<int> writers_done{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
        writers.emplace_back([&, w] {
            storage::Database db(server_->db().url(), 1);
            std::mt19937 rng(static_cast<unsigned>(w * 7919 + 1));
            for (int i = 0; i < kEach; ++i) {
                const int hold_ms = std::uniform_int_distribution<int>(0, 30)(rng);
                auto ok = db.transact([&](storage::Tx& tx) -> plugin::Result<bool> {
                    storage::Event e;
                    e.type = "test.written";
                    e.resource_type = "test";
                    e.resource_id = marker;
                    e.user_id = alice_;
                    e.payload = {{"writer", w}, {"n", i}};
                    storage::EventRepository::emit(tx, e);
                    std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
                    return true;
                });
                ASSERT_TRUE(ok.ok());
            }
            ++writers_done;
        });
    }
    std::map<std::string, int> seen;
    long long after = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        const bool finished = writers_done == kWriters;
        const auto r = server_->get(
            "/api/v1/events?limit=7&resource_id=" + marker + "&after=" + std::to_string(after),
            alice_token_);
        ASSERT_EQ(r.status, 200) << r.body;
        const auto page = r.json();
        for (const auto& e : page["events"]) {
            EXPECT_GT(e["sequence_number"].get<long long>(), after);
            ++seen[e["payload"].dump()];
        }
        after = page["next_sequence"];
        if (finished && page["events"].empty()) break;
    }
    for (auto& t : writers) t.join();
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(kWriters * kEach));
    for (const auto& [payload, count] : seen) EXPECT_EQ(count, 1) << payload;
}

TEST_F(Events, ARolledBackChangeRecordsNoEvent) {
    storage::Database db(server_->db().url(), 1);
    const std::string marker = "rolled-back";
    auto failed = db.transact([&](storage::Tx& tx) -> plugin::Result<bool> {
        storage::Event e;
        e.type = "test.written";
        e.resource_type = "test";
        e.resource_id = marker;
        e.user_id = alice_;
        storage::EventRepository::emit(tx, e);
        return plugin::Error::conflict("changed_mind", "the change is abandoned");
    });
    ASSERT_FALSE(failed.ok());
    EXPECT_TRUE(allEvents(alice_token_, "&resource_id=" + marker).empty());
}

TEST_F(Events, NobodySeesAnotherUsersPersonalOrAnotherTeamsEvents) {
    // A team event and a personal one of Alice's.
    const auto team_batch = server_->request(
        "POST", "/api/v1/batches/uploads",
        json{{"workspace_id", workspace_},
             {"files", {{{"filename", "t.txt"}, {"content_type", "text/plain"}, {"file_size", 5}}}}}
            .dump(),
        alice_token_, {{"X-DocIntel-Workspace-ID", workspace_}});
    ASSERT_EQ(team_batch.status, 201) << team_batch.body;
    const std::string team_id = team_batch.json()["batch_job_id"];
    const auto personal = post(
        "/api/v1/batches/uploads",
        {{"files", {{{"filename", "p.txt"}, {"content_type", "text/plain"}, {"file_size", 5}}}}},
        alice_token_);
    ASSERT_EQ(personal.status, 201);
    const std::string personal_id = personal.json()["batch_job_id"];

    std::set<std::string> alice_sees, bob_sees, vera_sees;
    for (const auto& e : allEvents(alice_token_)) alice_sees.insert(e["resource_id"]);
    for (const auto& e : allEvents(bob_token_)) bob_sees.insert(e["resource_id"]);
    for (const auto& e : allEvents(vera_token_)) vera_sees.insert(e["resource_id"]);
    EXPECT_TRUE(alice_sees.count(team_id) && alice_sees.count(personal_id));
    EXPECT_FALSE(bob_sees.count(team_id) || bob_sees.count(personal_id));
    EXPECT_TRUE(vera_sees.count(team_id)) << "a member (viewer) sees the team's events";
    EXPECT_FALSE(vera_sees.count(personal_id));

    // Replay: 404 for an event the caller cannot see.
    const auto team_events = allEvents(alice_token_, "&resource_id=" + team_id);
    ASSERT_FALSE(team_events.empty());
    const std::string event_id = team_events[0]["id"];
    EXPECT_EQ(post("/api/v1/events/" + event_id + "/replay", json::object(), bob_token_).status,
              404);
    const auto mine = post("/api/v1/events/" + event_id + "/replay", json::object(), alice_token_);
    EXPECT_EQ(mine.status, 202) << mine.body;
    EXPECT_EQ(mine.json()["status"], "no_matching_subscriptions");

    // Subscriptions: a viewer cannot create one in the workspace, a non-member gets 404.
    const json in_team{{"workspace_id", workspace_}, {"event_types", {"batch.created"}}};
    EXPECT_EQ(post("/api/v1/event-subscriptions", in_team, vera_token_).status, 403);
    EXPECT_EQ(post("/api/v1/event-subscriptions", in_team, bob_token_).status, 404);
    const auto created = post("/api/v1/event-subscriptions", in_team, alice_token_);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string sub = created.json()["id"];
    EXPECT_EQ(created.json()["secret"].get<std::string>().rfind("whsec_", 0), 0u);
    const auto listed = server_->get("/api/v1/event-subscriptions", alice_token_).json();
    EXPECT_FALSE(listed["subscriptions"][0].contains("secret")) << "a secret is shown once";
    EXPECT_EQ(server_->get("/api/v1/event-subscriptions", bob_token_).json()["count"], 0);
    EXPECT_EQ(
        server_->request("DELETE", "/api/v1/event-subscriptions/" + sub, "", bob_token_).status,
        404);
    EXPECT_EQ(
        post("/api/v1/event-subscriptions/" + sub + "/rotate-secret", json::object(), bob_token_)
            .status,
        404);
    EXPECT_EQ(server_->get("/api/v1/webhook-deliveries?subscription_id=" + sub, bob_token_)
                  .json()["count"],
              0);
    EXPECT_EQ(
        server_->request("DELETE", "/api/v1/event-subscriptions/" + sub, "", alice_token_).status,
        200);
}

TEST_F(Events, CursorAndFiltersAreValidated) {
    EXPECT_EQ(server_->get("/api/v1/events?after=abc", alice_token_).status, 422);
    EXPECT_EQ(server_->get("/api/v1/events?limit=501", alice_token_).status, 422);
    EXPECT_EQ(server_->get("/api/v1/events?limit=0", alice_token_).status, 422);
    EXPECT_EQ(server_->get("/api/v1/webhook-deliveries?status=lost", alice_token_).status, 422);
    EXPECT_EQ(
        server_
            ->request("POST", "/api/v1/webhook-deliveries/process-due?limit=201", "", alice_token_)
            .status,
        422);
    const auto due = server_->request("POST", "/api/v1/webhook-deliveries/process-due?limit=10", "",
                                      alice_token_);
    EXPECT_EQ(due.status, 202) << due.body;
    EXPECT_EQ(due.json()["status"], "accepted");
}

TEST_F(Events, WebhookUrlsThatReachPrivateOrReservedAddressesAreRefused) {
    const std::vector<std::string> refused = {
        "http://[::ffff:127.0.0.1]/hook",
        "http://10.0.0.1/hook",
        "http://localhost:9/hook",  // a name that resolves to 127.0.0.1
        "http://user:pass@example.com/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[fe80::1]/hook",
        "ftp://example.com/hook",
        "http://192.168.1.20/hook",
        "http://0.0.0.0/hook",
        "http://[::1]/hook",
    };
    for (const auto& url : refused) {
        const auto r = post("/api/v1/event-subscriptions", {{"webhook_url", url}}, alice_token_);
        EXPECT_EQ(r.status, 422) << url << " " << r.body;
        if (r.status == 422) {
            EXPECT_EQ(r.json()["detail"][0]["loc"], json({"body", "webhook_url"})) << url;
        }
    }
}

}  // namespace
}  // namespace docintel::test

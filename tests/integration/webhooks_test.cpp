// Signed webhooks delivered to a real receiver (tests/e2e/webhooks/receiver.py) that verifies
// every delivery with the Standard Webhooks reference library and the X-DocIntel scheme:
// order, retries, dead letters, retry and replay, rotation, 410 Gone. The retry schedule is
// shortened (base 100 ms: 0.2 s, 0.4 s, 0.8 s …).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "support/server_process.h"
#include "support/test_server.h"
#include "support/webhook_receiver.h"

namespace docintel::test {
namespace {

using nlohmann::json;

class Webhooks : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.webhook_allow_http = true;
        options.webhook_allow_private = true;
        options.webhook_retry_base_ms = 100;
        server_ = new TestServer(options);
        receiver_ = new WebhookReceiver();
        alice_ = server_->createUser("alice@example.com");
        token_ = server_->token(alice_, TestServer::allScopes(), 3600);
    }
    static void TearDownTestSuite() {
        delete receiver_;
        delete server_;
    }

    static Response post(const std::string& path, const json& body = json::object()) {
        return server_->request("POST", path, body.dump(), token_);
    }
    /// A subscription to `types` delivered to the receiver's `path`; returns {id, secret}.
    static std::pair<std::string, std::string> subscribe(const std::string& path,
                                                         const json& types) {
        const auto r = post("/api/v1/event-subscriptions",
                            {{"event_types", types}, {"webhook_url", receiver_->url(path)}});
        EXPECT_EQ(r.status, 201) << r.body;
        const std::string secret = r.json().value("secret", "");
        receiver_->setSecrets(path, {secret});
        return {r.json().value("id", ""), secret};
    }
    /// Creates a batch upload (one `batch.created` event); returns the batch id.
    static std::string makeBatch() {
        const auto r =
            post("/api/v1/batches/uploads",
                 {{"files",
                   {{{"filename", "a.txt"}, {"content_type", "text/plain"}, {"file_size", 10}}}}});
        EXPECT_EQ(r.status, 201) << r.body;
        return r.json().value("batch_job_id", "");
    }
    /// Polls the subscription's deliveries until one has `status` (20 s at most).
    static json waitForDelivery(const std::string& subscription, const std::string& status,
                                const std::string& id = "") {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        json last;
        while (std::chrono::steady_clock::now() < deadline) {
            last =
                server_->get("/api/v1/webhook-deliveries?subscription_id=" + subscription, token_)
                    .json();
            for (const auto& d : last["deliveries"]) {
                if (d["status"] == status && (id.empty() || d["id"] == id)) return d;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        ADD_FAILURE() << "no delivery reached " << status << ": " << last.dump();
        return json();
    }
    static void expectVerified(const json& delivery) {
        EXPECT_EQ(delivery["standard_ok"], json({true})) << delivery.dump();
        EXPECT_EQ(delivery["docintel_ok"], json({true})) << delivery.dump();
        EXPECT_TRUE(delivery["tampered_rejected"].get<bool>());
        EXPECT_EQ(delivery["headers"]["content-type"], "application/json");
    }

    static TestServer* server_;
    static WebhookReceiver* receiver_;
    static std::string alice_, token_;
};
TestServer* Webhooks::server_ = nullptr;
WebhookReceiver* Webhooks::receiver_ = nullptr;
std::string Webhooks::alice_, Webhooks::token_;

TEST_F(Webhooks, AnUploadsEventsArriveSignedAndInOrder) {
    subscribe("/documents", json::array({"document.uploaded", "document.chunked",
                                         "document.embedded", "document.failed"}));
    const std::string id = server_->uploadDocument(
        token_, "memo.txt", "text/plain",
        "Memo.\n\nThe audit starts on Monday. Bring the signed contracts and the ledger.\n");
    ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
    const auto got = receiver_->waitFor("/documents", [](const json& r) { return r.size() >= 3; });
    ASSERT_EQ(got.size(), 3u) << got.dump();
    std::vector<std::string> types;
    long long previous = 0;
    for (const auto& d : got) {
        expectVerified(d);
        const auto event = json::parse(d["body"].get<std::string>());
        types.push_back(event["event_type"]);
        EXPECT_EQ(event["resource_id"], id);
        EXPECT_GT(event["sequence_number"].get<long long>(), previous);
        previous = event["sequence_number"];
        EXPECT_EQ(d["headers"]["x-docintel-event"], event["event_type"]);
        EXPECT_EQ(d["headers"]["x-docintel-event-id"], event["id"]);
        EXPECT_EQ(d["headers"]["webhook-id"], event["delivery_id"]);
    }
    EXPECT_EQ(types, (std::vector<std::string>{"document.uploaded", "document.chunked",
                                               "document.embedded"}));
}

TEST_F(Webhooks, TwoFailuresThenSuccessDeliversOnTheThirdAttempt) {
    receiver_->plan("/flaky", {500, 500});
    const auto [sub, secret] = subscribe("/flaky", json::array({"batch.created"}));
    makeBatch();
    const auto d = waitForDelivery(sub, "delivered");
    EXPECT_EQ(d["attempts"], 3);
    ASSERT_EQ(d["attempt_log"].size(), 3u);
    EXPECT_EQ(d["attempt_log"][0]["http_status"], 500);
    EXPECT_EQ(d["attempt_log"][0]["response_preview"], "receiver error");
    EXPECT_EQ(d["attempt_log"][2]["http_status"], 200);
    const auto got = receiver_->receivedAt("/flaky");
    ASSERT_EQ(got.size(), 3u);
    for (const auto& r : got) {
        expectVerified(r);
        EXPECT_EQ(r["headers"]["webhook-id"], d["id"]) << "every attempt is the same message";
    }
}

TEST_F(Webhooks, AReceiverThatIsDownDeadLettersAfterSixAttempts) {
    const int port = ServerProcesses::freePort();  // closed again: nothing listens there
    const auto r = post("/api/v1/event-subscriptions",
                        {{"event_types", {"batch.created"}},
                         {"webhook_url", "http://127.0.0.1:" + std::to_string(port) + "/down"}});
    ASSERT_EQ(r.status, 201) << r.body;
    makeBatch();
    const auto d = waitForDelivery(r.json()["id"], "dead_letter");
    EXPECT_EQ(d["attempts"], 6);
    EXPECT_EQ(d["last_error_code"], "connection_failed");
    EXPECT_EQ(d["attempt_log"].size(), 6u);
}

TEST_F(Webhooks, RetryAndReplayEachDeliverAgain) {
    receiver_->plan("/later", {500, 500, 500, 500, 500, 500});
    const auto [sub, secret] = subscribe("/later", json::array({"batch.created"}));
    const std::string batch = makeBatch();
    const auto dead = waitForDelivery(sub, "dead_letter");
    ASSERT_EQ(dead["attempts"], 6);

    const auto retried =
        post("/api/v1/webhook-deliveries/" + dead["id"].get<std::string>() + "/retry");
    ASSERT_EQ(retried.status, 202) << retried.body;
    EXPECT_EQ(retried.json()["status"], "pending");
    const auto delivered = waitForDelivery(sub, "delivered", dead["id"]);
    EXPECT_EQ(delivered["attempts"], 1);

    const auto replayed = post("/api/v1/events/" + dead["event_id"].get<std::string>() + "/replay");
    ASSERT_EQ(replayed.status, 202) << replayed.body;
    // One new delivery per matching subscription of the caller (earlier tests' too).
    const auto ids = replayed.json()["delivery_ids"];
    std::string again;
    const auto listed =
        server_->get("/api/v1/webhook-deliveries?subscription_id=" + sub, token_).json();
    for (const auto& d : listed["deliveries"]) {
        if (std::find(ids.begin(), ids.end(), d["id"]) != ids.end()) again = d["id"];
    }
    ASSERT_FALSE(again.empty()) << replayed.body;
    EXPECT_NE(again, dead["id"]);
    waitForDelivery(sub, "delivered", again);
    const auto got = receiver_->receivedAt("/later");
    ASSERT_EQ(got.size(), 8u);
    EXPECT_EQ(got[7]["headers"]["webhook-id"], again);
    expectVerified(got[7]);
    EXPECT_EQ(json::parse(got[7]["body"].get<std::string>())["resource_id"], batch);
}

TEST_F(Webhooks, DuringARotationBothSecretsSign) {
    const auto [sub, old_secret] = subscribe("/rotated", json::array({"batch.created"}));
    const auto rotated = post("/api/v1/event-subscriptions/" + sub + "/rotate-secret");
    ASSERT_EQ(rotated.status, 200) << rotated.body;
    const std::string new_secret = rotated.json()["secret"];
    EXPECT_NE(new_secret, old_secret);
    EXPECT_FALSE(rotated.json()["previous_secret_expires_at"].is_null());
    receiver_->setSecrets("/rotated", {new_secret, old_secret});
    makeBatch();
    const auto got = receiver_->waitFor("/rotated", [](const json& r) { return !r.empty(); });
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0]["standard_ok"], json({true, true}));
    EXPECT_EQ(got[0]["docintel_ok"], json({true, true}));
}

TEST_F(Webhooks, GoneDisablesTheSubscription) {
    receiver_->plan("/gone", {410});
    const auto [sub, secret] = subscribe("/gone", json::array({"batch.created"}));
    makeBatch();
    const auto d = waitForDelivery(sub, "dead_letter");
    EXPECT_EQ(d["last_error_code"], "gone");
    const auto subs = server_->get("/api/v1/event-subscriptions", token_).json();
    for (const auto& s : subs["subscriptions"]) {
        if (s["id"] == sub) {
            EXPECT_FALSE(s["active"].get<bool>()) << s.dump();
        }
    }
}

TEST_F(Webhooks, LinkLocalAddressesAreRefusedWhateverTheFlags) {
    for (const std::string url : {"http://169.254.169.254/", "http://[fe80::1]/"}) {
        const auto r = post("/api/v1/event-subscriptions", {{"webhook_url", url}});
        EXPECT_EQ(r.status, 422) << url << " " << r.body;
    }
    // Loopback is allowed here (DOCINTEL_WEBHOOK_ALLOW_PRIVATE=1).
    EXPECT_EQ(post("/api/v1/event-subscriptions", {{"webhook_url", receiver_->url("/ok")}}).status,
              201);
}

}  // namespace
}  // namespace docintel::test

// A server killed (SIGKILL) while a webhook is in flight loses nothing: after a restart the
// delivery is sent again, with the same webhook-id, and ends delivered.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/server_process.h"
#include "support/test_server.h"
#include "support/webhook_receiver.h"

namespace docintel::test {
namespace {

using nlohmann::json;

class WebhookCrash : public ::testing::Test {
  protected:
    void startServer() {
        pid_ = procs_.start();
        ASSERT_GT(pid_, 0) << "server did not come up";
    }
    void killServer() { procs_.kill(pid_); }
    Response call(const std::string& method, const std::string& path, const json& body = nullptr) {
        try {
            return httpRequest(procs_.port(), method, path, body.is_null() ? "" : body.dump(),
                               token_);
        } catch (const std::exception&) {
            return Response{};
        }
    }

    TestDatabase db_;
    ServerProcesses procs_{db_.url(),
                           "DOCINTEL_MODELS_DIR=/nonexistent DOCINTEL_WEBHOOK_ALLOW_HTTP=1 "
                           "DOCINTEL_WEBHOOK_ALLOW_PRIVATE=1 "
                           "DOCINTEL_JOB_LEASE_SECONDS=3"};
    std::string token_;
    pid_t pid_ = -1;
};

TEST_F(WebhookCrash, ADeliveryInFlightWhenTheServerIsKilledIsDeliveredAfterRestart) {
    token_ =
        procs_.preparedToken("crash@example.com", "workspaces:read workspaces:write batches:write");
    ASSERT_FALSE(token_.empty());

    WebhookReceiver receiver;
    receiver.plan("/slow", {200}, 4000);  // the first answer comes after the kill
    startServer();
    const auto sub =
        call("POST", "/api/v1/event-subscriptions",
             {{"event_types", {"batch.created"}}, {"webhook_url", receiver.url("/slow")}});
    ASSERT_EQ(sub.status, 201) << sub.body;
    receiver.setSecrets("/slow", {sub.json()["secret"].get<std::string>()});
    const auto batch = call(
        "POST", "/api/v1/batches/uploads",
        {{"files", {{{"filename", "a.txt"}, {"content_type", "text/plain"}, {"file_size", 10}}}}});
    ASSERT_EQ(batch.status, 201) << batch.body;

    const auto first = receiver.waitFor("/slow", [](const json& r) { return !r.empty(); });
    ASSERT_EQ(first.size(), 1u) << "the delivery is in flight";
    killServer();
    startServer();

    const auto got = receiver.waitFor(
        "/slow", [](const json& r) { return r.size() >= 2; }, 30);
    ASSERT_GE(got.size(), 2u) << got.dump();
    for (const auto& r : got) {
        EXPECT_EQ(r["headers"]["webhook-id"], first[0]["headers"]["webhook-id"]);
        EXPECT_EQ(r["standard_ok"], json({true}));
        EXPECT_EQ(r["docintel_ok"], json({true}));
    }
    const std::string sub_id = sub.json()["id"];
    json delivery;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        delivery = call("GET", "/api/v1/webhook-deliveries?subscription_id=" + sub_id).json();
        if (!delivery["deliveries"].empty() && delivery["deliveries"][0]["status"] == "delivered") {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(delivery["deliveries"].size(), 1u) << delivery.dump();
    EXPECT_EQ(delivery["deliveries"][0]["status"], "delivered");
    EXPECT_EQ(delivery["deliveries"][0]["id"], first[0]["headers"]["webhook-id"]);
}

}  // namespace
}  // namespace docintel::test

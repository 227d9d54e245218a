// A server killed (SIGKILL) while a webhook is in flight loses nothing: after a restart the
// delivery is sent again, with the same webhook-id, and ends delivered.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Poco/Net/ServerSocket.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "common/id.h"
#include "support/test_server.h"
#include "support/webhook_receiver.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string binary(const std::string& name) { return DOCINTEL_BINARY_DIR "/server/" + name; }

int freePort() {
    Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
    return s.address().port();
}

std::string runOut(const std::string& command) {
    FILE* p = ::popen((command + " 2>/dev/null").c_str(), "r");
    std::string out;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
    ::pclose(p);
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

class WebhookCrash : public ::testing::Test {
  protected:
    void SetUp() override {
        data_dir_ = (fs::temp_directory_path() / ("docintel-crash-" + common::newUuid())).string();
        fs::create_directories(data_dir_ + "/plugins");
        port_ = freePort();
        env_ = "DOCINTEL_DATABASE_URL='" + db_.url() + "' DOCINTEL_DATA_DIR='" + data_dir_ +
               "' DOCINTEL_PORT=" + std::to_string(port_) +
               " DOCINTEL_MCP_PORT=" + std::to_string(freePort()) +
               " DOCINTEL_BASE_URL=http://127.0.0.1:" + std::to_string(port_) +
               " DOCINTEL_PLUGINS_DIR='" + data_dir_ + "/plugins' DOCINTEL_MODELS_DIR='" +
               data_dir_ + "/no-models' DOCINTEL_WEBHOOK_ALLOW_HTTP=1 " +
               "DOCINTEL_WEBHOOK_ALLOW_PRIVATE=1 DOCINTEL_JOB_LEASE_SECONDS=3";
    }
    void TearDown() override {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        fs::remove_all(data_dir_);
    }
    void startServer() {
        pid_ = ::fork();
        if (pid_ == 0) {
            const std::string cmd =
                "exec env " + env_ + " " + binary("docintel-server") + " 2>/dev/null";
            ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            if (call("GET", "/healthz").status == 200) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL() << "server did not come up";
    }
    void killServer() {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
    Response call(const std::string& method, const std::string& path, const json& body = nullptr) {
        try {
            return httpRequest(port_, method, path, body.is_null() ? "" : body.dump(), token_);
        } catch (const std::exception&) {
            return Response{};
        }
    }

    TestDatabase db_;
    std::string data_dir_, env_, token_;
    int port_ = 0;
    pid_t pid_ = -1;
};

TEST_F(WebhookCrash, ADeliveryInFlightWhenTheServerIsKilledIsDeliveredAfterRestart) {
    const std::string admin = binary("docintel-admin");
    ASSERT_EQ(std::system(("env " + env_ + " " + admin + " migrate >/dev/null 2>&1").c_str()), 0);
    ASSERT_EQ(std::system(("env " + env_ + " " + admin +
                           " user create --email crash@example.com --password pw-123456 "
                           ">/dev/null 2>&1")
                              .c_str()),
              0);
    token_ = runOut("env " + env_ + " " + admin +
                    " token --email crash@example.com --audience rest --scope "
                    "'workspaces:read workspaces:write batches:write'");
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

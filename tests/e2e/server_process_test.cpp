// The shipped binaries as an operator runs them: docintel-admin prepares the database and
// mints a token, docintel-server serves it, SIGTERM finishes the request in flight, and
// --role and bad configuration behave.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/StreamCopier.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "common/id.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;

std::string binary(const std::string& name) { return DOCINTEL_BINARY_DIR "/server/" + name; }

int freePort() {
    Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
    return s.address().port();
}

/// Runs a command with extra environment, returning its exit status and stdout.
std::pair<int, std::string> run(const std::string& env, const std::string& command) {
    const std::string full = env + " " + command + " 2>/dev/null";
    FILE* p = ::popen(full.c_str(), "r");
    std::string out;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
    const int status = ::pclose(p);
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class ServerProcess : public ::testing::Test {
  protected:
    void SetUp() override {
        data_dir_ = (fs::temp_directory_path() / ("docintel-e2e-" + common::newUuid())).string();
        fs::create_directories(data_dir_ + "/plugins");
        port_ = freePort();
        env_ = "DOCINTEL_DATABASE_URL='" + db_.url() + "' DOCINTEL_DATA_DIR='" + data_dir_ +
               "' DOCINTEL_PORT=" + std::to_string(port_) +
               " DOCINTEL_BASE_URL=http://127.0.0.1:" + std::to_string(port_) +
               " DOCINTEL_PLUGINS_DIR='" + data_dir_ + "/plugins'";
    }
    void TearDown() override {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        fs::remove_all(data_dir_);
    }

    /// Starts docintel-server with `args` and waits until /healthz answers.
    void startServer(const std::string& args = "") {
        pid_ = ::fork();
        if (pid_ == 0) {
            const std::string cmd =
                "exec env " + env_ + " " + binary("docintel-server") + " " + args + " 2>/dev/null";
            ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (std::chrono::steady_clock::now() < deadline) {
            if (get("/healthz").first == 200) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL() << "server did not come up";
    }

    std::pair<int, std::string> get(const std::string& path, const std::string& token = "") {
        try {
            Poco::Net::HTTPClientSession s("127.0.0.1", static_cast<Poco::UInt16>(port_));
            Poco::Net::HTTPRequest req("GET", path, Poco::Net::HTTPMessage::HTTP_1_1);
            if (!token.empty()) req.set("Authorization", "Bearer " + token);
            s.sendRequest(req);
            Poco::Net::HTTPResponse resp;
            std::string body;
            Poco::StreamCopier::copyToString(s.receiveResponse(resp), body);
            return {resp.getStatus(), body};
        } catch (const std::exception&) {
            return {0, ""};
        }
    }

    int waitExit(int seconds) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        int status = 0;
        while (std::chrono::steady_clock::now() < deadline) {
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return -2;
    }

    TestDatabase db_;
    std::string data_dir_;
    std::string env_;
    int port_ = 0;
    pid_t pid_ = -1;
};

TEST_F(ServerProcess, AdminPreparesAndMintsATokenTheServerAccepts) {
    ASSERT_EQ(run(env_, binary("docintel-admin") + " migrate").first, 0);
    const auto created = run(env_, binary("docintel-admin") +
                                       " user create --email ops@example.com --password pw-123456");
    ASSERT_EQ(created.first, 0);
    EXPECT_TRUE(common::isUuid(created.second)) << created.second;
    const auto admin = run(env_, binary("docintel-admin") + " user ensure-admin --email a@x.io");
    EXPECT_NE(admin.second.find("password:"), std::string::npos);
    EXPECT_EQ(run(env_, binary("docintel-admin") + " user ensure-admin --email a@x.io")
                  .second.find("password:"),
              std::string::npos)
        << "the first admin's password is printed once";
    const auto token = run(env_, binary("docintel-admin") +
                                     " token --email ops@example.com --audience rest --scope "
                                     "'workspaces:read'");
    ASSERT_EQ(token.first, 0);
    const auto mcp_token = run(env_, binary("docintel-admin") +
                                         " token --email ops@example.com --audience mcp --scope "
                                         "'workspaces:read'");
    startServer();
    EXPECT_EQ(get("/readyz").first, 200);
    const auto me = get("/api/v1/me", token.second);
    ASSERT_EQ(me.first, 200) << me.second;
    EXPECT_NE(me.second.find("ops@example.com"), std::string::npos);
    EXPECT_EQ(get("/api/v1/me", mcp_token.second).first, 401);
}

TEST_F(ServerProcess, SigtermFinishesTheRequestInFlightThenExits) {
    ASSERT_EQ(run(env_, binary("docintel-admin") + " migrate").first, 0);
    ASSERT_EQ(run(env_, binary("docintel-admin") +
                            " user create --email term@example.com --password pw-123456")
                  .first,
              0);
    const auto token = run(env_, binary("docintel-admin") +
                                     " token --email term@example.com --audience rest --scope "
                                     "'workspaces:write'")
                           .second;
    startServer();
    // Send the headers and half the body, signal, then the rest: the request must complete.
    const std::string body = R"({"name":"made during shutdown"})";
    Poco::Net::StreamSocket sock(Poco::Net::SocketAddress("127.0.0.1", port_));
    const std::string head =
        "POST /api/v1/workspaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token +
        "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
        "\r\n\r\n";
    sock.sendBytes(head.data(), static_cast<int>(head.size()));
    sock.sendBytes(body.data(), 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(pid_, SIGTERM);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sock.sendBytes(body.data() + 10, static_cast<int>(body.size() - 10));
    std::string response;
    char buf[4096];
    int n = 0;
    sock.setReceiveTimeout(Poco::Timespan(10, 0));
    while ((n = sock.receiveBytes(buf, sizeof(buf))) > 0) {
        response.append(buf, static_cast<std::size_t>(n));
        if (response.find("\r\n\r\n") != std::string::npos &&
            response.find("made during shutdown") != std::string::npos) {
            break;
        }
    }
    EXPECT_EQ(response.rfind("HTTP/1.1 201", 0), 0u) << response;
    EXPECT_EQ(waitExit(20), 0);
    EXPECT_EQ(db_.scalar("SELECT count(*) FROM workspaces WHERE name = 'made during shutdown'"),
              "1");
}

TEST_F(ServerProcess, WorkerRoleServesHealthOnly) {
    ASSERT_EQ(run(env_, binary("docintel-admin") + " migrate").first, 0);
    startServer("--role=worker");
    EXPECT_EQ(get("/readyz").first, 200);
    EXPECT_EQ(get("/api/v1/workspaces").first, 404);
}

TEST_F(ServerProcess, BadConfigurationFailsFast) {
    const auto bad = run(env_ + " DOCINTEL_PORT=notaport", binary("docintel-server"));
    EXPECT_NE(bad.first, 0);
    const auto role = run(env_, binary("docintel-server") + " --role=chef");
    EXPECT_NE(role.first, 0);
}

TEST_F(ServerProcess, PluginsListShowsLoadedAndRefused) {
    fs::copy_file(testPluginDir() + "/good_plugin.so", data_dir_ + "/plugins/good_plugin.so");
    fs::copy_file(testPluginDir() + "/wrong_abi_plugin.so",
                  data_dir_ + "/plugins/wrong_abi_plugin.so");
    const auto list = run(env_, binary("docintel-admin") + " plugins list");
    ASSERT_EQ(list.first, 0);
    EXPECT_NE(list.second.find("fixture_good"), std::string::npos) << list.second;
    EXPECT_NE(list.second.find("abi_mismatch"), std::string::npos) << list.second;
}

}  // namespace
}  // namespace docintel::test

// The shipped binaries as an operator runs them: docintel-admin prepares the database and
// mints a token, docintel-server serves it, SIGTERM finishes the request in flight, and
// --role and bad configuration behave.

#include <gtest/gtest.h>
#include <signal.h>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "common/id.h"
#include "support/server_process.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

namespace fs = std::filesystem;

class ServerProcess : public ::testing::Test {
  protected:
    std::pair<int, std::string> run(const std::string& env, const std::string& command) {
        return ServerProcesses::run(env, command);
    }
    std::string binary(const std::string& name) { return ServerProcesses::binary(name); }

    pid_t spawn(const std::string& args, const std::string& extra_env = "") {
        return procs_.spawn(args, extra_env);
    }
    void startServer(const std::string& args = "") {
        pid_ = procs_.start(args);
        ASSERT_GT(pid_, 0) << "server did not come up";
    }

    std::pair<int, std::string> get(const std::string& path, const std::string& token = "") {
        try {
            const auto r = httpRequest(port_, "GET", path, "", token);
            return {r.status, r.body};
        } catch (const std::exception&) {
            return {0, ""};
        }
    }

    std::string adminPreparedToken(const std::string& email, const std::string& scopes) {
        const std::string token = procs_.preparedToken(email, scopes);
        EXPECT_FALSE(token.empty());
        return token;
    }

    TestDatabase db_;
    ServerProcesses procs_{db_.url(), "DOCINTEL_MODELS_DIR='" + modelsDir() + "'"};
    const std::string& env_ = procs_.env();
    const std::string& data_dir_ = procs_.dataDir();
    const int port_ = procs_.port();
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
    const std::string token = adminPreparedToken("term@example.com", "workspaces:write");
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
    EXPECT_EQ(procs_.waitExit(pid_, 20), 0);
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

/// A worker killed with SIGKILL in the middle of ingesting a document: its lease runs out,
/// another worker takes the job over, and the document ends embedded once, without duplicates.
TEST_F(ServerProcess, KilledWorkerLosesNothingAndDuplicatesNothing) {
    const std::string token =
        adminPreparedToken("crash@example.com", "documents:read documents:write");
    startServer("--role=api");
    const std::string lease = "DOCINTEL_JOB_LEASE_SECONDS=3";
    const pid_t first_worker = spawn("--role=worker", lease);

    // A text whose embedding takes several seconds on this machine.
    std::string text;
    for (int i = 0; text.size() < 120'000; ++i) {
        text += "Paragraph " + std::to_string(i) +
                ". The quick brown fox jumps over the lazy dog near the river bank, and the "
                "survey team records every detail of the crossing for the audit.\n\n";
    }
    Poco::Net::HTTPClientSession s("127.0.0.1", static_cast<Poco::UInt16>(port_));
    auto post = [&](const std::string& path, const nlohmann::json& body) {
        Poco::Net::HTTPRequest req("POST", path, Poco::Net::HTTPMessage::HTTP_1_1);
        req.set("Authorization", "Bearer " + token);
        req.setContentType("application/json");
        const std::string b = body.dump();
        req.setContentLength(static_cast<std::streamsize>(b.size()));
        s.sendRequest(req) << b;
        Poco::Net::HTTPResponse resp;
        std::string out;
        Poco::StreamCopier::copyToString(s.receiveResponse(resp), out);
        return std::make_pair(static_cast<int>(resp.getStatus()), nlohmann::json::parse(out));
    };
    const auto [created, session] =
        post("/api/v1/uploads",
             {{"filename", "big.txt"}, {"content_type", "text/plain"}, {"file_size", text.size()}});
    ASSERT_EQ(created, 201);
    {
        Poco::URI uri(session["upload_url"].get<std::string>());
        Poco::Net::HTTPClientSession up("127.0.0.1", uri.getPort());
        Poco::Net::HTTPRequest req("PUT", uri.getPathAndQuery(), Poco::Net::HTTPMessage::HTTP_1_1);
        req.setContentType("text/plain");
        req.setContentLength(static_cast<std::streamsize>(text.size()));
        up.sendRequest(req) << text;
        Poco::Net::HTTPResponse resp;
        std::string ignored;
        Poco::StreamCopier::copyToString(up.receiveResponse(resp), ignored);
        ASSERT_EQ(resp.getStatus(), 200);
    }
    const std::string id = session["doc_id"];
    const auto [completed, _] =
        post("/api/v1/uploads/complete", {{"filename", "big.txt"},
                                          {"file_size", text.size()},
                                          {"doc_id", id},
                                          {"storage_source_path", session["storage_source_path"]}});
    ASSERT_EQ(completed, 202);

    auto status = [&] {
        return db_.scalar("SELECT status FROM documents WHERE id = '" + id + "'");
    };
    auto poll = [&](const std::function<bool()>& done, int seconds) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        while (std::chrono::steady_clock::now() < deadline && !done()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return done();
    };
    ASSERT_TRUE(poll([&] { return status() == "embedding"; }, 60)) << status();
    procs_.kill(first_worker);
    ASSERT_EQ(status(), "embedding") << "the worker finished before it could be killed";

    spawn("--role=worker", lease);
    ASSERT_TRUE(poll([&] { return status() == "embedded"; }, 300)) << status();
    const std::string job =
        "SELECT attempts FROM jobs WHERE payload->>'document_id' = '" + id + "'";
    EXPECT_EQ(db_.scalar(job), "2") << "the second worker took over the killed worker's job";
    const auto chunks =
        std::stoi(db_.scalar("SELECT count(*) FROM chunks WHERE document_id = '" + id + "'"));
    EXPECT_GT(chunks, 50);
    EXPECT_EQ(db_.scalar("SELECT count(*) FROM chunks WHERE document_id = '" + id +
                         "' AND model IS NOT NULL AND length(embedding) = 1536"),
              std::to_string(chunks));
    EXPECT_EQ(db_.scalar("SELECT checkpoint ? 'chunked' FROM jobs WHERE payload->>'document_id' "
                         "= '" +
                         id + "'"),
              "t")
        << "the second worker resumed after the finished chunking step";
    EXPECT_EQ(db_.scalar("SELECT count(DISTINCT chunk_index) FROM chunks WHERE document_id = '" +
                         id + "'"),
              std::to_string(chunks));
    EXPECT_EQ(
        db_.scalar("SELECT max(chunk_index) + 1 FROM chunks WHERE document_id = '" + id + "'"),
        std::to_string(chunks));
    EXPECT_EQ(db_.scalar("SELECT status FROM jobs WHERE payload->>'document_id' = '" + id + "'"),
              "succeeded");
}

}  // namespace
}  // namespace docintel::test

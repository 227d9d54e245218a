// How the transport treats a careless or hostile client (decision 0061): framing it cannot
// trust is answered 400/411 in the error shape, a body over the operation's limit 413 before
// it is read, a request head that takes too long is cut at its deadline, and one address
// cannot hold more than its share of connections while another is served. Raw sockets, since
// no HTTP client library sends these on purpose.

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kHeaderTimeoutMs = 600;
constexpr int kCap = 4;

/// One TCP connection to 127.0.0.1:`port`, from source address `from` (any 127.x.y.z: Linux
/// routes the whole of 127.0.0.0/8 to loopback, so a test can be two clients).
class RawConnection {
  public:
    RawConnection(int port, const std::string& from = "127.0.0.1") {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in src{};
        src.sin_family = AF_INET;
        ::inet_pton(AF_INET, from.c_str(), &src.sin_addr);
        EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&src), sizeof(src)), 0);
        sockaddr_in dst{};
        dst.sin_family = AF_INET;
        dst.sin_port = htons(static_cast<std::uint16_t>(port));
        ::inet_pton(AF_INET, "127.0.0.1", &dst.sin_addr);
        EXPECT_EQ(::connect(fd_, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)), 0);
    }
    ~RawConnection() { ::close(fd_); }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool send(const std::string& bytes) {
        return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
               static_cast<ssize_t>(bytes.size());
    }

    /// What arrives until the server closes, `until` shows up, or `timeout_ms` passes.
    std::string read(int timeout_ms, const std::string& until = {}) {
        std::string out;
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
        while (Clock::now() < deadline) {
            pollfd p{fd_, POLLIN, 0};
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                    .count();
            if (::poll(&p, 1, static_cast<int>(std::max<long long>(left, 1))) <= 0) break;
            char buf[4096];
            const auto n = ::recv(fd_, buf, sizeof(buf), 0);
            if (n <= 0) {
                closed_ = true;
                break;
            }
            out.append(buf, static_cast<std::size_t>(n));
            if (!until.empty() && out.find(until) != std::string::npos) break;
        }
        return out;
    }
    /// The server closed the connection (seen by `read`).
    bool closed() const { return closed_; }

  private:
    int fd_ = -1;
    bool closed_ = false;
};

class HttpConnection : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        TestServer::Options options;
        options.http_header_timeout_ms = kHeaderTimeoutMs;
        options.http_max_connections_per_address = kCap;
        server_ = new TestServer(options);
        token_ = server_->token(server_->createUser("conn@example.com"), TestServer::allScopes());
    }
    static void TearDownTestSuite() { delete server_; }

    /// Sends `request` on a new connection and returns all the server answers before closing.
    static std::string exchange(const std::string& request) {
        RawConnection c(server_->port());
        EXPECT_TRUE(c.send(request));
        return c.read(5000);
    }
    static std::string post(const std::string& extra_headers, const std::string& body = {}) {
        return "POST /api/v1/workspaces HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer " + token_ +
               "\r\nContent-Type: application/json\r\n" + extra_headers + "\r\n" + body;
    }
    static TestServer* server_;
    static std::string token_;
};
TestServer* HttpConnection::server_ = nullptr;
std::string HttpConnection::token_;

/// The status line's code and the JSON body of a whole response.
std::pair<int, nlohmann::json> parse(const std::string& response) {
    if (response.size() < 12) return {0, nullptr};
    const auto body_at = response.find("\r\n\r\n");
    nlohmann::json body = nlohmann::json::parse(
        body_at == std::string::npos ? std::string() : response.substr(body_at + 4), nullptr,
        false);
    return {std::stoi(response.substr(9, 3)), body};
}

void expectErrorShape(const nlohmann::json& body, const std::string& code) {
    ASSERT_TRUE(body.is_object()) << body;
    EXPECT_EQ(body["code"], code);
    EXPECT_TRUE(body["detail"].is_string());
    EXPECT_EQ(body["trace_id"].get<std::string>().size(), 32u);
}

TEST_F(HttpConnection, PostWithoutALengthIs411AtOnce) {
    const auto started = Clock::now();
    const auto [status, body] = parse(exchange(post("")));
    EXPECT_EQ(status, 411);
    expectErrorShape(body, "length_required");
    EXPECT_LT(Clock::now() - started, std::chrono::seconds(2));
}

TEST_F(HttpConnection, DuplicateOrConflictingLengthsAre400) {
    for (const std::string headers : {"Content-Length: 2\r\nContent-Length: 2\r\n",
                                      "Content-Length: 2\r\nContent-Length: 3\r\n",
                                      "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n"}) {
        const auto [status, body] = parse(exchange(post(headers, "{}")));
        EXPECT_EQ(status, 400) << headers;
        expectErrorShape(body, "invalid_framing");
    }
}

TEST_F(HttpConnection, MalformedLengthIs400WithABody) {
    for (const std::string value : {"abc", "-1", "+2", "99999999999999999999999"}) {
        const auto [status, body] =
            parse(exchange(post("Content-Length: " + value + "\r\n", "{}")));
        EXPECT_EQ(status, 400) << value;
        expectErrorShape(body, "invalid_content_length");
    }
}

TEST_F(HttpConnection, UnknownTransferEncodingIs501) {
    const auto [status, body] = parse(exchange(post("Transfer-Encoding: gzip\r\n", "{}")));
    EXPECT_EQ(status, 501);
    expectErrorShape(body, "unsupported_transfer_encoding");
}

TEST_F(HttpConnection, ChunkedBodiesAreStillRead) {
    const std::string json = R"({"name":"chunked"})";
    std::ostringstream chunk;
    chunk << std::hex << json.size() << "\r\n" << json << "\r\n0\r\n\r\n";
    const auto [status, body] =
        parse(exchange(post("Transfer-Encoding: chunked\r\nConnection: close\r\n", chunk.str())));
    EXPECT_EQ(status, 201) << body;
    EXPECT_EQ(body["name"], "chunked");
}

TEST_F(HttpConnection, BodyOverTheOperationsLimitIs413BeforeItIsSent) {
    // Only the head goes out: the answer must not wait for the 2 MiB.
    RawConnection c(server_->port());
    ASSERT_TRUE(c.send(post("Content-Length: " + std::to_string(2 << 20) + "\r\n")));
    const auto [status, body] = parse(c.read(3000));
    EXPECT_EQ(status, 413);
    expectErrorShape(body, "payload_too_large");
}

TEST_F(HttpConnection, SlowRequestHeadIsCutAtItsDeadline) {
    RawConnection c(server_->port());
    const auto started = Clock::now();
    ASSERT_TRUE(c.send("GET /healthz HTTP/1.1\r\n"));
    // A header line every 100 ms would go on for 10 s; the deadline ends it first.
    std::string answer;
    for (int i = 0; i < 100 && !c.closed(); ++i) {
        if (!c.send("X-Drip-" + std::to_string(i) + ": 1\r\n")) break;
        answer += c.read(100);
    }
    const auto took = Clock::now() - started;
    EXPECT_TRUE(c.closed() || answer.rfind("HTTP/1.1 408", 0) == 0) << answer;
    EXPECT_LT(took, std::chrono::milliseconds(kHeaderTimeoutMs + 1500));
    if (!answer.empty()) {
        EXPECT_EQ(parse(answer).first, 408) << answer;
    }
}

TEST_F(HttpConnection, IdleConnectionIsClosedAtTheHeaderDeadline) {
    RawConnection c(server_->port());
    const auto started = Clock::now();
    EXPECT_EQ(c.read(5000), "");
    EXPECT_TRUE(c.closed());
    EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(kHeaderTimeoutMs + 1500));
}

TEST_F(HttpConnection, OneAddressHoldsAtMostItsCapWhileAnotherIsServed) {
    const std::string health = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n";
    std::vector<std::unique_ptr<RawConnection>> held;
    for (int i = 0; i < kCap; ++i) {
        held.push_back(std::make_unique<RawConnection>(server_->port(), "127.0.0.2"));
        // An answered request proves the connection is counted.
        ASSERT_TRUE(held.back()->send(health));
        ASSERT_NE(held.back()->read(3000, "\"ok\"}").find("200 OK"), std::string::npos);
    }
    RawConnection extra(server_->port(), "127.0.0.2");
    extra.send(health);
    EXPECT_EQ(extra.read(3000), "");
    EXPECT_TRUE(extra.closed());

    EXPECT_EQ(server_->get("/healthz").status, 200);  // from 127.0.0.1

    held.pop_back();  // frees one place for 127.0.0.2
    bool served = false;
    for (int attempt = 0; attempt < 50 && !served; ++attempt) {
        RawConnection again(server_->port(), "127.0.0.2");
        again.send(health);
        served = again.read(3000, "\"ok\"}").find("200 OK") != std::string::npos;
        if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(served);
}

}  // namespace
}  // namespace docintel::test

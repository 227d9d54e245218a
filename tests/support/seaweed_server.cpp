#include "support/seaweed_server.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>

#include "support/test_server.h"

namespace docintel::test {
namespace {

/// True when nothing listens on 127.0.0.1:`port` (a bind succeeds).
bool portFree(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return free;
}

/// Six HTTP ports base..base+5 and their gRPC ports +10000, all free, below Linux's ephemeral
/// range (weed mini moves a busy default port but fails on a busy explicit one).
int freePortBlock() {
    std::mt19937 random(std::random_device{}());
    std::uniform_int_distribution<int> pick(12000, 21000);
    for (int attempt = 0; attempt < 200; ++attempt) {
        const int base = pick(random);
        bool free = true;
        for (int i = 0; i < 6 && free; ++i) free = portFree(base + i) && portFree(base + 10000 + i);
        if (free) return base;
    }
    throw std::runtime_error("no free block of ports for SeaweedFS");
}

/// The S3 port answers (an anonymous request is refused with 403, which is an answer).
bool answers(int port) {
    try {
        Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
        session.setTimeout(Poco::Timespan(1, 0));
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, "/",
                                       Poco::Net::HTTPMessage::HTTP_1_1);
        session.sendRequest(request);
        Poco::Net::HTTPResponse response;
        session.receiveResponse(response).ignore(1 << 20);
        return response.getStatus() > 0;
    } catch (const Poco::Exception&) {
        return false;
    }
}

}  // namespace

SeaweedServer::SeaweedServer() {
    const std::string weed = sourceDir() + "/var/seaweedfs/weed";
    if (!std::filesystem::exists(weed)) {
        throw std::runtime_error("SeaweedFS is not installed at " + weed +
                                 ": run `make e2e-deps` (server/scripts/fetch-seaweedfs.sh)");
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "docintel-s3-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    std::filesystem::create_directories(dir_ + "/data");
    std::ofstream(dir_ + "/s3.json")
        << R"({"identities": [{"name": "docintel-test", "credentials": [{"accessKey": ")"
        << kAccessKey << R"(", "secretKey": ")" << kSecretKey
        << R"("}], "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]})";

    const int base = freePortBlock();
    const auto port = [&](int i, bool grpc = false) {
        return std::to_string(base + i + (grpc ? 10000 : 0));
    };
    const std::vector<std::string> args = {weed,
                                           "mini",
                                           "-ip=127.0.0.1",
                                           "-ip.bind=127.0.0.1",
                                           "-dir=" + dir_ + "/data",
                                           "-master.port=" + port(0),
                                           "-master.port.grpc=" + port(0, true),
                                           "-volume.port=" + port(1),
                                           "-volume.port.grpc=" + port(1, true),
                                           "-filer.port=" + port(2),
                                           "-filer.port.grpc=" + port(2, true),
                                           "-s3.port=" + port(3),
                                           "-s3.port.grpc=" + port(3, true),
                                           "-s3.port.iceberg=0",
                                           "-s3.port.lance=0",
                                           "-webdav=false",
                                           "-webdav.port=" + port(4),
                                           "-admin.ui=false",
                                           "-admin.port=" + port(5),
                                           "-admin.port.grpc=" + port(5, true),
                                           "-admin.port.legacy=0",
                                           "-master.telemetry=false",
                                           "-master.volumeSizeLimitMB=64",
                                           "-volume.max=8",
                                           "-s3.config=" + dir_ + "/s3.json"};
    process_ = std::make_unique<ChildProcess>(args, dir_ + "/weed.log");
    endpoint_ = "http://127.0.0.1:" + port(3);

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        if (!process_->running()) {
            throw std::runtime_error("SeaweedFS exited during start-up; its log ends:\n" +
                                     process_->logTail());
        }
        if (answers(base + 3)) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const std::string tail = process_->logTail();
    process_->stop(SIGKILL, std::chrono::milliseconds(0));
    throw std::runtime_error("SeaweedFS did not answer within 60 s; its log ends:\n" + tail);
}

SeaweedServer::~SeaweedServer() {
    process_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

}  // namespace docintel::test

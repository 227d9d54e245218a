#include "support/webhook_receiver.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

std::string receiverPython() { return sourceDir() + "/var/webhook-receiver/bin/python"; }

}  // namespace

WebhookReceiver::WebhookReceiver() {
    if (!std::filesystem::exists(receiverPython())) {
        ADD_FAILURE() << receiverPython() << " is missing: run `make e2e-deps`";
        return;
    }
    int out[2];
    if (::pipe(out) != 0) {
        ADD_FAILURE() << "pipe failed";
        return;
    }
    pid_ = ::fork();
    if (pid_ == 0) {
        ::dup2(out[1], STDOUT_FILENO);
        ::close(out[0]);
        ::close(out[1]);
        const std::string script = sourceDir() + "/tests/e2e/webhooks/receiver.py";
        // argv[0] is the venv's path: Python finds its prefix (and the venv's packages) from it.
        const std::string python = receiverPython();
        ::execl(python.c_str(), python.c_str(), script.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(out[1]);
    FILE* from = ::fdopen(out[0], "r");
    char line[64] = {};
    if (from == nullptr || std::fgets(line, sizeof line, from) == nullptr) {
        ADD_FAILURE() << "the webhook receiver did not start";
    } else {
        port_ = std::atoi(line);
    }
    if (from) std::fclose(from);
}

WebhookReceiver::~WebhookReceiver() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
}

std::string WebhookReceiver::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::string WebhookReceiver::control(const std::string& method, const std::string& path,
                                     const std::string& body) const {
    Poco::Net::HTTPClientSession s("127.0.0.1", static_cast<Poco::UInt16>(port_));
    Poco::Net::HTTPRequest req(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    req.setContentLength(static_cast<std::streamsize>(body.size()));
    s.sendRequest(req) << body;
    Poco::Net::HTTPResponse resp;
    std::string out;
    Poco::StreamCopier::copyToString(s.receiveResponse(resp), out);
    return out;
}

void WebhookReceiver::setSecrets(const std::string& path,
                                 const std::vector<std::string>& secrets) const {
    control("POST", "/_control/secrets",
            nlohmann::json{{"path", path}, {"secrets", secrets}}.dump());
}

void WebhookReceiver::plan(const std::string& path, const std::vector<int>& statuses,
                           int delay_ms) const {
    control("POST", "/_control/plan",
            nlohmann::json{{"path", path}, {"statuses", statuses}, {"delay_ms", delay_ms}}.dump());
}

nlohmann::json WebhookReceiver::received() const {
    return nlohmann::json::parse(control("GET", "/_control/received"));
}

nlohmann::json WebhookReceiver::receivedAt(const std::string& path) const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : received()) {
        if (r["path"] == path) out.push_back(r);
    }
    return out;
}

nlohmann::json WebhookReceiver::waitFor(const std::string& path,
                                        const std::function<bool(const nlohmann::json&)>& done,
                                        int seconds) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    nlohmann::json last = receivedAt(path);
    while (!done(last) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        last = receivedAt(path);
    }
    return last;
}

}  // namespace docintel::test

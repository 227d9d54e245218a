#include "support/llama_server.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/URI.h>

#include "support/test_server.h"

namespace docintel::test {
namespace {

std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// GET <address>/health answers 200 (the model is loaded and the slots are idle or busy).
bool healthy(const std::string& address) {
    try {
        const Poco::URI uri(address);
        Poco::Net::HTTPClientSession session(uri.getHost(), uri.getPort());
        session.setTimeout(Poco::Timespan(2, 0));
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, "/health",
                                       Poco::Net::HTTPMessage::HTTP_1_1);
        session.sendRequest(request);
        Poco::Net::HTTPResponse response;
        session.receiveResponse(response).ignore(1 << 20);
        return response.getStatus() == Poco::Net::HTTPResponse::HTTP_OK;
    } catch (const Poco::Exception&) {
        return false;
    }
}

}  // namespace

std::string llmDir() {
    const char* env = std::getenv("DOCINTEL_LLM_DIR");
    return env != nullptr && *env != '\0' ? env : sourceDir() + "/var/llm";
}

LlamaServer::LlamaServer(Options options) {
    const std::string python = llmDir() + "/venv/bin/python";
    if (!std::filesystem::exists(python) || !std::filesystem::exists(llmDir() + "/INSTALLED")) {
        throw std::runtime_error("the LLM engine is not installed in " + llmDir() +
                                 ": run `make e2e-deps` (server/scripts/fetch-llm.sh)");
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "docintel-llm-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    const std::string address_file = dir_ + "/address";
    const std::string log = dir_ + "/engine.log";

    std::vector<std::string> args = {python,
                                     sourceDir() + "/server/scripts/llm-server.py",
                                     "--port",
                                     "0",
                                     "--ctx",
                                     std::to_string(options.context_tokens),
                                     "--threads",
                                     std::to_string(options.threads),
                                     "--max-tokens",
                                     std::to_string(options.max_tokens),
                                     "--address-file",
                                     address_file,
                                     "--exit-with-parent"};
    process_ = std::make_unique<ChildProcess>(args, log);

    // Poll with a deadline: the address file appears once the model is loaded and the port
    // listens; then /health must answer 200.
    const auto deadline = std::chrono::steady_clock::now() + options.start_deadline;
    const auto fail = [&](const std::string& why) {
        const std::string tail = logTail();
        process_->stop(SIGKILL, std::chrono::milliseconds(0));
        throw std::runtime_error("the LLM engine " + why + "; its log ends:\n" + tail);
    };
    while (std::chrono::steady_clock::now() < deadline) {
        if (!process_->running()) fail("exited during start-up");
        if (address_.empty()) address_ = firstLine(address_file);
        if (!address_.empty() && healthy(address_)) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    fail("did not answer /health within " + std::to_string(options.start_deadline.count()) + " s");
}

LlamaServer::~LlamaServer() {
    process_.reset();  // SIGTERM, then SIGKILL after 10 s
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void LlamaServer::kill() { process_->stop(SIGKILL, std::chrono::milliseconds(0)); }

std::string LlamaServer::logTail(std::size_t bytes) const { return process_->logTail(bytes); }

}  // namespace docintel::test

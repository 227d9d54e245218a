#include "support/llama_server.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
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

extern char** environ;

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
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int spawned = posix_spawn(&pid_, python.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        pid_ = -1;
        throw std::runtime_error("cannot start " + python + ": " + std::strerror(spawned));
    }

    // Poll with a deadline: the address file appears once the model is loaded and the port
    // listens; then /health must answer 200.
    const auto deadline = std::chrono::steady_clock::now() + options.start_deadline;
    const auto fail = [&](const std::string& why) {
        const std::string tail = logTail();
        stop(SIGKILL, std::chrono::milliseconds(0));
        throw std::runtime_error("the LLM engine " + why + "; its log ends:\n" + tail);
    };
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            fail("exited during start-up");
        }
        if (address_.empty()) address_ = firstLine(address_file);
        if (!address_.empty() && healthy(address_)) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    fail("did not answer /health within " + std::to_string(options.start_deadline.count()) + " s");
}

LlamaServer::~LlamaServer() {
    stop(SIGTERM, std::chrono::seconds(10));
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void LlamaServer::kill() { stop(SIGKILL, std::chrono::milliseconds(0)); }

void LlamaServer::stop(int signal, std::chrono::milliseconds grace) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline && signal != SIGKILL) {
            ::kill(pid_, SIGKILL);
            signal = SIGKILL;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
}

std::string LlamaServer::logTail(std::size_t bytes) const {
    const std::string text = readFile(dir_ + "/engine.log");
    return text.size() > bytes ? text.substr(text.size() - bytes) : text;
}

}  // namespace docintel::test

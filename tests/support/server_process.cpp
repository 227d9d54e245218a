#include "support/server_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Poco/Net/ServerSocket.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "common/id.h"
#include "support/test_server.h"

namespace docintel::test {

namespace fs = std::filesystem;

ServerProcesses::ServerProcesses(const std::string& database_url, const std::string& extra_env) {
    data_dir_ = (fs::temp_directory_path() / ("docintel-proc-" + common::newUuid())).string();
    fs::create_directories(data_dir_ + "/plugins");
    port_ = freePort();
    env_ = "DOCINTEL_DATABASE_URL='" + database_url + "' DOCINTEL_DATA_DIR='" + data_dir_ +
           "' DOCINTEL_PORT=" + std::to_string(port_) +
           " DOCINTEL_MCP_PORT=" + std::to_string(freePort()) +
           " DOCINTEL_BASE_URL=http://127.0.0.1:" + std::to_string(port_) +
           " DOCINTEL_PLUGINS_DIR='" + data_dir_ + "/plugins' " + extra_env;
}

ServerProcesses::~ServerProcesses() {
    for (const pid_t pid : children_) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    std::error_code ignored;
    fs::remove_all(data_dir_, ignored);
}

std::string ServerProcesses::binary(const std::string& name) {
    return DOCINTEL_BINARY_DIR "/server/" + name;
}

int ServerProcesses::freePort() {
    Poco::Net::ServerSocket s(Poco::Net::SocketAddress("127.0.0.1", 0));
    return s.address().port();
}

std::pair<int, std::string> ServerProcesses::run(const std::string& env,
                                                 const std::string& command) {
    const std::string full = "env " + env + " " + command + " 2>/dev/null";
    FILE* p = ::popen(full.c_str(), "r");
    if (p == nullptr) return {-1, ""};
    std::string out;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
    const int status = ::pclose(p);
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::pair<int, std::string> ServerProcesses::admin(const std::string& args) const {
    return run(env_, binary("docintel-admin") + " " + args);
}

std::string ServerProcesses::preparedToken(const std::string& email,
                                           const std::string& scopes) const {
    if (admin("migrate").first != 0) return "";
    if (admin("user create --email " + email + " --password pw-123456").first != 0) return "";
    const auto token =
        admin("token --email " + email + " --audience rest --scope '" + scopes + "'");
    return token.first == 0 ? token.second : "";
}

pid_t ServerProcesses::spawn(const std::string& args, const std::string& extra_env) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const std::string cmd = "exec env " + env_ + " " + extra_env + " " +
                                binary("docintel-server") + " " + args + " 2>/dev/null";
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    children_.push_back(pid);
    return pid;
}

pid_t ServerProcesses::start(const std::string& args, const std::string& extra_env, int seconds) {
    return startNode(port_, args, extra_env, seconds);
}

pid_t ServerProcesses::startNode(int port, const std::string& args, const std::string& extra_env,
                                 int seconds) {
    const pid_t pid = spawn(args, "DOCINTEL_PORT=" + std::to_string(port) + " DOCINTEL_MCP_PORT=" +
                                      std::to_string(freePort()) + " " + extra_env);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            if (httpRequest(port, "GET", "/healthz").status == 200) return pid;
        } catch (const std::exception&) {
            // not listening yet
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
}

void ServerProcesses::kill(pid_t pid) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    std::erase(children_, pid);
}

int ServerProcesses::waitExit(pid_t pid, int seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            std::erase(children_, pid);
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -2;
}

}  // namespace docintel::test

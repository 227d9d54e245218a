#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace docintel::test {

/// The shipped binaries run as an operator runs them: `docintel-admin` and `docintel-server`
/// with a private data directory, free ports and the given database. Servers started here are
/// killed, and the directory removed, when this goes out of scope.
class ServerProcesses {
  public:
    /// `extra_env`: more `NAME=value` settings for every command (space-separated).
    explicit ServerProcesses(const std::string& database_url, const std::string& extra_env = "");
    ~ServerProcesses();
    ServerProcesses(const ServerProcesses&) = delete;
    ServerProcesses& operator=(const ServerProcesses&) = delete;

    /// The path of a built binary of server/ (docintel-server, docintel-admin).
    static std::string binary(const std::string& name);
    /// A TCP port free on 127.0.0.1 when asked.
    static int freePort();
    /// Runs `command` with the environment `env`; its exit status and stdout (last newline cut).
    static std::pair<int, std::string> run(const std::string& env, const std::string& command);

    /// `docintel-admin <args>` in this environment.
    std::pair<int, std::string> admin(const std::string& args) const;
    /// Migrates, creates `email` and returns a REST token for `scopes` ("" on failure).
    std::string preparedToken(const std::string& email, const std::string& scopes) const;

    /// Starts docintel-server with `args` and `extra_env`, without waiting.
    pid_t spawn(const std::string& args = "", const std::string& extra_env = "");
    /// Starts docintel-server and waits until /healthz answers 200; -1 if it does not in time.
    pid_t start(const std::string& args = "", const std::string& extra_env = "", int seconds = 30);
    /// Another node of the same deployment (same database, data and base URL) listening on
    /// `port` (its MCP listener on a free port); waits as start() does.
    pid_t startNode(int port, const std::string& args = "", const std::string& extra_env = "",
                    int seconds = 60);
    /// SIGKILL and reap.
    void kill(pid_t pid);
    /// The exit status of `pid` within `seconds`; -1 killed by a signal, -2 still running.
    int waitExit(pid_t pid, int seconds);

    const std::string& env() const { return env_; }
    const std::string& dataDir() const { return data_dir_; }
    int port() const { return port_; }

  private:
    std::string data_dir_;
    std::string env_;
    int port_ = 0;
    std::vector<pid_t> children_;
};

}  // namespace docintel::test

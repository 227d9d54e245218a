#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace docintel::test {

/// A helper program a test runs (an LLM engine, an S3 server): started with its output in a log
/// file, stopped (SIGTERM, then SIGKILL after a grace period) when the object goes, and sent
/// SIGTERM by the kernel if the test process dies first (PR_SET_PDEATHSIG).
///
/// Not thread-safe; one owner.
class ChildProcess {
  public:
    /// Starts `argv[0]` with `argv`, stdin from /dev/null, stdout and stderr into `log`.
    /// Throws std::runtime_error when it cannot be started.
    ChildProcess(const std::vector<std::string>& argv, std::string log);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    /// False once it has exited (reaped).
    bool running();
    /// `signal` now; after `grace` SIGKILL; reaps it.
    void stop(int signal, std::chrono::milliseconds grace);
    /// The last `bytes` of its log.
    std::string logTail(std::size_t bytes = 4000) const;
    pid_t pid() const { return pid_; }

  private:
    std::string log_;
    pid_t pid_ = -1;
};

}  // namespace docintel::test

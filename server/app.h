#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/config.h"

namespace docintel::server {

/// The composed server: storage, auth, services, the route table, the plugin host and the
/// HTTP listener, wired once. `start` serves until `stop`. Tests create one on port 0 in
/// process; `docintel-server` wraps one in a Poco ServerApplication.
///
/// Not thread-safe: start/stop from one thread. Everything it serves is thread-safe.
class App {
  public:
    explicit App(Config config);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    /// Migrates the database when `migrate` is set, loads keys and plugins, binds and starts
    /// serving. Throws std::runtime_error when a part cannot start.
    void start(bool migrate = true);
    /// Finishes in-flight requests (up to `grace_ms`) and stops background threads.
    void stop(int grace_ms = 10000);

    int port() const;
    /// The MCP listener's port (0 when this role serves no MCP).
    int mcpPort() const;
    const Config& config() const { return config_; }

  private:
    struct Parts;
    void startMcp(Parts& parts);

    Config config_;
    std::unique_ptr<Parts> parts_;
};

}  // namespace docintel::server

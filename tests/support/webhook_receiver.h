#pragma once

#include <functional>
#include <string>
#include <vector>

#include <sys/types.h>
#include <nlohmann/json.hpp>

namespace docintel::test {

/// tests/e2e/webhooks/receiver.py in a child process: a real HTTP receiver that verifies each
/// delivery with the Standard Webhooks reference library and the X-DocIntel scheme (its venv is
/// installed by `make e2e-deps`). Killed when the object goes.
class WebhookReceiver {
  public:
    /// Starts the receiver; the test fails (FAIL) when it cannot.
    WebhookReceiver();
    ~WebhookReceiver();
    WebhookReceiver(const WebhookReceiver&) = delete;
    WebhookReceiver& operator=(const WebhookReceiver&) = delete;

    int port() const { return port_; }
    /// http://127.0.0.1:<port><path>
    std::string url(const std::string& path) const;
    /// The secrets deliveries to `path` are verified with.
    void setSecrets(const std::string& path, const std::vector<std::string>& secrets) const;
    /// The next answers to `path` (then 200), each after `delay_ms`.
    void plan(const std::string& path, const std::vector<int>& statuses, int delay_ms = 0) const;
    /// Every delivery received so far (all paths), in arrival order.
    nlohmann::json received() const;
    /// The deliveries to `path`.
    nlohmann::json receivedAt(const std::string& path) const;
    /// Polls until `done(receivedAt(path))` or `seconds` pass; returns the last list.
    nlohmann::json waitFor(const std::string& path,
                           const std::function<bool(const nlohmann::json&)>& done,
                           int seconds = 30) const;

  private:
    std::string control(const std::string& method, const std::string& path,
                        const std::string& body = {}) const;
    pid_t pid_ = -1;
    int port_ = 0;
};

}  // namespace docintel::test

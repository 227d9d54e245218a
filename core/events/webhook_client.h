#pragma once

#include <string>
#include <utility>
#include <vector>

#include "events/webhook_destination.h"

namespace docintel::events {

/// What one POST to a receiver came to.
struct WebhookResponse {
    int http_status = 0;           ///< 0 = no response
    std::string response_preview;  ///< at most kPreviewBytes of the body, valid UTF-8
    int duration_ms = 0;
    std::string error_code;  ///< timeout | connection_failed | tls_error; empty on a response
};

/// POSTs a webhook to a checked Destination: connects to the addresses checked (never resolving
/// the host again), sends the host name in Host and TLS SNI (verified against the system CAs),
/// follows no redirect, and gives up after `timeout_ms` per connect, send and receive.
/// Stateless; thread-safe.
class WebhookClient {
  public:
    static constexpr std::size_t kPreviewBytes = 1000;

    explicit WebhookClient(int timeout_ms = 10000) : timeout_ms_(timeout_ms) {}

    WebhookResponse post(const Destination& destination,
                         const std::vector<std::pair<std::string, std::string>>& headers,
                         const std::string& body) const;

  private:
    const int timeout_ms_;
};

}  // namespace docintel::events

#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "events/webhook_destination.h"

namespace Poco::Net {
class HTTPClientSession;
}

namespace docintel::events {

/// What one POST to a receiver came to.
struct WebhookResponse {
    int http_status = 0;           ///< 0 = no response
    std::string response_preview;  ///< at most kPreviewBytes of the body, valid UTF-8
    int duration_ms = 0;
    std::string error_code;  ///< timeout | connection_failed | tls_error; empty on a response
};

/// POSTs webhooks to checked Destinations: connects to the addresses checked (never resolving
/// the host again), sends the host name in Host and TLS SNI (verified against the system CAs),
/// follows no redirect, and gives up after `timeout_ms` per connect, send and receive.
///
/// The connection stays open between posts to the same destination (HTTP keep-alive), so a
/// sender draining a backlog does not connect for every delivery; another destination, an
/// error or a receiver that closes starts a new one, and a post that fails on a kept
/// connection before any response is sent once more on a fresh one (the receiver drops the
/// duplicate by its webhook-id). Not thread-safe: one per sender run.
class WebhookClient {
  public:
    static constexpr std::size_t kPreviewBytes = 1000;

    explicit WebhookClient(int timeout_ms = 10000);
    ~WebhookClient();
    WebhookClient(const WebhookClient&) = delete;
    WebhookClient& operator=(const WebhookClient&) = delete;

    WebhookResponse post(const Destination& destination,
                         const std::vector<std::pair<std::string, std::string>>& headers,
                         const std::string& body);

  private:
    /// A session to one of `destination`'s addresses: the kept one when it goes there, else a
    /// new connection (null with `out.error_code` set when none connects).
    Poco::Net::HTTPClientSession* session(const Destination& destination, WebhookResponse& out,
                                          bool* reused);
    /// One exchange on `session`; false when it failed before any response arrived.
    bool exchange(Poco::Net::HTTPClientSession& session, const Destination& destination,
                  const std::vector<std::pair<std::string, std::string>>& headers,
                  const std::string& body, WebhookResponse& out);

    const int timeout_ms_;
    std::unique_ptr<Poco::Net::HTTPClientSession> session_;
    std::string session_key_;  ///< scheme, host, port and the address connected to
};

}  // namespace docintel::events

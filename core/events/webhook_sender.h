#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/secret_box.h"
#include "events/webhook_client.h"
#include "events/webhook_destination.h"
#include "jobs/worker_pool.h"
#include "storage/webhook_repository.h"

namespace docintel::events {

struct SenderOptions {
    WebhookPolicy policy;
    /// Retry n waits min(kMaxDelay, 2^n × base + random 0..base): about 10 s, 20 s, 40 s … with
    /// the default 5 s (DOCINTEL_WEBHOOK_RETRY_BASE_MS; tests shorten it).
    int retry_base_ms = 5000;
    int max_attempts = 6;
    int timeout_ms = 10000;
};

/// The `webhook_send` job: one per subscription (storage::WebhookRepository), it sends the
/// subscription's open deliveries one at a time in event order, so a receiver sees them in
/// sequence: a delivery waiting for its retry holds the later ones back until it is delivered
/// or dead-lettered. It runs for a few seconds at most, then queues itself again (due when the
/// next delivery is, or when the sequencer wakes it).
///
/// A run marks the deliveries due now `delivering`, sends them one after another on one kept
/// connection, and writes their outcomes in one transaction when the run of sends ends (two
/// commits for up to 50 deliveries). A killed worker leaves them `delivering` and the job's
/// lease expiring; the job is claimed again and sends them again with the same `webhook-id`.
/// Thread-safe (no state of its own beyond immutable options).
class WebhookSender {
  public:
    static constexpr double kMaxDelaySeconds = 3600;
    static constexpr double kIdleSeconds = 5;

    WebhookSender(storage::WebhookRepository& webhooks,
                  std::shared_ptr<const common::SecretBox> secrets, SenderOptions options)
        : webhooks_(webhooks), secrets_(std::move(secrets)), options_(options) {}

    /// The job handler. Never fails the job for a receiver's or the database's trouble: it
    /// tries again later instead.
    plugin::Status run(jobs::JobContext& context);

    /// Seconds before attempt `attempt + 1` after `attempt` failed.
    static double retryDelaySeconds(int attempt, int base_ms);

    /// The body of a delivery: the event as JSON.
    static std::string body(const storage::Event& event, const std::string& delivery_id);

  private:
    /// Sends one delivery (attempt number `attempt`), signed with the subscription's open
    /// `signing_secrets`, and says what it came to.
    storage::AttemptRecord send(WebhookClient& client, const storage::Subscription& subscription,
                                const std::vector<std::string>& signing_secrets,
                                const storage::OutgoingDelivery& outgoing, int attempt) const;

    storage::WebhookRepository& webhooks_;
    const std::shared_ptr<const common::SecretBox> secrets_;
    const SenderOptions options_;
};

}  // namespace docintel::events

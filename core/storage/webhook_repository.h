#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"
#include "storage/event_repository.h"

namespace docintel::storage {

/// An event subscription (migration 0070). Secrets are sealed boxes (common/secret_box.h).
struct Subscription {
    std::string id;
    std::string owner_id;
    std::string workspace_id;              ///< empty = the owner's personal events
    std::vector<std::string> event_types;  ///< empty = all
    std::string resource_type;             ///< empty = any
    std::string resource_id;               ///< empty = any
    std::string webhook_url;               ///< empty = none (a log filter only)
    std::string secret_box;
    std::string previous_secret_box;  ///< empty unless a rotation's grace period runs
    std::string previous_expires_at;
    bool active = true;
    std::string disabled_reason;
    std::string created_at;
    std::string updated_at;
};

/// A webhook delivery: one event to one subscription, sent until delivered or dead-lettered.
struct Delivery {
    std::string id;
    std::string subscription_id;
    std::string event_id;
    std::string event_type;
    long long sequence_number = 0;
    std::string status;  ///< events::DeliveryStatus text
    int attempts = 0;
    std::string next_attempt_at;
    int last_http_status = 0;  ///< 0 = none
    std::string last_error_code;
    std::string delivered_at;
    std::string created_at;
    std::string updated_at;
    nlohmann::json attempt_log = nlohmann::json::array();  ///< listed deliveries only
};

/// The next open delivery of a subscription, with its event, for the sender.
struct OutgoingDelivery {
    Delivery delivery;
    Event event;
    double wait_seconds = 0;  ///< 0 = due now
};

/// What one attempt recorded.
struct AttemptRecord {
    int attempt = 0;
    int http_status = 0;  ///< 0 = no response
    int duration_ms = 0;
    std::string response_preview;  ///< at most 1,000 bytes
    std::string error_code;        ///< empty = none
    std::string status;            ///< the delivery's status after it
    double retry_after_seconds = 0;
};

/// Subscriptions, deliveries and their attempts. Reads that take a `user_id` return only what
/// that user may see: subscriptions they own, personal or in a workspace where they are still a
/// member. Senders are `webhook_send` jobs, at most one per subscription (a unique index).
/// Thread-safe.
class WebhookRepository {
  public:
    static constexpr const char* kSendJob = "webhook_send";

    explicit WebhookRepository(Database& db) : db_(db) {}

    /// Inserts the subscription (a new id when empty) and its sender job.
    plugin::Result<Subscription> create(const Subscription& s);
    plugin::Result<std::vector<Subscription>> listVisible(const std::string& user_id);
    plugin::Result<std::optional<Subscription>> findVisible(const std::string& user_id,
                                                            const std::string& id);
    plugin::Status remove(const std::string& id);
    /// The new secret box replaces the current one, which stays valid `grace_seconds`.
    plugin::Result<Subscription> rotate(const std::string& id, const std::string& new_box,
                                        int grace_seconds);

    plugin::Result<std::vector<Delivery>> listDeliveries(const std::string& user_id,
                                                         const std::string& subscription_id,
                                                         const std::string& status, int limit);
    plugin::Result<std::optional<Delivery>> findDelivery(const std::string& user_id,
                                                         const std::string& id);
    /// Back to pending with a fresh attempt budget, due now; its sender runs.
    plugin::Result<Delivery> retry(const std::string& id);
    /// New pending deliveries of `event_id` for the user's subscriptions it matches.
    plugin::Result<std::vector<std::string>> replay(const std::string& user_id,
                                                    const std::string& event_id);
    /// Wakes the senders of the user's subscriptions with deliveries due now (at most `limit`
    /// deliveries' worth); returns how many deliveries are due.
    plugin::Result<int> wakeDue(const std::string& user_id, int limit);
    /// A sender job for every subscription with open deliveries (none lost if one failed).
    plugin::Status ensureSenders();
    /// Makes the sender job of each subscription due now in `tx` (creating it when missing); a
    /// sender running now runs again at once when it ends.
    static void wakeSenders(Tx& tx, const std::vector<std::string>& subscription_ids);

    // The sender's side.
    /// The subscription, when it may still send: active, with a URL, its owner still a member
    /// of its workspace.
    plugin::Result<std::optional<Subscription>> sendable(const std::string& id);
    /// Up to `n` open deliveries in event order (numbered events only).
    plugin::Result<std::vector<OutgoingDelivery>> nextOpen(const std::string& subscription_id,
                                                           int n);
    /// Marks the deliveries about to be sent `delivering`; the ids marked (those still open).
    plugin::Result<std::vector<std::string>> beginAttempts(const std::vector<std::string>& ids);
    /// In one transaction: records each attempt made (its log row, the delivery's status,
    /// attempt count and next due time) and puts back to `pending` those begun but not sent.
    plugin::Status finishAttempts(const std::vector<std::pair<std::string, AttemptRecord>>& done,
                                  const std::vector<std::string>& unsent);
    plugin::Status disable(const std::string& id, const std::string& reason);

  private:
    Database& db_;
};

}  // namespace docintel::storage

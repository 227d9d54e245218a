#pragma once

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "auth/document_access.h"
#include "common/secret_box.h"
#include "events/webhook_destination.h"
#include "plugin_api/http_types.h"
#include "plugin_api/result.h"
#include "storage/event_repository.h"
#include "storage/webhook_repository.h"

namespace docintel::events {

/// The REST operations of the event log, subscriptions and webhook deliveries (spec §6,
/// docs/events.md).
///
/// Authorization: a caller sees their own personal events and the events of workspaces they
/// belong to; subscriptions and deliveries are their own (a workspace's only while they are
/// still a member); creating a workspace subscription needs the editor or owner role there.
/// Anything else is 404, as if it did not exist. Validation failures are `validation_error`
/// errors whose message is the 422 detail array (http/json_handler.h). Signing secrets are
/// returned once, at creation and rotation, and never logged. Thread-safe.
class EventService {
  public:
    static constexpr int kMaxEventTypes = 50;
    static constexpr int kRotationGraceSeconds = 24 * 3600;

    struct Parts {
        storage::EventRepository& events;
        storage::WebhookRepository& webhooks;
        const auth::DocumentAccess& access;
        std::shared_ptr<const common::SecretBox> secrets;
        WebhookPolicy policy;
    };

    explicit EventService(Parts parts) : p_(std::move(parts)) {}
    /// Called after deliveries were queued, to wake this node's senders (optional).
    void setWake(std::function<void()> wake) { wake_ = std::move(wake); }

    /// GET /api/v1/events?after&resource_type&resource_id&limit → {events, next_sequence}.
    plugin::Result<nlohmann::json> listEvents(const plugin::Principal& caller,
                                              const std::string& after,
                                              const std::string& resource_type,
                                              const std::string& resource_id, int limit);
    /// POST /api/v1/events/{id}/replay (202).
    plugin::Result<nlohmann::json> replay(const plugin::Principal& caller,
                                          const std::string& event_id);

    /// POST /api/v1/event-subscriptions (SubscriptionInput, 201): the record and its `secret`.
    plugin::Result<nlohmann::json> createSubscription(const plugin::Principal& caller,
                                                      const std::string& header_workspace,
                                                      const nlohmann::json& body);
    plugin::Result<nlohmann::json> listSubscriptions(const plugin::Principal& caller);
    plugin::Result<nlohmann::json> deleteSubscription(const plugin::Principal& caller,
                                                      const std::string& id);
    /// POST /api/v1/event-subscriptions/{id}/rotate-secret: a new secret; the old one signs too
    /// for kRotationGraceSeconds.
    plugin::Result<nlohmann::json> rotateSecret(const plugin::Principal& caller,
                                                const std::string& id);

    plugin::Result<nlohmann::json> listDeliveries(const plugin::Principal& caller,
                                                  const std::string& subscription_id,
                                                  const std::string& status, int limit);
    /// POST /api/v1/webhook-deliveries/{id}/retry (202): back to pending.
    plugin::Result<nlohmann::json> retryDelivery(const plugin::Principal& caller,
                                                 const std::string& id);
    /// POST /api/v1/webhook-deliveries/process-due?limit (202): the caller's due deliveries go
    /// to their senders now.
    plugin::Result<nlohmann::json> processDue(const plugin::Principal& caller, int limit);

    static nlohmann::json toJson(const storage::Event& e);
    static nlohmann::json toJson(const storage::Subscription& s);
    static nlohmann::json toJson(const storage::Delivery& d);

  private:
    plugin::Result<std::string> sealedSecret(std::string* secret) const;
    void wake() const {
        if (wake_) wake_();
    }

    Parts p_;
    std::function<void()> wake_;
};

}  // namespace docintel::events

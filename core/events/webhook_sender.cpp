#include "events/webhook_sender.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "common/base64url.h"
#include "common/id.h"
#include "common/log.h"
#include "common/metrics.h"
#include "events/delivery_status.h"
#include "events/event_service.h"
#include "events/webhook_signer.h"

namespace docintel::events {
namespace {

using common::LogLevel;

constexpr int kBatch = 50;
constexpr auto kRunBudget = std::chrono::seconds(5);

/// The secrets that sign now: the current one, and the previous one during its grace period.
std::vector<std::string> openSecrets(const common::SecretBox& box, const storage::Subscription& s) {
    std::vector<std::string> out;
    for (const auto* sealed : {&s.secret_box, &s.previous_secret_box}) {
        if (sealed->empty()) continue;
        const auto bytes = common::base64UrlDecode(*sealed);
        if (!bytes) continue;
        if (auto secret = box.open(*bytes)) out.push_back(std::move(*secret));
    }
    return out;
}

}  // namespace

double WebhookSender::retryDelaySeconds(int attempt, int base_ms) {
    thread_local std::mt19937 rng{std::random_device{}()};
    const double base = base_ms / 1000.0;
    const double jitter = std::uniform_real_distribution<double>(0, base)(rng);
    return std::min(kMaxDelaySeconds, std::ldexp(base, std::min(attempt, 30)) + jitter);
}

std::string WebhookSender::body(const storage::Event& e, const std::string& delivery_id) {
    nlohmann::json out = EventService::toJson(e);
    out["api_version"] = "v1";
    out["type"] = e.type;
    out["delivery_id"] = delivery_id;
    return out.dump();
}

storage::AttemptRecord WebhookSender::send(WebhookClient& client,
                                           const storage::Subscription& subscription,
                                           const std::vector<std::string>& signing_secrets,
                                           const storage::OutgoingDelivery& outgoing,
                                           int attempt) const {
    storage::AttemptRecord a;
    a.attempt = attempt;
    const auto& d = outgoing.delivery;
    const auto& e = outgoing.event;
    // Checked at every attempt: the name may resolve elsewhere since the subscription was made.
    auto destination = resolveDestination(subscription.webhook_url, options_.policy);
    WebhookResponse response;
    if (!destination) {
        response.error_code = destination.error().code == "blocked_destination"
                                  ? "blocked_destination"
                                  : destination.error().code;
    } else {
        const std::string payload = body(e, d.id);
        const long long timestamp = std::chrono::duration_cast<std::chrono::seconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count();
        const std::string ts = std::to_string(timestamp);
        auto headers = WebhookSigner::headers(signing_secrets, d.id, timestamp, payload);
        headers.emplace_back("webhook-id", d.id);
        headers.emplace_back("webhook-timestamp", ts);
        headers.emplace_back("X-DocIntel-Event", e.type);
        headers.emplace_back("X-DocIntel-Event-ID", e.id);
        headers.emplace_back("X-DocIntel-Timestamp", ts);
        headers.emplace_back("X-DocIntel-Delivery-ID", d.id);
        headers.emplace_back("Idempotency-Key", d.id);
        response = client.post(*destination, headers, payload);
    }
    a.http_status = response.http_status;
    a.duration_ms = response.duration_ms;
    a.response_preview = std::move(response.response_preview);
    a.error_code = response.error_code;
    if (a.http_status >= 200 && a.http_status < 300) {
        a.status = toString(DeliveryStatus::kDelivered);
    } else if (a.http_status == 410) {
        a.error_code = "gone";
        a.status = toString(DeliveryStatus::kDeadLetter);
    } else {
        if (a.error_code.empty()) a.error_code = "http_" + std::to_string(a.http_status);
        if (attempt >= options_.max_attempts) {
            a.status = toString(DeliveryStatus::kDeadLetter);
        } else {
            a.status = toString(DeliveryStatus::kRetrying);
            a.retry_after_seconds = retryDelaySeconds(attempt, options_.retry_base_ms);
        }
    }
    return a;
}

plugin::Status WebhookSender::run(jobs::JobContext& context) {
    const std::string subscription_id = context.payload().value("subscription_id", "");
    if (!common::isUuid(subscription_id)) return {};  // not a sender of any subscription
    const auto until = std::chrono::steady_clock::now() + kRunBudget;
    const auto later = [&](double seconds, const char* why = nullptr) -> plugin::Status {
        if (why) {
            common::log(LogLevel::kWarning, "webhook_sender_paused",
                        {{"subscription_id", subscription_id}, {"reason", why}});
        }
        context.runAgainAfter(std::min(seconds, kIdleSeconds));
        return {};
    };
    WebhookClient client(options_.timeout_ms);  // one kept connection for this run
    while (std::chrono::steady_clock::now() < until) {
        auto subscription = webhooks_.sendable(subscription_id);
        if (!subscription) return later(kIdleSeconds, "database");
        if (!*subscription) return {};  // deleted, disabled or no longer permitted: done
        auto batch = webhooks_.nextOpen(subscription_id, kBatch);
        if (!batch) return later(kIdleSeconds, "database");
        if (batch->empty()) return later(kIdleSeconds);
        // The deliveries due now, up to the first that waits (for its retry, in order).
        std::vector<std::string> due;
        for (const auto& outgoing : *batch) {
            if (outgoing.wait_seconds > 0) break;
            due.push_back(outgoing.delivery.id);
        }
        if (due.empty()) return later(batch->front().wait_seconds);
        auto begun = webhooks_.beginAttempts(due);
        if (!begun) return later(kIdleSeconds, "database");

        const std::vector<std::string> secrets = openSecrets(*secrets_, **subscription);
        // Sent one after another; the outcomes are written together when the run of sends
        // ends (a killed worker leaves them `delivering`, and they are sent again).
        std::vector<std::pair<std::string, storage::AttemptRecord>> done;
        std::vector<std::string> unsent;
        double retry_after = -1;
        bool gone = false;
        for (const auto& outgoing : *batch) {
            const std::string& id = outgoing.delivery.id;
            if (std::find(begun->begin(), begun->end(), id) == begun->end()) continue;
            if (retry_after >= 0 || gone || std::chrono::steady_clock::now() >= until) {
                unsent.push_back(id);
                continue;
            }
            storage::AttemptRecord a =
                send(client, **subscription, secrets, outgoing, outgoing.delivery.attempts + 1);
            common::log(a.status == "delivered" ? LogLevel::kInfo : LogLevel::kWarning,
                        "webhook_attempt",
                        {{"delivery_id", id},
                         {"subscription_id", subscription_id},
                         {"event_type", outgoing.event.type},
                         {"attempt", std::to_string(a.attempt)},
                         {"http_status", std::to_string(a.http_status)},
                         {"error_code", a.error_code},
                         {"status", a.status},
                         {"trace_id", outgoing.event.trace_id}});
            common::Metrics::instance().add("docintel_webhook_attempts_total",
                                            "Webhook delivery attempts, by the status they left.",
                                            {{"status", a.status}});
            gone = a.error_code == "gone";
            // In order: a delivery waiting for its retry holds the later ones back.
            if (a.status == toString(DeliveryStatus::kRetrying))
                retry_after = a.retry_after_seconds;
            done.emplace_back(id, std::move(a));
        }
        if (auto ok = webhooks_.finishAttempts(done, unsent); !ok) {
            return later(kIdleSeconds, "database");
        }
        if (gone) {
            (void)webhooks_.disable(subscription_id, "receiver answered 410 Gone");
            return {};
        }
        if (retry_after >= 0) return later(retry_after);
    }
    return later(0);
}

}  // namespace docintel::events

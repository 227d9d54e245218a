#include "events/event_service.h"

#include <algorithm>

#include "common/base64url.h"
#include "common/id.h"
#include "events/delivery_status.h"
#include "events/webhook_signer.h"

namespace docintel::events {
namespace {

using nlohmann::json;

json nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

plugin::Error invalid(json loc, const std::string& msg, const std::string& type = "value_error") {
    return plugin::Error{
        "validation_error",
        json::array({{{"loc", std::move(loc)}, {"msg", msg}, {"type", type}}}).dump(), 422};
}

plugin::Error notFound(const char* what) {
    return plugin::Error{std::string(what) + "_not_found", std::string(what) + " not found", 404};
}

/// Events are recorded for people: a token without a user (a client-credentials application)
/// has no personal scope or memberships.
plugin::Status requireUser(const plugin::Principal& caller) {
    if (caller.user_id.empty()) {
        return plugin::Error{"user_required", "events belong to users; use a user's token", 403};
    }
    return {};
}

bool validEventType(const std::string& t) {
    if (t.empty() || t.size() > 80) return false;
    return std::all_of(t.begin(), t.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_';
    });
}

std::string optionalString(const json& body, const char* key) {
    const auto it = body.find(key);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

json EventService::toJson(const storage::Event& e) {
    return {{"id", e.id},
            {"event_id", e.id},
            {"sequence_number", e.sequence_number},
            {"event_type", e.type},
            {"resource_type", e.resource_type},
            {"resource_id", e.resource_id},
            {"workspace_id", nullable(e.workspace_id)},
            {"actor", nullable(e.actor_id)},
            {"payload", e.payload},
            {"trace_id", nullable(e.trace_id)},
            {"created_at", e.created_at}};
}

json EventService::toJson(const storage::Subscription& s) {
    return {{"id", s.id},
            {"subscription_id", s.id},
            {"workspace_id", nullable(s.workspace_id)},
            {"event_types", s.event_types},
            {"resource_type", nullable(s.resource_type)},
            {"resource_id", nullable(s.resource_id)},
            {"webhook_url", nullable(s.webhook_url)},
            {"active", s.active},
            {"disabled_reason", nullable(s.disabled_reason)},
            {"previous_secret_expires_at", nullable(s.previous_expires_at)},
            {"created_at", s.created_at},
            {"updated_at", s.updated_at}};
}

json EventService::toJson(const storage::Delivery& d) {
    return {{"id", d.id},
            {"delivery_id", d.id},
            {"subscription_id", d.subscription_id},
            {"event_id", d.event_id},
            {"event_type", d.event_type},
            {"sequence_number", d.sequence_number},
            {"status", d.status},
            {"attempts", d.attempts},
            {"next_attempt_at", d.next_attempt_at},
            {"last_http_status", d.last_http_status ? json(d.last_http_status) : json(nullptr)},
            {"last_error_code", nullable(d.last_error_code)},
            {"delivered_at", nullable(d.delivered_at)},
            {"attempt_log", d.attempt_log},
            {"created_at", d.created_at},
            {"updated_at", d.updated_at}};
}

plugin::Result<json> EventService::listEvents(const plugin::Principal& caller,
                                              const std::string& after,
                                              const std::string& resource_type,
                                              const std::string& resource_id, int limit) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    long long from = 0;
    if (!after.empty()) {
        std::size_t used = 0;
        try {
            from = std::stoll(after, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != after.size() || from < 0) {
            return invalid({"query", "after"}, "after must be a sequence number (an integer >= 0)",
                           "int_parsing");
        }
    }
    // Number what has committed so far, so a caller reads its own writes at once.
    (void)p_.events.sequence();
    auto rows = p_.events.listVisible(caller.user_id, from, resource_type, resource_id, limit);
    if (!rows) return rows.error();
    json items = json::array();
    long long next = from;
    for (const auto& e : *rows) {
        items.push_back(toJson(e));
        next = e.sequence_number;
    }
    return json{{"events", items}, {"next_sequence", next}, {"count", items.size()}};
}

plugin::Result<json> EventService::replay(const plugin::Principal& caller,
                                          const std::string& event_id) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    auto event = p_.events.findVisible(caller.user_id, event_id);
    if (!event) return event.error();
    if (!*event) return notFound("event");
    auto ids = p_.webhooks.replay(caller.user_id, event_id);
    if (!ids) return ids.error();
    if (!ids->empty()) wake();
    return json{{"event_id", event_id},
                {"delivery_ids", *ids},
                {"status", ids->empty() ? "no_matching_subscriptions" : "pending"}};
}

plugin::Result<std::string> EventService::sealedSecret(std::string* secret) const {
    *secret = WebhookSigner::newSecret();
    return common::base64UrlEncode(p_.secrets->seal(*secret));
}

plugin::Result<json> EventService::createSubscription(const plugin::Principal& caller,
                                                      const std::string& header_workspace,
                                                      const json& body) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    // The body's workspace_id decides (null = personal); absent, the request's context does.
    std::string workspace = header_workspace == "personal" ? std::string() : header_workspace;
    if (const auto it = body.find("workspace_id"); it != body.end()) {
        workspace = it->is_string() ? it->get<std::string>() : std::string();
    }
    auto scope =
        p_.access.scope(caller.user_id, workspace, auth::WorkspaceAction::kManageDocuments);
    if (!scope) return scope.error();

    storage::Subscription s;
    s.owner_id = caller.user_id;
    s.workspace_id = *scope;
    const json types = body.value("event_types", json::array());
    if (types.size() > kMaxEventTypes) {
        return invalid({"body", "event_types"}, "at most 50 event types", "too_long");
    }
    for (std::size_t i = 0; i < types.size(); ++i) {
        const std::string t = types[i].is_string() ? types[i].get<std::string>() : std::string();
        if (!validEventType(t)) {
            return invalid({"body", "event_types", static_cast<int>(i)},
                           "an event type is lower-case letters, digits, '.' and '_'");
        }
        if (std::find(s.event_types.begin(), s.event_types.end(), t) == s.event_types.end()) {
            s.event_types.push_back(t);
        }
    }
    s.resource_type = optionalString(body, "resource_type");
    s.resource_id = optionalString(body, "resource_id");
    s.webhook_url = optionalString(body, "webhook_url");
    if (!s.webhook_url.empty()) {
        if (auto d = resolveDestination(s.webhook_url, p_.policy); !d) {
            return invalid({"body", "webhook_url"}, d.error().message, d.error().code);
        }
    }
    std::string secret;
    auto sealed = sealedSecret(&secret);
    if (!sealed) return sealed.error();
    s.secret_box = *sealed;
    auto created = p_.webhooks.create(s);
    if (!created) return created.error();
    wake();
    json out = toJson(*created);
    out["secret"] = secret;
    return out;
}

plugin::Result<json> EventService::listSubscriptions(const plugin::Principal& caller) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    auto rows = p_.webhooks.listVisible(caller.user_id);
    if (!rows) return rows.error();
    json items = json::array();
    for (const auto& s : *rows) items.push_back(toJson(s));
    return json{{"subscriptions", items}, {"count", items.size()}};
}

plugin::Result<json> EventService::deleteSubscription(const plugin::Principal& caller,
                                                      const std::string& id) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    auto found = p_.webhooks.findVisible(caller.user_id, id);
    if (!found) return found.error();
    if (!*found) return notFound("subscription");
    if (auto ok = p_.webhooks.remove(id); !ok) return ok.error();
    return json{{"id", id}, {"subscription_id", id}, {"deleted", true}};
}

plugin::Result<json> EventService::rotateSecret(const plugin::Principal& caller,
                                                const std::string& id) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    auto found = p_.webhooks.findVisible(caller.user_id, id);
    if (!found) return found.error();
    if (!*found) return notFound("subscription");
    std::string secret;
    auto sealed = sealedSecret(&secret);
    if (!sealed) return sealed.error();
    auto rotated = p_.webhooks.rotate(id, *sealed, kRotationGraceSeconds);
    if (!rotated) return rotated.error();
    json out = toJson(*rotated);
    out["secret"] = secret;
    return out;
}

plugin::Result<json> EventService::listDeliveries(const plugin::Principal& caller,
                                                  const std::string& subscription_id,
                                                  const std::string& status, int limit) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    if (!status.empty() && !parseDeliveryStatus(status)) {
        return invalid({"query", "status"},
                       "status is one of pending, delivering, delivered, retrying, dead_letter");
    }
    if (!subscription_id.empty() && !common::isUuid(subscription_id)) {
        return notFound("subscription");
    }
    auto rows = p_.webhooks.listDeliveries(caller.user_id, subscription_id, status, limit);
    if (!rows) return rows.error();
    json items = json::array();
    for (const auto& d : *rows) items.push_back(toJson(d));
    return json{{"deliveries", items}, {"count", items.size()}};
}

plugin::Result<json> EventService::retryDelivery(const plugin::Principal& caller,
                                                 const std::string& id) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    auto found = p_.webhooks.findDelivery(caller.user_id, id);
    if (!found) return found.error();
    if (!*found) return notFound("delivery");
    auto retried = p_.webhooks.retry(id);
    if (!retried) return retried.error();
    wake();
    return json{{"id", id},
                {"delivery_id", id},
                {"subscription_id", retried->subscription_id},
                {"status", retried->status}};
}

plugin::Result<json> EventService::processDue(const plugin::Principal& caller, int limit) {
    if (auto ok = requireUser(caller); !ok) return ok.error();
    auto due = p_.webhooks.wakeDue(caller.user_id, limit);
    if (!due) return due.error();
    if (*due > 0) wake();
    return json{{"status", "accepted"}, {"limit", limit}, {"due", *due}};
}

}  // namespace docintel::events

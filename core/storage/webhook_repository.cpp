#include "storage/webhook_repository.h"

#include "common/id.h"
#include "storage/pg_array.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

#define DOCINTEL_SUBSCRIPTION_COLUMNS                                                            \
    "s.id, s.owner_id, coalesce(s.workspace_id::text, ''), array_to_json(s.event_types)::text, " \
    "coalesce(s.resource_type, ''), coalesce(s.resource_id, ''), coalesce(s.webhook_url, ''), "  \
    "s.secret_box, CASE WHEN s.previous_expires_at > now() THEN s.previous_secret_box ELSE ''"   \
    " END, CASE WHEN s.previous_expires_at > now() THEN s.previous_expires_at END, s.active, "   \
    "coalesce(s.disabled_reason, ''), s.created_at, s.updated_at"
/// Subscriptions `$1` may see: their own, personal or in a workspace they still belong to.
#define DOCINTEL_VISIBLE_SUBSCRIPTION                                       \
    "s.owner_id = $1 AND (s.workspace_id IS NULL OR EXISTS (SELECT 1 FROM " \
    "workspace_members m WHERE m.workspace_id = s.workspace_id AND m.user_id = $1))"
#define DOCINTEL_DELIVERY_COLUMNS                                                             \
    "d.id, d.subscription_id, d.event_id, e.type, coalesce(e.seq, 0), d.status, d.attempts, " \
    "d.next_attempt_at, coalesce(d.last_http_status, 0), coalesce(d.last_error_code, ''), "   \
    "d.delivered_at, d.created_at, d.updated_at"

constexpr Statement kInsert{
    "subscription_insert",
    "INSERT INTO event_subscriptions AS s (id, owner_id, workspace_id, event_types, "
    "resource_type, resource_id, webhook_url, secret_box) VALUES ($1, $2, NULLIF($3, '')::uuid, "
    "$4::text[], NULLIF($5, ''), NULLIF($6, ''), NULLIF($7, ''), $8) "
    "RETURNING " DOCINTEL_SUBSCRIPTION_COLUMNS};
/// The one sender job of each subscription in `$1` (the unique index jobs_webhook_sender_idx),
/// created when missing and made due now; one running now runs again at once when it ends
/// (woken_at).
constexpr Statement kWakeSenders{
    "webhook_wake_senders",
    "INSERT INTO jobs (id, kind, payload, status) SELECT gen_random_uuid(), 'webhook_send', "
    "jsonb_build_object('subscription_id', s), 'queued' FROM unnest($1::text[]) s "
    "ON CONFLICT ((payload ->> 'subscription_id')) WHERE kind = 'webhook_send' AND "
    "status IN ('queued', 'running') DO UPDATE SET run_after = least(jobs.run_after, now()), "
    "woken_at = now()"};
constexpr Statement kEnsureAllSenders{
    "webhook_ensure_all_senders",
    "INSERT INTO jobs (id, kind, payload, status) SELECT gen_random_uuid(), 'webhook_send', "
    "jsonb_build_object('subscription_id', d.subscription_id::text), 'queued' FROM "
    "(SELECT DISTINCT w.subscription_id FROM webhook_deliveries w JOIN event_subscriptions s "
    "ON s.id = w.subscription_id WHERE s.active AND w.status IN "
    "('pending', 'delivering', 'retrying')) d "
    "ON CONFLICT ((payload ->> 'subscription_id')) WHERE kind = 'webhook_send' AND "
    "status IN ('queued', 'running') DO NOTHING"};
constexpr Statement kListVisible{"subscription_list_visible",
                                 "SELECT " DOCINTEL_SUBSCRIPTION_COLUMNS
                                 " FROM event_subscriptions s WHERE " DOCINTEL_VISIBLE_SUBSCRIPTION
                                 " ORDER BY s.created_at DESC, s.id LIMIT 500"};
constexpr Statement kFindVisible{"subscription_find_visible",
                                 "SELECT " DOCINTEL_SUBSCRIPTION_COLUMNS
                                 " FROM event_subscriptions s WHERE " DOCINTEL_VISIBLE_SUBSCRIPTION
                                 " AND s.id = $2::uuid"};
constexpr Statement kDelete{"subscription_delete", "DELETE FROM event_subscriptions WHERE id = $1"};
constexpr Statement kRotate{
    "subscription_rotate",
    "UPDATE event_subscriptions AS s SET previous_secret_box = secret_box, secret_box = $2, "
    "previous_expires_at = now() + make_interval(secs => $3), updated_at = now() "
    "WHERE id = $1 RETURNING " DOCINTEL_SUBSCRIPTION_COLUMNS};
constexpr Statement kDisable{
    "subscription_disable",
    "UPDATE event_subscriptions SET active = false, disabled_reason = $2, updated_at = now() "
    "WHERE id = $1"};
constexpr Statement kSendable{
    "subscription_sendable",
    "SELECT " DOCINTEL_SUBSCRIPTION_COLUMNS
    " FROM event_subscriptions s WHERE s.id = $1 AND s.active AND s.webhook_url IS NOT NULL "
    "AND (s.workspace_id IS NULL OR EXISTS (SELECT 1 FROM workspace_members m "
    "WHERE m.workspace_id = s.workspace_id AND m.user_id = s.owner_id))"};

constexpr Statement kListDeliveries{
    "delivery_list_visible",
    "SELECT " DOCINTEL_DELIVERY_COLUMNS
    ", (SELECT coalesce(json_agg(json_build_object('attempt', a.attempt, 'http_status', "
    "a.http_status, 'duration_ms', a.duration_ms, 'response_preview', a.response_preview, "
    "'error_code', a.error_code, 'created_at', a.created_at) ORDER BY a.id), '[]') "
    "FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id)::text "
    "FROM webhook_deliveries d JOIN events e ON e.id = d.event_id "
    "JOIN event_subscriptions s ON s.id = d.subscription_id WHERE " DOCINTEL_VISIBLE_SUBSCRIPTION
    " AND ($2 = '' OR d.subscription_id::text = $2) AND ($3 = '' OR d.status = $3) "
    "ORDER BY d.created_at DESC, d.id LIMIT $4"};
constexpr Statement kFindDelivery{
    "delivery_find_visible",
    "SELECT " DOCINTEL_DELIVERY_COLUMNS
    ", '[]' FROM webhook_deliveries d JOIN events e ON e.id = d.event_id "
    "JOIN event_subscriptions s ON s.id = d.subscription_id WHERE " DOCINTEL_VISIBLE_SUBSCRIPTION
    " AND d.id = $2::uuid"};
constexpr Statement kRetry{
    "delivery_retry",
    "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), "
    "updated_at = now() WHERE id = $1 RETURNING subscription_id::text"};
/// New deliveries of the (numbered) event for the user's active subscriptions that match it
/// (as EventRepository::sequence matches).
constexpr Statement kReplay{
    "delivery_replay",
    "INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_seq, status) "
    "SELECT gen_random_uuid(), s.id, e.id, e.seq, 'pending' FROM event_subscriptions s, "
    "events e WHERE e.id = $2::uuid AND e.seq IS NOT NULL AND " DOCINTEL_VISIBLE_SUBSCRIPTION
    " AND s.active AND s.webhook_url IS NOT NULL AND "
    "((s.workspace_id IS NULL AND e.workspace_id IS NULL AND s.owner_id = e.user_id) OR "
    " s.workspace_id = e.workspace_id) "
    "AND (cardinality(s.event_types) = 0 OR e.type = ANY(s.event_types)) "
    "AND (s.resource_type IS NULL OR s.resource_type = e.resource_type) "
    "AND (s.resource_id IS NULL OR s.resource_id = e.resource_id) "
    "RETURNING id::text, subscription_id::text"};
constexpr Statement kDue{
    "delivery_due_subscriptions",
    "SELECT d.subscription_id::text, count(*) FROM (SELECT d.subscription_id FROM "
    "webhook_deliveries d JOIN event_subscriptions s ON s.id = d.subscription_id "
    "WHERE " DOCINTEL_VISIBLE_SUBSCRIPTION
    " AND s.active AND d.status IN ('pending', 'delivering', "
    "'retrying') AND d.next_attempt_at <= now() LIMIT $2) d GROUP BY d.subscription_id"};

constexpr Statement kNextOpen{
    "delivery_next_open",
    "SELECT " DOCINTEL_DELIVERY_COLUMNS
    ", '[]', greatest(0, extract(epoch FROM d.next_attempt_at - now()))::float8, "
    "coalesce(e.workspace_id::text, ''), coalesce(e.user_id::text, ''), "
    "coalesce(e.actor_id::text, ''), e.resource_type, e.resource_id, e.payload::text, "
    "e.trace_id, e.created_at FROM webhook_deliveries d JOIN events e ON e.id = d.event_id "
    "WHERE d.subscription_id = $1 AND d.status IN ('pending', 'delivering', 'retrying') AND "
    "d.event_seq IS NOT NULL ORDER BY d.event_seq, d.created_at LIMIT $2"};
constexpr Statement kBegin{
    "delivery_begin",
    "UPDATE webhook_deliveries SET status = 'delivering', updated_at = now() WHERE id = "
    "ANY($1::uuid[]) AND status IN ('pending', 'delivering', 'retrying') RETURNING id::text"};
/// The attempts made, as parallel arrays: id, attempt, http_status, duration_ms, preview,
/// error_code, status, retry_after.
constexpr Statement kFinish{
    "delivery_finish",
    "WITH r AS (SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::text[], "
    "$6::text[], $7::text[], $8::float8[]) AS r(id, attempt, http_status, duration_ms, preview, "
    "error_code, status, retry_after)), "
    "a AS (INSERT INTO webhook_delivery_attempts (delivery_id, attempt, http_status, "
    "duration_ms, response_preview, error_code) SELECT r.id, r.attempt, NULLIF(r.http_status, "
    "0), r.duration_ms, r.preview, NULLIF(r.error_code, '') FROM r JOIN webhook_deliveries w "
    "ON w.id = r.id) "
    "UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempt, last_http_status "
    "= NULLIF(r.http_status, 0), last_error_code = NULLIF(r.error_code, ''), next_attempt_at = "
    "now() + make_interval(secs => r.retry_after), delivered_at = CASE WHEN r.status = "
    "'delivered' THEN now() END, updated_at = now() FROM r WHERE d.id = r.id AND d.status = "
    "'delivering'"};
constexpr Statement kUnbegin{
    "delivery_unbegin",
    "UPDATE webhook_deliveries SET status = 'pending', updated_at = now() WHERE id = "
    "ANY($1::uuid[]) AND status = 'delivering'"};

#undef DOCINTEL_SUBSCRIPTION_COLUMNS
#undef DOCINTEL_VISIBLE_SUBSCRIPTION
#undef DOCINTEL_DELIVERY_COLUMNS

Subscription rowToSubscription(const pqxx::row& r) {
    Subscription s;
    s.id = r[0].as<std::string>();
    s.owner_id = r[1].as<std::string>();
    s.workspace_id = r[2].as<std::string>();
    s.event_types = nlohmann::json::parse(r[3].c_str()).get<std::vector<std::string>>();
    s.resource_type = r[4].as<std::string>();
    s.resource_id = r[5].as<std::string>();
    s.webhook_url = r[6].as<std::string>();
    s.secret_box = r[7].as<std::string>();
    s.previous_secret_box = r[8].is_null() ? std::string() : r[8].as<std::string>();
    s.previous_expires_at = isoTime(r[9]);
    s.active = r[10].as<bool>();
    s.disabled_reason = r[11].as<std::string>();
    s.created_at = isoTime(r[12]);
    s.updated_at = isoTime(r[13]);
    return s;
}

/// The first 14 columns (DOCINTEL_DELIVERY_COLUMNS and the attempt log).
Delivery rowToDelivery(const pqxx::row& r) {
    Delivery d;
    d.id = r[0].as<std::string>();
    d.subscription_id = r[1].as<std::string>();
    d.event_id = r[2].as<std::string>();
    d.event_type = r[3].as<std::string>();
    d.sequence_number = r[4].as<long long>();
    d.status = r[5].as<std::string>();
    d.attempts = r[6].as<int>();
    d.next_attempt_at = isoTime(r[7]);
    d.last_http_status = r[8].as<int>();
    d.last_error_code = r[9].as<std::string>();
    d.delivered_at = isoTime(r[10]);
    d.created_at = isoTime(r[11]);
    d.updated_at = isoTime(r[12]);
    d.attempt_log = nlohmann::json::parse(r[13].c_str());
    return d;
}

}  // namespace

void WebhookRepository::wakeSenders(Tx& tx, const std::vector<std::string>& subscription_ids) {
    if (!subscription_ids.empty()) tx.exec(kWakeSenders, pgArray(subscription_ids));
}

plugin::Result<Subscription> WebhookRepository::create(const Subscription& s) {
    const std::string id = s.id.empty() ? common::newUuid() : s.id;
    return db_.transact([&](Tx& tx) -> plugin::Result<Subscription> {
        auto row = tx.exec(kInsert, id, s.owner_id, s.workspace_id, pgArray(s.event_types),
                           s.resource_type, s.resource_id, s.webhook_url, s.secret_box);
        if (!s.webhook_url.empty()) wakeSenders(tx, {id});
        return rowToSubscription(row[0]);
    });
}

plugin::Result<std::vector<Subscription>> WebhookRepository::listVisible(
    const std::string& user_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Subscription>> {
        std::vector<Subscription> out;
        for (const auto& r : tx.exec(kListVisible, user_id)) out.push_back(rowToSubscription(r));
        return out;
    });
}

plugin::Result<std::optional<Subscription>> WebhookRepository::findVisible(
    const std::string& user_id, const std::string& id) {
    if (!common::isUuid(id)) return std::optional<Subscription>();
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Subscription>> {
        const auto rows = tx.exec(kFindVisible, user_id, id);
        if (rows.empty()) return std::optional<Subscription>();
        return std::optional<Subscription>(rowToSubscription(rows[0]));
    });
}

plugin::Status WebhookRepository::remove(const std::string& id) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDelete, id);
        return true;
    }));
}

plugin::Result<Subscription> WebhookRepository::rotate(const std::string& id,
                                                       const std::string& new_box,
                                                       int grace_seconds) {
    return db_.transact([&](Tx& tx) -> plugin::Result<Subscription> {
        const auto rows = tx.exec(kRotate, id, new_box, grace_seconds);
        if (rows.empty()) return plugin::Error::notFound("subscription not found");
        return rowToSubscription(rows[0]);
    });
}

plugin::Result<std::vector<Delivery>> WebhookRepository::listDeliveries(
    const std::string& user_id, const std::string& subscription_id, const std::string& status,
    int limit) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Delivery>> {
        std::vector<Delivery> out;
        for (const auto& r : tx.exec(kListDeliveries, user_id, subscription_id, status, limit)) {
            out.push_back(rowToDelivery(r));
        }
        return out;
    });
}

plugin::Result<std::optional<Delivery>> WebhookRepository::findDelivery(const std::string& user_id,
                                                                        const std::string& id) {
    if (!common::isUuid(id)) return std::optional<Delivery>();
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Delivery>> {
        const auto rows = tx.exec(kFindDelivery, user_id, id);
        if (rows.empty()) return std::optional<Delivery>();
        return std::optional<Delivery>(rowToDelivery(rows[0]));
    });
}

plugin::Result<Delivery> WebhookRepository::retry(const std::string& id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<Delivery> {
        const auto rows = tx.exec(kRetry, id);
        if (rows.empty()) return plugin::Error::notFound("delivery not found");
        wakeSenders(tx, {rows[0][0].as<std::string>()});
        Delivery d;
        d.id = id;
        d.subscription_id = rows[0][0].as<std::string>();
        d.status = "pending";
        return d;
    });
}

plugin::Result<std::vector<std::string>> WebhookRepository::replay(const std::string& user_id,
                                                                   const std::string& event_id) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::vector<std::string>> {
        std::vector<std::string> ids, subscriptions;
        for (const auto& r : tx.exec(kReplay, user_id, event_id)) {
            ids.push_back(r[0].as<std::string>());
            subscriptions.push_back(r[1].as<std::string>());
        }
        wakeSenders(tx, subscriptions);
        return ids;
    });
}

plugin::Result<int> WebhookRepository::wakeDue(const std::string& user_id, int limit) {
    return db_.transact([&](Tx& tx) -> plugin::Result<int> {
        int due = 0;
        std::vector<std::string> subscriptions;
        for (const auto& r : tx.exec(kDue, user_id, limit)) {
            subscriptions.push_back(r[0].as<std::string>());
            due += r[1].as<int>();
        }
        wakeSenders(tx, subscriptions);
        return due;
    });
}

plugin::Status WebhookRepository::ensureSenders() {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kEnsureAllSenders);
        return true;
    }));
}

plugin::Result<std::optional<Subscription>> WebhookRepository::sendable(const std::string& id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Subscription>> {
        const auto rows = tx.exec(kSendable, id);
        if (rows.empty()) return std::optional<Subscription>();
        return std::optional<Subscription>(rowToSubscription(rows[0]));
    });
}

plugin::Result<std::vector<OutgoingDelivery>> WebhookRepository::nextOpen(
    const std::string& subscription_id, int n) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<OutgoingDelivery>> {
        std::vector<OutgoingDelivery> out;
        for (const auto& r : tx.exec(kNextOpen, subscription_id, n)) {
            OutgoingDelivery o;
            o.delivery = rowToDelivery(r);
            o.wait_seconds = r[14].as<double>();
            Event& e = o.event;
            e.id = o.delivery.event_id;
            e.sequence_number = o.delivery.sequence_number;
            e.type = o.delivery.event_type;
            e.workspace_id = r[15].as<std::string>();
            e.user_id = r[16].as<std::string>();
            e.actor_id = r[17].as<std::string>();
            e.resource_type = r[18].as<std::string>();
            e.resource_id = r[19].as<std::string>();
            e.payload = nlohmann::json::parse(r[20].c_str());
            e.trace_id = r[21].as<std::string>();
            e.created_at = isoTime(r[22]);
            out.push_back(std::move(o));
        }
        return out;
    });
}

plugin::Result<std::vector<std::string>> WebhookRepository::beginAttempts(
    const std::vector<std::string>& ids) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::vector<std::string>> {
        std::vector<std::string> begun;
        for (const auto& r : tx.exec(kBegin, pgArray(ids))) begun.push_back(r[0].c_str());
        return begun;
    });
}

plugin::Status WebhookRepository::finishAttempts(
    const std::vector<std::pair<std::string, AttemptRecord>>& done,
    const std::vector<std::string>& unsent) {
    std::vector<std::string> ids, attempts, statuses, durations, previews, errors, outcomes,
        retry_after;
    for (const auto& [id, a] : done) {
        ids.push_back(id);
        attempts.push_back(std::to_string(a.attempt));
        statuses.push_back(std::to_string(a.http_status));
        durations.push_back(std::to_string(a.duration_ms));
        previews.push_back(a.response_preview);
        errors.push_back(a.error_code);
        outcomes.push_back(a.status);
        retry_after.push_back(std::to_string(a.retry_after_seconds));
    }
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        if (!ids.empty()) {
            tx.exec(kFinish, pgArray(ids), pgArray(attempts), pgArray(statuses), pgArray(durations),
                    pgArray(previews), pgArray(errors), pgArray(outcomes), pgArray(retry_after));
        }
        if (!unsent.empty()) tx.exec(kUnbegin, pgArray(unsent));
        return true;
    }));
}

plugin::Status WebhookRepository::disable(const std::string& id, const std::string& reason) {
    return toStatus(db_.transact([&](Tx& tx) -> plugin::Result<bool> {
        tx.exec(kDisable, id, reason);
        return true;
    }));
}

}  // namespace docintel::storage

#include "storage/event_repository.h"

#include "common/id.h"
#include "common/trace_context.h"
#include "storage/pg_time.h"
#include "storage/webhook_repository.h"

namespace docintel::storage {
namespace {

constexpr Statement kEmit{
    "event_emit",
    "INSERT INTO events (id, type, resource_type, resource_id, workspace_id, user_id, actor_id, "
    "payload, trace_id) VALUES ($1, $2, $3, $4, NULLIF($5, '')::uuid, NULLIF($6, '')::uuid, "
    "NULLIF($7, '')::uuid, $8::jsonb, $9)"};

constexpr Statement kSequencerLock{"event_sequencer_lock", "SELECT pg_advisory_xact_lock(7460060)"};
/// Under the lock, after every earlier step committed: numbers what is committed now, and
/// creates a pending delivery, carrying the number, for every active subscription each event
/// matches — a workspace subscription of a member for the workspace's events, a personal one
/// for its owner's personal events; then the type and resource filters. Each row: how many it
/// numbered, and one subscription that got deliveries (NULL when none got any). Deliveries an
/// older server created at emit time are given their number instead of a second delivery.
constexpr Statement kSequence{
    "event_sequence",
    "WITH base AS (SELECT coalesce(max(seq), 0) AS top FROM events), "
    "todo AS (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM "
    " (SELECT id, created_at FROM events WHERE seq IS NULL ORDER BY created_at, id LIMIT $1) q), "
    "numbered AS (UPDATE events SET seq = base.top + todo.n FROM base, todo "
    " WHERE events.id = todo.id RETURNING events.id, events.seq, events.type, "
    " events.resource_type, events.resource_id, events.workspace_id, events.user_id), "
    "older AS (UPDATE webhook_deliveries d SET event_seq = n.seq FROM numbered n "
    " WHERE d.event_id = n.id AND d.event_seq IS NULL), "
    "fanned AS (INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_seq, status) "
    " SELECT gen_random_uuid(), s.id, n.id, n.seq, 'pending' FROM numbered n "
    " JOIN event_subscriptions s ON s.active AND s.webhook_url IS NOT NULL AND "
    " ((s.workspace_id IS NULL AND n.workspace_id IS NULL AND s.owner_id = n.user_id) OR "
    "  (s.workspace_id = n.workspace_id AND EXISTS (SELECT 1 FROM workspace_members m "
    "   WHERE m.workspace_id = s.workspace_id AND m.user_id = s.owner_id))) "
    " AND (cardinality(s.event_types) = 0 OR n.type = ANY(s.event_types)) "
    " AND (s.resource_type IS NULL OR s.resource_type = n.resource_type) "
    " AND (s.resource_id IS NULL OR s.resource_id = n.resource_id) "
    " WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.event_id = n.id "
    "  AND o.subscription_id = s.id) "
    " RETURNING subscription_id) "
    "SELECT c.n, f.s FROM (SELECT count(*) AS n FROM numbered) c LEFT JOIN "
    "(SELECT DISTINCT subscription_id::text AS s FROM fanned) f ON true"};
#define DOCINTEL_EVENT_COLUMNS                                                                 \
    "e.id, coalesce(e.seq, 0), e.type, e.resource_type, e.resource_id, "                       \
    "coalesce(e.workspace_id::text, ''), coalesce(e.user_id::text, ''), "                      \
    "coalesce(e.actor_id::text, ''), e.payload::text, e.trace_id, e.created_at FROM events e " \
    "WHERE ((e.workspace_id IS NULL AND e.user_id = $1) OR e.workspace_id IN "                 \
    "(SELECT workspace_id FROM workspace_members WHERE user_id = $1)) "

constexpr Statement kListVisible{"event_list_visible",
                                 "SELECT " DOCINTEL_EVENT_COLUMNS
                                 "AND e.seq > $2 AND ($3 = '' OR e.resource_type = $3) AND "
                                 "($4 = '' OR e.resource_id = $4) ORDER BY e.seq LIMIT $5"};
constexpr Statement kFindVisible{"event_find_visible",
                                 "SELECT " DOCINTEL_EVENT_COLUMNS "AND e.id = $2::uuid"};

#undef DOCINTEL_EVENT_COLUMNS

Event rowToEvent(const pqxx::row& r) {
    Event e;
    e.id = r[0].as<std::string>();
    e.sequence_number = r[1].as<long long>();
    e.type = r[2].as<std::string>();
    e.resource_type = r[3].as<std::string>();
    e.resource_id = r[4].as<std::string>();
    e.workspace_id = r[5].as<std::string>();
    e.user_id = r[6].as<std::string>();
    e.actor_id = r[7].as<std::string>();
    e.payload = nlohmann::json::parse(r[8].c_str());
    e.trace_id = r[9].as<std::string>();
    e.created_at = isoTime(r[10]);
    return e;
}

}  // namespace

std::string EventRepository::emit(Tx& tx, const Event& event) {
    const std::string id = event.id.empty() ? common::newUuid() : event.id;
    const std::string user = event.user_id.empty() ? event.actor_id : event.user_id;
    const std::string& trace = event.trace_id.empty() ? common::currentTraceId() : event.trace_id;
    tx.exec(kEmit, id, event.type, event.resource_type, event.resource_id, event.workspace_id, user,
            event.actor_id, event.payload.dump(), trace);
    return id;
}

plugin::Result<std::string> EventRepository::append(const Event& event) {
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> { return emit(tx, event); });
}

plugin::Result<int> EventRepository::sequence(int batch) {
    return db_.transact([&](Tx& tx) -> plugin::Result<int> {
        tx.exec(kSequencerLock);
        const auto rows = tx.exec(kSequence, batch);
        std::vector<std::string> subscriptions;
        for (const auto& r : rows) {
            if (!r[1].is_null()) subscriptions.push_back(r[1].as<std::string>());
        }
        WebhookRepository::wakeSenders(tx, subscriptions);
        return rows[0][0].as<int>();
    });
}

plugin::Result<std::vector<Event>> EventRepository::listVisible(const std::string& user_id,
                                                                long long after,
                                                                const std::string& resource_type,
                                                                const std::string& resource_id,
                                                                int limit) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::vector<Event>> {
        std::vector<Event> out;
        for (const auto& r :
             tx.exec(kListVisible, user_id, after, resource_type, resource_id, limit)) {
            out.push_back(rowToEvent(r));
        }
        return out;
    });
}

plugin::Result<std::optional<Event>> EventRepository::findVisible(const std::string& user_id,
                                                                  const std::string& event_id) {
    if (!common::isUuid(event_id)) return std::optional<Event>();
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<Event>> {
        const auto rows = tx.exec(kFindVisible, user_id, event_id);
        if (rows.empty()) return std::optional<Event>();
        return std::optional<Event>(rowToEvent(rows[0]));
    });
}

}  // namespace docintel::storage

#include "storage/event_repository.h"

#include "common/id.h"
#include "common/trace_context.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

/// The event, and a pending delivery for each active subscription it matches: a workspace
/// subscription of a member for the workspace's events, a personal one for its owner's personal
/// events; then the type and resource filters.
constexpr Statement kEmit{
    "event_emit",
    "WITH e AS (INSERT INTO events (id, type, resource_type, resource_id, workspace_id, user_id, "
    "actor_id, payload, trace_id) VALUES ($1, $2, $3, $4, NULLIF($5, '')::uuid, "
    "NULLIF($6, '')::uuid, NULLIF($7, '')::uuid, $8::jsonb, $9) RETURNING id) "
    "INSERT INTO webhook_deliveries (id, subscription_id, event_id, status) "
    "SELECT gen_random_uuid(), s.id, e.id, 'pending' FROM event_subscriptions s, e "
    "WHERE s.active AND s.webhook_url IS NOT NULL AND "
    "((s.workspace_id IS NULL AND $5 = '' AND s.owner_id = NULLIF($6, '')::uuid) OR "
    " (s.workspace_id = NULLIF($5, '')::uuid AND EXISTS (SELECT 1 FROM workspace_members m "
    "  WHERE m.workspace_id = s.workspace_id AND m.user_id = s.owner_id))) "
    "AND (cardinality(s.event_types) = 0 OR $2 = ANY(s.event_types)) "
    "AND (s.resource_type IS NULL OR s.resource_type = $3) "
    "AND (s.resource_id IS NULL OR s.resource_id = $4)"};

constexpr Statement kSequencerLock{"event_sequencer_lock", "SELECT pg_advisory_xact_lock(7460060)"};
/// Under the lock, after every earlier step committed: numbers what is committed now.
constexpr Statement kSequence{
    "event_sequence",
    "WITH base AS (SELECT coalesce(max(seq), 0) AS top FROM events), "
    "todo AS (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM "
    " (SELECT id, created_at FROM events WHERE seq IS NULL ORDER BY created_at, id LIMIT $1) q) "
    "UPDATE events SET seq = base.top + todo.n FROM base, todo WHERE events.id = todo.id "
    "RETURNING events.id::text"};
/// Senders waiting for work (deferred while idle) run now.
constexpr Statement kWakeSenders{
    "event_wake_senders",
    "UPDATE jobs SET run_after = now() WHERE kind = 'webhook_send' AND status = 'queued' AND "
    "run_after > now() AND payload ->> 'subscription_id' IN (SELECT d.subscription_id::text "
    "FROM webhook_deliveries d WHERE d.event_id = ANY($1::uuid[]))"};

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
        if (rows.empty()) return 0;
        std::string ids = "{";
        for (const auto& r : rows) {
            if (ids.size() > 1) ids += ',';
            ids += r[0].c_str();
        }
        ids += '}';
        tx.exec(kWakeSenders, ids);
        return static_cast<int>(rows.size());
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

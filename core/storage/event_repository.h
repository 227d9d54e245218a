#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// One event of the log (ARCHITECTURE.md §5 types; docs/events.md).
struct Event {
    std::string id;
    long long sequence_number = 0;  ///< 0 until the sequencer numbers it
    std::string type;
    std::string resource_type;
    std::string resource_id;
    std::string workspace_id;  ///< empty = the personal scope of `user_id`
    std::string user_id;       ///< whose personal scope; for a workspace event, the actor
    std::string actor_id;      ///< empty = the system (a job)
    nlohmann::json payload = nlohmann::json::object();  ///< ids, statuses, counts; never text
    std::string trace_id;  ///< empty = the thread's current trace (common/trace_context.h)
    std::string created_at;
};

/// The event log and its cursor (decision 0060).
///
/// `emit` is the one way anything records an event: it runs inside the caller's transaction
/// (an outbox), so an event exists exactly when the change it reports commits; it inserts the
/// event row alone. Events are numbered afterwards by `sequence`, one serial step under an
/// advisory lock that numbers only committed events: sequence numbers become visible in
/// increasing order, so a reader paging with `after` never skips one; the same step creates a
/// pending webhook delivery for every subscription each event matches. Thread-safe.
class EventRepository {
  public:
    explicit EventRepository(Database& db) : db_(db) {}

    /// Appends `event` (a new id when `id` is empty) in `tx`; returns the id.
    static std::string emit(Tx& tx, const Event& event);
    /// `emit` in a transaction of its own, for a change committed elsewhere (a plugin's).
    plugin::Result<std::string> append(const Event& event);

    /// Numbers up to `batch` committed, unnumbered events in commit-visible order, creates
    /// their webhook deliveries and wakes those subscriptions' senders. Returns how many it
    /// numbered.
    plugin::Result<int> sequence(int batch = 5000);

    /// The numbered events `user_id` may see (their personal events and their workspaces'),
    /// with sequence_number > `after`, oldest first; empty filters match all.
    plugin::Result<std::vector<Event>> listVisible(const std::string& user_id, long long after,
                                                   const std::string& resource_type,
                                                   const std::string& resource_id, int limit);
    /// The event, when `user_id` may see it.
    plugin::Result<std::optional<Event>> findVisible(const std::string& user_id,
                                                     const std::string& event_id);

  private:
    Database& db_;
};

}  // namespace docintel::storage

#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "result.h"

namespace docintel::plugin {

/// An event a plugin reports on the server's event log (docs/events.md), e.g.
/// `learning.course.created`. `payload` holds ids, statuses and counts, never document text.
struct PluginEvent {
    std::string type;
    std::string resource_type;
    std::string resource_id;
    std::string workspace_id;  ///< empty = the personal scope of `user_id`
    std::string user_id;       ///< whose personal scope (required when workspace_id is empty)
    std::string actor_id;      ///< empty = the plugin itself
    nlohmann::json payload = nlohmann::json::object();
};

/// One transaction on a plugin's own storage (ABI minor 3), handed to the function given to
/// HostServices::transact and valid only inside it. The connection is logged in as the
/// plugin's own Postgres role, with the plugin's schema first on the search path: the plugin
/// reaches its own tables and nothing of the core's or another plugin's (decision 0067).
///
/// Not thread-safe: use it on the thread that runs the transaction function.
class PluginTx {
  public:
    virtual ~PluginTx() = default;

    /// Runs one SQL statement with `$1`, `$2`, ... bound to the items of `params` (a JSON
    /// array of null, strings, numbers and booleans; objects and arrays are bound as their JSON
    /// text, so cast them: `$1::jsonb`). Returns the rows as a JSON array of objects keyed by
    /// column name; booleans, integers, floating-point and numeric columns become JSON
    /// booleans and numbers, json/jsonb columns JSON values, NULL null, everything else text
    /// (timestamps in UTC, ISO 8601 with a space). Errors: `conflict` (409) for a unique or
    /// foreign-key violation, `storage_denied` (500) when the plugin's role may not touch what
    /// the statement names (a core table, another plugin's schema), `storage_error` (500) for
    /// any other SQL error, with the SQLSTATE and Postgres's message. After an error the
    /// transaction is aborted: return the error from the transaction function.
    virtual Result<nlohmann::json> query(
        const std::string& sql, const nlohmann::json& params = nlohmann::json::array()) = 0;

    /// Records `event` on the event log as part of this transaction, so it exists exactly when
    /// the plugin's change commits (and creates the webhook deliveries it matches then).
    /// `invalid_event` (400) without a type, a resource type and a workspace or user.
    virtual Status emitEvent(const PluginEvent& event) = 0;
};

}  // namespace docintel::plugin

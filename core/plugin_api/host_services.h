#pragma once

#include <string>
#include <vector>

#include "workflow.h"

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

/// What the host lends a plugin: the only way a plugin reaches logging, documents, retrieval,
/// runs and storage. Implemented by the host; valid for the life of the process. Methods are
/// thread-safe and never throw.
class HostServices {
  public:
    virtual ~HostServices() = default;

    /// Writes a `key=value` log line tagged with the plugin's name. Never pass document text,
    /// tokens or secrets.
    virtual void log(const std::string& plugin, const std::string& level,
                     const std::string& message) = 0;

    /// The server's data directory (for plugin caches); the plugin owns `<dir>/plugins/<name>`.
    virtual std::string dataDir() const = 0;

    /// Evidence lookup for workflow steps; null when the host has none (a bare test host).
    virtual EvidenceFinder* evidence() { return nullptr; }
    /// The workflow engine's run operations, for a plugin's vertical routes and MCP tools; null
    /// when the host has no engine.
    virtual WorkflowRuns* workflowRuns() { return nullptr; }
    /// Sentence vectors of `texts` (one per text, in order) from the server's encoder, for
    /// matching by meaning (e.g. a skill against a requirement). `encoder_unavailable` (503)
    /// when the host has no encoder.
    virtual Result<std::vector<std::vector<float>>> embed(const std::vector<std::string>& texts) {
        (void)texts;
        return Error::unavailable("encoder_unavailable", "the host has no sentence encoder");
    }
    /// Records `event` on the event log and creates the webhook deliveries it matches (ABI
    /// minor 2). A plugin's tables are its own, so the event is written in a transaction of its
    /// own: emit after the change commits. Carries the trace of the calling request.
    virtual Status emitEvent(const PluginEvent& event) {
        (void)event;
        return Error::unavailable("events_unavailable", "the host has no event log");
    }
};

}  // namespace docintel::plugin

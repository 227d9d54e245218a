#pragma once

#include <string>
#include <vector>

#include "workflow.h"

namespace docintel::plugin {

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
};

}  // namespace docintel::plugin

#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace docintel::mcp {

/// A session opened by `initialize`: who opened it (sessions are bound to the token's
/// subject) and what was negotiated.
struct McpSession {
    std::string id;
    std::string subject;  ///< user id, or client id for client-credentials tokens
    std::string protocol_version;
    std::string log_level = "info";  ///< set by logging/setLevel
    std::int64_t created = 0;        ///< epoch seconds
    std::int64_t last_used = 0;
};

struct SessionLimits {
    int idle_seconds = 24 * 3600;  ///< a session unused this long is forgotten
    std::size_t max_sessions = 50000;
};

/// The MCP sessions of this node, in memory (docs/decisions/0020): a client whose session this
/// node does not know gets 404 and starts a new one, as the protocol prescribes. Ids are 32
/// random bytes, base64url (visible ASCII). When full, the least recently used session goes.
///
/// Thread-safe: every method locks `mutex_`.
class SessionStore {
  public:
    explicit SessionStore(SessionLimits limits = {}) : limits_(limits) {}

    /// Opens a session and returns its id.
    std::string create(const std::string& subject, const std::string& protocol_version,
                       std::int64_t now);
    /// The session when it exists, is not idle-expired and belongs to `subject` (another
    /// subject's session reads as unknown); marks it used.
    std::optional<McpSession> use(const std::string& id, const std::string& subject,
                                  std::int64_t now);
    /// Ends the session; false when `use` would not find it.
    bool end(const std::string& id, const std::string& subject, std::int64_t now);
    void setLogLevel(const std::string& id, const std::string& level);
    std::size_t size() const;

  private:
    void evictLocked(std::int64_t now);

    const SessionLimits limits_;
    mutable std::mutex mutex_;  // guards sessions_
    std::unordered_map<std::string, McpSession> sessions_;
};

}  // namespace docintel::mcp

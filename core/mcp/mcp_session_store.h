#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "storage/mcp_session_repository.h"

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
    std::int64_t verified = 0;  ///< when last read from the shared table (shared stores only)
};

struct SessionLimits {
    int idle_seconds = 24 * 3600;  ///< a session unused this long is forgotten
    std::size_t max_sessions = 50000;
};

/// The MCP sessions: in memory, and with `shared` in Postgres too, so every API node knows
/// every session (decision 0072; alone, decision 0020). A node trusts its memory copy of a
/// shared session for kRecheckSeconds, then reads the table again (a session ended or idle on
/// another node ends here within that time; a use here marks it used for all). A client whose
/// session no node knows gets 404 and starts a new one, as the protocol prescribes. Ids are 32
/// random bytes, base64url (visible ASCII); the table holds their SHA-256. When memory is full,
/// the least recently used copy goes.
///
/// Thread-safe: memory is guarded by `mutex_`, released around the database calls.
class SessionStore {
  public:
    static constexpr std::int64_t kRecheckSeconds = 30;

    explicit SessionStore(SessionLimits limits = {},
                          storage::McpSessionRepository* shared = nullptr)
        : limits_(limits), shared_(shared) {}

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
    void remember(McpSession session, std::int64_t now);
    /// The shared row of `id`, when it lives and belongs to `subject`.
    std::optional<McpSession> readShared(const std::string& id, const std::string& subject,
                                         std::int64_t now);

    const SessionLimits limits_;
    storage::McpSessionRepository* const shared_;
    mutable std::mutex mutex_;  // guards sessions_
    std::unordered_map<std::string, McpSession> sessions_;
};

}  // namespace docintel::mcp

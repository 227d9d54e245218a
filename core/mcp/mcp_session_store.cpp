#include "mcp/mcp_session_store.h"

#include "common/id.h"

namespace docintel::mcp {

std::string SessionStore::create(const std::string& subject, const std::string& protocol_version,
                                 std::int64_t now) {
    McpSession s;
    s.id = common::randomToken(32);
    s.subject = subject;
    s.protocol_version = protocol_version;
    s.created = now;
    s.last_used = now;
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= limits_.max_sessions) evictLocked(now);
    const std::string id = s.id;
    sessions_.emplace(id, std::move(s));
    return id;
}

std::optional<McpSession> SessionStore::use(const std::string& id, const std::string& subject,
                                            std::int64_t now) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return std::nullopt;
    if (now - it->second.last_used > limits_.idle_seconds) {
        sessions_.erase(it);
        return std::nullopt;
    }
    if (it->second.subject != subject) return std::nullopt;
    it->second.last_used = now;
    return it->second;
}

bool SessionStore::end(const std::string& id, const std::string& subject, std::int64_t now) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(id);
    if (it == sessions_.end() || it->second.subject != subject ||
        now - it->second.last_used > limits_.idle_seconds) {
        return false;
    }
    sessions_.erase(it);
    return true;
}

void SessionStore::setLogLevel(const std::string& id, const std::string& level) {
    std::lock_guard lock(mutex_);
    if (auto it = sessions_.find(id); it != sessions_.end()) it->second.log_level = level;
}

std::size_t SessionStore::size() const {
    std::lock_guard lock(mutex_);
    return sessions_.size();
}

void SessionStore::evictLocked(std::int64_t now) {
    std::erase_if(sessions_, [&](const auto& entry) {
        return now - entry.second.last_used > limits_.idle_seconds;
    });
    while (sessions_.size() >= limits_.max_sessions && !sessions_.empty()) {
        auto oldest = sessions_.begin();
        for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
            if (it->second.last_used < oldest->second.last_used) oldest = it;
        }
        sessions_.erase(oldest);
    }
}

}  // namespace docintel::mcp

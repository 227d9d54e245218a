#include "mcp/mcp_session_store.h"

#include "common/digest.h"
#include "common/id.h"
#include "common/log.h"

namespace docintel::mcp {
namespace {

std::string idHash(const std::string& id) { return common::toHex(common::sha256(id)); }

void logFailure(const char* what, const plugin::Error& e) {
    common::log(common::LogLevel::kWarning, "mcp_session_store_failed",
                {{"what", what}, {"reason", e.message}});
}

}  // namespace

std::string SessionStore::create(const std::string& subject, const std::string& protocol_version,
                                 std::int64_t now) {
    McpSession s;
    s.id = common::randomToken(32);
    s.subject = subject;
    s.protocol_version = protocol_version;
    s.created = now;
    s.last_used = now;
    s.verified = now;
    if (shared_) {
        // Unshared, the session still works on this node (and others answer 404).
        if (auto saved =
                shared_->save({idHash(s.id), subject, protocol_version, s.log_level, now, now});
            !saved) {
            logFailure("save", saved.error());
        }
    }
    const std::string id = s.id;
    remember(std::move(s), now);
    return id;
}

void SessionStore::remember(McpSession session, std::int64_t now) {
    std::lock_guard lock(mutex_);
    if (!sessions_.count(session.id) && sessions_.size() >= limits_.max_sessions) {
        evictLocked(now);
    }
    const std::string id = session.id;
    sessions_.insert_or_assign(id, std::move(session));
}

std::optional<McpSession> SessionStore::readShared(const std::string& id,
                                                   const std::string& subject, std::int64_t now) {
    const std::string hash = idHash(id);
    auto row = shared_->find(hash);
    if (!row) {
        logFailure("find", row.error());
        return std::nullopt;
    }
    if (!*row || (*row)->subject != subject) return std::nullopt;
    const auto& r = **row;
    if (now - r.last_used > limits_.idle_seconds) return std::nullopt;
    if (auto touched = shared_->touch(hash, now, now - limits_.idle_seconds); !touched) {
        logFailure("touch", touched.error());
    }
    return McpSession{id, r.subject, r.protocol_version, r.log_level, r.created, now, now};
}

std::optional<McpSession> SessionStore::use(const std::string& id, const std::string& subject,
                                            std::int64_t now) {
    {
        std::lock_guard lock(mutex_);
        auto it = sessions_.find(id);
        if (it != sessions_.end()) {
            McpSession& s = it->second;
            const bool fresh = !shared_ || now - s.verified < kRecheckSeconds;
            if (fresh && now - s.last_used <= limits_.idle_seconds) {
                if (s.subject != subject) return std::nullopt;
                s.last_used = now;
                return s;
            }
            sessions_.erase(it);  // idle here, or due for a look at the table
        }
    }
    if (!shared_) return std::nullopt;
    auto s = readShared(id, subject, now);
    if (s) remember(*s, now);
    return s;
}

bool SessionStore::end(const std::string& id, const std::string& subject, std::int64_t now) {
    if (!use(id, subject, now)) return false;
    {
        std::lock_guard lock(mutex_);
        sessions_.erase(id);
    }
    if (shared_) {
        if (auto removed = shared_->remove(idHash(id)); !removed) {
            logFailure("remove", removed.error());
        }
    }
    return true;
}

void SessionStore::setLogLevel(const std::string& id, const std::string& level) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = sessions_.find(id); it != sessions_.end()) it->second.log_level = level;
    }
    if (shared_) {
        if (auto set = shared_->setLogLevel(idHash(id), level); !set) {
            logFailure("log level", set.error());
        }
    }
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

#include "http/rate_limiter.h"

#include <functional>

namespace docintel::http {

RateDecision RateLimiter::take(const std::string& key, std::int64_t now_seconds) {
    auto& shard = shardOf(key);
    const std::int64_t start = windowStart(now_seconds);
    std::lock_guard lock(shard.mutex);
    if (shard.windows.size() > 100000) {
        std::erase_if(shard.windows, [&](const auto& e) { return e.second.start < start; });
    }
    auto& w = shard.windows[key];
    if (w.start != start) w = Window{start, 0, 0};
    RateDecision d;
    d.limit = limit_;
    d.window_seconds = window_;
    d.reset_seconds = static_cast<int>(start + window_ - now_seconds);
    if (w.used + w.others >= limit_) {
        d.allowed = false;
        d.remaining = 0;
        return d;
    }
    ++w.used;
    d.remaining = limit_ - w.used - w.others;
    return d;
}

std::map<std::string, int> RateLimiter::counts(std::int64_t start) const {
    std::map<std::string, int> out;
    for (const auto& shard : shards_) {
        std::lock_guard lock(shard.mutex);
        for (const auto& [key, w] : shard.windows) {
            if (w.start == start && w.used > 0) out.emplace(key, w.used);
        }
    }
    return out;
}

void RateLimiter::learn(std::int64_t start, const std::map<std::string, int>& others) {
    for (const auto& [key, used] : others) {
        auto& shard = shardOf(key);
        std::lock_guard lock(shard.mutex);
        auto& w = shard.windows[key];
        if (w.start < start) w = Window{start, 0, 0};
        if (w.start == start) w.others = used;
    }
}

}  // namespace docintel::http

#include "http/rate_limiter.h"

#include <functional>

namespace docintel::http {

RateDecision RateLimiter::take(const std::string& key, std::int64_t now_seconds) {
    auto& shard = shards_[std::hash<std::string>{}(key) % shards_.size()];
    const std::int64_t start = now_seconds - now_seconds % window_;
    std::lock_guard lock(shard.mutex);
    if (shard.windows.size() > 100000) {
        std::erase_if(shard.windows, [&](const auto& e) { return e.second.start < start; });
    }
    auto& w = shard.windows[key];
    if (w.start != start) w = Window{start, 0};
    RateDecision d;
    d.limit = limit_;
    d.window_seconds = window_;
    d.reset_seconds = static_cast<int>(start + window_ - now_seconds);
    if (w.used >= limit_) {
        d.allowed = false;
        d.remaining = 0;
        return d;
    }
    ++w.used;
    d.remaining = limit_ - w.used;
    return d;
}

}  // namespace docintel::http

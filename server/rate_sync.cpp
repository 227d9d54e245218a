#include "server/rate_sync.h"

#include "common/log.h"

namespace docintel::server {

void RateSync::syncOnce(std::int64_t now_seconds) {
    for (const auto& [scope, limiter] : limiters_) {
        const std::int64_t start = limiter->windowStart(now_seconds);
        auto others = windows_.exchange(scope, node_, start, limiter->counts(start));
        if (!others) {
            common::log(common::LogLevel::kWarning, "rate_sync_failed",
                        {{"scope", scope}, {"reason", others.error().message}});
            continue;
        }
        limiter->learn(start, *others);
    }
}

}  // namespace docintel::server

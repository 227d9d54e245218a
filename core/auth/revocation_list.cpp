#include "auth/revocation_list.h"

namespace docintel::auth {

bool RevocationList::isRevoked(const std::string& jti) const {
    std::lock_guard lock(mutex_);
    return revoked_.count(jti) > 0;
}

plugin::Status RevocationList::revoke(const std::string& jti, std::int64_t expires_epoch) {
    if (auto r = repository_.revoke(jti, expires_epoch); !r) return r;
    std::lock_guard lock(mutex_);
    revoked_.insert(jti);
    return {};
}

bool RevocationList::refresh() {
    std::int64_t since = 0;
    {
        std::lock_guard lock(mutex_);
        // Re-read one second of overlap: transactions commit out of revoked_at order.
        since = watermark_ms_ > 1000 ? watermark_ms_ - 1000 : 0;
    }
    std::int64_t newest = since;
    auto ids = repository_.revokedSince(since, &newest);
    if (!ids) return false;
    std::lock_guard lock(mutex_);
    revoked_.insert(ids->begin(), ids->end());
    watermark_ms_ = std::max(watermark_ms_, newest);
    return true;
}

}  // namespace docintel::auth

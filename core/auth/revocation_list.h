#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>

#include "storage/token_revocation_repository.h"

namespace docintel::auth {

/// This node's copy of the revoked token ids. Loaded in full at start, then read
/// incrementally (`refresh`, called about once a second by the server) so a revocation made on
/// any node is honoured here within that interval; revocations made through this node are
/// honoured at once. Thread-safe.
class RevocationList {
  public:
    explicit RevocationList(storage::TokenRevocationRepository& repository)
        : repository_(repository) {}

    bool isRevoked(const std::string& jti) const;
    /// Persists a revocation and applies it locally.
    plugin::Status revoke(const std::string& jti, std::int64_t expires_epoch);
    /// Reads revocations newer than the last read. Returns false when the database failed.
    bool refresh();

  private:
    storage::TokenRevocationRepository& repository_;
    mutable std::mutex mutex_;  // guards revoked_, watermark_ms_
    std::unordered_set<std::string> revoked_;
    std::int64_t watermark_ms_ = 0;
};

}  // namespace docintel::auth

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// Revoked access-token ids. Thread-safe.
class TokenRevocationRepository {
  public:
    explicit TokenRevocationRepository(Database& db) : db_(db) {}

    /// Records `jti` as revoked until `expires_epoch` (idempotent).
    plugin::Status revoke(const std::string& jti, std::int64_t expires_epoch);

    /// Ids revoked at or after `since_epoch_ms` that have not yet expired; `max_seen_ms`
    /// receives the newest revocation time seen (for the next incremental read).
    plugin::Result<std::vector<std::string>> revokedSince(std::int64_t since_epoch_ms,
                                                          std::int64_t* max_seen_ms);

  private:
    Database& db_;
};

}  // namespace docintel::storage

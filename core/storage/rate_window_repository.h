#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// Every node's request counts per key and rate window (migration 0092): what makes a rate
/// limit hold across nodes (decision 0072). Thread-safe.
class RateWindowRepository {
  public:
    explicit RateWindowRepository(Database& db) : db_(db) {}

    /// Stores `node`'s counts of the window starting at `start` in `scope` and returns, per key,
    /// what the other nodes counted in it. Windows that ended before `start` are dropped.
    plugin::Result<std::map<std::string, int>> exchange(const std::string& scope,
                                                        const std::string& node, std::int64_t start,
                                                        const std::map<std::string, int>& mine);

  private:
    Database& db_;
};

}  // namespace docintel::storage

#pragma once

#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

struct Migration {
    int version = 0;
    std::string name;
    std::string sql;
};

/// Applies the numbered migrations embedded from core/storage/migrations (`NNNN_what.sql`),
/// each in its own transaction, under a Postgres advisory lock so concurrent starts apply each
/// exactly once. Applied versions are recorded in `schema_migrations`.
class Migrator {
  public:
    /// The transaction-scoped advisory lock every schema change takes (plugins' included).
    static constexpr long long kLockKey = 0x646f63696e74656cLL;  // "docintel"

    explicit Migrator(Database& db) : db_(db) {}

    /// The embedded migrations in version order.
    static std::vector<Migration> embedded();

    /// Applies what is missing; returns the versions applied now.
    plugin::Result<std::vector<int>> migrate();

    /// True when every embedded migration has been applied.
    bool upToDate();

  private:
    Database& db_;
};

}  // namespace docintel::storage

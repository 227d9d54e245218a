#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// A stored MCP session (migration 0093), named by the SHA-256 of its id.
struct McpSessionRow {
    std::string id_hash;
    std::string subject;
    std::string protocol_version;
    std::string log_level = "info";
    std::int64_t created = 0;  ///< epoch seconds
    std::int64_t last_used = 0;
};

/// The MCP sessions every API node shares (decision 0072). Thread-safe.
class McpSessionRepository {
  public:
    explicit McpSessionRepository(Database& db) : db_(db) {}

    plugin::Status save(const McpSessionRow& row);
    plugin::Result<std::optional<McpSessionRow>> find(const std::string& id_hash);
    /// Records a use; drops sessions idle since before `idle_before` (any node's).
    plugin::Status touch(const std::string& id_hash, std::int64_t now, std::int64_t idle_before);
    plugin::Status setLogLevel(const std::string& id_hash, const std::string& level);
    plugin::Status remove(const std::string& id_hash);

  private:
    Database& db_;
};

}  // namespace docintel::storage

#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// A generic artifact (migration 0061, decision 0056).
struct Artifact {
    std::string id;
    std::string artifact_type;
    std::string title;
    nlohmann::json content = nlohmann::json::object();
    std::string status = "draft";  ///< draft | reviewed | approved
    std::string owner_id;
    std::string workspace_id;  ///< empty = the owner's personal scope
    nlohmann::json source_document_ids = nlohmann::json::array();
    std::string source_trace_id;  ///< empty = none
    std::string created_at;
    std::string updated_at;
};

/// Artifacts. Authorization is the service's (services/artifact_service). Thread-safe.
class ArtifactRepository {
  public:
    explicit ArtifactRepository(Database& db) : db_(db) {}

    /// Inserts (a new id when `id` is empty); returns the row as stored.
    plugin::Result<Artifact> create(const Artifact& artifact);
    /// The artifacts of a scope (personal: the owner's with no workspace; else the
    /// workspace's), newest first.
    plugin::Result<std::vector<Artifact>> list(const std::string& owner_id,
                                               const std::string& workspace_id, int limit);

  private:
    Database& db_;
};

}  // namespace docintel::storage

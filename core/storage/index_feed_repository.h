#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/database.h"

namespace docintel::storage {

/// One chunk as the search indexes hold it.
struct IndexedChunk {
    int chunk_index = 0;
    std::string text;
    std::string model;          ///< the model that embedded it; empty when not embedded
    std::vector<float> vector;  ///< empty when not embedded
};

/// A searchable document (chunked or later) and the scope that may see it.
struct IndexedDocument {
    std::string id;
    std::string scope;  ///< "w:<workspace id>" or "p:<owner id>" (personal)
    std::vector<IndexedChunk> chunks;
};

/// One feed row: a document whose indexable state a transaction changed.
struct FeedChange {
    std::string document_id;
    std::uint64_t xid = 0;
};

/// The committed feed rows from a position on, and the watermark: every transaction below it
/// has finished, so no row below it can still appear.
struct FeedBatch {
    std::uint64_t watermark = 0;
    std::vector<FeedChange> changes;
};

/// The search indexes' view of Postgres: the change feed (migration 0004) and the current
/// indexable state of documents. A watermark is the xmin of a snapshot (a transaction id):
/// rows below it are final, rows at or above it may still be joined by rows of transactions
/// that commit later.
///
/// Thread-safe.
class IndexFeedRepository {
  public:
    explicit IndexFeedRepository(Database& db) : db_(db) {}

    /// The committed rows written by transactions `since` or later.
    plugin::Result<FeedBatch> changesSince(std::uint64_t since);

    /// The current state of `ids`; an id missing from the result is not searchable (deleted,
    /// failed or not chunked yet) and must leave the indexes.
    plugin::Result<std::vector<IndexedDocument>> load(const std::vector<std::string>& ids);

    /// Hands every searchable document to `sink`, `batch` documents at a time, all read from
    /// one snapshot; returns that snapshot's watermark.
    plugin::Result<std::uint64_t> scan(
        const std::function<plugin::Status(std::vector<IndexedDocument>&&)>& sink, int batch = 256);

  private:
    Database& db_;
};

/// The scope string of a document: its workspace, or its owner's personal space.
std::string indexScope(const std::string& workspace_id, const std::string& owner_id);

}  // namespace docintel::storage

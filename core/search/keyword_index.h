#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "storage/index_feed_repository.h"

namespace Xapian {
class WritableDatabase;
class Database;
}  // namespace Xapian

namespace docintel::search {

/// Which chunks a search may return: those of `document_ids` when any are given (the caller
/// has checked access to each), else every chunk of `scope` (see storage::indexScope).
struct SearchScope {
    std::vector<std::string> document_ids;
    std::string scope;
};

struct KeywordHit {
    std::string document_id;
    int chunk_index = 0;
    double bm25 = 0;
};

/// The node's BM25 index of chunk text (Xapian, English stemming), derived from Postgres.
/// Each chunk is one Xapian document with boolean terms for its document and scope; the
/// watermark of the feed position it reflects is committed with the changes, so after a
/// crash the index is never ahead of Postgres.
///
/// One process writes (the index sync thread); searches run concurrently on a pool of
/// read handles that reopen to the latest commit. Thread-safe.
class KeywordIndex {
  public:
    /// Opens (creating) the index in `dir`. `index_locked` (503) when another process holds
    /// it; `index_unavailable` when it cannot be opened.
    static plugin::Result<std::unique_ptr<KeywordIndex>> open(const std::string& dir);
    ~KeywordIndex();

    /// The feed position of the last commit; 0 for an index never built.
    std::uint64_t watermark() const;

    /// Replaces the entries of `docs`, drops those of `removed`, and records `watermark`, in
    /// one commit. A `watermark` of 0 leaves the recorded one unchanged (rebuild batches).
    plugin::Status apply(const std::vector<storage::IndexedDocument>& docs,
                         const std::vector<std::string>& removed, std::uint64_t watermark);

    /// Drops every entry and the watermark.
    plugin::Status clear();

    /// The `k` best chunks for `query` by BM25 within `scope`.
    plugin::Result<std::vector<KeywordHit>> search(const std::string& query,
                                                   const SearchScope& scope, int k) const;

    /// Indexed chunks.
    std::size_t size() const;
    /// Bytes on disk.
    std::size_t diskBytes() const;

  private:
    explicit KeywordIndex(std::string dir);
    std::unique_ptr<Xapian::Database> acquireReader() const;
    void releaseReader(std::unique_ptr<Xapian::Database> reader) const;

    const std::string dir_;
    mutable std::mutex write_mutex_;  // guards writer_
    std::unique_ptr<Xapian::WritableDatabase> writer_;
    mutable std::mutex readers_mutex_;  // guards readers_
    mutable std::vector<std::unique_ptr<Xapian::Database>> readers_;
};

}  // namespace docintel::search

#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "plugin_api/result.h"
#include "search/keyword_index.h"
#include "search/model_vectors.h"
#include "storage/index_feed_repository.h"

namespace docintel::search {

/// Keeps the node's keyword and vector indexes in step with Postgres through the change feed.
/// At start it loads every vector (and rebuilds the keyword index when it has no watermark)
/// from one snapshot, then applies the feed from the older of the two positions. Applying a
/// document re-reads its committed state, so repeats are harmless and order does not matter;
/// a change is applied as soon as it is committed, while the recorded position only passes
/// transactions that have finished (so a restart never skips one that committed late). Each
/// vector goes to its model's index (ModelVectors).
///
/// Thread-safe.
class IndexSync {
  public:
    /// `vectors` null: keywords only.
    IndexSync(storage::IndexFeedRepository& feed, KeywordIndex& keywords, ModelVectors* vectors);
    ~IndexSync();

    /// Loads, catches up, and (poll_ms > 0) follows the feed on a thread.
    plugin::Status start(int poll_ms);
    void stop();

    /// Applies every change committed so far; returns how many documents it re-read.
    plugin::Result<std::size_t> syncNow();

    /// Makes a change committed at `changed_epoch_seconds` (a row's updated_at) searchable on
    /// this node before returning: at once when the last sync started after it (by more than
    /// kClockMarginSeconds, for the database's clock and second-rounded times), else by syncing
    /// now. A question naming a document that was embedded a moment ago then finds it, instead
    /// of waiting for the next poll (docs/knowledge.md, "Freshness").
    plugin::Status catchUpTo(std::int64_t changed_epoch_seconds);
    static constexpr std::int64_t kClockMarginSeconds = 2;

    /// Seconds since the start of the last successful sync: everything committed before then
    /// is searchable on this node (the index's lag behind the change feed); -1 before the
    /// first sync.
    double lagSeconds() const;

    /// Rebuilds `keywords` from scratch (docintel-admin reindex).
    static plugin::Status rebuild(storage::IndexFeedRepository& feed, KeywordIndex& keywords);

  private:
    storage::IndexFeedRepository& feed_;
    KeywordIndex& keywords_;
    ModelVectors* vectors_;
    std::mutex sync_mutex_;            // guards position_, applied_; one sync at a time
    std::uint64_t position_ = 0;       ///< feed rows below it are applied
    std::set<std::uint64_t> applied_;  ///< transactions at or above position_ applied already
    std::atomic<std::chrono::steady_clock::rep> synced_from_{0};  ///< start of the last sync
    std::atomic<std::int64_t> synced_from_epoch_{0};              ///< the same, in epoch seconds
    std::mutex thread_mutex_;                                     // guards stopping_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace docintel::search

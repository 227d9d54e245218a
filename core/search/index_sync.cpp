#include "search/index_sync.h"

#include <algorithm>
#include <chrono>

#include "common/clock.h"
#include "common/log.h"

namespace docintel::search {
namespace {

constexpr std::size_t kLoadBatch = 256;

}  // namespace

IndexSync::IndexSync(storage::IndexFeedRepository& feed, KeywordIndex& keywords,
                     ModelVectors* vectors)
    : feed_(feed), keywords_(keywords), vectors_(vectors) {}

IndexSync::~IndexSync() { stop(); }

plugin::Status IndexSync::rebuild(storage::IndexFeedRepository& feed, KeywordIndex& keywords) {
    if (auto s = keywords.clear(); !s) return s;
    auto watermark = feed.scan(
        [&](std::vector<storage::IndexedDocument>&& docs) { return keywords.apply(docs, {}, 0); });
    if (!watermark) return watermark.error();
    return keywords.apply({}, {}, *watermark);
}

plugin::Status IndexSync::start(int poll_ms) {
    const auto started = std::chrono::steady_clock::now();
    std::uint64_t position = keywords_.watermark();
    const bool rebuild_keywords = position == 0;
    if (rebuild_keywords || vectors_) {
        if (rebuild_keywords) {
            if (auto s = keywords_.clear(); !s) return s;
        }
        std::size_t documents = 0;
        auto watermark = feed_.scan([&](std::vector<storage::IndexedDocument>&& docs) {
            documents += docs.size();
            if (vectors_) {
                for (const auto& d : docs) vectors_->put(d);
            }
            return rebuild_keywords ? keywords_.apply(docs, {}, 0) : plugin::Status{};
        });
        if (!watermark) return watermark.error();
        if (rebuild_keywords) {
            if (auto s = keywords_.apply({}, {}, *watermark); !s) return s;
            position = *watermark;
        } else {
            position = std::min(position, *watermark);
        }
        common::log(
            common::LogLevel::kInfo, "indexes_loaded",
            {{"documents", std::to_string(documents)},
             {"chunks", std::to_string(keywords_.size())},
             {"vectors", std::to_string(vectors_ ? vectors_->size() : 0)},
             {"keyword_rebuilt", rebuild_keywords ? "true" : "false"},
             {"ms", std::to_string(static_cast<long long>(common::millisecondsSince(started)))}});
    }
    {
        std::lock_guard lock(sync_mutex_);
        position_ = position;
        applied_.clear();
    }
    if (auto caught_up = syncNow(); !caught_up) return caught_up.error();
    if (poll_ms > 0) {
        thread_ = std::thread([this, poll_ms] {
            std::unique_lock lock(thread_mutex_);
            while (!stopping_) {
                wake_.wait_for(lock, std::chrono::milliseconds(poll_ms));
                if (stopping_) break;
                lock.unlock();
                if (auto r = syncNow(); !r) {
                    common::log(common::LogLevel::kWarning, "index_sync_failed",
                                {{"reason", r.error().message}});
                }
                lock.lock();
            }
        });
    }
    return {};
}

void IndexSync::stop() {
    {
        std::lock_guard lock(thread_mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

double IndexSync::lagSeconds() const {
    const auto from = synced_from_.load();
    if (from == 0) return -1;
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    return std::chrono::duration<double>(std::chrono::steady_clock::duration(now - from)).count();
}

plugin::Status IndexSync::catchUpTo(std::int64_t changed_epoch_seconds) {
    if (synced_from_epoch_.load() > changed_epoch_seconds + kClockMarginSeconds) return {};
    auto synced = syncNow();
    if (!synced) return synced.error();
    return {};
}

plugin::Result<std::size_t> IndexSync::syncNow() {
    std::lock_guard lock(sync_mutex_);
    const auto started = std::chrono::steady_clock::now().time_since_epoch().count();
    const auto started_epoch = common::nowEpochSeconds();
    auto batch = feed_.changesSince(position_);
    if (!batch) return batch.error();
    // Rows at or above the watermark were applied already when their xid is remembered.
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const auto& c : batch->changes) {
        if (applied_.count(c.xid)) continue;
        if (seen.insert(c.document_id).second) ids.push_back(c.document_id);
    }
    for (std::size_t from = 0; from < ids.size(); from += kLoadBatch) {
        const std::vector<std::string> group(ids.begin() + from,
                                             ids.begin() + std::min(ids.size(), from + kLoadBatch));
        auto docs = feed_.load(group);
        if (!docs) return docs.error();
        std::set<std::string> present;
        for (const auto& d : *docs) present.insert(d.id);
        std::vector<std::string> removed;
        for (const auto& id : group) {
            if (!present.count(id)) removed.push_back(id);
        }
        const bool last = from + kLoadBatch >= ids.size();
        if (auto s = keywords_.apply(*docs, removed, last ? batch->watermark : 0); !s) {
            return s.error();
        }
        if (vectors_) {
            for (const auto& id : removed) vectors_->remove(id);
            for (const auto& d : *docs) vectors_->put(d);
        }
    }
    // Everything below the watermark is final; rows above it stay in the feed window, so
    // remember which transactions' rows were applied to skip them next time.
    position_ = std::max(position_, batch->watermark);
    for (const auto& c : batch->changes) {
        if (c.xid >= position_) applied_.insert(c.xid);
    }
    applied_.erase(applied_.begin(), applied_.lower_bound(position_));
    synced_from_ = started;
    synced_from_epoch_ = started_epoch;
    return ids.size();
}

}  // namespace docintel::search

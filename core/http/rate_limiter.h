#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace docintel::http {

struct RateDecision {
    bool allowed = true;
    int limit = 0;
    int remaining = 0;
    int reset_seconds = 0;  ///< until the current window ends
    int window_seconds = 0;
};

/// Fixed-window request quota per principal. Alone it counts this node's requests; with
/// several nodes, a sync (server/rate_sync.h) regularly hands the other nodes' counts to
/// `learn`, and a key's quota is spent by the requests of every node (decision 0072). Thread-
/// safe: keys are spread over shards, each guarded by its own mutex.
class RateLimiter {
  public:
    RateLimiter(int limit, int window_seconds) : limit_(limit), window_(window_seconds) {}

    /// Counts one request for `key` at `now_seconds` (epoch).
    RateDecision take(const std::string& key, std::int64_t now_seconds);

    /// The first second of the window holding `now_seconds`.
    std::int64_t windowStart(std::int64_t now_seconds) const {
        return now_seconds - now_seconds % window_;
    }
    /// This node's count per key in the window starting at `start`.
    std::map<std::string, int> counts(std::int64_t start) const;
    /// The other nodes' counts (summed) per key in the window starting at `start`: a key's
    /// decisions in that window count them too.
    void learn(std::int64_t start, const std::map<std::string, int>& others);

    int limit() const { return limit_; }
    int windowSeconds() const { return window_; }

  private:
    struct Window {
        std::int64_t start = 0;
        int used = 0;    ///< by this node
        int others = 0;  ///< by the other nodes, as last learnt
    };
    struct Shard {
        mutable std::mutex mutex;  // guards windows
        std::unordered_map<std::string, Window> windows;
    };

    const int limit_;
    const int window_;
    Shard& shardOf(const std::string& key) {
        return shards_[std::hash<std::string>{}(key) % shards_.size()];
    }

    std::array<Shard, 16> shards_;
};

}  // namespace docintel::http

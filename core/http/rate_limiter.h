#pragma once

#include <array>
#include <cstdint>
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

/// Fixed-window request quota per principal (per node). Thread-safe: keys are spread over
/// shards, each guarded by its own mutex.
class RateLimiter {
  public:
    RateLimiter(int limit, int window_seconds) : limit_(limit), window_(window_seconds) {}

    /// Counts one request for `key` at `now_seconds` (epoch).
    RateDecision take(const std::string& key, std::int64_t now_seconds);

    int limit() const { return limit_; }
    int windowSeconds() const { return window_; }

  private:
    struct Window {
        std::int64_t start = 0;
        int used = 0;
    };
    struct Shard {
        std::mutex mutex;  // guards windows
        std::unordered_map<std::string, Window> windows;
    };

    const int limit_;
    const int window_;
    std::array<Shard, 16> shards_;
};

}  // namespace docintel::http

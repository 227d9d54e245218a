#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "http/rate_limiter.h"
#include "storage/rate_window_repository.h"

namespace docintel::server {

/// Makes this node's rate limits hold across nodes (decision 0072): each call writes the
/// node's counts of the current window to Postgres and teaches each limiter what the other
/// nodes counted. Called about once a second, so a principal spread over N nodes gets at most
/// its quota plus about one second of its requests on the other nodes.
class RateSync {
  public:
    RateSync(storage::Database& db, std::string node) : windows_(db), node_(std::move(node)) {}

    /// Shares `limiter` under `scope` ("rest", "mcp"); it must outlive this object.
    void add(std::string scope, http::RateLimiter& limiter) {
        limiters_.emplace_back(std::move(scope), &limiter);
    }

    /// One exchange for every limiter; a database failure is logged and the limiters keep
    /// what they learnt (each node then enforces at least its own counts).
    void syncOnce(std::int64_t now_seconds);

  private:
    storage::RateWindowRepository windows_;
    const std::string node_;
    std::vector<std::pair<std::string, http::RateLimiter*>> limiters_;
};

}  // namespace docintel::server

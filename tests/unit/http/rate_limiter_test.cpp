// RateLimiter: a fixed window per key, and the other nodes' counts it learns (decision 0072).

#include "http/rate_limiter.h"

#include <gtest/gtest.h>

namespace docintel::http {
namespace {

TEST(RateLimiter, AKeyGetsItsQuotaPerWindow) {
    RateLimiter limiter(3, 60);
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.take("alice", 120 + i).allowed);
    const auto refused = limiter.take("alice", 130);
    EXPECT_FALSE(refused.allowed);
    EXPECT_EQ(refused.reset_seconds, 50);
    EXPECT_TRUE(limiter.take("bob", 130).allowed);
    EXPECT_TRUE(limiter.take("alice", 180).allowed);  // the next window
}

TEST(RateLimiter, TheOtherNodesCountsSpendTheSameQuota) {
    RateLimiter limiter(10, 60);
    EXPECT_EQ(limiter.windowStart(125), 120);
    EXPECT_EQ(limiter.take("alice", 125).remaining, 9);
    EXPECT_EQ(limiter.counts(120), (std::map<std::string, int>{{"alice", 1}}));
    limiter.learn(120, {{"alice", 7}, {"carol", 10}});
    // The node's own count is what it shares; what it learnt is the others'.
    EXPECT_EQ(limiter.counts(120), (std::map<std::string, int>{{"alice", 1}}));
    EXPECT_EQ(limiter.take("alice", 126).remaining, 1);
    EXPECT_TRUE(limiter.take("alice", 127).allowed);
    EXPECT_FALSE(limiter.take("alice", 128).allowed);
    // A key first seen through the others is limited before this node serves it.
    EXPECT_FALSE(limiter.take("carol", 128).allowed);
    // Learning again replaces (the others' totals grow, they are not added twice).
    limiter.learn(120, {{"alice", 2}});
    EXPECT_TRUE(limiter.take("alice", 129).allowed);
    // An old window's counts are ignored; a new window starts from nothing.
    limiter.learn(60, {{"bob", 10}});
    EXPECT_TRUE(limiter.take("bob", 130).allowed);
    EXPECT_EQ(limiter.take("alice", 185).remaining, 9);
}

}  // namespace
}  // namespace docintel::http

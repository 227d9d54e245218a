// MCP sessions shared by the API nodes through Postgres (decision 0072): two SessionStores over
// one table stand for two nodes.

#include <gtest/gtest.h>

#include "mcp/mcp_session_store.h"
#include "storage/migrator.h"
#include "support/test_server.h"

namespace docintel::mcp {
namespace {

class SharedSessions : public ::testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(storage::Migrator(db_).migrate()); }

    test::TestDatabase test_db_;
    storage::Database db_{test_db_.url(), 2};
    storage::McpSessionRepository table_{db_};
    SessionStore node_a_{SessionLimits{600, 100}, &table_};
    SessionStore node_b_{SessionLimits{600, 100}, &table_};
};

TEST_F(SharedSessions, ASessionOpenedOnOneNodeIsKnownOnTheOther) {
    const std::string id = node_a_.create("alice", "2025-11-25", 1000);
    const auto on_b = node_b_.use(id, "alice", 1001);
    ASSERT_TRUE(on_b);
    EXPECT_EQ(on_b->protocol_version, "2025-11-25");
    EXPECT_FALSE(node_b_.use(id, "bob", 1002));  // still bound to its subject
    // The table never holds the id itself.
    EXPECT_EQ(test_db_.scalar("SELECT count(*) FROM mcp_sessions WHERE id_hash = '" + id + "'"),
              "0");
    EXPECT_EQ(test_db_.scalar("SELECT count(*) FROM mcp_sessions"), "1");
}

TEST_F(SharedSessions, ALogLevelSetOnOneNodeReachesTheOther) {
    const std::string id = node_a_.create("alice", "v", 1000);
    node_a_.setLogLevel(id, "debug");
    EXPECT_EQ(node_b_.use(id, "alice", 1001)->log_level, "debug");
}

TEST_F(SharedSessions, ASessionEndedOnOneNodeEndsOnTheOtherWithinTheRecheck) {
    const std::string id = node_a_.create("alice", "v", 1000);
    ASSERT_TRUE(node_b_.use(id, "alice", 1000));
    EXPECT_TRUE(node_a_.end(id, "alice", 1001));
    EXPECT_FALSE(node_a_.use(id, "alice", 1002));
    // B trusts its copy until it is due for a look at the table.
    EXPECT_TRUE(node_b_.use(id, "alice", 1002));
    EXPECT_FALSE(node_b_.use(id, "alice", 1000 + SessionStore::kRecheckSeconds + 1));
}

TEST_F(SharedSessions, UseOnAnyNodeKeepsASessionAlive) {
    const std::string id = node_a_.create("alice", "v", 1000);
    // Used on B only, past A's idle limit counted from its own last use.
    for (std::int64_t t = 1100; t <= 1700; t += 100) ASSERT_TRUE(node_b_.use(id, "alice", t)) << t;
    EXPECT_TRUE(node_a_.use(id, "alice", 1750));
    // Idle everywhere: gone.
    EXPECT_FALSE(node_a_.use(id, "alice", 2400));
    EXPECT_FALSE(node_b_.use(id, "alice", 2400));
}

TEST_F(SharedSessions, ANodeThatRestartedStillKnowsTheSession) {
    const std::string id = node_a_.create("alice", "v", 1000);
    SessionStore restarted{SessionLimits{600, 100}, &table_};
    EXPECT_TRUE(restarted.use(id, "alice", 1010));
}

}  // namespace
}  // namespace docintel::mcp

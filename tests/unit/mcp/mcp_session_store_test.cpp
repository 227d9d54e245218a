// SessionStore (binding to the subject, idle expiry, eviction when full) and the URI template
// matching resources/read relies on.

#include <gtest/gtest.h>

#include "mcp/mcp_session_store.h"
#include "mcp/mcp_types.h"

namespace docintel::mcp {
namespace {

TEST(SessionStore, ASessionIsFoundOnlyByItsSubjectUntilItEndsOrIdlesOut) {
    SessionStore store(SessionLimits{60, 10});
    const std::string id = store.create("alice", "2025-06-18", 1000);
    EXPECT_GE(id.size(), 43u);
    ASSERT_TRUE(store.use(id, "alice", 1010));
    EXPECT_EQ(store.use(id, "alice", 1010)->protocol_version, "2025-06-18");
    EXPECT_FALSE(store.use(id, "bob", 1010));
    EXPECT_FALSE(store.end(id, "bob", 1010));
    // Used at 1010, so still alive at 1069; gone after 60 idle seconds.
    EXPECT_TRUE(store.use(id, "alice", 1069));
    EXPECT_FALSE(store.use(id, "alice", 1130));
    EXPECT_EQ(store.size(), 0u);

    const std::string other = store.create("alice", "2025-11-25", 2000);
    EXPECT_NE(other, id);
    EXPECT_TRUE(store.end(other, "alice", 2001));
    EXPECT_FALSE(store.use(other, "alice", 2001));
    EXPECT_FALSE(store.end(other, "alice", 2001));
}

TEST(SessionStore, WhenFullTheLeastRecentlyUsedSessionGoes) {
    SessionStore store(SessionLimits{3600, 3});
    const std::string a = store.create("u", "v", 1);
    const std::string b = store.create("u", "v", 2);
    const std::string c = store.create("u", "v", 3);
    ASSERT_TRUE(store.use(a, "u", 4));  // b is now the least recently used
    const std::string d = store.create("u", "v", 5);
    EXPECT_EQ(store.size(), 3u);
    EXPECT_TRUE(store.use(a, "u", 6));
    EXPECT_FALSE(store.use(b, "u", 6));
    EXPECT_TRUE(store.use(c, "u", 6));
    EXPECT_TRUE(store.use(d, "u", 6));
}

TEST(SessionStore, LogLevelIsKeptPerSession) {
    SessionStore store;
    const std::string id = store.create("u", "v", 1);
    EXPECT_EQ(store.use(id, "u", 1)->log_level, "info");
    store.setLogLevel(id, "debug");
    EXPECT_EQ(store.use(id, "u", 2)->log_level, "debug");
}

TEST(UriTemplate, VariablesMatchOneNonEmptySegment) {
    std::map<std::string, std::string> v;
    EXPECT_TRUE(
        matchUriTemplate("docintel://documents/{document_id}", "docintel://documents/abc", v));
    EXPECT_EQ(v.at("document_id"), "abc");
    EXPECT_TRUE(matchUriTemplate("docintel://documents/{document_id}/chunks",
                                 "docintel://documents/abc/chunks", v));
    EXPECT_EQ(v.at("document_id"), "abc");
    EXPECT_FALSE(matchUriTemplate("docintel://documents/{document_id}",
                                  "docintel://documents/abc/chunks", v));
    EXPECT_FALSE(
        matchUriTemplate("docintel://documents/{document_id}", "docintel://documents/", v));
    EXPECT_FALSE(matchUriTemplate("docintel://documents/{document_id}/chunks",
                                  "docintel://documents/abc/chunk", v));
    EXPECT_FALSE(
        matchUriTemplate("docintel://documents/{document_id}", "docintel://documents/a?b", v));
    EXPECT_TRUE(matchUriTemplate("docintel://workflows/{vertical}/runs/{run_id}",
                                 "docintel://workflows/healthcare/runs/r1", v));
    EXPECT_EQ(v.at("vertical"), "healthcare");
    EXPECT_EQ(v.at("run_id"), "r1");
    EXPECT_TRUE(matchUriTemplate("test://static-text", "test://static-text", v));
    EXPECT_TRUE(v.empty());
}

}  // namespace
}  // namespace docintel::mcp

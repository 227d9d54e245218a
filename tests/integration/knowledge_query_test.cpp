// Grounded answers through HTTP: POST /api/v1/knowledge/query/stream over documents uploaded and
// embedded by the real pipeline (real model, real Postgres, the node's real indexes). Checks
// the SSE frames (sources first, tokens, done with citations), that citations quote the
// sources' own sentences with their pages, the refusal on weak evidence, follow-ups through
// `history`, and that a document the caller cannot see is 404 and never cited.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "support/sample_texts.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

struct Stream {
    int status = 0;
    std::map<std::string, std::string> headers;
    std::vector<nlohmann::json> frames;

    const nlohmann::json* first(const std::string& type) const {
        for (const auto& f : frames) {
            if (f.value("type", "") == type) return &f;
        }
        return nullptr;
    }
};

class KnowledgeQuery : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        // The indexes would follow the change feed only a minute later: a question finds the
        // documents because it catches the indexes up to them (read-your-writes).
        TestServer::Options options;
        options.index_poll_ms = 60000;
        server_ = new TestServer(options);
        user_ = server_->createUser("asker@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
        lease_ = server_->uploadDocument(token_, "lease.txt", "text/plain",
                                         std::string(kLeaseText) + kLeaseRenewal);
        memo_ = server_->uploadDocument(
            token_, "memo.txt", "text/plain",
            "Production memo\n\nThe bottling plant in Leeds produced 20,000 bottles of sparkling "
            "water in June. Line 2 was down for maintenance for four days. The quality team "
            "rejected 1.2% of bottles because of faulty caps.");
        for (const auto& id : {lease_, memo_}) {
            ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
        }
        // Asked the moment both are embedded, long before the next poll: both are searchable.
        ASSERT_EQ(ask("bottles rent", {lease_, memo_}).first("sources")->at("sources").size(), 2u);
    }
    static void TearDownTestSuite() { delete server_; }

    static Stream ask(const std::string& question, const std::vector<std::string>& ids,
                      const nlohmann::json& history = nlohmann::json::array(),
                      const std::string& token = token_) {
        const auto r = server_->request(
            "POST", "/api/v1/knowledge/query/stream",
            nlohmann::json{{"question", question}, {"document_ids", ids}, {"history", history}}
                .dump(),
            token);
        Stream out;
        out.status = r.status;
        out.headers = r.headers;
        out.frames = sseFrames(r.body);
        if (r.status != 200) out.frames.push_back(r.json());
        return out;
    }

    static TestServer* server_;
    static std::string user_, token_, lease_, memo_;
};
TestServer* KnowledgeQuery::server_ = nullptr;
std::string KnowledgeQuery::user_, KnowledgeQuery::token_, KnowledgeQuery::lease_,
    KnowledgeQuery::memo_;

TEST_F(KnowledgeQuery, StreamsSourcesThenTokensThenACitedAnswer) {
    const auto s = ask("How much is the monthly rent?", {lease_, memo_});
    ASSERT_EQ(s.status, 200);
    EXPECT_EQ(s.headers.at("content-type"), "text/event-stream");
    EXPECT_EQ(s.headers.at("cache-control"), "no-cache");
    EXPECT_FALSE(s.headers.at("x-trace-id").empty());
    ASSERT_FALSE(s.frames.empty());
    EXPECT_EQ(s.frames.front()["type"], "sources") << "the ranked sources come first";
    EXPECT_EQ(s.frames.back()["type"], "done");

    const auto& sources = s.frames.front()["sources"];
    ASSERT_FALSE(sources.empty());
    EXPECT_EQ(sources[0]["document_id"], lease_);
    for (const auto& src : sources) {
        for (const char* key :
             {"source_number", "document_id", "doc_name", "chunk_index", "page", "char_start",
              "char_end", "excerpt", "similarity", "bm25", "rerank_score", "match_type"}) {
            EXPECT_TRUE(src.contains(key)) << key;
        }
    }

    std::string streamed;
    for (const auto& f : s.frames) {
        if (f["type"] == "token") streamed += f["content"].get<std::string>();
    }
    const auto& done = s.frames.back();
    EXPECT_EQ(streamed, done["answer"].get<std::string>());
    EXPECT_FALSE(done["refused"].get<bool>());
    EXPECT_NE(done["answer"].get<std::string>().find("$4,500"), std::string::npos)
        << done["answer"];
    EXPECT_NE(done["answer"].get<std::string>().find("[1]"), std::string::npos);
    EXPECT_EQ(done["trace_id"], s.headers.at("x-trace-id"));
    ASSERT_FALSE(done["citations"].empty());
    for (const auto& c : done["citations"]) {
        const auto& src = sources[c["source_number"].get<int>() - 1];
        EXPECT_EQ(c["document_id"], src["document_id"]);
        EXPECT_NE(src["excerpt"].get<std::string>().find(c["quote"].get<std::string>()),
                  std::string::npos)
            << "a citation quotes its source verbatim";
        EXPECT_EQ(c["page"], 1);
    }
}

TEST_F(KnowledgeQuery, AnswersFromTheRightDocumentAndRefusesWithoutEvidence) {
    const auto bottles = ask("How many bottles did the Leeds plant produce?", {lease_, memo_});
    const auto& done = bottles.frames.back();
    EXPECT_NE(done["answer"].get<std::string>().find("20,000 bottles"), std::string::npos)
        << done["answer"];
    EXPECT_EQ(done["citations"][0]["document_id"], memo_);

    const auto unknown =
        ask("What is the boiling point of liquid nitrogen on Mars?", {lease_, memo_});
    EXPECT_TRUE(unknown.frames.back()["refused"].get<bool>());
    EXPECT_EQ(unknown.frames.back()["answer"],
              "The provided documents don't contain this information.");
    EXPECT_TRUE(unknown.frames.back()["citations"].empty());
}

TEST_F(KnowledgeQuery, AFollowUpUsesTheHistory) {
    const nlohmann::json history = nlohmann::json::array(
        {{{"role", "user"}, {"content", "What is the security deposit of the lease?"}},
         {{"role", "assistant"}, {"content", "The security deposit is $9,000 [1]."}}});
    const auto s = ask("When is it returned?", {lease_, memo_}, history);
    const auto& done = s.frames.back();
    EXPECT_NE(done["answer"].get<std::string>().find("30 days"), std::string::npos)
        << done["answer"];
}

TEST_F(KnowledgeQuery, AnEmptyListSearchesTheWholeScopeAndOthersSeeNothing) {
    const auto all = ask("monthly base rent", {});
    ASSERT_EQ(all.status, 200);
    EXPECT_EQ(all.frames.front()["sources"][0]["document_id"], lease_);

    const auto other = server_->createUser("stranger@example.com");
    const auto other_token = server_->token(other, TestServer::allScopes());
    const auto refused = ask("monthly base rent", {lease_}, nlohmann::json::array(), other_token);
    EXPECT_EQ(refused.status, 404);
    EXPECT_EQ(refused.frames.back()["code"], "document_not_found");
    const auto own_scope = ask("monthly base rent", {}, nlohmann::json::array(), other_token);
    ASSERT_EQ(own_scope.status, 200);
    EXPECT_TRUE(own_scope.frames.front()["sources"].empty()) << "another user's scope is empty";
    EXPECT_TRUE(own_scope.frames.back()["refused"].get<bool>());
}

}  // namespace
}  // namespace docintel::test

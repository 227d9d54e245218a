// Summaries and comparison over real HTTP: POST /api/v1/summaries/documents/{id}/stream for
// every summary_type over documents ingested by the real pipeline (Markdown contract, a
// three-page PDF, a long Wikipedia article from the shared corpus), chunk_indices, map-reduce
// `meta` frames, citations that point at the cited sentence on the cited page, redaction, the
// 422/404/409 paths, and the MCP tools summarize_document, summarize_documents and
// compare_documents (two versions of a lease: the changed rent and the added clause).

#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <sstream>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

std::string dataFile(const std::string& name) {
    return readFile(sourceDir() + "/tests/data/summaries/" + name);
}

struct Stream {
    int status = 0;
    std::map<std::string, std::string> headers;
    std::vector<json> frames;
    json body;  ///< the JSON body of a non-200 answer

    std::vector<json> ofType(const std::string& type) const {
        std::vector<json> out;
        for (const auto& f : frames) {
            if (f.value("type", "") == type) out.push_back(f);
        }
        return out;
    }
    const json& done() const { return frames.back(); }
};

const std::map<std::string, std::string> kAccept = {
    {"Accept", "application/json, text/event-stream"}};

class Summaries : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        server_ = new TestServer();
        user_ = server_->createUser("summariser@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
        mcp_token_ = server_->token(user_, TestServer::allScopes(), 3600, true);
        lease_v1_ = server_->uploadDocument(token_, "lease_v1.md", "text/markdown",
                                            dataFile("lease_v1.md"));
        lease_v2_ = server_->uploadDocument(token_, "lease_v2.md", "text/markdown",
                                            dataFile("lease_v2.md"));
        handbook_ = server_->uploadDocument(token_, "handbook.pdf", "application/pdf",
                                            dataFile("handbook.pdf"));
        long_ = server_->uploadDocument(
            token_, "norwich-city.txt", "text/plain",
            readFile(sharedDir() + "/datasets/doc-corpus/text/norwich-city.txt"));
        for (const auto& id : {lease_v1_, lease_v2_, handbook_, long_}) {
            ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded") << id;
        }
    }
    static void TearDownTestSuite() { delete server_; }

    static Stream summarize(const std::string& id, const json& body,
                            const std::string& token = token_) {
        const auto r = server_->request("POST", "/api/v1/summaries/documents/" + id + "/stream",
                                        body.dump(), token);
        Stream out;
        out.status = r.status;
        out.headers = r.headers;
        if (r.status != 200) {
            out.body = r.json();
            return out;
        }
        out.frames = sseFrames(r.body);
        return out;
    }

    static json chunks(const std::string& id) {
        const auto r = server_->get("/api/v1/documents/" + id + "/chunks", token_);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json()["chunks"];
    }

    /// Every citation quotes a sentence of its chunk, at its span, on its page; every
    /// sentence of the summary carries one [n] naming a listed source.
    static void expectGrounded(const Stream& s, const std::string& id) {
        ASSERT_EQ(s.status, 200);
        const json& done = s.done();
        ASSERT_EQ(done["type"], "done") << done.dump();
        const auto sources = s.ofType("sources");
        ASSERT_EQ(sources.size(), 1u);
        const json all_chunks = chunks(id);
        std::string streamed;
        for (const auto& f : s.ofType("token")) streamed += f["content"].get<std::string>();
        EXPECT_EQ(streamed, done["summary"].get<std::string>());
        ASSERT_FALSE(done["citations"].empty()) << done.dump();
        const std::string summary = done["summary"];
        // Taking out every cited sentence with its [n] leaves nothing but layout.
        std::string rest = summary;
        for (const auto& c : done["citations"]) {
            const std::string cited = c["quote"].get<std::string>() + " [" +
                                      std::to_string(c["source_number"].get<int>()) + "]";
            const auto at = rest.find(cited);
            ASSERT_NE(at, std::string::npos) << cited << " in " << summary;
            rest.erase(at, cited.size());
        }
        std::istringstream lines(rest);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("## ", 0) == 0) continue;
            EXPECT_EQ(line.find_first_not_of(" -"), std::string::npos)
                << "an uncited sentence: " << line;
        }
        for (const auto& c : done["citations"]) {
            const int n = c["source_number"];
            ASSERT_GE(n, 1);
            ASSERT_LE(n, static_cast<int>(sources[0]["sources"].size()));
            const json& src = sources[0]["sources"][n - 1];
            EXPECT_EQ(src["document_id"], id);
            EXPECT_EQ(src["chunk_index"], c["chunk_index"]);
            const std::string quote = c["quote"];
            const json* chunk = nullptr;
            for (const auto& ch : all_chunks) {
                if (ch["chunk_index"] == c["chunk_index"]) chunk = &ch;
            }
            ASSERT_NE(chunk, nullptr);
            EXPECT_EQ(c["page"], (*chunk)["page_start"]) << "cited on the chunk's page";
            const std::string text = (*chunk)["text"];
            const int offset = c["char_start"].get<int>() - (*chunk)["char_start"].get<int>();
            ASSERT_GE(offset, 0);
            EXPECT_EQ(text.substr(static_cast<std::size_t>(offset), quote.size()), quote)
                << "the span in the page's text is the quoted sentence";
            EXPECT_EQ(c["char_end"].get<int>() - c["char_start"].get<int>(),
                      static_cast<int>(quote.size()));
        }
    }

    // MCP helpers.
    static Response mcpPost(const json& body, const std::string& session,
                            const std::string& token = mcp_token_) {
        auto headers = kAccept;
        if (!session.empty()) headers["Mcp-Session-Id"] = session;
        return server_->mcpRequest("POST", "/mcp", body.dump(), token, headers);
    }
    static std::string mcpSession(const std::string& token = mcp_token_) {
        const auto r = mcpPost({{"jsonrpc", "2.0"},
                                {"id", 1},
                                {"method", "initialize"},
                                {"params",
                                 {{"protocolVersion", "2025-06-18"},
                                  {"capabilities", json::object()},
                                  {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}},
                               "", token);
        EXPECT_EQ(r.status, 200) << r.body;
        const std::string id = r.header("mcp-session-id");
        mcpPost({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, id, token);
        return id;
    }
    static json mcp(const std::string& method, const json& params,
                    const std::string& token = mcp_token_) {
        const std::string session = mcpSession(token);
        const auto r =
            mcpPost({{"jsonrpc", "2.0"}, {"id", 2}, {"method", method}, {"params", params}},
                    session, token);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json();
    }
    static json tool(const std::string& name, const json& arguments,
                     const std::string& token = mcp_token_) {
        return mcp("tools/call", {{"name", name}, {"arguments", arguments}}, token);
    }

    static TestServer* server_;
    static std::string user_, token_, mcp_token_, lease_v1_, lease_v2_, handbook_, long_;
};
TestServer* Summaries::server_ = nullptr;
std::string Summaries::user_, Summaries::token_, Summaries::mcp_token_, Summaries::lease_v1_,
    Summaries::lease_v2_, Summaries::handbook_, Summaries::long_;

TEST_F(Summaries, ExecutiveSummaryOfAPdfStreamsCitedSentencesWithTheirPages) {
    const auto s = summarize(handbook_, json::object());
    ASSERT_EQ(s.status, 200) << s.body.dump();
    EXPECT_EQ(s.headers.at("content-type"), "text/event-stream");
    EXPECT_EQ(s.headers.at("cache-control"), "no-cache");
    EXPECT_FALSE(s.headers.at("x-trace-id").empty());
    ASSERT_GE(s.frames.size(), 4u);
    EXPECT_EQ(s.frames.front()["type"], "meta");
    EXPECT_EQ(s.frames.front()["stage"], "plan");
    EXPECT_EQ(s.done()["summary_type"], "executive");
    EXPECT_EQ(s.done()["trace_id"], s.headers.at("x-trace-id"));
    // The sources come before the first token.
    std::size_t sources_at = 0, token_at = 0;
    for (std::size_t i = 0; i < s.frames.size(); ++i) {
        if (s.frames[i]["type"] == "sources") sources_at = i;
        if (s.frames[i]["type"] == "token" && token_at == 0) token_at = i;
    }
    EXPECT_LT(sources_at, token_at);
    expectGrounded(s, handbook_);
    EXPECT_LE(s.done()["citations"].size(), 5u);

    // One section per page: each part of a `sections` summary cites its own page.
    const auto sections = summarize(handbook_, {{"summary_type", "sections"}});
    expectGrounded(sections, handbook_);
    std::map<std::string, int> page_of = {
        {"Working Hours", 1}, {"Leave Policy", 2}, {"Travel and Expenses", 3}};
    std::set<std::string> seen;
    for (const auto& part : sections.done()["sections"]) {
        const std::string heading = part["section_path"].back();
        ASSERT_TRUE(page_of.count(heading)) << heading;
        seen.insert(heading);
        for (const auto& c : part["citations"]) EXPECT_EQ(c["page"], page_of[heading]) << heading;
    }
    EXPECT_EQ(seen.size(), 3u) << sections.done()["summary"];
}

TEST_F(Summaries, EverySummaryType) {
    const auto executive = summarize(lease_v1_, {{"summary_type", "executive"}});
    expectGrounded(executive, lease_v1_);

    const auto detailed = summarize(lease_v1_, {{"summary_type", "detailed"}});
    expectGrounded(detailed, lease_v1_);
    EXPECT_GT(detailed.done()["citations"].size(), executive.done()["citations"].size());

    const auto bullets = summarize(lease_v1_, {{"summary_type", "bullets"}});
    expectGrounded(bullets, lease_v1_);
    std::istringstream lines(bullets.done()["summary"].get<std::string>());
    int n = 0;
    for (std::string line; std::getline(lines, line); ++n) {
        EXPECT_EQ(line.rfind("- ", 0), 0u) << line;
    }
    EXPECT_GE(n, 3);

    const auto sections = summarize(lease_v1_, {{"summary_type", "sections"}});
    expectGrounded(sections, lease_v1_);
    std::vector<std::string> headings;
    for (const auto& part : sections.done()["sections"]) {
        headings.push_back(part["section_path"].back());
        EXPECT_FALSE(part["citations"].empty());
        for (const auto& c : part["citations"]) {
            EXPECT_EQ(c["section"], part["section"]) << "a part cites its own section";
        }
    }
    const std::vector<std::string> expected = {
        "Parties",          "Premises",         "Rent",
        "Security Deposit", "Term and Renewal", "Maintenance and Repairs",
        "Insurance",        "Termination"};
    EXPECT_EQ(headings, expected) << "one part per heading, in document order";
    EXPECT_NE(sections.done()["summary"].get<std::string>().find("## Commercial Lease Agreement > "
                                                                 "Rent\n"),
              std::string::npos)
        << sections.done()["summary"];

    const auto custom = summarize(
        lease_v1_, {{"summary_type", "custom"},
                    {"custom_prompt", "When is the security deposit paid back to the tenant?"}});
    expectGrounded(custom, lease_v1_);
    EXPECT_NE(
        custom.done()["summary"].get<std::string>().find("returns the deposit within 30 days"),
        std::string::npos)
        << custom.done()["summary"];
}

TEST_F(Summaries, ChunkIndicesRestrictTheSummary) {
    const json all = chunks(handbook_);
    ASSERT_GE(all.size(), 3u);
    const int last = all.back()["chunk_index"];
    const auto s = summarize(handbook_, {{"summary_type", "bullets"}, {"chunk_indices", {last}}});
    expectGrounded(s, handbook_);
    for (const auto& c : s.done()["citations"]) EXPECT_EQ(c["chunk_index"], last);
    EXPECT_EQ(s.done()["chunk_indices"], json::array({last}));
}

// A second summary of a document reuses the sentence vectors of the first (decision 0058):
// a fresh copy of the 64-chunk article, summarised twice; `timings_ms.encode` is the time spent
// encoding sentences.
TEST_F(Summaries, ASecondSummaryReusesTheSentenceVectors) {
    const auto id = server_->uploadDocument(
        token_, "norwich-city-copy.txt", "text/plain",
        readFile(sharedDir() + "/datasets/doc-corpus/text/norwich-city.txt"));
    ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
    const auto cold = summarize(id, json::object());
    const auto warm = summarize(id, json::object());
    const auto custom = summarize(id, {{"summary_type", "detailed"}});
    ASSERT_EQ(cold.done()["type"], "done");
    ASSERT_EQ(warm.done()["type"], "done");
    EXPECT_EQ(warm.done()["summary"], cold.done()["summary"]) << "same vectors, same summary";
    const double cold_encode = cold.done()["timings_ms"]["encode"];
    const double warm_encode = warm.done()["timings_ms"]["encode"];
    const double cold_total = cold.done()["timings_ms"]["total"];
    const double warm_total = warm.done()["timings_ms"]["total"];
    const double other_total = custom.done()["timings_ms"]["total"];
    std::cout << "summary of " << cold.frames.front()["chunks"] << " chunks / "
              << cold.frames.front()["sentences"] << " sentences: cold total " << cold_total
              << " ms (encode " << cold_encode << " ms), warm total " << warm_total
              << " ms (encode " << warm_encode << " ms), detailed after them " << other_total
              << " ms\n";
    EXPECT_GE(cold.frames.front()["chunks"].get<int>(), 60);
    EXPECT_LT(warm_encode * 10, cold_encode);
    EXPECT_LT(warm_total * 3, cold_total);
}

TEST_F(Summaries, LongDocumentsGoMapReduceWithMetaFrames) {
    const auto s = summarize(long_, {{"summary_type", "executive"}});
    expectGrounded(s, long_);
    const auto meta = s.ofType("meta");
    ASSERT_GE(meta.size(), 4u);
    EXPECT_EQ(meta.front()["stage"], "plan");
    EXPECT_EQ(meta.front()["map_reduce"], true);
    const int groups = meta.front()["groups"];
    ASSERT_GE(groups, 2);
    int expected_group = 1;
    int last_chunk = -1;
    for (const auto& m : meta) {
        if (m["stage"] != "map") continue;
        EXPECT_EQ(m["group"], expected_group++);
        EXPECT_EQ(m["groups"], groups);
        EXPECT_GT(m["chunk_start"].get<int>(), last_chunk);
        last_chunk = m["chunk_end"];
        EXPECT_GT(m["selected"].get<int>(), 0);
    }
    EXPECT_EQ(expected_group - 1, groups);
    EXPECT_EQ(meta.back()["stage"], "reduce");
    EXPECT_TRUE(s.done()["map_reduce"]["used"].get<bool>());
    EXPECT_LE(s.done()["citations"].size(), 5u);
    // The picks come from across the document, not only its start.
    std::set<int> chunks_cited;
    for (const auto& c : s.done()["citations"]) chunks_cited.insert(c["chunk_index"].get<int>());
    EXPECT_GE(chunks_cited.size(), 2u);
}

TEST_F(Summaries, RedactsPersonalData) {
    int parties = -1;
    for (const auto& c : chunks(lease_v1_)) {
        if (!c["section_path"].empty() && c["section_path"].back() == "Parties") {
            parties = c["chunk_index"];
        }
    }
    ASSERT_GE(parties, 0);
    const json body = {{"summary_type", "bullets"}, {"chunk_indices", {parties}}};
    const auto plain = summarize(lease_v1_, body);
    ASSERT_NE(plain.done()["summary"].get<std::string>().find("jane.roe@example.com"),
              std::string::npos)
        << "the Parties section quotes the contact";
    json redacted = body;
    redacted["redact_pii"] = true;
    const auto s = summarize(lease_v1_, redacted);
    ASSERT_EQ(s.status, 200);
    const std::string summary = s.done()["summary"];
    EXPECT_EQ(summary.find("jane.roe@example.com"), std::string::npos);
    EXPECT_NE(summary.find("[EMAIL_1]"), std::string::npos) << summary;
    EXPECT_EQ(s.ofType("sources")[0].dump().find("jane.roe@example.com"), std::string::npos)
        << "excerpts are redacted too";
}

TEST_F(Summaries, ValidationNotFoundAndNotReady) {
    auto s = summarize(lease_v1_, {{"summary_type", "custom"}});
    ASSERT_EQ(s.status, 422);
    EXPECT_EQ(s.body["detail"][0]["loc"], json::array({"body", "custom_prompt"}));
    EXPECT_EQ(s.body["detail"][0]["type"], "missing");

    s = summarize(lease_v1_, {{"summary_type", "haiku"}});
    ASSERT_EQ(s.status, 422);
    EXPECT_EQ(s.body["detail"][0]["loc"], json::array({"body", "summary_type"}));

    s = summarize(lease_v1_, {{"chunk_indices", {0, 999}}});
    ASSERT_EQ(s.status, 422);
    EXPECT_EQ(s.body["detail"][0]["loc"], json::array({"body", "chunk_indices", 1}));

    const auto stranger = server_->createUser("stranger@example.com");
    s = summarize(lease_v1_, json::object(), server_->token(stranger, TestServer::allScopes()));
    EXPECT_EQ(s.status, 404);
    EXPECT_EQ(s.body["code"], "document_not_found");
    s = summarize("00000000-0000-4000-8000-000000000000", json::object());
    EXPECT_EQ(s.status, 404);

    // An upload that was never completed is not chunked.
    const auto created = server_->request(
        "POST", "/api/v1/uploads",
        json{{"filename", "later.txt"}, {"content_type", "text/plain"}, {"file_size", 10}}.dump(),
        token_);
    ASSERT_EQ(created.status, 201) << created.body;
    s = summarize(created.json()["doc_id"], json::object());
    EXPECT_EQ(s.status, 409);
    EXPECT_EQ(s.body["code"], "document_not_ready");

    // The scope is knowledge:generate.
    s = summarize(lease_v1_, json::object(), server_->token(user_, {"documents:read"}));
    EXPECT_EQ(s.status, 403);
}

TEST_F(Summaries, McpCompareDocumentsFindsTheChangedRentAndTheAddedClause) {
    const json r =
        tool("compare_documents", {{"document_id_1", lease_v1_}, {"document_id_2", lease_v2_}});
    ASSERT_EQ(r["result"]["isError"], false) << r.dump();
    const json& out = r["result"]["structuredContent"]["result"];
    const json sources = out["sources"];
    auto checkCitations = [&](const json& citations) {
        for (const auto& c : citations) {
            const json& src = sources[c["source_number"].get<int>() - 1];
            EXPECT_EQ(src["document_id"], c["document_id"]);
            EXPECT_NE(src["excerpt"].get<std::string>().find(c["quote"].get<std::string>()),
                      std::string::npos);
        }
    };

    bool rent = false, start = false;
    for (const auto& c : out["changes"]) {
        checkCitations(c["citations"]);
        if (c["type"] != "changed") continue;
        ASSERT_EQ(c["citations"].size(), 2u);
        EXPECT_EQ(c["citations"][0]["document_id"], lease_v1_);
        EXPECT_EQ(c["citations"][1]["document_id"], lease_v2_);
        if (c["values_removed"] == json::array({"$4,500"}) &&
            c["values_added"] == json::array({"$4,850"})) {
            rent = true;
            EXPECT_NE(c["section_1"].get<std::string>().find("Rent"), std::string::npos);
        }
        if (c["values_removed"] == json::array({"March 1, 2025"}) &&
            c["values_added"] == json::array({"April 1, 2025"})) {
            start = true;
        }
    }
    EXPECT_TRUE(rent) << out["changes"].dump(2);
    EXPECT_TRUE(start) << out["changes"].dump(2);
    EXPECT_EQ(out["changes"].size(), 2u) << "nothing else changed: " << out["changes"].dump(2);

    EXPECT_TRUE(out["only_in_document_1"].empty()) << out["only_in_document_1"].dump(2);
    ASSERT_EQ(out["only_in_document_2"].size(), 1u) << out["only_in_document_2"].dump(2);
    const json& pets = out["only_in_document_2"][0];
    EXPECT_EQ(pets["section_path"].back(), "Pets");
    EXPECT_NE(pets["text"].get<std::string>().find("guard dog"), std::string::npos);
    checkCitations(pets["citations"]);
    EXPECT_EQ(pets["citations"][0]["document_id"], lease_v2_);

    EXPECT_EQ(out["aligned_sections"].size(), 8u) << out["aligned_sections"].dump(2);
    const std::string summary = out["summary"];
    EXPECT_NE(summary.find("$4,500"), std::string::npos) << summary;
    EXPECT_NE(summary.find("$4,850"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Pets"), std::string::npos) << summary;

    // A document the caller cannot see is a tool error, nothing about it told.
    const auto stranger = server_->createUser("outsider@example.com");
    const json refused =
        tool("compare_documents", {{"document_id_1", lease_v1_}, {"document_id_2", lease_v2_}},
             server_->token(stranger, TestServer::allScopes(), 3600, true));
    EXPECT_EQ(refused["result"]["isError"], true);
    EXPECT_EQ(refused["result"]["structuredContent"]["error"]["code"], "document_not_found");
}

TEST_F(Summaries, McpSummaryTools) {
    const json list = mcp("tools/list", json::object());
    std::set<std::string> names;
    for (const auto& t : list["result"]["tools"]) {
        names.insert(t["name"].get<std::string>());
        if (t["name"] == "summarize_document") {
            EXPECT_EQ(t["inputSchema"]["required"], json::array({"document_id"}));
            EXPECT_TRUE(t["inputSchema"]["properties"].contains("custom_prompt"));
            EXPECT_TRUE(t.contains("outputSchema"));
        }
    }
    for (const char* n : {"summarize_document", "summarize_documents", "compare_documents"}) {
        EXPECT_TRUE(names.count(n)) << n;
    }

    const json one =
        tool("summarize_document", {{"document_id", lease_v1_}, {"summary_type", "bullets"}});
    ASSERT_EQ(one["result"]["isError"], false) << one.dump();
    const json& result = one["result"]["structuredContent"]["result"];
    EXPECT_EQ(result["summary"].get<std::string>().rfind("- ", 0), 0u);
    EXPECT_FALSE(result["citations"].empty());
    EXPECT_FALSE(result["sources"].empty());
    EXPECT_EQ(json::parse(one["result"]["content"][0]["text"].get<std::string>())["result"],
              result);

    const json bad =
        tool("summarize_document", {{"document_id", lease_v1_}, {"summary_type", "custom"}});
    EXPECT_EQ(bad["error"]["code"], -32602) << bad.dump();

    const json many = tool("summarize_documents",
                           {{"document_ids", {lease_v1_, handbook_}}, {"redact_pii", true}});
    ASSERT_EQ(many["result"]["isError"], false) << many.dump();
    const json& across = many["result"]["structuredContent"]["result"];
    ASSERT_EQ(across["documents"].size(), 2u);
    std::set<std::string> cited_docs;
    for (const auto& c : across["citations"]) cited_docs.insert(c["document_id"]);
    EXPECT_EQ(cited_docs, (std::set<std::string>{lease_v1_, handbook_}))
        << "the summary across documents cites both: " << across["summary"];
    for (const auto& d : across["documents"]) {
        EXPECT_FALSE(d["summary"].get<std::string>().empty());
        for (const auto& c : d["citations"]) EXPECT_EQ(c["document_id"], d["document_id"]);
    }
    EXPECT_EQ(many.dump().find("jane.roe@example.com"), std::string::npos);

    // knowledge:generate is required.
    const auto limited = server_->token(user_, {"documents:read"}, 3600, true);
    const std::string session = mcpSession(limited);
    const auto r = mcpPost(
        {{"jsonrpc", "2.0"},
         {"id", 3},
         {"method", "tools/call"},
         {"params", {{"name", "summarize_document"}, {"arguments", {{"document_id", lease_v1_}}}}}},
        session, limited);
    EXPECT_EQ(r.status, 403) << r.body;
}

}  // namespace
}  // namespace docintel::test

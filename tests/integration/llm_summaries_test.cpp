// LLM mode of summaries and classification (decision 0058) against an OpenAI-compatible
// endpoint the test runs itself (support/fake_llm.h: scripted streamed completions). The rest
// is real: server, ingestion, model, Postgres, the support check. Checks that a supported
// summary passes with its citations, that an invented sentence is removed and counted, that a
// timeout falls back to the extractive summary, that a long document goes map-reduce through
// the LLM with progress frames, the summary across documents (MCP summarize_documents), and
// that classification takes the LLM's label when it is one of the list and the local
// classifier's otherwise.

#include <gtest/gtest.h>

#include <cctype>
#include <regex>
#include <sstream>

#include "classify/llm_classifier.h"
#include "support/fake_llm.h"
#include "support/mcp_client.h"
#include "support/sample_texts.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

/// What the fake endpoint answers; changed by the tests.
struct Behaviour {
    std::mutex mutex;
    std::string summary;  ///< the reply to a summary request; empty = quote the passages
    int delay_ms = 0;
    std::string classification = R"({"doc_type": "other", "confidence": 0.5})";
};

/// A model that quotes: for a request with passages, the first sentence of (up to) three of
/// them, each cited by its number; for a reduce request, the cited lines it was given.
std::string quotingReply(const std::string& user) {
    std::string out;
    if (user.find("Cited summaries of") != std::string::npos) {
        std::istringstream lines(user);
        for (std::string line; std::getline(lines, line);) {
            if (line.find(" [") != std::string::npos && line.rfind("Part ", 0) != 0 &&
                line.rfind("Document ", 0) != 0) {
                out += (out.empty() ? "" : " ") + line;
            }
        }
        return out;
    }
    // Passages: "\n[n] name, page p...\n<text>" up to the next passage or the task. A line of a
    // passage may open with a reference marker too ("[64] He made his debut"): a header names
    // its page.
    static const std::regex header(R"(\n\[(\d+)\] [^\n]*, page \d+[^\n]*\n)");
    std::vector<std::pair<std::string, std::size_t>> starts;  // number, where its text starts
    std::vector<std::size_t> header_at;
    for (auto it = std::sregex_iterator(user.begin(), user.end(), header);
         it != std::sregex_iterator(); ++it) {
        starts.emplace_back((*it)[1].str(),
                            static_cast<std::size_t>(it->position(0) + it->length(0)));
        header_at.push_back(static_cast<std::size_t>(it->position(0)));
    }
    int quoted = 0;
    for (std::size_t p = 0; p < starts.size() && quoted < 3; ++p) {
        const std::size_t end = p + 1 < starts.size() ? header_at[p + 1] : user.find("\nTask:");
        std::istringstream sentences(user.substr(starts[p].second, end - starts[p].second));
        // The first plain sentence of the passage (no reference markers, long enough).
        bool found = false;
        for (std::string line; !found && std::getline(sentences, line);) {
            std::size_t from = 0;
            while (!found && from < line.size()) {
                auto stop = line.find(". ", from);
                if (stop == std::string::npos) stop = line.size();
                std::string sentence = line.substr(from, stop - from);
                from = stop + 2;
                if (!sentence.empty() && sentence.back() == '.') sentence.pop_back();
                static const std::regex reference(R"((^|[^A-Z_\d])\d+\]|\[\d|["?!])");
                if (sentence.size() < 60 || sentence.size() > 400 ||
                    !std::isupper(static_cast<unsigned char>(sentence[0])) ||
                    std::regex_search(sentence, reference)) {
                    continue;
                }
                out += (out.empty() ? "" : " ") + sentence + " [" + starts[p].first + "].";
                ++quoted;
                found = true;
            }
        }
    }
    return out;
}

struct Stream {
    std::vector<json> frames;
    std::string streamed;
    const json& done() const { return frames.back(); }
    std::vector<json> ofType(const std::string& type) const {
        std::vector<json> out;
        for (const auto& f : frames) {
            if (f.value("type", "") == type) out.push_back(f);
        }
        return out;
    }
};

class LlmSummaries : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        behaviour_ = new Behaviour;
        fake_ = new FakeLlm;
        fake_->setResponder([](const json& request) {
            const std::string system = FakeLlm::systemOf(request);
            const std::string user = FakeLlm::userOf(request);
            std::lock_guard lock(behaviour_->mutex);
            FakeLlm::Reply reply;
            reply.delay_ms = behaviour_->delay_ms;
            if (system.rfind("You classify documents", 0) == 0) {
                reply.pieces = FakeLlm::words(behaviour_->classification);
            } else if (!behaviour_->summary.empty()) {
                reply.pieces = FakeLlm::words(behaviour_->summary);
            } else {
                reply.pieces = FakeLlm::words(quotingReply(user));
            }
            return reply;
        });
        TestServer::Options options;
        options.llm_base_url = fake_->baseUrl();
        options.llm_model = "fake-llm";
        options.llm_timeout_ms = 1500;
        server_ = new TestServer(options);
        user_ = server_->createUser("llm-summaries@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
        lease_ = server_->uploadDocument(token_, "lease.txt", "text/plain", kLeaseText);
        long_ = server_->uploadDocument(
            token_, "norwich-city.txt", "text/plain",
            readFile(sharedDir() + "/datasets/doc-corpus/text/norwich-city.txt"));
        for (const auto& id : {lease_, long_}) {
            ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded") << id;
        }
    }
    static void TearDownTestSuite() {
        delete server_;
        delete fake_;
        delete behaviour_;
    }
    void SetUp() override { script("", 0); }

    static void script(const std::string& summary, int delay_ms = 0) {
        std::lock_guard lock(behaviour_->mutex);
        behaviour_->summary = summary;
        behaviour_->delay_ms = delay_ms;
        fake_->clearRequests();
    }

    static Stream summarize(const std::string& id, const json& body) {
        const auto r = server_->request("POST", "/api/v1/summaries/documents/" + id + "/stream",
                                        body.dump(), token_);
        EXPECT_EQ(r.status, 200) << r.body;
        Stream out;
        out.frames = sseFrames(r.body);
        for (const auto& f : out.frames) {
            if (f["type"] == "token") out.streamed += f["content"].get<std::string>();
        }
        EXPECT_FALSE(out.frames.empty());
        EXPECT_EQ(out.frames.back()["type"], "done") << r.body;
        EXPECT_EQ(out.ofType("sources").size(), 1u) << "one numbering of the sources";
        return out;
    }

    /// Every citation quotes a sentence of the source it names, as listed in `sources`.
    static void expectQuotesInSources(const Stream& s) {
        const json sources = s.ofType("sources").at(0)["sources"];
        for (const auto& c : s.done()["citations"]) {
            const int n = c["source_number"];
            ASSERT_GE(n, 1);
            ASSERT_LE(n, static_cast<int>(sources.size()));
            const auto& source = sources[static_cast<std::size_t>(n - 1)];
            EXPECT_EQ(source["chunk_index"], c["chunk_index"]);
            EXPECT_NE(source["excerpt"].get<std::string>().find(c["quote"].get<std::string>()),
                      std::string::npos)
                << c.dump();
        }
    }

    static Behaviour* behaviour_;
    static FakeLlm* fake_;
    static TestServer* server_;
    static std::string user_, token_, lease_, long_;
};
Behaviour* LlmSummaries::behaviour_ = nullptr;
FakeLlm* LlmSummaries::fake_ = nullptr;
TestServer* LlmSummaries::server_ = nullptr;
std::string LlmSummaries::user_, LlmSummaries::token_, LlmSummaries::lease_, LlmSummaries::long_;

TEST_F(LlmSummaries, ASupportedSummaryPassesWithItsCitations) {
    const std::string text =
        "The Tenant pays a monthly base rent of $4,500, due on the first day of each month [1]. "
        "The security deposit is $9,000 and is returned within 30 days after the lease ends [1].";
    script(text);
    const auto s = summarize(lease_, json::object());
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_EQ(done["model"], "fake-llm-1");
    EXPECT_EQ(done["unsupported_removed"], 0);
    EXPECT_FALSE(done.contains("llm_fallback"));
    EXPECT_EQ(s.streamed, text) << "tokens stream as the endpoint sends them";
    EXPECT_FALSE(done["revised"].get<bool>());
    const std::string summary = done["summary"];
    EXPECT_NE(summary.find("$4,500"), std::string::npos) << summary;
    EXPECT_NE(summary.find("$9,000"), std::string::npos) << summary;
    ASSERT_EQ(done["citations"].size(), 2u) << done.dump();
    expectQuotesInSources(s);
    EXPECT_NE(done["citations"][1]["quote"].get<std::string>().find("$9,000"), std::string::npos);
    EXPECT_EQ(done["citations"][0]["page"], 1);

    // What the endpoint got: the numbered chunk and the task of an executive summary.
    const auto requests = fake_->requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0]["stream"], true);
    const std::string user = FakeLlm::userOf(requests[0]);
    EXPECT_NE(user.find("[1] lease.txt, page 1\n"), std::string::npos) << user;
    EXPECT_NE(user.find("executive summary"), std::string::npos) << user;
}

TEST_F(LlmSummaries, BulletsAndCustomPromptsReachTheModelAndKeepTheirLayout) {
    script(
        "- The monthly base rent is $4,500 [1].\n- The security deposit is $9,000 [1].\n"
        "- The initial term is five years, starting on March 1, 2025 [1].");
    auto s = summarize(lease_, {{"summary_type", "bullets"}});
    EXPECT_EQ(s.done()["answerer"], "llm") << s.done().dump();
    const std::string bullets = s.done()["summary"];
    EXPECT_EQ(bullets.rfind("- The monthly base rent", 0), 0u) << bullets;
    EXPECT_EQ(std::count(bullets.begin(), bullets.end(), '\n'), 2) << bullets;
    EXPECT_EQ(s.done()["citations"].size(), 3u);

    script("The late fee is 5% for payments received after the tenth day [1].");
    s = summarize(lease_, {{"summary_type", "custom"}, {"custom_prompt", "late payment"}});
    EXPECT_EQ(s.done()["answerer"], "llm") << s.done().dump();
    EXPECT_EQ(s.done()["custom_prompt"], "late payment");
    const auto requests = fake_->requests();
    ASSERT_FALSE(requests.empty());
    EXPECT_NE(FakeLlm::userOf(requests.back()).find("focused on this request: late payment"),
              std::string::npos);
}

TEST_F(LlmSummaries, NumberedAndSourceLabelledLinesKeepTheirOwnCitations) {
    // Models often number their points ("2." is not a figure the sources must state) or open a
    // line with the source's number ("[1] …", which cites that line).
    script(
        "1. The monthly base rent is $4,500 [1].\n2) The security deposit is $9,000 [1].\n"
        "[1] The late fee is 5% for payments received after the tenth day.");
    const auto s = summarize(lease_, {{"summary_type", "bullets"}});
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_EQ(done["unsupported_removed"], 0) << done.dump();
    EXPECT_EQ(done["summary"],
              "- The monthly base rent is $4,500. [1]\n- The security deposit is $9,000. [1]\n\n"
              "The late fee is 5% for payments received after the tenth day. [1]")
        << done.dump();
}

TEST_F(LlmSummaries, AnInventedSentenceIsRemovedAndCounted) {
    script(
        "The monthly base rent is $4,500 [1]. The landlord also provides a free parking garage "
        "with electric car chargers for every tenant [1]. The moon is made of green cheese.");
    const auto s = summarize(lease_, json::object());
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_EQ(done["unsupported_removed"], 2) << done.dump();
    EXPECT_TRUE(done["revised"].get<bool>()) << "the shown summary replaces the streamed one";
    const std::string summary = done["summary"];
    EXPECT_NE(summary.find("$4,500"), std::string::npos) << summary;
    EXPECT_EQ(summary.find("parking"), std::string::npos) << summary;
    EXPECT_EQ(summary.find("cheese"), std::string::npos) << summary;
    ASSERT_EQ(done["unsupported_sentences"].size(), 2u);
    EXPECT_NE(done["unsupported_sentences"][0]["text"].get<std::string>().find("parking"),
              std::string::npos);
    EXPECT_EQ(done["citations"].size(), 1u);
    expectQuotesInSources(s);
}

TEST_F(LlmSummaries, NothingSupportedFallsBackToTheExtractiveSummary) {
    script("The rent is paid in gold coins to the mayor of the city [1].");
    const auto s = summarize(lease_, json::object());
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "extractive") << done.dump();
    EXPECT_EQ(done["llm_fallback"]["code"], "llm_unsupported");
    EXPECT_EQ(done["unsupported_removed"], 1);
    EXPECT_EQ(done["summary"].get<std::string>().find("gold"), std::string::npos);
    EXPECT_FALSE(done["citations"].empty());
    expectQuotesInSources(s);
}

TEST_F(LlmSummaries, ATimeoutFallsBackToTheExtractiveSummary) {
    script("The monthly base rent is $4,500 [1].", 3000);  // the timeout is 1500 ms
    const auto started = std::chrono::steady_clock::now();
    const auto s = summarize(lease_, json::object());
    const auto waited = std::chrono::steady_clock::now() - started;
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "extractive") << done.dump();
    EXPECT_EQ(done["llm_fallback"]["code"], "llm_timeout") << done.dump();
    EXPECT_FALSE(done["citations"].empty());
    EXPECT_EQ(s.streamed, done["summary"].get<std::string>()) << "the fallback summary streams";
    EXPECT_FALSE(done["revised"].get<bool>());
    EXPECT_LT(waited, std::chrono::milliseconds(2900)) << "the timeout bounds the wait";
    expectQuotesInSources(s);
}

TEST_F(LlmSummaries, WithRedactPiiThePersonalDataNeverReachesTheLlm) {
    const auto id = server_->uploadDocument(
        token_, "contact.txt", "text/plain",
        "Lease Contact\n\nQuestions about the lease go to the property manager Jane Doe at "
        "jane.doe@example.com or by phone at (415) 555-0134 on weekdays.");
    ASSERT_EQ(server_->waitForDocument(id, token_)["status"], "embedded");
    script("");  // the model quotes what it is given
    const auto s = summarize(id, {{"redact_pii", true}});
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_TRUE(done["redacted"].get<bool>());
    const auto requests = fake_->requests();
    ASSERT_FALSE(requests.empty());
    for (const auto& r : requests) {
        EXPECT_EQ(r.dump().find("jane.doe@example.com"), std::string::npos) << r.dump();
        EXPECT_EQ(r.dump().find("555-0134"), std::string::npos) << r.dump();
    }
    EXPECT_EQ(done["summary"].get<std::string>().find("jane.doe@"), std::string::npos);
    EXPECT_NE(done["summary"].get<std::string>().find("[EMAIL_1]"), std::string::npos)
        << done["summary"];
    expectQuotesInSources(s);
}

TEST_F(LlmSummaries, ALongDocumentGoesMapReduceThroughTheLlm) {
    const auto s = summarize(long_, json::object());
    const auto& done = s.done();
    ASSERT_EQ(done["answerer"], "llm") << done.dump();
    const auto metas = s.ofType("meta");
    int maps = 0;
    bool reduce = false;
    for (const auto& m : metas) {
        if (m["stage"] == "map") {
            ++maps;
            EXPECT_EQ(m["answerer"], "llm");
            EXPECT_GT(m["selected"].get<int>(), 0) << m.dump();
        }
        if (m["stage"] == "reduce") reduce = true;
    }
    const int chunks = metas.at(0)["chunks"];
    EXPECT_GT(chunks, 16) << "longer than one LLM request";
    EXPECT_EQ(maps, (chunks + 15) / 16);
    EXPECT_TRUE(reduce);
    EXPECT_TRUE(done["map_reduce"]["used"].get<bool>());
    EXPECT_EQ(done["unsupported_removed"], 0) << done["unsupported_sentences"].dump();
    std::set<int> cited;
    for (const auto& c : done["citations"]) cited.insert(c["source_number"].get<int>());
    EXPECT_GE(cited.size(), static_cast<std::size_t>(maps)) << "every part is represented";
    EXPECT_GT(*cited.rbegin(), 16) << "citations reach past the first part";
    expectQuotesInSources(s);
    EXPECT_EQ(fake_->requests().size(), static_cast<std::size_t>(maps + 1));
}

TEST_F(LlmSummaries, TheSummaryAcrossDocumentsIsWrittenByTheLlmAndChecked) {
    const McpClient mcp(*server_, server_->token(user_, TestServer::allScopes(), 3600, true));
    const json result = mcp.result("summarize_documents", {{"document_ids", {lease_, long_}}});
    EXPECT_EQ(result["answerer"], "llm") << result.dump();
    ASSERT_EQ(result["documents"].size(), 2u);
    std::set<std::string> cited_docs;
    for (const auto& c : result["citations"]) cited_docs.insert(c["document_id"]);
    EXPECT_EQ(cited_docs, (std::set<std::string>{lease_, long_})) << result["summary"];
    for (const auto& d : result["documents"]) {
        EXPECT_FALSE(d["citations"].empty()) << d.dump();
        for (const auto& c : d["citations"]) EXPECT_EQ(c["document_id"], d["document_id"]);
    }
}

TEST_F(LlmSummaries, ClassificationTakesAValidLlmLabelElseTheLocalOne) {
    {
        std::lock_guard lock(behaviour_->mutex);
        behaviour_->classification = R"({"doc_type": "invoice", "confidence": 0.93})";
    }
    const auto by_llm = server_->uploadDocument(token_, "lease-a.txt", "text/plain", kLeaseText);
    auto doc = server_->waitForDocument(by_llm, token_);
    ASSERT_EQ(doc["status"], "embedded");
    EXPECT_EQ(doc["doc_type"], "invoice") << "the LLM's label, valid, wins";
    EXPECT_NEAR(doc["doc_type_confidence"].get<double>(), 0.93, 1e-6);
    bool asked = false;
    for (const auto& r : fake_->requests()) {
        if (FakeLlm::systemOf(r).rfind("You classify documents", 0) == 0) {
            asked = true;
            EXPECT_NE(FakeLlm::userOf(r).find("monthly base rent of $4,500"), std::string::npos);
            EXPECT_NE(FakeLlm::systemOf(r).find("prior_auth_request"), std::string::npos);
        }
    }
    EXPECT_TRUE(asked);

    {
        std::lock_guard lock(behaviour_->mutex);
        behaviour_->classification = "It is probably a banana.";
    }
    const auto local = server_->uploadDocument(token_, "lease-b.txt", "text/plain", kLeaseText);
    doc = server_->waitForDocument(local, token_);
    ASSERT_EQ(doc["status"], "embedded");
    EXPECT_EQ(doc["doc_type"], "lease") << "nonsense from the LLM → the local classifier";
    EXPECT_GT(doc["doc_type_confidence"].get<double>(), 0.4);
    EXPECT_NE(doc["doc_type_confidence"].get<double>(), 0.93);
}

TEST(LlmClassifierReply, OnlyLabelsOfTheListAreAccepted) {
    using classify::DocClass;
    using classify::LlmClassifier;
    auto r = LlmClassifier::parseReply(R"({"doc_type": "bank_statement", "confidence": 0.8})");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->first, DocClass::kBankStatement);
    EXPECT_DOUBLE_EQ(*r->second, 0.8);
    r = LlmClassifier::parseReply(" Invoice.\n");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->first, DocClass::kInvoice);
    EXPECT_FALSE(r->second);
    r = LlmClassifier::parseReply(R"({"doc_type": "lease", "confidence": 7})");
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->second) << "a confidence outside 0..1 is ignored";
    EXPECT_FALSE(LlmClassifier::parseReply(R"({"doc_type": "memo"})"));
    EXPECT_FALSE(LlmClassifier::parseReply("This looks like a lease agreement."));
    EXPECT_FALSE(LlmClassifier::parseReply(""));
}

}  // namespace
}  // namespace docintel::test

// LLM mode against a real engine: llama.cpp's server (xllamacpp) running SmolLM2-135M-Instruct
// (support/llama_server.h, installed by `make e2e-deps`), the real server pointed at it, real
// documents of ../shared/datasets and tests/data. The model is tiny and writes what it likes
// (uncited sentences, wrong numbers, facts from outside the sources), so the tests pin what
// must hold whatever it writes: every sentence a user is shown carries citations to sources
// that exist, each citation quotes its source on the page it names, and nothing the check
// removed is shown; the answer is the LLM's (answerer "llm") or, when nothing it wrote is
// supported, the extractive one (llm_fallback llm_unsupported), and the trace says which. An
// engine killed mid-answer gives the extractive answer at once, not after the timeout.
// Not installed → the tests fail (they never skip).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <istream>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/URI.h>

#include "support/llama_server.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;

struct Stream {
    std::vector<json> frames;
    std::string streamed;
    const json& done() const { return frames.back(); }
    json sources() const {
        for (const auto& f : frames) {
            if (f.value("type", "") == "sources") return f["sources"];
        }
        return json::array();
    }
};

Stream streamOf(const std::string& body) {
    Stream out;
    out.frames = sseFrames(body);
    for (const auto& f : out.frames) {
        if (f.value("type", "") == "token") out.streamed += f["content"].get<std::string>();
    }
    return out;
}

/// A sentence as shown, compared without layout: spaces collapsed, no bullet or heading marks.
std::string tidy(const std::string& text) {
    static const std::regex space(R"(\s+)");
    static const std::regex ends(R"(^[\s\-#*]+|\s+$)");
    return std::regex_replace(std::regex_replace(text, space, " "), ends, "");
}

/// The engine and a server in LLM mode over it; `error` is set when the engine could not start
/// or a document was not embedded (the tests then fail with it).
struct LlmRig {
    std::unique_ptr<LlamaServer> llm;
    std::unique_ptr<TestServer> server;
    std::string token;
    std::string error;

    explicit LlmRig(int llm_timeout_ms, LlamaServer::Options engine = {}) {
        try {
            llm = std::make_unique<LlamaServer>(engine);
        } catch (const std::exception& e) {
            error = e.what();
            return;
        }
        TestServer::Options options;
        options.llm_base_url = llm->baseUrl();
        options.llm_model = LlamaServer::kModel;
        options.llm_timeout_ms = llm_timeout_ms;
        server = std::make_unique<TestServer>(options);
        token = server->token(server->createUser("real-llm@example.com"), TestServer::allScopes());
    }

    std::string upload(const std::string& path, const std::string& content_type) {
        const std::string name = path.substr(path.rfind('/') + 1);
        const std::string id = server->uploadDocument(token, name, content_type, readFile(path));
        const auto document = server->waitForDocument(id, token);
        if (document["status"] != "embedded")
            error = name + " was not embedded: " + document.dump();
        return id;
    }

    Stream ask(const std::string& question, const std::vector<std::string>& document_ids) const {
        const auto r = server->request(
            "POST", "/api/v1/knowledge/query/stream",
            json{{"question", question}, {"document_ids", document_ids}}.dump(), token);
        EXPECT_EQ(r.status, 200) << r.body;
        return streamOf(r.body);
    }
};

/// What every answer or summary must satisfy, whatever the model wrote. `text` is what the user
/// is told to show (done.answer / done.summary).
void expectEverySentenceCitedAndQuoted(const TestServer& server, const std::string& token,
                                       const Stream& s, const std::string& text) {
    const json& done = s.done();
    const json sources = s.sources();
    ASSERT_FALSE(sources.empty()) << done.dump();
    if (done.value("refused", false)) {
        // A refusal claims nothing and cites nothing.
        EXPECT_EQ(text, "The provided documents don't contain this information.");
        EXPECT_TRUE(done["citations"].empty()) << done.dump();
        return;
    }

    // 1. The shown text is claims each followed by its markers: nothing uncited in between.
    static const std::regex markers(R"(((?:\s*\[\d+\])+))");
    std::size_t from = 0;
    int claims = 0;
    std::set<std::string> kept;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), markers);
         it != std::sregex_iterator(); ++it) {
        std::string claim = text.substr(from, static_cast<std::size_t>(it->position(0)) - from);
        from = static_cast<std::size_t>(it->position(0) + it->length(0));
        claim = tidy(claim);
        if (claim.empty() || claim == ".") continue;
        ++claims;
        kept.insert(claim);
        // Its markers name sources that exist, and a citation of each quotes that source for
        // this very sentence.
        const std::string group = (*it)[1].str();
        static const std::regex number(R"(\d+)");
        for (auto n = std::sregex_iterator(group.begin(), group.end(), number);
             n != std::sregex_iterator(); ++n) {
            const int source = std::stoi(n->str());
            EXPECT_GE(source, 1) << text;
            EXPECT_LE(source, static_cast<int>(sources.size())) << text;
            const bool cited =
                std::any_of(done["citations"].begin(), done["citations"].end(), [&](const json& c) {
                    return c["source_number"] == source &&
                           (tidy(c.value("sentence", "")) == claim ||
                            tidy(c.value("quote", "")) == claim);
                });
            EXPECT_TRUE(cited) << "[" << source << "] after \"" << claim
                               << "\" has no citation: " << done["citations"].dump();
        }
    }
    const std::string rest = std::regex_replace(text.substr(from), std::regex(R"([\s.]+)"), "");
    EXPECT_TRUE(rest.empty()) << "an uncited tail is shown: \"" << text.substr(from) << "\"";
    EXPECT_GT(claims, 0) << text;

    // 2. Each citation quotes its source, in the chunk and on the page it names.
    std::map<std::string, json> chunks;  // document id → its chunks
    for (const auto& c : done["citations"]) {
        const int n = c["source_number"];
        ASSERT_GE(n, 1);
        ASSERT_LE(n, static_cast<int>(sources.size()));
        const json& source = sources[static_cast<std::size_t>(n - 1)];
        const std::string quote = c["quote"];
        EXPECT_FALSE(quote.empty());
        EXPECT_EQ(c["document_id"], source["document_id"]);
        EXPECT_EQ(c["chunk_index"], source["chunk_index"]);
        EXPECT_NE(source["excerpt"].get<std::string>().find(quote), std::string::npos)
            << "the quote is a sentence of source " << n << ": " << c.dump();
        const std::string id = c["document_id"];
        if (!chunks.count(id)) {
            chunks[id] = server.get("/api/v1/documents/" + id + "/chunks", token).json()["chunks"];
        }
        const auto chunk = std::find_if(chunks[id].begin(), chunks[id].end(), [&](const json& k) {
            return k["chunk_index"] == c["chunk_index"];
        });
        ASSERT_NE(chunk, chunks[id].end()) << c.dump();
        EXPECT_NE((*chunk)["text"].get<std::string>().find(quote), std::string::npos) << c.dump();
        EXPECT_GE(c["page"].get<int>(), (*chunk)["page"].get<int>()) << c.dump();
        EXPECT_LE(c["page"].get<int>(), (*chunk)["page_end"].get<int>()) << c.dump();
    }

    // 3. Nothing the check removed is shown. (An extractive fallback may quote a source
    // sentence the model copied without citing it: that text is then the source's own.)
    if (done["answerer"] == "llm") {
        for (const auto& u : done.value("unsupported_sentences", json::array())) {
            const std::string removed = tidy(u["text"]);
            if (removed.size() > 3 && !kept.count(removed)) {
                EXPECT_EQ(text.find(removed), std::string::npos) << removed;
            }
        }
    }
    EXPECT_EQ(done.value("unsupported_removed", 0),
              static_cast<int>(done.value("unsupported_sentences", json::array()).size()));
}

/// The engine answered and its text was judged: shown as the LLM's answer, or replaced by the
/// extractive one because nothing it wrote was supported. (A timeout or an unreachable engine
/// would mean the test never reached the model.)
void expectJudgedByTheCheck(const Stream& s) {
    const json& done = s.done();
    EXPECT_EQ(done["llm_model"], LlamaServer::kModel) << done.dump();
    if (done["answerer"] == "llm") {
        EXPECT_FALSE(done.contains("llm_fallback")) << done.dump();
        EXPECT_EQ(done["model"], LlamaServer::kModel);
    } else {
        EXPECT_EQ(done["answerer"], "extractive") << done.dump();
        ASSERT_TRUE(done.contains("llm_fallback")) << done.dump();
        EXPECT_EQ(done["llm_fallback"]["code"], "llm_unsupported") << done.dump();
        EXPECT_GT(done["unsupported_removed"].get<int>(), 0) << done.dump();
    }
    EXPECT_FALSE(s.streamed.empty()) << "the model's tokens stream";
    EXPECT_EQ(done["revised"].get<bool>(),
              done["answerer"] != "llm" || done["unsupported_removed"].get<int>() > 0)
        << done.dump();
}

class KnowledgeRealLlm : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        rig_ = new LlmRig(60000);
        if (!rig_->error.empty()) return;
        memo_ = rig_->upload(sharedDir() + "/datasets/doc-corpus/pdf/text/fake-memo.pdf",
                             "application/pdf");
        handbook_ =
            rig_->upload(sourceDir() + "/tests/data/summaries/handbook.pdf", "application/pdf");
    }
    static void TearDownTestSuite() { delete rig_; }
    void SetUp() override { ASSERT_TRUE(rig_->error.empty()) << rig_->error; }

    static LlmRig* rig_;
    static std::string memo_, handbook_;
};
LlmRig* KnowledgeRealLlm::rig_ = nullptr;
std::string KnowledgeRealLlm::memo_, KnowledgeRealLlm::handbook_;

TEST_F(KnowledgeRealLlm, EveryShownSentenceOfAnAnswerIsCitedQuotedAndSupported) {
    // Each over the document that answers it: the prompt, and so the test, stays short.
    const std::vector<std::pair<std::string, std::string>> questions = {
        {"How many bottles of water were delivered?", memo_},
        {"When were the bottles, blankets and laptops delivered?", memo_},
        {"How many days of paid annual leave does a full-time employee get?", handbook_},
    };
    for (const auto& [question, document] : questions) {
        SCOPED_TRACE(question);
        const auto s = rig_->ask(question, {document});
        ASSERT_EQ(s.done()["type"], "done");
        const json& done = s.done();
        expectJudgedByTheCheck(s);
        expectEverySentenceCitedAndQuoted(*rig_->server, rig_->token, s, done["answer"]);

        // The trace records which mode answered, and the shown answer scores as grounded under
        // the groundedness evaluation (the same support check).
        const std::string trace = done["trace_id"];
        EXPECT_EQ(rig_->server->db().scalar(
                      "SELECT (models->>'answerer') || ' ' || (models->>'llm') FROM answer_traces "
                      "WHERE trace_id = '" +
                      trace + "'"),
                  done["answerer"].get<std::string>() + " " + LlamaServer::kModel);
        if (!done["refused"].get<bool>()) {
            const auto eval = rig_->server->request("POST", "/api/v1/evaluations",
                                                    json{{"trace_id", trace}}.dump(), rig_->token);
            ASSERT_EQ(eval.status, 201) << eval.body;
            EXPECT_DOUBLE_EQ(eval.json()["metrics"]["groundedness"].get<double>(), 1.0)
                << eval.body;
        }
    }
}

TEST_F(KnowledgeRealLlm, WhatTheDocumentsDoNotSayIsNotShown) {
    const auto s = rig_->ask("What is the capital of France?", {memo_});
    ASSERT_EQ(s.done()["type"], "done");
    const json& done = s.done();
    expectJudgedByTheCheck(s);
    expectEverySentenceCitedAndQuoted(*rig_->server, rig_->token, s, done["answer"]);
    EXPECT_EQ(done["answer"].get<std::string>().find("Paris"), std::string::npos)
        << "an answer from outside the sources: " << done.dump();
}

TEST_F(KnowledgeRealLlm, ASummaryIsCheckedTheSameWay) {
    const std::vector<std::pair<std::string, std::string>> summaries = {{memo_, "executive"},
                                                                        {handbook_, "bullets"}};
    for (const auto& [id, type] : summaries) {
        SCOPED_TRACE(type);
        const auto r =
            rig_->server->request("POST", "/api/v1/summaries/documents/" + id + "/stream",
                                  json{{"summary_type", type}}.dump(), rig_->token);
        ASSERT_EQ(r.status, 200) << r.body;
        const auto s = streamOf(r.body);
        ASSERT_EQ(s.done()["type"], "done") << r.body;
        const json& done = s.done();
        expectJudgedByTheCheck(s);
        EXPECT_EQ(done["summary"], done["answer"]);
        expectEverySentenceCitedAndQuoted(*rig_->server, rig_->token, s, done["summary"]);
        for (const auto& c : done["citations"]) EXPECT_EQ(c["document_id"], id);
    }
}

/// A query whose stream the test reads as it arrives, to act in the middle of it.
class LiveQuery {
  public:
    LiveQuery(const TestServer& server, const std::string& token, const json& body)
        : session_(Poco::URI(server.baseUrl()).getHost(), Poco::URI(server.baseUrl()).getPort()) {
        session_.setTimeout(Poco::Timespan(120, 0));
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST,
                                       "/api/v1/knowledge/query/stream",
                                       Poco::Net::HTTPMessage::HTTP_1_1);
        const std::string text = body.dump();
        request.setContentType("application/json");
        request.set("Authorization", "Bearer " + token);
        request.setContentLength(static_cast<std::streamsize>(text.size()));
        session_.sendRequest(request) << text;
        in_ = &session_.receiveResponse(response_);
    }
    int status() const { return static_cast<int>(response_.getStatus()); }
    /// The next frame, or null at the end of the stream.
    json next() {
        for (std::string line; std::getline(*in_, line);) {
            if (line.rfind("data: ", 0) == 0) return json::parse(line.substr(6));
        }
        return nullptr;
    }

  private:
    Poco::Net::HTTPClientSession session_;
    Poco::Net::HTTPResponse response_;
    std::istream* in_ = nullptr;
};

TEST(KnowledgeRealLlmKilled, AnEngineKilledMidAnswerGivesTheExtractiveAnswerAtOnce) {
    constexpr int kTimeoutMs = 60000;
    LlamaServer::Options engine;
    engine.max_tokens = 512;  // the answer goes on long after the first token, until the kill
    LlmRig rig(kTimeoutMs, engine);
    ASSERT_TRUE(rig.error.empty()) << rig.error;
    const std::string memo =
        rig.upload(sharedDir() + "/datasets/doc-corpus/pdf/text/fake-memo.pdf", "application/pdf");
    ASSERT_TRUE(rig.error.empty()) << rig.error;

    LiveQuery query(*rig.server, rig.token,
                    // SmolLM2 answers this with a numbered list of ~120 tokens: the kill lands
                    // mid-answer.
                    {{"question",
                      "Describe, item by item, how many bottles of water, blankets and laptops "
                      "were delivered."},
                     {"document_ids", {memo}}});
    ASSERT_EQ(query.status(), 200);
    Stream s;
    std::chrono::steady_clock::time_point killed;
    for (json frame = query.next(); !frame.is_null(); frame = query.next()) {
        s.frames.push_back(frame);
        if (frame["type"] == "token" && s.streamed.empty()) {
            s.streamed = frame["content"];
            rig.llm->kill();  // the engine dies after its first token
            killed = std::chrono::steady_clock::now();
        }
    }
    ASSERT_FALSE(s.streamed.empty()) << "the engine streamed a token before it was killed";
    ASSERT_FALSE(s.frames.empty());
    const auto waited = std::chrono::steady_clock::now() - killed;
    const json& done = s.done();
    ASSERT_EQ(done["type"], "done");
    EXPECT_EQ(done["answerer"], "extractive") << done.dump();
    EXPECT_EQ(done["llm_fallback"]["code"], "llm_unavailable") << done.dump();
    EXPECT_TRUE(done["revised"].get<bool>()) << "the streamed start is replaced";
    EXPECT_LT(waited, std::chrono::milliseconds(kTimeoutMs / 4)) << "not after the timeout";
    EXPECT_FALSE(done["refused"].get<bool>()) << "the memo answers it: " << done.dump();
    expectEverySentenceCitedAndQuoted(*rig.server, rig.token, s, done["answer"]);
}

}  // namespace
}  // namespace docintel::test

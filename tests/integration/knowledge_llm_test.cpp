// LLM mode of POST /api/v1/knowledge/query/stream against an OpenAI-compatible endpoint the
// test runs itself (a Poco HTTP server answering POST /v1/chat/completions with scripted SSE
// streams). The rest is real: server, pipeline, model, Postgres, the support check. Checks that
// a supported answer passes through with its citations and streamed tokens, that an invented
// sentence is removed and counted, that an all-invented answer and a timeout fall back to the
// extractive answer, and what the endpoint receives (numbered sources, the language, streaming).

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "support/fake_llm.h"
#include "support/sample_texts.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

/// What the fake endpoint answers next.
struct Script {
    std::mutex mutex;
    FakeLlm::Reply reply;
};

struct Stream {
    std::vector<nlohmann::json> frames;
    std::string streamed;
    const nlohmann::json& done() const { return frames.back(); }
};

class KnowledgeLlm : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        script_ = new Script;
        fake_ = new FakeLlm;
        fake_->setResponder([](const nlohmann::json&) {
            std::lock_guard lock(script_->mutex);
            return script_->reply;
        });

        TestServer::Options options;
        options.llm_base_url = fake_->baseUrl() + "/";
        options.llm_model = "fake-llm";
        options.llm_timeout_ms = 1500;
        server_ = new TestServer(options);
        user_ = server_->createUser("llm@example.com");
        token_ = server_->token(user_, TestServer::allScopes());
        lease_ = server_->uploadDocument(token_, "lease.txt", "text/plain", kLeaseText);
        ASSERT_EQ(server_->waitForDocument(lease_, token_)["status"], "embedded");
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        const auto has_sources = [] {
            const auto r = server_->request(
                "POST", "/api/v1/knowledge/query/stream",
                nlohmann::json{{"question", "rent"}, {"document_ids", {lease_}}}.dump(), token_);
            return r.body.find("base rent") != std::string::npos;
        };
        while (std::chrono::steady_clock::now() < deadline && !has_sources()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    static void TearDownTestSuite() {
        delete server_;
        delete fake_;
        delete script_;
    }

    static void scriptAnswer(const std::string& text, int delay_ms = 0, int status = 200) {
        std::lock_guard lock(script_->mutex);
        script_->reply = FakeLlm::Reply{FakeLlm::words(text), delay_ms, status};
        fake_->clearRequests();
    }
    static nlohmann::json lastRequest() {
        const auto requests = fake_->requests();
        return requests.empty() ? nlohmann::json() : requests.back();
    }

    static Stream ask(const std::string& question, const std::string& language = "") {
        nlohmann::json body{{"question", question}, {"document_ids", {lease_}}};
        if (!language.empty()) body["response_language"] = language;
        const auto r =
            server_->request("POST", "/api/v1/knowledge/query/stream", body.dump(), token_);
        EXPECT_EQ(r.status, 200) << r.body;
        Stream out;
        out.frames = sseFrames(r.body);
        for (const auto& f : out.frames) {
            if (f["type"] == "token") out.streamed += f["content"].get<std::string>();
        }
        EXPECT_FALSE(out.frames.empty());
        EXPECT_EQ(out.frames.front()["type"], "sources");
        EXPECT_EQ(out.frames.back()["type"], "done") << r.body;
        return out;
    }

    static Script* script_;
    static FakeLlm* fake_;
    static TestServer* server_;
    static std::string user_, token_, lease_;
};
Script* KnowledgeLlm::script_ = nullptr;
FakeLlm* KnowledgeLlm::fake_ = nullptr;
TestServer* KnowledgeLlm::server_ = nullptr;
std::string KnowledgeLlm::user_, KnowledgeLlm::token_, KnowledgeLlm::lease_;

TEST_F(KnowledgeLlm, ASupportedAnswerPassesThroughWithItsCitations) {
    const std::string answer =
        "The monthly base rent is $4,500, due on the first day of each month [1]. The security "
        "deposit is $9,000 [1].";
    scriptAnswer(answer);
    const auto s = ask("How much are the rent and the deposit?");
    const auto& done = s.done();
    EXPECT_EQ(s.streamed, answer) << "tokens stream as the endpoint sends them";
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_EQ(done["model"], "fake-llm-1") << "the model id the endpoint reports";
    EXPECT_EQ(done["unsupported_removed"], 0);
    EXPECT_FALSE(done["revised"].get<bool>());
    EXPECT_FALSE(done["refused"].get<bool>());
    EXPECT_FALSE(done.contains("llm_fallback"));
    const std::string text = done["answer"];
    EXPECT_NE(text.find("$4,500"), std::string::npos) << text;
    EXPECT_NE(text.find("$9,000"), std::string::npos) << text;
    EXPECT_NE(text.find("[1]"), std::string::npos) << text;
    ASSERT_EQ(done["citations"].size(), 2u) << done.dump();
    const auto& sources = s.frames.front()["sources"];
    for (const auto& c : done["citations"]) {
        EXPECT_EQ(c["source_number"], 1);
        EXPECT_EQ(c["document_id"], lease_);
        EXPECT_NE(sources[0]["excerpt"].get<std::string>().find(c["quote"].get<std::string>()),
                  std::string::npos)
            << "the quote is the source sentence that supports the answer's sentence";
    }
    EXPECT_NE(done["citations"][1]["quote"].get<std::string>().find("$9,000"), std::string::npos);

    // The trace records the LLM and scores as grounded through the same support check.
    const auto eval =
        server_->request("POST", "/api/v1/evaluations",
                         nlohmann::json{{"trace_id", done["trace_id"]}}.dump(), token_);
    ASSERT_EQ(eval.status, 201) << eval.body;
    EXPECT_DOUBLE_EQ(eval.json()["metrics"]["groundedness"].get<double>(), 1.0) << eval.body;
    EXPECT_EQ(server_->db().scalar("SELECT models->>'answerer' || ' ' || (models->>'llm') FROM "
                                   "answer_traces WHERE trace_id = '" +
                                   done["trace_id"].get<std::string>() + "'"),
              "llm fake-llm-1");
}

TEST_F(KnowledgeLlm, TheEndpointReceivesNumberedSourcesAndTheLanguage) {
    scriptAnswer("La renta mensual es de $4,500 [1].");
    const auto s = ask("What is the monthly rent?", "es");
    const auto request = lastRequest();
    ASSERT_TRUE(request.is_object());
    EXPECT_EQ(request["model"], "fake-llm");
    EXPECT_EQ(request["stream"], true);
    ASSERT_EQ(request["messages"].size(), 2u);
    EXPECT_EQ(request["messages"][0]["role"], "system");
    const std::string system = request["messages"][0]["content"];
    const std::string user = request["messages"][1]["content"];
    EXPECT_NE(system.find("Spanish"), std::string::npos) << system;
    EXPECT_NE(system.find("square brackets"), std::string::npos) << system;
    EXPECT_NE(user.find("[1] lease.txt, page 1\n"), std::string::npos) << user;
    EXPECT_NE(user.find("monthly base rent of $4,500"), std::string::npos) << user;
    EXPECT_NE(user.find("Question: What is the monthly rent?"), std::string::npos) << user;
    EXPECT_NE(user.find("Answer in Spanish."), std::string::npos) << user;
    // No API key configured: none sent.
    EXPECT_EQ(fake_->authorizations().back(), "");
    EXPECT_EQ(s.done()["type"], "done");
}

TEST_F(KnowledgeLlm, AnInventedSentenceIsRemovedAndCounted) {
    scriptAnswer(
        "The monthly base rent is $4,500 [1]. The landlord also provides a free parking "
        "garage with electric car chargers for every tenant [1]. Pets are forbidden. ");
    const auto s = ask("What does the tenant pay each month?");
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_EQ(done["unsupported_removed"], 2) << done.dump();
    EXPECT_TRUE(done["revised"].get<bool>()) << "the shown answer replaces the streamed one";
    const std::string text = done["answer"];
    EXPECT_NE(text.find("$4,500"), std::string::npos) << text;
    EXPECT_EQ(text.find("parking"), std::string::npos) << text;
    EXPECT_EQ(text.find("Pets"), std::string::npos) << text;
    ASSERT_EQ(done["unsupported_sentences"].size(), 2u);
    EXPECT_NE(done["unsupported_sentences"][0]["text"].get<std::string>().find("parking"),
              std::string::npos);
    EXPECT_EQ(done["citations"].size(), 1u);
}

TEST_F(KnowledgeLlm, AnAnswerWithNothingSupportedBecomesTheExtractiveAnswer) {
    scriptAnswer("The rent is paid in gold coins to the mayor of the city [1].");
    const auto s = ask("How much is the monthly rent?");
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "extractive") << done.dump();
    EXPECT_EQ(done["llm_fallback"]["code"], "llm_unsupported");
    EXPECT_EQ(done["unsupported_removed"], 1);
    EXPECT_NE(done["answer"].get<std::string>().find("$4,500"), std::string::npos) << done;
    EXPECT_EQ(done["answer"].get<std::string>().find("gold"), std::string::npos);
    EXPECT_FALSE(done["citations"].empty());
}

TEST_F(KnowledgeLlm, ARefusalStaysARefusal) {
    scriptAnswer("The provided documents don't contain this information.");
    const auto s = ask("Who won the football match in Leeds last Sunday?");
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "llm") << done.dump();
    EXPECT_TRUE(done["refused"].get<bool>());
    EXPECT_EQ(done["answer"], "The provided documents don't contain this information.");
    EXPECT_TRUE(done["citations"].empty());
}

TEST_F(KnowledgeLlm, ATimeoutFallsBackToTheExtractiveAnswer) {
    scriptAnswer("The monthly base rent is $4,500 [1].", 3000);  // timeout is 1500 ms
    const auto started = std::chrono::steady_clock::now();
    const auto s = ask("How much is the monthly rent?");
    const auto waited = std::chrono::steady_clock::now() - started;
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "extractive") << done.dump();
    EXPECT_EQ(done["llm_fallback"]["code"], "llm_timeout") << done.dump();
    EXPECT_NE(done["answer"].get<std::string>().find("$4,500"), std::string::npos) << done;
    EXPECT_FALSE(done["citations"].empty());
    EXPECT_EQ(s.streamed, done["answer"].get<std::string>()) << "the fallback answer streams";
    EXPECT_LT(waited, std::chrono::milliseconds(2900)) << "the timeout bounds the wait";
}

TEST_F(KnowledgeLlm, AnEndpointErrorFallsBackToTheExtractiveAnswer) {
    scriptAnswer("", 0, 503);
    const auto s = ask("How much is the monthly rent?");
    const auto& done = s.done();
    EXPECT_EQ(done["answerer"], "extractive") << done.dump();
    EXPECT_EQ(done["llm_fallback"]["code"], "llm_unavailable");
    EXPECT_NE(done["llm_fallback"]["message"].get<std::string>().find("503"), std::string::npos)
        << done["llm_fallback"];
    EXPECT_FALSE(done["revised"].get<bool>()) << "nothing streamed before the fallback";
    EXPECT_NE(done["answer"].get<std::string>().find("$4,500"), std::string::npos) << done;
    EXPECT_EQ(s.streamed, done["answer"].get<std::string>());
}

}  // namespace
}  // namespace docintel::test

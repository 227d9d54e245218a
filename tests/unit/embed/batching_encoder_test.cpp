// The shared encoding thread of ingestion (embed::BatchingEncoder) on the real MiniLM weights:
// every caller gets its own texts' vectors, in order, equal to what the encoder gives them
// alone; concurrent callers share encoder calls.

#include "embed/batching_encoder.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "support/test_server.h"

namespace docintel::embed {
namespace {

class BatchingEncoderTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto loaded =
            SentenceEncoder::load(test::modelsDir() + "/all-MiniLM-L6-v2", {.threads = 2});
        ASSERT_TRUE(loaded) << loaded.error().message << " — run `make model`";
        encoder_ = std::move(loaded).value().release();
    }
    static void TearDownTestSuite() {
        delete encoder_;
        encoder_ = nullptr;
    }

    /// Texts of varied length, distinct per caller and index.
    static std::vector<std::string> textsOf(int caller, int count) {
        std::vector<std::string> texts;
        for (int i = 0; i < count; ++i) {
            std::string text = "Caller " + std::to_string(caller) + " sentence " +
                               std::to_string(i) + " about leases, invoices and clinical notes.";
            for (int k = 0; k < (caller + i) % 5; ++k) text += " The tenant pays rent monthly.";
            texts.push_back(text);
        }
        return texts;
    }

    static void expectSameVectors(const std::vector<std::vector<float>>& got,
                                  const std::vector<std::string>& texts) {
        auto alone = encoder_->encode(texts);
        ASSERT_TRUE(alone);
        ASSERT_EQ(got.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            ASSERT_EQ(got[i].size(), (*alone)[i].size());
            // Both are unit vectors: their dot product is the cosine.
            EXPECT_GT(std::inner_product(got[i].begin(), got[i].end(), (*alone)[i].begin(), 0.0),
                      0.9999)
                << "text " << i << ": " << texts[i];
        }
    }

    static SentenceEncoder* encoder_;
};

SentenceEncoder* BatchingEncoderTest::encoder_ = nullptr;

TEST_F(BatchingEncoderTest, ConcurrentCallersGetTheirOwnVectorsInOrderAndShareEncoderCalls) {
    BatchingEncoder batcher(*encoder_, {.encoders = 2});
    constexpr int kCallers = 8;
    std::vector<std::vector<std::string>> texts;
    // The first two requests are large: they keep both encoding threads busy while the others
    // queue.
    for (int c = 0; c < kCallers; ++c) texts.push_back(textsOf(c, c < 2 ? 48 : 3 + c));
    std::vector<plugin::Result<std::vector<std::vector<float>>>> results(
        kCallers, plugin::Error::internal("not run"));
    {
        std::vector<std::thread> threads;
        for (int c = 0; c < kCallers; ++c) {
            threads.emplace_back([&, c] { results[c] = batcher.encode(texts[c]); });
        }
        for (auto& t : threads) t.join();
    }
    std::size_t total = 0;
    for (int c = 0; c < kCallers; ++c) {
        ASSERT_TRUE(results[c]) << results[c].error().message;
        expectSameVectors(*results[c], texts[c]);
        total += texts[c].size();
    }
    const auto stats = batcher.stats();
    EXPECT_EQ(stats.requests, static_cast<std::uint64_t>(kCallers));
    EXPECT_EQ(stats.texts, total);
    EXPECT_EQ(stats.encoders, 2);
    EXPECT_LT(stats.calls, stats.requests) << "queued requests were not encoded together";
    EXPECT_GT(stats.busy_ms, 0.0);
}

TEST_F(BatchingEncoderTest, ARequestLargerThanTheLimitIsEncodedWholeAndEmptyOnesAreFree) {
    BatchingEncoder batcher(*encoder_, {.max_texts = 4, .batch_size = 2, .encoders = 1});
    const auto texts = textsOf(1, 9);
    auto got = batcher.encode(texts);
    ASSERT_TRUE(got) << got.error().message;
    expectSameVectors(*got, texts);
    auto none = batcher.encode({});
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
    const auto stats = batcher.stats();
    EXPECT_EQ(stats.calls, 1u);
    EXPECT_EQ(stats.texts, 9u);
}

}  // namespace
}  // namespace docintel::embed

// The check of LLM mode (knowledge/cited_check.h) on what a small real model writes
// (SmolLM2-135M-Instruct through llama.cpp, tests/integration/knowledge_real_llm_test.cpp):
// uncited sentences, a refusal wrapped in a sentence of its own, markers in other places, and
// sentences that keep a source's words but change its figures — which the support check must
// not accept (statedNumbers). Real encoder (var/models, `make model`).

#include <gtest/gtest.h>

#include "embed/sentence_encoder.h"
#include "knowledge/cited_check.h"
#include "knowledge/stated_numbers.h"
#include "support/test_server.h"

namespace docintel::knowledge {
namespace {

const std::string kMemo =
    "May 5, 2023 To Whom it May Concern: There were 20,000 bottles of water, 10,000 blankets, "
    "and 200 laptops delivered on January 23, 2023. A total of 3 trucks were used for 15 hours. "
    "Best Regards, Mallori";

std::set<std::string> numbers(std::initializer_list<const char*> list) {
    return {list.begin(), list.end()};
}

TEST(StatedNumbers, FiguresAndNumberWordsCompareAsQuantities) {
    EXPECT_EQ(statedNumbers("20,000 bottles, $4,500.00 a month, 1.5 times, 05/05/2023"),
              numbers({"20000", "4500", "1.5", "5", "2023"}));
    EXPECT_EQ(statedNumbers("the 10th day, 5% late fee, 15 hours."), numbers({"10", "5", "15"}));
    EXPECT_EQ(statedNumbers("three trucks, twenty-five days, two hundred laptops"),
              numbers({"3", "25", "200"}));
    EXPECT_EQ(statedNumbers("twenty thousand bottles, thirty-one days, sixteen weeks"),
              numbers({"20000", "31", "16"}));
    EXPECT_EQ(statedNumbers("One of the trucks was often late."), numbers({}))
        << "\"one\" is as often a pronoun; words inside words are not numbers";
    EXPECT_EQ(statedNumbers("Version 2.0 of the form"), numbers({"2"}));
}

TEST(DraftedSentences, ShapesASmallModelWrites) {
    // No marker at all: a sentence citing nothing.
    auto d = draftedSentences("The answer is: 200.");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_TRUE(d[0].cited.empty());

    // A marker after the full stop belongs to the sentence before; lists and repeats merge.
    d = draftedSentences("There were 3 trucks. [1] They drove for 15 hours [1, 2][2].");
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].claim, "There were 3 trucks.");
    EXPECT_EQ(d[0].cited, std::vector<int>{1});
    EXPECT_EQ(d[1].claim, "They drove for 15 hours.");
    EXPECT_EQ(d[1].cited, (std::vector<int>{1, 2}));

    // Lines the model opens with the sources' numbers ("[1] …\n[2] …"): each number labels
    // its own line, not the sentence of the line before.
    d = draftedSentences("[1] There were 3 trucks.\n[2] They drove for 15 hours.\n[3] End");
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0].claim, "There were 3 trucks.");
    EXPECT_EQ(d[0].cited, std::vector<int>{1});
    EXPECT_EQ(d[1].cited, std::vector<int>{2});
    EXPECT_EQ(d[2].cited, std::vector<int>{3});

    // The refusal inside a sentence of the model's own, with a quotation around it.
    d = draftedSentences(
        "The source is not explicitly mentioned, but the answer is: \"The provided documents "
        "don't contain this information.\"");
    ASSERT_FALSE(d.empty());
    for (const auto& s : d) EXPECT_TRUE(s.cited.empty()) << s.claim;
}

class CitedCheck : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto loaded = embed::SentenceEncoder::load(test::modelsDir() + "/all-MiniLM-L6-v2");
        ASSERT_TRUE(loaded) << "run `make model`: " << loaded.error().message;
        encoder_ = std::move(loaded).value().release();
    }
    static void TearDownTestSuite() { delete encoder_; }

    static std::vector<CheckedSentence> check(const std::string& text) {
        auto checked =
            checkCitedSentences(SupportChecker(encoder_), draftedSentences(text), {kMemo});
        EXPECT_TRUE(checked) << checked.error().message;
        return checked ? *checked : std::vector<CheckedSentence>{};
    }

    static embed::SentenceEncoder* encoder_;
};
embed::SentenceEncoder* CitedCheck::encoder_ = nullptr;

TEST_F(CitedCheck, ASentenceWithTheSourcesFiguresIsKept) {
    const auto checked = check(
        "There were 20,000 bottles of water delivered on January 23, 2023 [1]. Three trucks "
        "were used for 15 hours [1].");
    ASSERT_EQ(checked.size(), 2u);
    EXPECT_TRUE(checked[0].supported);
    EXPECT_TRUE(checked[1].supported) << "\"Three\" is the source's 3";
    EXPECT_EQ(checked[0].best.source_number, 1);
}

TEST_F(CitedCheck, ASentenceThatChangesAFigureIsRemoved) {
    // Same words, same meaning to the encoder, different figures: not what the source says.
    for (const char* invented :
         {"There were 3 bottles of water delivered [1].",
          "There were 20,000 bottles of water delivered on January 24, 2023 [1].",
          "A total of 4 trucks were used for 15 hours [1].",
          "The 200 laptops were delivered in 2022 [1]."}) {
        const auto checked = check(invented);
        ASSERT_EQ(checked.size(), 1u) << invented;
        EXPECT_FALSE(checked[0].supported) << invented;
    }
}

TEST_F(CitedCheck, AnUncitedOrWronglyNumberedSentenceIsUnsupported) {
    const auto checked = check(
        "The supplies were delivered on January 23, 2023. A total of 3 trucks were used for 15 "
        "hours [2].");
    ASSERT_EQ(checked.size(), 2u);
    EXPECT_FALSE(checked[0].supported) << "cites nothing";
    EXPECT_FALSE(checked[1].supported) << "cites a source that does not exist";
}

}  // namespace
}  // namespace docintel::knowledge

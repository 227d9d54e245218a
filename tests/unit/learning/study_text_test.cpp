// Sentence splitting, content words and typed facts the generators build on.

#include <gtest/gtest.h>

#include "learning/facts.h"
#include "learning/study_text.h"

namespace docintel::learning {
namespace {

std::vector<std::string> sentencesOf(const std::string& text) {
    std::vector<std::string> out;
    for (const auto& [s, e] : splitSentences(text)) out.push_back(text.substr(s, e - s));
    return out;
}

TEST(StudyText, SplitsAtStopsButNotAbbreviationsOrInitials) {
    const auto s = sentencesOf(
        "Dr. Smith met J. R. Tolkien in the U.S. in 1950. It rained. \"Was it?\" she asked. "
        "The price was 3.5 dollars.");
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0], "Dr. Smith met J. R. Tolkien in the U.S. in 1950.");
    EXPECT_EQ(s[1], "It rained.");
    EXPECT_EQ(s[3], "The price was 3.5 dollars.");
}

TEST(StudyText, QuotableSentencesKeepTheirPlaceAndSkipShortOnes) {
    const std::vector<Passage> passages = {
        {"d1", "Doc", 2, "c1",
         "Short one. The Normans settled in Normandy during the tenth century."}};
    const auto q = quotableSentences(passages);
    ASSERT_EQ(q.size(), 1u);
    EXPECT_EQ(passages[0].text.substr(q[0].start, q[0].end - q[0].start), q[0].text);
    EXPECT_EQ(q[0].position, 0);
}

TEST(StudyText, CentralityFollowsTheFocus) {
    const std::vector<Passage> passages = {
        {"d", "D", 1, "c",
         "Cells divide by mitosis in most tissues of the body. Meiosis produces gametes for "
         "sexual reproduction in animals. Mitosis keeps the chromosome number of the cells."}};
    const auto sentences = quotableSentences(passages);
    ASSERT_EQ(sentences.size(), 3u);
    const auto plain = centrality(sentences, {});
    const auto steered = centrality(sentences, contentWordSet("gametes and reproduction"));
    EXPECT_LT(plain[1], plain[0]);  // the mitosis sentences share words; meiosis stands alone
    EXPECT_GT(steered[1], steered[0]);
}

TEST(Facts, FindsTypedFactsWithTheirKinds) {
    const std::string s =
        "In 1066, William of Normandy led 7,000 soldiers across the Channel, about 20 percent "
        "of the army, and the war lasted into the 11th century.";
    const auto facts = findFacts(s, lowerCaseWords({"the army led soldiers"}));
    std::map<FactType, std::vector<std::string>> by;
    for (const auto& f : facts) {
        by[f.type].push_back(f.text);
        EXPECT_EQ(s.substr(f.pos, f.len), f.text);
    }
    EXPECT_EQ(by[FactType::kYear], std::vector<std::string>{"1066"});
    EXPECT_EQ(by[FactType::kNumber], std::vector<std::string>{"7,000"});
    EXPECT_EQ(by[FactType::kPercent], std::vector<std::string>{"20 percent"});
    EXPECT_EQ(by[FactType::kOrdinal], std::vector<std::string>{"11th"});
    EXPECT_EQ(by[FactType::kName], (std::vector<std::string>{"William of Normandy", "Channel"}));
    for (const auto& f : facts) {
        if (f.type == FactType::kNumber) {
            EXPECT_EQ(f.value, "7000");
            EXPECT_EQ(f.kind, "soldier");
        }
        if (f.type == FactType::kOrdinal) EXPECT_EQ(f.kind, "century");
    }
}

TEST(Facts, ACapitalisedCommonWordIsNotAName) {
    const auto facts =
        findFacts("During the war the Romans built roads.", lowerCaseWords({"during a war"}));
    ASSERT_EQ(facts.size(), 1u);
    EXPECT_EQ(facts[0].text, "Romans");
}

}  // namespace
}  // namespace docintel::learning

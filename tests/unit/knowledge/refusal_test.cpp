// The extractive answerer's refusal evidence (knowledge/refusal.h): word matching that ignores
// casing, punctuation and inflection; the signs of a question the sources only seem to answer
// (a missing name or number, a near-duplicate word, an unmatched negation, no date where one is
// asked for); and the fitted probability ordering a supported question above an altered one.

#include <gtest/gtest.h>

#include "knowledge/extractive_answerer.h"
#include "knowledge/refusal.h"

namespace docintel::knowledge {
namespace {

const std::string kPassage =
    "The Normans were the people who in the 10th and 11th centuries gave their name to "
    "Normandy, a region in France. Packets are normally forwarded asynchronously by "
    "intermediate network nodes. The Treaty of Paris was signed in 1763. Western powers "
    "developed informal imperialism.";

RefusalEvidence evidenceFor(const std::string& question, const std::string& best,
                            double cosine = 0.7) {
    std::vector<std::set<std::string>> sentences;
    for (const char* s : {"The Normans were the people who in the 10th and 11th centuries gave "
                          "their name to Normandy, a region in France.",
                          "Packets are normally forwarded asynchronously by intermediate "
                          "network nodes.",
                          "The Treaty of Paris was signed in 1763.",
                          "Western powers developed informal imperialism."}) {
        sentences.push_back(refusalWords(s));
    }
    const auto q = contentWordSet(question);
    return refusalEvidence(question, best, best, sentences, refusalWords(kPassage), cosine,
                           coverage(q, contentWordSet(best)));
}

TEST(Refusal, WordsMatchAcrossCasingPunctuationAndInflection) {
    const auto words = contentWordSet(kPassage);
    EXPECT_TRUE(fuzzyContains(words, "normandy"));
    EXPECT_TRUE(fuzzyContains(words, "develop"));        // "developed"
    EXPECT_TRUE(fuzzyContains(words, "imperialistic"));  // "imperialism"
    EXPECT_FALSE(fuzzyContains(words, "synchronously"));
    EXPECT_FALSE(fuzzyContains(words, "1769"));
    EXPECT_TRUE(fuzzyContains(words, "1763"));
    EXPECT_TRUE(fuzzyContains(words, "10"));  // "10th"
    EXPECT_FALSE(fuzzyContains(words, "1"));
    EXPECT_TRUE(fuzzyContains(refusalWords("When Yes\u00fcn Tem\u00fcr died in Shangdu"), "temur"));
    EXPECT_TRUE(fuzzyContains(refusalWords("Besan\u00e7on Hugues"), "besancon"));

    const auto plain = evidenceFor("when was the treaty of paris signed",
                                   "The Treaty of Paris was signed in 1763.");
    const auto shouted = evidenceFor("When was the Treaty of PARIS signed?!",
                                     "The Treaty of Paris was signed in 1763.");
    EXPECT_EQ(plain.missing, 0);
    EXPECT_EQ(shouted.missing, 0);
    EXPECT_EQ(shouted.missing_names, 0);
    EXPECT_DOUBLE_EQ(plain.window_coverage, shouted.window_coverage);
    EXPECT_DOUBLE_EQ(answerProbability(plain), answerProbability(shouted));
}

TEST(Refusal, AlteredQuestionsShowTheirSigns) {
    const auto asynchronous =
        evidenceFor("How are packets forwarded synchronously?",
                    "Packets are normally forwarded asynchronously by intermediate network nodes.");
    EXPECT_EQ(asynchronous.missing, 1);
    EXPECT_EQ(asynchronous.altered, 1);

    const auto eastern = evidenceFor("Which eastern powers developed informal imperialism?",
                                     "Western powers developed informal imperialism.");
    EXPECT_EQ(eastern.altered, 1);

    const auto year =
        evidenceFor("What was signed in 1769?", "The Treaty of Paris was signed in 1763.");
    EXPECT_EQ(year.missing_names, 1);
    EXPECT_EQ(year.altered, 1);

    const auto negated = evidenceFor("Which treaty was not signed in 1763?",
                                     "The Treaty of Paris was signed in 1763.");
    EXPECT_TRUE(negated.negation_unmatched);
    const auto contracted = evidenceFor("What treaty wasn't signed in 1763?",
                                        "The Treaty of Paris was signed in 1763.");
    EXPECT_TRUE(contracted.negation_unmatched);

    const auto when = evidenceFor("When did the Normans give their name to Normandy?",
                                  "Western powers developed informal imperialism.");
    EXPECT_TRUE(when.type_mismatch);
    const auto dated = evidenceFor("When was the Treaty of Paris signed?",
                                   "The Treaty of Paris was signed in 1763.");
    EXPECT_FALSE(dated.type_mismatch);
    EXPECT_FALSE(dated.negation_unmatched);
    EXPECT_EQ(dated.altered, 0);

    // The same best sentence and cosine: the altered question is less likely answered.
    const auto supported =
        evidenceFor("How are packets forwarded by the network nodes?",
                    "Packets are normally forwarded asynchronously by intermediate network nodes.");
    EXPECT_GT(answerProbability(supported), answerProbability(asynchronous));
    EXPECT_GT(answerProbability(dated), answerProbability(year));
}

}  // namespace
}  // namespace docintel::knowledge

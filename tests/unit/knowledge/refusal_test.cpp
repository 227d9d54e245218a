// The extractive answerer's refusal evidence (knowledge/refusal.h): word matching that ignores
// casing, punctuation and inflection; the signs of a question the sources only seem to answer
// (a missing name or number, a near-duplicate word, an unmatched negation, no date where one is
// asked for); and the fitted probability ordering a supported question above an altered one.

#include <cmath>

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
                            double cosine = 0.7, const std::string& window = "") {
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
    return refusalEvidence(analyseQuestion(question), best, window.empty() ? best : window,
                           sentences, {kPassage}, cosine, coverage(q, contentWordSet(best)), 0.4);
}

TEST(Refusal, AbbreviationsAndNumbersInWordsAreTheWordsTheyStandFor) {
    // pdf/text/scotus-transcript-p1.pdf and the Federal Register's running header: "What is the
    // docket number of the case?" shares "number" with "No. 07-1315".
    EXPECT_EQ(contentWords("6 v. : No. 07-1315"),
              (std::vector<std::string>{"number", "07", "1315"}));
    EXPECT_TRUE(fuzzyContains(refusalWords("Federal Register / Vol. 85, No.152"), "volume"));
    // A number of two figures in words is the number.
    EXPECT_TRUE(fuzzyContains(refusalWords("Total, 12 states"), contentWords("twelve").front()));
    // Not without a figure after it.
    EXPECT_TRUE(contentWords("No. The vol. is out.") == (std::vector<std::string>{"vol"}));
}

TEST(Refusal, ANumberIsOneWord) {
    // A decimal is not its digits ("2.2" would be two dropped "2"s), and grouped figures are the
    // number however they are grouped.
    EXPECT_EQ(contentWords("a 2.2 kW pump for 12,765 in 2020."),
              (std::vector<std::string>{"2.2", "kw", "pump", "12765", "2020"}));
    EXPECT_EQ(contentWords("items 1, 2 and 3.5.1"), (std::vector<std::string>{"item", "3.5"}));
    const auto question = analyseQuestion("What does the model for 2.2 kW pumps cost?");
    EXPECT_TRUE(question.key_terms.count("2.2"));
    EXPECT_FALSE(question.key_terms.count("2"));
}

TEST(Refusal, AddressesAreNoWordsOfTheText) {
    // An e-mail header names the sender's domain in every message of a thread: its words are not
    // what the message says.
    const auto words = contentWordSet(
        "To: Rory Baptiste <bookings@thistledown-coaches.example.co.uk> | Subject: Re: Fares "
        "(see https://ferries.example.org/fares or www.example.com/coach) by jo.smith@example.org");
    EXPECT_FALSE(fuzzyContains(words, "coach"));
    EXPECT_FALSE(fuzzyContains(words, "ferry"));
    EXPECT_FALSE(fuzzyContains(words, "smith"));
    EXPECT_TRUE(fuzzyContains(words, "rory"));
    EXPECT_TRUE(fuzzyContains(words, "fare"));
    // An "@" or a dot alone is no address.
    EXPECT_TRUE(fuzzyContains(contentWordSet("meet @ the station. Bring tea."), "station"));
}

TEST(Refusal, AnAcronymIsTheCapitalisedWordsItSpellsOut) {
    const auto spelled = spelledAcronyms(
        "The outlook was given by Chief Executive Officer Dana Whitcombe and the Chief Financial "
        "Officer, with the Department of Water Resources (\"Board\") present.");
    EXPECT_TRUE(spelled.count("ceo"));
    EXPECT_TRUE(spelled.count("cfo"));
    EXPECT_TRUE(spelled.count("dwr"));      // "of" passed over
    EXPECT_FALSE(spelled.count("cfow"));    // the comma ends the run
    EXPECT_FALSE(spelled.count("drb"));     // so does the opening bracket
    EXPECT_FALSE(spelled.count("ceodwc"));  // at most five words
    EXPECT_TRUE(spelledAcronyms("the meter was read at 9 a.m. by staff").empty());
    // The refusal's words hold them: "CEO" in a question is in the sentence.
    const auto e = evidenceFor("Who is the CEO?",
                               "The outlook was given by Chief Executive Officer Dana Whitcombe.");
    EXPECT_DOUBLE_EQ(e.best_coverage, 1.0);
    EXPECT_DOUBLE_EQ(e.window_coverage, 1.0);
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
    // An irregular verb's forms are its base form: "who took the minutes?" and "taken by".
    EXPECT_EQ(contentWordSet("Who took the minutes?"), contentWordSet("the minutes were taken"));
    EXPECT_EQ(contentWords("the hearing is held"), (std::vector<std::string>{"hearing", "hold"}));
    // A code matches only itself: its first letters do not say which one it is.
    const auto row = refusalWords("DOCUMENT NO.: DHAW20190033 | AMOUNT ($): 601.30");
    EXPECT_TRUE(fuzzyContains(row, "dhaw20190033"));
    EXPECT_FALSE(fuzzyContains(row, "dhaw20190030"));
    EXPECT_FALSE(fuzzyContains(row, "dhaw2"));

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

    const std::string row = "DOCUMENT NO.: DHAW20190033 | AMOUNT ($): 601.30";
    const auto code =
        refusalEvidence(analyseQuestion("What is the amount of document DHAW20190030?"), row, row,
                        {refusalWords(row)}, {row}, 0.7, 0.5, 0.4);
    EXPECT_EQ(code.missing_names, 1);
    EXPECT_EQ(code.altered, 1);

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

TEST(Refusal, QuestionWordsAreFlaggedWhateverTheirCase) {
    const auto when = evidenceFor("When was the Treaty of Paris signed?",
                                  "The Treaty of Paris was signed in 1763.");
    const auto which = evidenceFor("WHICH treaty was signed in 1763, and who signed it?",
                                   "The Treaty of Paris was signed in 1763.");
    for (std::size_t i = 0; i < kQuestionWords.size(); ++i) {
        const std::string word = kQuestionWords[i];
        EXPECT_EQ(when.asks[i], word == "when") << word;
        EXPECT_EQ(which.asks[i], word == "which" || word == "who") << word;
    }
    EXPECT_FALSE(evidenceFor("Somewhat of a treaty?", "The Treaty of Paris was signed in 1763.")
                     .asks[0]);  // "somewhat" is not "what"
}

TEST(Refusal, BestSentenceCoverageLeavesTheNeighboursOut) {
    const std::string best = "The Treaty of Paris was signed in 1763.";
    const std::string window = best + " Western powers developed informal imperialism.";
    const auto e =
        evidenceFor("Which Western powers signed the Treaty of Paris?", best, 0.7, window);
    EXPECT_DOUBLE_EQ(e.window_coverage, 1.0);  // "western" and "power" are in the neighbour
    EXPECT_GT(e.best_coverage, 0.3);
    EXPECT_LT(e.best_coverage, e.window_coverage);
    EXPECT_DOUBLE_EQ(evidenceFor("When was the treaty of Paris signed?", best).best_coverage, 1.0);
}

TEST(Refusal, PairsTheSourcesKeepApart) {
    const std::string best = "The Treaty of Paris was signed in 1763.";
    // "treaty paris" and "paris signed" stand together in the passage, whatever the casing.
    EXPECT_EQ(evidenceFor("When was the TREATY of paris signed?", best).pairs_apart, 0);
    // "western packets" and "packets signed": each word is in the passage, never together.
    EXPECT_EQ(evidenceFor("When were Western packets signed?", best).pairs_apart, 2);
    // A word no source holds makes a missing word, not a pair kept apart.
    EXPECT_EQ(evidenceFor("When were purple treaties signed?", best).pairs_apart, 0);
}

TEST(Refusal, PairsTogetherIsTheShareOfTheQuestionsPhrasesASentenceKeeps) {
    const auto q = analyseQuestion("Who is the Director of Public Works?").words;
    ASSERT_EQ(q.size(), 3u);  // director public work
    EXPECT_DOUBLE_EQ(pairsTogether(q, contentWords("Priya Lind (Director of Public Works)")), 1.0);
    EXPECT_DOUBLE_EQ(pairsTogether(q, contentWords("PUBLIC WORKS COMMITTEE; the director")), 0.5);
    EXPECT_DOUBLE_EQ(pairsTogether(q, contentWords("The director spoke at length; later the public "
                                                   "park got new sidewalk works.")),
                     0.0);
    EXPECT_DOUBLE_EQ(pairsTogether({"director"}, contentWords("the director")), 0.0);
}

TEST(Refusal, NamesInAnotherSentenceAreDisplaced) {
    const std::string best = "The Treaty of Paris was signed in 1763.";
    const auto moved = evidenceFor("When did the Normans sign the Treaty of Paris?", best);
    EXPECT_EQ(moved.displaced_names, 1);  // "Normans" is in the passage, not in the window
    EXPECT_EQ(moved.missing_names, 0);
    const auto absent = evidenceFor("When did the Saxons sign the Treaty of Paris?", best);
    EXPECT_EQ(absent.displaced_names, 0);
    EXPECT_EQ(absent.missing_names, 1);
    EXPECT_EQ(evidenceFor("When was the Treaty of Paris signed?", best).displaced_names, 0);
}

TEST(Refusal, CosineLiftAndSentenceCount) {
    const auto e = evidenceFor("When was the Treaty of Paris signed?",
                               "The Treaty of Paris was signed in 1763.", 0.7);
    EXPECT_NEAR(e.cosine_lift, 0.3, 1e-12);  // 0.7 against a mean of 0.4
    EXPECT_EQ(e.sentences, 4);
    const auto f = refusalFeatures(e);
    EXPECT_DOUBLE_EQ(f[20], e.cosine_lift);
    EXPECT_DOUBLE_EQ(f[21], std::log1p(4.0));
    EXPECT_DOUBLE_EQ(f[12], 1.0);  // asks "when"
}

}  // namespace
}  // namespace docintel::knowledge

// Artifact generation without an LLM: every item quotes or blanks its source sentence and
// cites its document and page; the injected support check drops what it does not support.

#include <gtest/gtest.h>

#include <algorithm>

#include "learning/generation.h"
#include "learning/quiz.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

std::vector<Passage> scope() {
    return {
        {"hist", "history.pdf", 1, "h1",
         "The Battle of Hastings was fought in 1066 between the Normans and the English. "
         "William the Conqueror led about 7,000 soldiers to the coast of Sussex that autumn."},
        {"hist", "history.pdf", 2, "h2",
         "The Domesday Book is a survey of land and property ordered by the king in 1085. "
         "Westminster Abbey was consecrated in 1065 under Edward the Confessor's rule."},
        {"hist", "history.pdf", 3, "h3",
         "The Magna Carta was sealed by King John at Runnymede in 1215 after a revolt. "
         "Feudalism is a system in which land was held in exchange for military service."},
        {"bio", "biology.pdf", 4, "b1",
         "Photosynthesis is the process by which plants turn light into chemical energy. "
         "The Black Death killed about 25,000 people in the city of Bristol during 1348."},
        {"bio", "biology.pdf", 5, "b2",
         "A chloroplast is an organelle in which photosynthesis takes place inside cells. "
         "Gregor Mendel published his work on pea plants in Brno during the year 1866."},
        {"hist", "history.pdf", 6, "h4",
         "King John sealed the Magna Carta at Runnymede after the barons revolted against him."},
    };
}

/// The passage text a citation points at.
std::string cited(const std::vector<Passage>& passages, const json& c) {
    for (const auto& p : passages) {
        if (p.chunk_id == c["chunk_id"]) {
            return p.text.substr(
                c["char_start"].get<std::size_t>(),
                c["char_end"].get<std::size_t>() - c["char_start"].get<std::size_t>());
        }
    }
    return {};
}

void expectCitedQuotes(const std::vector<Passage>& passages, const GeneratedArtifact& a) {
    ASSERT_FALSE(a.items.empty());
    for (const auto& item : a.items) {
        const json c = item.contains("citation") ? item["citation"] : item["citations"][0];
        EXPECT_EQ(cited(passages, c), c["quote"]) << item.dump();
        EXPECT_FALSE(c["document_id"].get<std::string>().empty());
        EXPECT_GE(c["page"].get<int>(), 1);
    }
}

TEST(Generation, SummaryAndStudyGuideQuoteTheirSources) {
    const auto passages = scope();
    for (const auto type : {ArtifactType::kSummary, ArtifactType::kStudyGuide}) {
        GenerationRequest r;
        r.type = type;
        r.scope_label = "History";
        const auto a = generateArtifact(passages, r);
        ASSERT_TRUE(a.ok()) << a.error().message;
        expectCitedQuotes(passages, *a);
        EXPECT_NE(a->content.find("[1]"), std::string::npos);
        EXPECT_NE(a->content.find("Sources:"), std::string::npos);
    }
    GenerationRequest r;
    r.type = ArtifactType::kSummary;
    r.scope_label = "History";
    EXPECT_EQ(generateArtifact(passages, r)->title, "Summary - History");
}

TEST(Generation, KeyConceptsAndFlashcardsComeFromDefinitions) {
    const auto passages = scope();
    GenerationRequest r;
    r.type = ArtifactType::kKeyConcepts;
    const auto concepts = generateArtifact(passages, r);
    ASSERT_TRUE(concepts.ok());
    expectCitedQuotes(passages, *concepts);
    std::set<std::string> terms;
    for (const auto& c : concepts->items) terms.insert(c["term"]);
    EXPECT_TRUE(terms.count("Photosynthesis"));
    EXPECT_TRUE(terms.count("Feudalism"));
    EXPECT_TRUE(terms.count("chloroplast"));

    r.type = ArtifactType::kFlashcards;
    const auto cards = generateArtifact(passages, r);
    ASSERT_TRUE(cards.ok());
    expectCitedQuotes(passages, *cards);
    for (const auto& c : cards->items) {
        EXPECT_NE(c["back"].get<std::string>().find(c["front"].get<std::string>()),
                  std::string::npos);
    }
}

TEST(Generation, PracticeQuestionsAreValidQuizzesWithSameTypeDistractorsFromElsewhere) {
    const auto passages = scope();
    GenerationRequest r;
    r.type = ArtifactType::kPracticeQuestions;
    r.max_items = 5;
    const auto a = generateArtifact(passages, r);
    ASSERT_TRUE(a.ok()) << a.error().message;
    const auto quiz = parseQuizText(a->content);
    ASSERT_TRUE(quiz.ok()) << quiz.error().message;
    ASSERT_FALSE(quiz->questions.empty());
    EXPECT_LE(quiz->questions.size(), 5u);
    for (const auto& q : quiz->questions) {
        const std::string quote = cited(passages, q.citations[0]);
        ASSERT_EQ(q.correctIds().size(), 1u);
        for (const auto& o : q.options) {
            // The answer is the blanked fact of the cited sentence; no distractor is in it.
            EXPECT_EQ(quote.find(o.text) != std::string::npos, o.correct) << q.question;
            // Every option, right or wrong, is stated somewhere in the scope.
            const bool stated = std::any_of(passages.begin(), passages.end(), [&](auto& p) {
                return p.text.find(o.text) != std::string::npos;
            });
            EXPECT_TRUE(stated) << o.text;
        }
        EXPECT_NE(q.question.find("_____"), std::string::npos);
        EXPECT_NE(q.explanation.find(quote), std::string::npos);
    }
    // Year questions take year distractors.
    for (const auto& q : quiz->questions) {
        if (q.question.rfind("Which year", 0) != 0) continue;
        for (const auto& o : q.options) EXPECT_EQ(o.text.size(), 4u) << o.text;
    }
}

TEST(Generation, TheSupportCheckDropsWhatItDoesNotSupport) {
    const auto passages = scope();
    GenerationRequest r;
    r.type = ArtifactType::kSummary;
    GenerationTools refuse_all;
    refuse_all.support = [](const std::vector<SupportClaim>& claims) {
        return std::vector<bool>(claims.size(), false);
    };
    const auto none = generateArtifact(passages, r, refuse_all);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().code, "insufficient_content");

    // Distractors the check supports (here every other one asked) never reach the quiz, and
    // an answer it does not support (here the 1066 sentence's) takes its question away.
    r.type = ArtifactType::kPracticeQuestions;
    GenerationTools picky;
    std::set<std::string> supported_distractors;
    int distractor_claims = 0;
    picky.support = [&](const std::vector<SupportClaim>& claims) {
        std::vector<bool> out;
        for (const auto& c : claims) {
            const bool answer = c.texts.size() == 1 && c.texts[0] == c.sentence;
            if (answer) {
                out.push_back(c.sentence.find("1066") == std::string::npos);
                continue;
            }
            EXPECT_FALSE(c.texts.empty());
            const bool supported = distractor_claims++ % 2 == 0;
            if (supported) supported_distractors.insert(c.sentence);
            out.push_back(supported);
        }
        return out;
    };
    const auto a = generateArtifact(passages, r, picky);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_FALSE(supported_distractors.empty());
    for (const auto& q : a->items) {
        EXPECT_EQ(q["citations"][0]["quote"].get<std::string>().find("1066"), std::string::npos);
        const std::string question = q["question"];
        std::string stem = question.substr(question.find('"') + 1);
        stem.pop_back();
        const auto blank = stem.find("_____");
        for (const auto& o : q["options"]) {
            if (o["correct"]) continue;
            const std::string statement =
                stem.substr(0, blank) + o["text"].get<std::string>() + stem.substr(blank + 5);
            EXPECT_FALSE(supported_distractors.count(statement)) << statement;
        }
    }
}

TEST(Generation, CustomInstructionSteersTheSummary) {
    const auto passages = scope();
    GenerationRequest r;
    r.type = ArtifactType::kSummary;
    r.max_items = 2;
    r.custom_instruction = "photosynthesis in plants and chloroplast organelles";
    const auto a = generateArtifact(passages, r);
    ASSERT_TRUE(a.ok());
    for (const auto& item : a->items) EXPECT_EQ(item["citation"]["document_id"], "bio");
}

TEST(Generation, AnEmptyScopeIsNotReady) {
    GenerationRequest r;
    const auto a = generateArtifact({}, r);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().http_status, 409);
}

}  // namespace
}  // namespace docintel::learning

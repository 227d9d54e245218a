// Artifacts an LLM writes: the prompt numbers the scope's passages, and the reply's items are
// kept only with a known source whose closest sentence supports them (the injected check).

#include <gtest/gtest.h>

#include "learning/generation_llm.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

std::vector<Passage> passages() {
    return {{"hist", "history.pdf", 1, "h1",
             "The Battle of Hastings was fought in 1066 between the Normans and the English. "
             "William the Conqueror led about 7,000 soldiers to the coast of Sussex that autumn."},
            {"bio", "biology.pdf", 4, "b1",
             "Photosynthesis is the process by which plants turn light into chemical energy. "
             "A chloroplast is an organelle in which photosynthesis takes place inside cells."}};
}

/// A support check that refuses any statement with a year its sentence does not state.
SupportCheck yearsMustMatch() {
    return [](const std::vector<SupportClaim>& claims) {
        std::vector<bool> out;
        for (const auto& c : claims) {
            bool ok = true;
            for (const std::string year : {"1066", "1067"}) {
                if (c.sentence.find(year) != std::string::npos &&
                    c.texts.at(0).find(year) == std::string::npos) {
                    ok = false;
                }
            }
            out.push_back(ok);
        }
        return out;
    };
}

TEST(GenerationLlm, ThePromptNumbersThePassagesAndAsksForCitedLines) {
    GenerationRequest request;
    request.type = ArtifactType::kKeyConcepts;
    request.custom_instruction = "plants";
    const json messages = llmMessages(passages(), request);
    ASSERT_EQ(messages.size(), 2u);
    EXPECT_EQ(messages[0]["role"], "system");
    const std::string user = messages[1]["content"];
    EXPECT_NE(user.find("[1] The Battle of Hastings"), std::string::npos);
    EXPECT_NE(user.find("[2] Photosynthesis"), std::string::npos);
    EXPECT_NE(user.find("concept :: definition [n]"), std::string::npos);
    EXPECT_NE(user.find("Focus on: plants"), std::string::npos);
    EXPECT_FALSE(llmWrites(ArtifactType::kPracticeQuestions));
}

TEST(GenerationLlm, KeepsSupportedItemsWithTheirClosestSentenceAndDropsTheRest) {
    GenerationRequest request;
    request.type = ArtifactType::kSummary;
    request.scope_label = "History";
    const std::string reply =
        "Here is the summary:\n"
        "1. The Battle of Hastings was fought in 1066 between Normans and English. [1]\n"
        "- The battle was fought in 1067 by the Normans. [1]\n"
        "- Plants turn light into chemical energy through photosynthesis. [2]\n"
        "- Mars has two moons. [9]\n";
    auto a = artifactFromLlm(reply, passages(), request, {yearsMustMatch(), {}});
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_EQ(a->items.size(), 2u) << a->items.dump();
    EXPECT_EQ(a->dropped, 2);  // the wrong year, and the source the prompt did not have
    EXPECT_EQ(a->items[0]["citation"]["document_id"], "hist");
    EXPECT_EQ(a->items[0]["citation"]["quote"],
              "The Battle of Hastings was fought in 1066 between the Normans and the English.");
    EXPECT_EQ(a->items[1]["citation"]["chunk_id"], "b1");
    EXPECT_EQ(a->title, "Summary - History");
    EXPECT_NE(a->content.find("[1]"), std::string::npos);
    EXPECT_NE(a->content.find("Sources:"), std::string::npos);
    EXPECT_EQ(a->source_document_ids, (std::vector<std::string>{"hist", "bio"}));
}

TEST(GenerationLlm, PairsNeedBothSidesAndNothingSupportedIsInsufficient) {
    GenerationRequest request;
    request.type = ArtifactType::kFlashcards;
    const std::string reply =
        "What is a chloroplast? :: An organelle in which photosynthesis takes place. [2]\n"
        "What is photosynthesis? [2]\n";
    auto cards = artifactFromLlm(reply, passages(), request);
    ASSERT_TRUE(cards) << cards.error().message;
    ASSERT_EQ(cards->items.size(), 1u);
    EXPECT_EQ(cards->items[0]["front"], "What is a chloroplast?");
    EXPECT_EQ(cards->items[0]["citation"]["quote"],
              "A chloroplast is an organelle in which photosynthesis takes place inside cells.");

    request.type = ArtifactType::kSummary;
    auto none = artifactFromLlm("The battle was in 1067. [1]\nNo source here.", passages(), request,
                                {yearsMustMatch(), {}});
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, "insufficient_content");
}

}  // namespace
}  // namespace docintel::learning

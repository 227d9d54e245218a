// Practice-question artifacts as quizzes, attempts and lesson progress.

#include <gtest/gtest.h>

#include "learning/quiz.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

json question(const std::string& id, std::set<std::string> correct) {
    json options = json::array();
    for (const char* o : {"A", "B", "C", "D"}) {
        options.push_back(
            {{"id", o}, {"text", std::string("option ") + o}, {"correct", correct.count(o) > 0}});
    }
    return {{"id", id},
            {"question", "Question " + id + "?"},
            {"options", options},
            {"explanation", "Because the text says so."}};
}

Quiz quiz() {
    const json content = {{"schema_version", 1},
                          {"instructions", "Pick all that apply."},
                          {"questions", {question("q1", {"A"}), question("q2", {"B", "D"})}}};
    auto q = parseQuizText(content.dump());
    EXPECT_TRUE(q.ok()) << (q.ok() ? "" : q.error().message);
    return *q;
}

TEST(Quiz, AValidQuizRoundTrips) {
    const Quiz q = quiz();
    ASSERT_EQ(q.questions.size(), 2u);
    EXPECT_EQ(q.questions[1].correctIds(), (std::set<std::string>{"B", "D"}));
    EXPECT_TRUE(parseQuiz(quizJson(q)).ok());
}

TEST(Quiz, ValidationRefusesMalformedQuizzes) {
    const auto refused = [](json content) {
        const auto r = parseQuiz(content);
        return !r.ok() && r.error().http_status == 422;
    };
    const json good = {{"schema_version", 1}, {"questions", {question("q1", {"A"})}}};
    EXPECT_FALSE(refused(good));
    EXPECT_TRUE(refused(json{{"schema_version", 2}, {"questions", good["questions"]}}));
    EXPECT_TRUE(refused(json{{"schema_version", 1}, {"questions", json::array()}}));
    json many = good;
    for (int i = 2; i <= 21; ++i)
        many["questions"].push_back(question("q" + std::to_string(i), {"A"}));
    EXPECT_TRUE(refused(many));
    json none_correct = good;
    none_correct["questions"][0] = question("q1", {});
    EXPECT_TRUE(refused(none_correct));
    json three = good;
    three["questions"][0]["options"].erase(3);
    EXPECT_TRUE(refused(three));
    json renamed = good;
    renamed["questions"][0]["options"][2]["id"] = "E";
    EXPECT_TRUE(refused(renamed));
    json no_explanation = good;
    no_explanation["questions"][0].erase("explanation");
    EXPECT_TRUE(refused(no_explanation));
    json dup = good;
    dup["questions"].push_back(question("q1", {"B"}));
    EXPECT_TRUE(refused(dup));
    EXPECT_FALSE(parseQuizText("not json").ok());
}

TEST(Quiz, AnswersMergeUnlessReplace) {
    const Quiz q = quiz();
    auto first = applyAttempt(q, {}, {{"answers", {{"q1", {"A"}}}}});
    ASSERT_TRUE(first.ok());
    auto second = applyAttempt(q, *first, {{"answers", {{"q2", {"B"}}}}});
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->at("q1"), std::set<std::string>{"A"});
    EXPECT_EQ(second->at("q2"), std::set<std::string>{"B"});
    auto replaced =
        applyAttempt(q, *second, {{"answers", {{"q2", {"B", "D"}}}}, {"replace", true}});
    ASSERT_TRUE(replaced.ok());
    EXPECT_EQ(replaced->count("q1"), 0u);
}

TEST(Quiz, UnknownQuestionOrOptionIs422) {
    const Quiz q = quiz();
    const auto bad_question = applyAttempt(q, {}, {{"answers", {{"q9", {"A"}}}}});
    ASSERT_FALSE(bad_question.ok());
    EXPECT_EQ(bad_question.error().http_status, 422);
    const auto bad_option = applyAttempt(q, {}, {{"answers", {{"q1", {"E"}}}}});
    ASSERT_FALSE(bad_option.ok());
    EXPECT_EQ(json::parse(bad_option.error().message)[0]["loc"],
              json({"body", "answers", "q1", 0}));
}

TEST(Quiz, CorrectOnlyWhenTheSelectedSetEqualsTheCorrectSet) {
    const Quiz q = quiz();
    const QuizResult partial = grade(q, {{"q1", {"A"}}, {"q2", {"B"}}});
    EXPECT_TRUE(partial.questions.at("q1").is_correct);
    EXPECT_FALSE(partial.questions.at("q2").is_correct);
    EXPECT_EQ(partial.correct_count, 1);
    EXPECT_TRUE(partial.completed);
    EXPECT_EQ(partial.score, 50);
    const QuizResult superset = grade(q, {{"q1", {"A", "B"}}, {"q2", {"B", "D"}}});
    EXPECT_FALSE(superset.questions.at("q1").is_correct);
    EXPECT_TRUE(superset.questions.at("q2").is_correct);
    const QuizResult half = grade(q, {{"q1", {"A"}}});
    EXPECT_FALSE(half.completed);
    EXPECT_EQ(resultJson(half)["questions"]["q1"]["explanation"], "Because the text says so.");
}

TEST(Quiz, ProgressCompletesAtThePassingScoreAndNeverGoesBack) {
    const Quiz q = quiz();
    const QuizResult full = grade(q, {{"q1", {"A"}}, {"q2", {"B", "D"}}});
    const QuizResult half = grade(q, {{"q1", {"A"}}, {"q2", {"B"}}});
    const QuizResult incomplete = grade(q, {{"q1", {"A"}}});

    const LessonProgress started = advanceProgress({}, half, 80);
    EXPECT_EQ(started.status, ProgressStatus::kInProgress);
    EXPECT_EQ(started.percent, 50);
    EXPECT_EQ(advanceProgress({}, half, 50).status, ProgressStatus::kCompleted);
    EXPECT_EQ(advanceProgress({}, incomplete, 0).status, ProgressStatus::kInProgress);

    const LessonProgress done = advanceProgress(started, full, 80);
    EXPECT_EQ(done.status, ProgressStatus::kCompleted);
    EXPECT_EQ(done.best_score, 100);
    const LessonProgress after = advanceProgress(done, half, 80);
    EXPECT_EQ(after.status, ProgressStatus::kCompleted);
    EXPECT_EQ(after.percent, 100);
    EXPECT_EQ(after.best_score, 100);
}

}  // namespace
}  // namespace docintel::learning

// The progress view: everyone's rows for reviewers, the caller's own for students.

#include <gtest/gtest.h>

#include "learning/progress.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

struct Fixture {
    std::vector<Member> members = {{"t1", "t@x.org", Persona::kTeacher},
                                   {"s1", "s1@x.org", Persona::kStudent},
                                   {"s2", "s2@x.org", Persona::kStudent}};
    Curriculum curriculum;
    std::vector<AttemptRecord> attempts = {
        {"a1", "s1", "quiz", "Practice questions - Cells", "l1", 100, 2, 2, true, "t0"},
        {"a2", "s2", "quiz", "Practice questions - Cells", "l1", 50, 1, 2, true, "t1"},
        {"a3", "s2", "quiz", "Practice questions - Cells", "l1", 0, 0, 2, false, "t2"}};
    std::vector<LessonProgressRecord> lessons = {
        {"s1", "l1", {ProgressStatus::kCompleted, 100, 100}},
        {"s2", "l1", {ProgressStatus::kInProgress, 50, 50}},
        {"s2", "gone", {ProgressStatus::kCompleted, 100, 90}}};

    Fixture() {
        curriculum.modules.push_back(
            {"m1",
             "Cells",
             "",
             0,
             {{"l1", "Membranes", "", {}, {}, 0}, {"l2", "Division", "", {}, {}, 1}}});
    }
    json view(Visibility v, const std::string& caller) const {
        return progressView(attempts, lessons, members, curriculum, v, caller);
    }
};

TEST(Progress, ReviewersSeeEveryLearner) {
    const json v = Fixture().view(Visibility::kEveryone, "t1");
    EXPECT_EQ(v["attempts"].size(), 3u);
    EXPECT_EQ(v["attempts"][0]["email"], "s1@x.org");
    EXPECT_EQ(v["lesson_progress"].size(), 2u);  // the removed lesson's row is left out
    ASSERT_EQ(v["mastery"].size(), 2u);
    const json& s1 = v["mastery"][0];
    EXPECT_EQ(s1["user_id"], "s1");
    EXPECT_EQ(s1["lessons_total"], 2);
    EXPECT_EQ(s1["lessons_completed"], 1);
    EXPECT_EQ(s1["mastery_percent"], 50);
    EXPECT_EQ(s1["average_score"], 100);
    EXPECT_EQ(v["mastery"][1]["average_score"], 50);  // the incomplete attempt does not count
}

TEST(Progress, StudentsSeeTheirOwnOnlyAndOutsidersNothing) {
    const json own = Fixture().view(Visibility::kOwn, "s2");
    EXPECT_EQ(own["attempts"].size(), 2u);
    for (const auto& a : own["attempts"]) EXPECT_EQ(a["user_id"], "s2");
    ASSERT_EQ(own["mastery"].size(), 1u);
    EXPECT_EQ(own["mastery"][0]["user_id"], "s2");
    EXPECT_EQ(own["mastery"][0]["lessons_in_progress"], 1);

    const json none = Fixture().view(Visibility::kNone, "s2");
    EXPECT_TRUE(none["attempts"].empty());
    EXPECT_TRUE(none["mastery"].empty());
}

}  // namespace
}  // namespace docintel::learning

// Enrolment and questions to teachers and advisors.

#include <gtest/gtest.h>

#include "learning/people.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

std::vector<Member> members() {
    return {{"t1", "teach@x.org", Persona::kTeacher},
            {"s1", "stu@x.org", Persona::kStudent},
            {"v1", "adv@x.org", Persona::kAdvisor},
            {"v2", "adv2@x.org", Persona::kAdvisor}};
}

TEST(Members, EnrolmentNeedsAUserWhoIsAWorkspaceMemberAndUpserts) {
    const auto request = memberFromCreate({{"email", " New@X.org "}});
    ASSERT_TRUE(request.ok());
    EXPECT_EQ(request->email, "new@x.org");
    EXPECT_EQ(request->persona, Persona::kStudent);
    EXPECT_EQ(memberFromCreate({{"email", "a@b.c"}, {"persona", "dean"}}).error().http_status, 422);

    EXPECT_EQ(enroll(members(), *request, std::nullopt, true, "t1").error().http_status, 404);
    EXPECT_EQ(enroll(members(), *request, std::string("n1"), false, "t1").error().http_status, 400);
    const auto added = enroll(members(), *request, std::string("n1"), true, "t1");
    ASSERT_TRUE(added.ok());
    EXPECT_EQ(added->size(), 5u);
    EXPECT_EQ(added->back().user_id, "n1");

    Member promote = *request;
    promote.persona = Persona::kAdvisor;
    const auto again = enroll(*added, promote, std::string("n1"), true, "t1");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->size(), 5u);
    EXPECT_EQ(again->back().persona, Persona::kAdvisor);

    // The creator (t1) stays the course's teacher: enrolled again as a teacher is fine, as
    // anything else a conflict.
    Member demote{"", "teach@x.org", Persona::kStudent};
    EXPECT_EQ(enroll(members(), demote, std::string("t1"), true, "t1").error().http_status, 409);
    demote.persona = Persona::kTeacher;
    EXPECT_TRUE(enroll(members(), demote, std::string("t1"), true, "t1").ok());
}

TEST(Questions, AssignedToTheFirstMemberOfTheTargetPersona) {
    const auto to_teacher = questionFromCreate({{"question", "Why?"}}, "s1", members());
    ASSERT_TRUE(to_teacher.ok());
    EXPECT_EQ(to_teacher->assigned_to, "t1");
    const auto to_advisor =
        questionFromCreate({{"question", "Help"}, {"target_role", "advisor"}}, "s1", members());
    ASSERT_TRUE(to_advisor.ok());
    EXPECT_EQ(to_advisor->assigned_to, "v1");
    EXPECT_EQ(questionJson(*to_advisor)["status"], "open");
    EXPECT_EQ(questionFromCreate({{"question", ""}}, "s1", members()).error().http_status, 422);
    EXPECT_EQ(questionFromCreate({{"question", std::string(8001, 'x')}}, "s1", members())
                  .error()
                  .http_status,
              422);
    EXPECT_EQ(questionFromCreate({{"question", "q"}, {"target_role", "student"}}, "s1", members())
                  .error()
                  .http_status,
              422);
}

TEST(Questions, UpdateBodiesMapToTheirAccessRule) {
    EXPECT_EQ(questionUpdateOperation({{"status", "closed"}}), Operation::kCloseQuestion);
    EXPECT_EQ(questionUpdateOperation({{"answer", "Because."}}), Operation::kAnswerQuestion);
    EXPECT_EQ(questionUpdateOperation({{"assigned_to", "v2"}}), Operation::kAnswerQuestion);
    EXPECT_EQ(questionUpdateOperation({{"status", "open"}}), Operation::kAnswerQuestion);
    EXPECT_EQ(questionUpdateOperation({{"status", "closed"}, {"answer", "x"}}),
              Operation::kAnswerQuestion);
    EXPECT_EQ(questionUpdateOperation(json::object()), Operation::kReadQuestion);
}

TEST(Questions, AnswerReassignAndClose) {
    auto q =
        questionFromCreate({{"question", "Why?"}, {"target_role", "advisor"}}, "s1", members());
    ASSERT_TRUE(q.ok());
    const auto moved = applyQuestionUpdate(*q, {{"assigned_to", "v2"}}, "v1", members());
    ASSERT_TRUE(moved.ok());
    EXPECT_EQ(moved->assigned_to, "v2");
    EXPECT_EQ(applyQuestionUpdate(*q, {{"assigned_to", "s1"}}, "v1", members()).error().http_status,
              422);
    EXPECT_EQ(
        applyQuestionUpdate(*q, {{"status", "answered"}}, "v1", members()).error().http_status,
        422);

    const auto answered = applyQuestionUpdate(*moved, {{"answer", "Because."}}, "v2", members());
    ASSERT_TRUE(answered.ok());
    EXPECT_EQ(answered->status, QuestionStatus::kAnswered);
    EXPECT_EQ(answered->answered_by, "v2");

    const auto closed = applyQuestionUpdate(*answered, {{"status", "closed"}}, "s1", members());
    ASSERT_TRUE(closed.ok());
    EXPECT_EQ(closed->status, QuestionStatus::kClosed);
    EXPECT_EQ(applyQuestionUpdate(*closed, {{"answer", "More"}}, "v2", members()).error().code,
              "question_closed");
    const auto reopened =
        applyQuestionUpdate(*closed, {{"answer", "More"}, {"status", "open"}}, "v2", members());
    ASSERT_TRUE(reopened.ok());
    EXPECT_EQ(reopened->status, QuestionStatus::kOpen);
    EXPECT_EQ(reopened->answer, "More");
}

}  // namespace
}  // namespace docintel::learning

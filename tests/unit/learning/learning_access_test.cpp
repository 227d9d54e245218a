// The whole access matrix of the learning operations (issue 16 item 4): every operation for
// every persona and workspace role, own and someone else's item, active and archived course,
// plus foreign workspace and non-member, which must never reveal that the course exists.

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "learning/learning_access.h"

namespace docintel::learning {
namespace {

/// A column of the matrix: who the caller is.
struct Caller {
    const char* name;
    std::optional<Persona> persona;
    WorkspaceRole role;
};

/// Enrolled personas are workspace viewers (their persona alone decides); "owner" and "editor"
/// are workspace roles with no enrolment; "viewer" is a workspace viewer not enrolled.
const std::array<Caller, 7> kCallers{{{"admin", Persona::kAdmin, WorkspaceRole::kViewer},
                                      {"teacher", Persona::kTeacher, WorkspaceRole::kViewer},
                                      {"student", Persona::kStudent, WorkspaceRole::kViewer},
                                      {"advisor", Persona::kAdvisor, WorkspaceRole::kViewer},
                                      {"viewer", std::nullopt, WorkspaceRole::kViewer},
                                      {"owner", std::nullopt, WorkspaceRole::kOwner},
                                      {"editor", std::nullopt, WorkspaceRole::kEditor}}};

/// One row: the outcome for each caller of kCallers, in order ('A' allowed, 'F' 403, 'N' 404),
/// for own item / other's item on an active course, then the same on an archived course.
struct Row {
    Operation op;
    const char* own;
    const char* other;
    const char* own_archived;
    const char* other_archived;
};

// clang-format off
const std::vector<Row> kMatrix = {
    //                                admin..editor: a t s v w o e
    {Operation::kListCourses,    "AAAAAAA", "AAAAAAA", "AAAAAAA", "AAAAAAA"},
    {Operation::kGetCourse,      "AAAAAAA", "AAAAAAA", "AAAAAAA", "AAAAAAA"},
    {Operation::kResolveScope,   "AAAAAAA", "AAAAAAA", "AAAAAAA", "AAAAAAA"},
    {Operation::kListDocuments,  "AAAAAAA", "AAAAAAA", "AAAAAAA", "AAAAAAA"},
    {Operation::kCreateCourse,   "FFFFFAA", "FFFFFAA", "FFFFFAA", "FFFFFAA"},
    {Operation::kUpdateCourse,   "AAFFFAA", "AAFFFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kSaveCurriculum, "AAFFFAA", "AAFFFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kAttachContent,  "AAFFFAA", "AAFFFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kRemoveContent,  "AAFFFAA", "AAFFFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kEnrollMember,   "AAFFFAA", "AAFFFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kRemoveMember,   "AAFFFAA", "AAFFFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kDeleteCourse,   "AFFFFAF", "AFFFFAF", "AFFFFAF", "AFFFFAF"},
    {Operation::kAskTutor,       "AAAAFAA", "AAAAFAA", "AAAAFAA", "AAAAFAA"},
    {Operation::kListArtifacts,  "AAAAFAA", "AAAAFAA", "AAAAFAA", "AAAAFAA"},
    {Operation::kGetProgress,    "AAAAFAA", "AAAAFAA", "AAAAFAA", "AAAAFAA"},
    {Operation::kReadArtifact,   "AAAAFAA", "AANAFAA", "AAAAFAA", "AANAFAA"},
    {Operation::kSaveArtifact,   "AAAAFAA", "AAAAFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kDeleteArtifact, "AAAAFAA", "FFNFFFF", "AAFFFAA", "FFNFFFF"},
    {Operation::kSubmitAttempt,  "AAAAFAA", "AANAFAA", "AAFFFAA", "AANFFAA"},
    {Operation::kAskPerson,      "AAAAFAA", "AAAAFAA", "AAFFFAA", "AAFFFAA"},
    {Operation::kReadQuestion,   "AAAAFAA", "AANAFAA", "AAAAFAA", "AANAFAA"},
    {Operation::kAnswerQuestion, "AAFAFAA", "AANAFAA", "AAFAFAA", "AANAFAA"},
    {Operation::kCloseQuestion,  "AAAAFAA", "FFNFFFF", "AAFFFAA", "FFNFFFF"},
};
// clang-format on

char outcome(const plugin::Status& s) {
    if (s.ok()) return 'A';
    if (s.error().http_status == 403) return 'F';
    if (s.error().http_status == 404) return 'N';
    return '?';  // anything else (a 500 above all) fails the comparison
}

AccessContext context(const Caller& c, bool own, bool archived) {
    AccessContext ctx;
    ctx.workspace_role = c.role;
    ctx.persona = c.persona;
    ctx.own_item = own;
    ctx.archived = archived;
    return ctx;
}

TEST(LearningAccess, MatrixCoversEveryOperation) {
    // Each enumerator appears exactly once, so a new operation cannot skip the matrix.
    std::vector<int> seen(static_cast<int>(Operation::kCloseQuestion) + 1, 0);
    for (const auto& row : kMatrix) ++seen[static_cast<int>(row.op)];
    for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(seen[i], 1) << toString(static_cast<Operation>(i));
    }
}

TEST(LearningAccess, MatrixOfPersonasRolesOwnershipAndArchive) {
    for (const auto& row : kMatrix) {
        const std::array<std::pair<const char*, std::pair<bool, bool>>, 4> cases{
            {{row.own, {true, false}},
             {row.other, {false, false}},
             {row.own_archived, {true, true}},
             {row.other_archived, {false, true}}}};
        for (const auto& [expected, flags] : cases) {
            std::string got;
            for (const auto& caller : kCallers) {
                got += outcome(authorize(row.op, context(caller, flags.first, flags.second)));
            }
            EXPECT_EQ(got, expected) << toString(row.op) << (flags.first ? " own" : " other's")
                                     << (flags.second ? ", archived" : ", active");
        }
    }
}

TEST(LearningAccess, ForeignWorkspaceAndNonMembersSeeNothing) {
    for (const auto& row : kMatrix) {
        for (const auto& caller : kCallers) {
            for (const bool own : {true, false}) {
                for (const bool creator : {true, false}) {
                    AccessContext foreign = context(caller, own, false);
                    foreign.same_workspace = false;
                    foreign.course_creator = creator;
                    EXPECT_EQ(outcome(authorize(row.op, foreign)), 'N')
                        << toString(row.op) << " as " << caller.name << " from another workspace";
                    AccessContext stranger = context(caller, own, false);
                    stranger.workspace_role.reset();
                    stranger.course_creator = creator;
                    EXPECT_EQ(outcome(authorize(row.op, stranger)), 'N')
                        << toString(row.op) << " as " << caller.name << " outside the workspace";
                }
            }
        }
    }
}

TEST(LearningAccess, TheCreatorMayDeleteTheCourseButNotBeRemoved) {
    AccessContext creator = context(kCallers[1], false, false);  // a teacher
    creator.course_creator = true;
    EXPECT_TRUE(authorize(Operation::kDeleteCourse, creator).ok());

    AccessContext admin = context(kCallers[0], false, false);
    admin.target_is_creator = true;
    const auto refused = authorize(Operation::kRemoveMember, admin);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().http_status, 403);
    EXPECT_EQ(refused.error().code, "creator_not_removable");
}

TEST(LearningAccess, ListsShowEveryoneToReviewersAndOwnItemsToStudents) {
    for (const auto op : {Operation::kListArtifacts, Operation::kGetProgress}) {
        EXPECT_EQ(visibility(op, context(kCallers[2], false, false)), Visibility::kOwn);
        EXPECT_EQ(visibility(op, context(kCallers[3], false, false)), Visibility::kEveryone);
        EXPECT_EQ(visibility(op, context(kCallers[1], false, false)), Visibility::kEveryone);
        EXPECT_EQ(visibility(op, context(kCallers[6], false, false)), Visibility::kEveryone);
        EXPECT_EQ(visibility(op, context(kCallers[4], false, false)), Visibility::kNone);
    }
}

}  // namespace
}  // namespace docintel::learning

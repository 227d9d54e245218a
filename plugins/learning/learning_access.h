#pragma once

// Who may do what in a course: the one place the learning feature decides access (STYLE.md 4).
// Pure; thread-safe.

#include <optional>
#include <string>

#include "learning/learning_enums.h"
#include "plugin_api/result.h"

namespace docintel::learning {

/// Every learning operation (the contract's 20, MCP's generation and resource reads, and the
/// two meanings of a question PATCH) as the access rules see it.
enum class Operation {
    kListCourses,
    kCreateCourse,
    kGetCourse,  ///< also the course resource and its curriculum and assets
    kUpdateCourse,
    kDeleteCourse,
    kSaveCurriculum,
    kAttachContent,
    kRemoveContent,
    kEnrollMember,
    kRemoveMember,
    kResolveScope,
    kListDocuments,
    kAskTutor,
    kListArtifacts,  ///< the list shows what visibility() says
    kReadArtifact,   ///< the artifact resource
    kSaveArtifact,   ///< save as given, or generate (MCP)
    kDeleteArtifact,
    kSubmitAttempt,  ///< on a quiz artifact: own means the caller's artifact
    kGetProgress,    ///< REST and the progress resource; shows what visibility() says
    kAskPerson,      ///< create a question to a teacher or advisor
    kReadQuestion,
    kAnswerQuestion,  ///< PATCH with answer, assigned_to, or status open/answered
    kCloseQuestion,   ///< PATCH with status closed only
};

std::string toString(Operation op);

/// What the caller is to the course (or, for list/create, to the workspace) and the item.
struct AccessContext {
    /// The caller's role in the course's workspace; none: not a member.
    std::optional<WorkspaceRole> workspace_role;
    /// The request's workspace (X-DocIntel-Workspace-ID, or workspace_id) is the course's.
    bool same_workspace = true;
    /// The caller's persona in the course; none: not enrolled.
    std::optional<Persona> persona;
    /// The artifact, attempt or question is the caller's own.
    bool own_item = false;
    /// The caller created the course.
    bool course_creator = false;
    /// kRemoveMember: the member to remove created the course.
    bool target_is_creator = false;
    bool archived = false;
};

/// Whose items a caller sees in a list (artifacts, attempts, progress, questions).
enum class Visibility { kNone, kOwn, kEveryone };

/// Managers change the course: course admin or teacher, or workspace owner or editor.
bool isManager(const AccessContext& ctx);
/// Reviewers see everyone's progress and questions and answer them: managers and advisors.
bool isReviewer(const AccessContext& ctx);

/// Allowed, or the error to answer: 404 when the caller may not know the course or item exists
/// (foreign workspace, not a workspace member, someone else's item they cannot see), 403 when
/// they can see it but not do this. docs/learning.md "Access" has the matrix.
plugin::Status authorize(Operation op, const AccessContext& ctx);

/// Whose items a list shows the caller (kNone when authorize refuses the list).
Visibility visibility(Operation list_op, const AccessContext& ctx);

}  // namespace docintel::learning

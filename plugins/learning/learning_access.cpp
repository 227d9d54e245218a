#include "learning/learning_access.h"

namespace docintel::learning {

namespace {

using plugin::Error;

Error hidden(Operation op) {
    switch (op) {
        case Operation::kListCourses:
        case Operation::kCreateCourse:
        case Operation::kListDocuments:
            return {"workspace_not_found", "workspace not found", 404};
        case Operation::kReadArtifact:
        case Operation::kDeleteArtifact:
        case Operation::kSubmitAttempt:
            return {"artifact_not_found", "artifact not found", 404};
        case Operation::kReadQuestion:
        case Operation::kAnswerQuestion:
        case Operation::kCloseQuestion:
            return {"question_not_found", "question not found", 404};
        default:
            return {"course_not_found", "course not found", 404};
    }
}

Error forbidden(const std::string& message) { return Error::forbidden("forbidden", message); }
Error notEnrolled() {
    return Error::forbidden("not_enrolled", "you are not enrolled in this course");
}
Error archivedCourse() {
    return Error::forbidden("course_archived", "the course is archived: read-only");
}

bool isParticipant(const AccessContext& ctx) { return ctx.persona.has_value() || isManager(ctx); }

/// An item of someone else's: reviewers see it (and get `refusal` when they may not act on
/// it), anyone else is told it does not exist.
plugin::Status othersItem(Operation op, const AccessContext& ctx, bool reviewers_may) {
    if (!isReviewer(ctx)) return hidden(op);
    if (!reviewers_may) return forbidden("only its owner may do this");
    return {};
}

/// A participant's write: archived courses are read-only for everyone but managers.
plugin::Status participantWrite(const AccessContext& ctx) {
    if (ctx.archived && !isManager(ctx)) return archivedCourse();
    return {};
}

}  // namespace

std::string toString(Operation op) {
    switch (op) {
        case Operation::kListCourses:
            return "list_courses";
        case Operation::kCreateCourse:
            return "create_course";
        case Operation::kGetCourse:
            return "get_course";
        case Operation::kUpdateCourse:
            return "update_course";
        case Operation::kDeleteCourse:
            return "delete_course";
        case Operation::kSaveCurriculum:
            return "save_curriculum";
        case Operation::kAttachContent:
            return "attach_content";
        case Operation::kRemoveContent:
            return "remove_content";
        case Operation::kEnrollMember:
            return "enroll_member";
        case Operation::kRemoveMember:
            return "remove_member";
        case Operation::kResolveScope:
            return "resolve_scope";
        case Operation::kListDocuments:
            return "list_documents";
        case Operation::kAskTutor:
            return "ask_tutor";
        case Operation::kListArtifacts:
            return "list_artifacts";
        case Operation::kReadArtifact:
            return "read_artifact";
        case Operation::kSaveArtifact:
            return "save_artifact";
        case Operation::kDeleteArtifact:
            return "delete_artifact";
        case Operation::kSubmitAttempt:
            return "submit_attempt";
        case Operation::kGetProgress:
            return "get_progress";
        case Operation::kAskPerson:
            return "ask_person";
        case Operation::kReadQuestion:
            return "read_question";
        case Operation::kAnswerQuestion:
            return "answer_question";
        case Operation::kCloseQuestion:
            return "close_question";
    }
    return "unknown";
}

bool isManager(const AccessContext& ctx) {
    if (ctx.persona == Persona::kAdmin || ctx.persona == Persona::kTeacher) return true;
    return ctx.workspace_role == WorkspaceRole::kOwner ||
           ctx.workspace_role == WorkspaceRole::kEditor;
}

bool isReviewer(const AccessContext& ctx) {
    return isManager(ctx) || ctx.persona == Persona::kAdvisor;
}

plugin::Status authorize(Operation op, const AccessContext& ctx) {
    // Outside the course's workspace nothing about the course may show, not even that it exists.
    if (!ctx.same_workspace || !ctx.workspace_role) return hidden(op);

    switch (op) {
        // Any member of the workspace sees its courses, their outline and its documents.
        case Operation::kListCourses:
        case Operation::kGetCourse:
        case Operation::kResolveScope:
        case Operation::kListDocuments:
            return {};

        case Operation::kCreateCourse:
            if (ctx.workspace_role == WorkspaceRole::kViewer) {
                return forbidden("workspace viewers cannot create courses");
            }
            return {};

        case Operation::kUpdateCourse:
        case Operation::kSaveCurriculum:
        case Operation::kAttachContent:
        case Operation::kRemoveContent:
        case Operation::kEnrollMember:
            if (!isManager(ctx)) return forbidden("only the course's managers may change it");
            return {};

        case Operation::kRemoveMember:
            if (!isManager(ctx)) return forbidden("only the course's managers may change it");
            if (ctx.target_is_creator) {
                return Error::forbidden("creator_not_removable",
                                        "the course's creator cannot be removed");
            }
            return {};

        case Operation::kDeleteCourse:
            if (ctx.course_creator || ctx.persona == Persona::kAdmin ||
                ctx.workspace_role == WorkspaceRole::kOwner) {
                return {};
            }
            return forbidden("only the creator, a course admin or the workspace owner may delete");

        default:
            break;
    }

    // Everything else is participation: enrolled members, and managers by workspace role.
    if (!isParticipant(ctx)) return notEnrolled();
    switch (op) {
        case Operation::kAskTutor:
        case Operation::kListArtifacts:
        case Operation::kGetProgress:
            return {};
        case Operation::kReadArtifact:
        case Operation::kReadQuestion:
            return ctx.own_item ? plugin::Status{} : othersItem(op, ctx, true);
        case Operation::kSaveArtifact:
        case Operation::kAskPerson:
            return participantWrite(ctx);
        case Operation::kDeleteArtifact:
        case Operation::kCloseQuestion:
            if (!ctx.own_item) return othersItem(op, ctx, false);
            return participantWrite(ctx);
        case Operation::kSubmitAttempt:
            if (!ctx.own_item) {
                if (auto seen = othersItem(op, ctx, true); !seen) return seen;
            }
            return participantWrite(ctx);
        case Operation::kAnswerQuestion:
            // Advisors answer in archived courses too: answering is their duty, not the
            // student's participation.
            if (!isReviewer(ctx)) {
                if (!ctx.own_item) return hidden(op);
                return forbidden("only teachers, advisors and course managers answer questions");
            }
            return {};
        default:
            return forbidden("not allowed");
    }
}

Visibility visibility(Operation list_op, const AccessContext& ctx) {
    if (!authorize(list_op, ctx)) return Visibility::kNone;
    return isReviewer(ctx) ? Visibility::kEveryone : Visibility::kOwn;
}

}  // namespace docintel::learning

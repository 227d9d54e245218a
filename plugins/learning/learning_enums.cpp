#include "learning/learning_enums.h"

#include <array>
#include <utility>

namespace docintel::learning {

namespace {

template <typename E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<Persona, 4> kPersonas{{{Persona::kAdmin, "admin"},
                                       {Persona::kTeacher, "teacher"},
                                       {Persona::kStudent, "student"},
                                       {Persona::kAdvisor, "advisor"}}};
constexpr Names<WorkspaceRole, 3> kRoles{{{WorkspaceRole::kOwner, "owner"},
                                          {WorkspaceRole::kEditor, "editor"},
                                          {WorkspaceRole::kViewer, "viewer"}}};
constexpr Names<CourseStatus, 2> kCourseStatuses{
    {{CourseStatus::kActive, "active"}, {CourseStatus::kArchived, "archived"}}};
constexpr Names<PublicationStatus, 2> kPublication{
    {{PublicationStatus::kDraft, "draft"}, {PublicationStatus::kPublished, "published"}}};
constexpr Names<ArtifactType, 5> kArtifactTypes{
    {{ArtifactType::kSummary, "summary"},
     {ArtifactType::kStudyGuide, "study_guide"},
     {ArtifactType::kKeyConcepts, "key_concepts"},
     {ArtifactType::kFlashcards, "flashcards"},
     {ArtifactType::kPracticeQuestions, "practice_questions"}}};
constexpr Names<QuestionStatus, 3> kQuestionStatuses{{{QuestionStatus::kOpen, "open"},
                                                      {QuestionStatus::kAnswered, "answered"},
                                                      {QuestionStatus::kClosed, "closed"}}};
constexpr Names<ProgressStatus, 3> kProgressStatuses{{{ProgressStatus::kNotStarted, "not_started"},
                                                      {ProgressStatus::kInProgress, "in_progress"},
                                                      {ProgressStatus::kCompleted, "completed"}}};

template <typename E, std::size_t N>
std::string nameOf(const Names<E, N>& names, E value) {
    for (const auto& [e, name] : names) {
        if (e == value) return std::string(name);
    }
    return {};
}

template <typename E, std::size_t N>
std::optional<E> valueOf(const Names<E, N>& names, std::string_view text) {
    for (const auto& [e, name] : names) {
        if (name == text) return e;
    }
    return std::nullopt;
}

}  // namespace

std::string toString(Persona p) { return nameOf(kPersonas, p); }
std::string toString(WorkspaceRole r) { return nameOf(kRoles, r); }
std::string toString(CourseStatus s) { return nameOf(kCourseStatuses, s); }
std::string toString(PublicationStatus s) { return nameOf(kPublication, s); }
std::string toString(ArtifactType t) { return nameOf(kArtifactTypes, t); }
std::string toString(QuestionStatus s) { return nameOf(kQuestionStatuses, s); }
std::string toString(ProgressStatus s) { return nameOf(kProgressStatuses, s); }

std::optional<Persona> parsePersona(std::string_view t) { return valueOf(kPersonas, t); }
std::optional<WorkspaceRole> parseWorkspaceRole(std::string_view t) { return valueOf(kRoles, t); }
std::optional<CourseStatus> parseCourseStatus(std::string_view t) {
    return valueOf(kCourseStatuses, t);
}
std::optional<PublicationStatus> parsePublicationStatus(std::string_view t) {
    return valueOf(kPublication, t);
}
std::optional<ArtifactType> parseArtifactType(std::string_view t) {
    return valueOf(kArtifactTypes, t);
}
std::optional<QuestionStatus> parseQuestionStatus(std::string_view t) {
    return valueOf(kQuestionStatuses, t);
}
std::optional<ProgressStatus> parseProgressStatus(std::string_view t) {
    return valueOf(kProgressStatuses, t);
}

}  // namespace docintel::learning

#pragma once

// The closed vocabularies of the learning feature, each with one toString/parse pair
// (STYLE.md 8). Pure; thread-safe.

#include <optional>
#include <string>
#include <string_view>

namespace docintel::learning {

/// A member's role in one course.
enum class Persona { kAdmin, kTeacher, kStudent, kAdvisor };
/// The caller's role in the course's workspace (mirrors auth::WorkspaceRole; the plugin does
/// not link core).
enum class WorkspaceRole { kOwner, kEditor, kViewer };
enum class CourseStatus { kActive, kArchived };
enum class PublicationStatus { kDraft, kPublished };
enum class ArtifactType { kSummary, kStudyGuide, kKeyConcepts, kFlashcards, kPracticeQuestions };
enum class QuestionStatus { kOpen, kAnswered, kClosed };
enum class ProgressStatus { kNotStarted, kInProgress, kCompleted };

std::string toString(Persona p);
std::string toString(WorkspaceRole r);
std::string toString(CourseStatus s);
std::string toString(PublicationStatus s);
std::string toString(ArtifactType t);
std::string toString(QuestionStatus s);
std::string toString(ProgressStatus s);

std::optional<Persona> parsePersona(std::string_view text);
std::optional<WorkspaceRole> parseWorkspaceRole(std::string_view text);
std::optional<CourseStatus> parseCourseStatus(std::string_view text);
std::optional<PublicationStatus> parsePublicationStatus(std::string_view text);
std::optional<ArtifactType> parseArtifactType(std::string_view text);
std::optional<QuestionStatus> parseQuestionStatus(std::string_view text);
std::optional<ProgressStatus> parseProgressStatus(std::string_view text);

}  // namespace docintel::learning

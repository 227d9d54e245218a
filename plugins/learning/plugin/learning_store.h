#pragma once

// The learning plugin's storage: its migrations and the statements that read and write its
// tables, over the host's PluginTx (docs/plugins.md "Storage"). Rows become the domain structs of
// docintel_learning_logic and back; no rule is decided here.

#include <optional>
#include <string>
#include <vector>

#include "learning/artifacts.h"
#include "learning/course.h"
#include "learning/curriculum.h"
#include "learning/people.h"
#include "learning/progress.h"
#include "learning/quiz.h"
#include "learning/scope.h"
#include "plugin_api/plugin_storage.h"
#include "plugin_api/registrar.h"
#include "shared/ids.h"
#include "shared/json_text.h"

namespace docintel::learning {

using shared::textOf;

}  // namespace docintel::learning

namespace docintel::learning::store {

/// The plugin's versioned migrations, in order.
std::vector<plugin::PluginMigration> migrations();

using shared::isUuid;
using shared::newId;

/// A course with everything its rules need.
struct CourseRecord {
    Course course;
    Curriculum curriculum;
    std::vector<Member> members;  ///< in enrolment order
    std::vector<Asset> assets;    ///< in attachment order
    std::string created_at;
    std::string updated_at;

    const Member* member(const std::string& user_id) const;
};

/// The course `id` (and its members and assets); nullopt when there is none. `lock` takes the
/// course row FOR UPDATE, so changes of one course are serialised.
plugin::Result<std::optional<CourseRecord>> loadCourse(plugin::PluginTx& tx, const std::string& id,
                                                       bool lock);
/// The courses of a workspace, newest first (members and assets included).
plugin::Result<std::vector<CourseRecord>> listCourses(plugin::PluginTx& tx,
                                                      const std::string& workspace_id);
/// The workspace a course is in; nullopt when there is no such course.
plugin::Result<std::optional<std::string>> courseWorkspace(plugin::PluginTx& tx,
                                                           const std::string& id);

plugin::Status insertCourse(plugin::PluginTx& tx, const Course& course);
plugin::Status updateCourse(plugin::PluginTx& tx, const Course& course);
plugin::Status saveCurriculum(plugin::PluginTx& tx, const std::string& course_id,
                              const CurriculumChange& change);
plugin::Status deleteCourse(plugin::PluginTx& tx, const std::string& id);

/// Enrols (or changes the persona of) one member.
plugin::Status upsertMember(plugin::PluginTx& tx, const std::string& course_id,
                            const Member& member);
plugin::Status deleteMember(plugin::PluginTx& tx, const std::string& course_id,
                            const std::string& user_id);

plugin::Status insertAsset(plugin::PluginTx& tx, const std::string& course_id, const Asset& asset);
/// Detaches the asset; false when the course has no such asset.
plugin::Result<bool> deleteAsset(plugin::PluginTx& tx, const std::string& course_id,
                                 const std::string& asset_id);

/// A saved artifact and when it was saved.
struct ArtifactRecord {
    Artifact artifact;
    std::string created_at;
};
nlohmann::json artifactRecordJson(const ArtifactRecord& record);

plugin::Status insertArtifact(plugin::PluginTx& tx, const std::string& course_id,
                              const Artifact& artifact);
plugin::Result<std::vector<ArtifactRecord>> listArtifacts(plugin::PluginTx& tx,
                                                          const std::string& course_id);
plugin::Result<std::optional<ArtifactRecord>> findArtifact(plugin::PluginTx& tx,
                                                           const std::string& course_id,
                                                           const std::string& artifact_id);
plugin::Status deleteArtifact(plugin::PluginTx& tx, const std::string& artifact_id);

/// The answers of `user_id`'s latest attempt on a quiz (empty when none).
plugin::Result<Answers> latestAnswers(plugin::PluginTx& tx, const std::string& artifact_id,
                                      const std::string& user_id);
/// Stores one attempt; returns its id and submitted_at.
plugin::Result<AttemptRecord> insertAttempt(plugin::PluginTx& tx, const std::string& course_id,
                                            const ArtifactRecord& quiz, const std::string& user_id,
                                            const Answers& answers, const QuizResult& result);
plugin::Result<std::vector<AttemptRecord>> listAttempts(plugin::PluginTx& tx,
                                                        const std::string& course_id);

plugin::Result<LessonProgress> lessonProgress(plugin::PluginTx& tx, const std::string& course_id,
                                              const std::string& user_id,
                                              const std::string& lesson_id);
plugin::Status saveLessonProgress(plugin::PluginTx& tx, const std::string& course_id,
                                  const LessonProgressRecord& record);
plugin::Result<std::vector<LessonProgressRecord>> listLessonProgress(plugin::PluginTx& tx,
                                                                     const std::string& course_id);

/// A question to a person and when it was asked and last changed.
struct QuestionRecord {
    PersonQuestion question;
    std::string created_at;
    std::string updated_at;
};
nlohmann::json questionRecordJson(const QuestionRecord& record);

plugin::Status insertQuestion(plugin::PluginTx& tx, const std::string& course_id,
                              const PersonQuestion& question);
plugin::Status updateQuestion(plugin::PluginTx& tx, const PersonQuestion& question);
plugin::Result<std::optional<QuestionRecord>> findQuestion(plugin::PluginTx& tx,
                                                           const std::string& course_id,
                                                           const std::string& question_id);
plugin::Result<std::vector<QuestionRecord>> listQuestions(plugin::PluginTx& tx,
                                                          const std::string& course_id);

}  // namespace docintel::learning::store

#pragma once

// The learning feature's operations, one function each, shared by its REST handlers and MCP
// tools (docs/learning.md). Each loads what it needs through the store, asks learning_access
// whether the caller may, applies the domain rule and stores the outcome with its event in one
// transaction of the plugin's own storage.

#include <functional>
#include <optional>
#include <string>

#include "learning/learning_access.h"
#include "learning/plugin/learning_store.h"
#include "plugin_api/host_services.h"

namespace docintel::learning {

/// Who asks, and through which door.
struct Caller {
    plugin::Principal principal;
    /// REST: the request's X-DocIntel-Workspace-ID ("" = personal). MCP: nullopt — the course
    /// named in the call decides the workspace.
    std::optional<std::string> header;
    std::string trace_id;
};

/// A frame of the tutor's stream (`sources`, `token`, `done`, `error`); returns false to stop.
using FrameSink = std::function<bool(const nlohmann::json&)>;

class LearningService {
  public:
    explicit LearningService(plugin::HostServices& host) : host_(host) {}

    // Courses, curriculum, content and members (learning_service.cpp).
    plugin::Result<nlohmann::json> listCourses(const Caller& c, const std::string& workspace_id);
    plugin::Result<nlohmann::json> createCourse(const Caller& c, const nlohmann::json& body);
    plugin::Result<nlohmann::json> getCourse(const Caller& c, const std::string& course_id);
    plugin::Result<nlohmann::json> updateCourse(const Caller& c, const std::string& course_id,
                                                const nlohmann::json& body);
    plugin::Result<nlohmann::json> deleteCourse(const Caller& c, const std::string& course_id);
    plugin::Result<nlohmann::json> saveCurriculum(const Caller& c, const std::string& course_id,
                                                  const nlohmann::json& body);
    plugin::Result<nlohmann::json> attachContent(const Caller& c, const std::string& course_id,
                                                 const nlohmann::json& body);
    plugin::Result<nlohmann::json> removeContent(const Caller& c, const std::string& course_id,
                                                 const std::string& asset_id);
    plugin::Result<nlohmann::json> enroll(const Caller& c, const std::string& course_id,
                                          const nlohmann::json& body);
    plugin::Result<nlohmann::json> removeMember(const Caller& c, const std::string& course_id,
                                                const std::string& user_id);
    plugin::Result<nlohmann::json> scope(const Caller& c, const std::string& course_id,
                                         const std::string& module_id,
                                         const std::string& lesson_id);
    plugin::Result<nlohmann::json> listDocuments(const Caller& c, const std::string& workspace_id);

    // The tutor, artifacts, quizzes, progress and questions (learning_study.cpp).
    /// A tutor question checked and resolved to its scope, ready to be answered.
    struct TutorPlan {
        plugin::GroundedQuestion question;  ///< restricted to the scope's embedded documents
        nlohmann::json scope;               ///< GET .../scope's body for that scope
    };
    /// Everything that can refuse a tutor question before an answer starts: access, the body,
    /// the module or lesson, and 409 content_not_ready when the scope has no embedded document.
    plugin::Result<TutorPlan> prepareTutor(const Caller& c, const std::string& course_id,
                                           const nlohmann::json& body);
    /// Streams the grounded answer: the host's answerer over the plan's documents only.
    plugin::Status answerTutor(const Caller& c, const TutorPlan& plan, const FrameSink& emit);
    plugin::Result<nlohmann::json> listArtifacts(const Caller& c, const std::string& course_id);
    plugin::Result<nlohmann::json> getArtifact(const Caller& c, const std::string& course_id,
                                               const std::string& artifact_id);
    plugin::Result<nlohmann::json> saveArtifact(const Caller& c, const std::string& course_id,
                                                const nlohmann::json& body);
    /// Generates an artifact from the scope's documents (docs/learning.md "Generation without an
    /// LLM") and saves it as the caller's: {artifact, id, items, dropped}.
    plugin::Result<nlohmann::json> generateArtifact(const Caller& c, const std::string& course_id,
                                                    const nlohmann::json& args);
    plugin::Result<nlohmann::json> deleteArtifact(const Caller& c, const std::string& course_id,
                                                  const std::string& artifact_id);
    plugin::Result<nlohmann::json> submitAttempt(const Caller& c, const std::string& course_id,
                                                 const std::string& artifact_id,
                                                 const nlohmann::json& body);
    plugin::Result<nlohmann::json> progress(const Caller& c, const std::string& course_id);
    plugin::Result<nlohmann::json> askPerson(const Caller& c, const std::string& course_id,
                                             const nlohmann::json& body);
    plugin::Result<nlohmann::json> updateQuestion(const Caller& c, const std::string& course_id,
                                                  const std::string& question_id,
                                                  const nlohmann::json& body);

  private:
    /// A course as the caller sees it: the record and what the access rules need.
    struct Opened {
        store::CourseRecord record;
        AccessContext ctx;
    };
    /// Loads the course inside `tx` and authorises `op` on it (404 when the caller may not know
    /// it exists). `lock` serialises changes of the course.
    plugin::Result<Opened> open(plugin::PluginTx& tx, const Caller& c, const std::string& course_id,
                                Operation op, bool lock, bool own_item = false);
    /// A course's artifact as the caller sees it, `op` authorised on it (own or someone
    /// else's); 404 artifact_not_found when the course has no such artifact.
    struct OpenedArtifact {
        Opened course;
        store::ArtifactRecord artifact;
    };
    plugin::Result<OpenedArtifact> openArtifact(plugin::PluginTx& tx, const Caller& c,
                                                const std::string& course_id,
                                                const std::string& artifact_id, Operation op,
                                                bool lock);
    /// The caller's role in a workspace; nullopt when not a member (or no such workspace).
    plugin::Result<std::optional<WorkspaceRole>> roleIn(const Caller& c,
                                                        const std::string& workspace_id);
    /// The workspace's documents by id, as the scope rules need them.
    plugin::Result<std::map<std::string, DocumentInfo>> documentsOf(
        const Caller& c, const std::string& workspace_id);
    plugin::Result<Scope> scopeOf(const Caller& c, const store::CourseRecord& record,
                                  const std::string& module_id, const std::string& lesson_id);
    /// The workspace a list or create names, checked against the request's header.
    plugin::Status checkHeader(const Caller& c, const std::string& workspace_id);
    /// An event of `c`'s change, written in `tx`.
    plugin::Status emit(plugin::PluginTx& tx, const Caller& c, const std::string& type,
                        const std::string& resource_type, const std::string& resource_id,
                        const std::string& workspace_id, nlohmann::json payload);
    nlohmann::json courseView(const store::CourseRecord& record) const;
    /// Saves `artifact` (already checked) as the caller's, with its event.
    plugin::Result<nlohmann::json> storeArtifact(const Caller& c, const std::string& course_id,
                                                 const Artifact& artifact);

    plugin::HostServices& host_;
};

}  // namespace docintel::learning

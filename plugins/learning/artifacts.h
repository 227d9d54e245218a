#pragma once

// Saved study artifacts and tutor requests: the rules of ArtifactCreate and
// LearningTutorRequest against the course and its scope (docs/learning.md "Artifacts and the
// tutor"). Pure; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/curriculum.h"
#include "learning/learning_enums.h"
#include "learning/quiz.h"
#include "learning/scope.h"
#include "plugin_api/result.h"

namespace docintel::learning {

struct Artifact {
    std::string id;
    std::string owner_id;
    ArtifactType type = ArtifactType::kSummary;
    std::string title;
    std::string content;
    std::vector<std::string> source_document_ids;
    std::string module_id;
    std::string lesson_id;
};

/// An ArtifactCreate body from `owner_id`: `artifact_type` one of the five, `content` at least
/// one character (a practice_questions content must be a valid quiz, parseQuizText),
/// `module_id` / `lesson_id` the course's (a lesson implies its module), every
/// `source_document_ids` entry a document of `scope` (the scope of that module or lesson) —
/// else 422. An empty title becomes defaultTitle(type, scope label).
plugin::Result<Artifact> artifactFromCreate(const nlohmann::json& body, const std::string& owner_id,
                                            const Curriculum& curriculum, const Scope& scope);

nlohmann::json artifactJson(const Artifact& artifact);

constexpr std::size_t kMaxTutorHistory = 30;

struct TutorRequest {
    std::string question;
    std::string module_id;
    std::string lesson_id;
    nlohmann::json history = nlohmann::json::array();
    std::string response_language;  ///< "" = the question's language
    bool redact_pii = false;
};

/// A LearningTutorRequest body: `question` 1..12000 characters, `history` at most 30 objects,
/// `response_language` en, es, bn, hi or ar (or null), `redact_pii` a boolean; 422 otherwise.
plugin::Result<TutorRequest> tutorRequestFrom(const nlohmann::json& body);

/// 409 `content_not_ready` when `scope` holds no embedded document, so the tutor has nothing
/// to answer from; fine otherwise.
plugin::Status tutorCanAnswer(const Scope& scope);

}  // namespace docintel::learning

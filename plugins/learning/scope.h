#pragma once

// Content attached to a course and the scope a tutor question or an artifact draws on
// (docs/learning.md "Content and scope"). Pure; thread-safe.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/course.h"
#include "learning/curriculum.h"
#include "plugin_api/result.h"

namespace docintel::learning {

/// A workspace document attached to the course (module_id and lesson_id empty), a module
/// (lesson_id empty) or a lesson. Video documents may narrow it to [start, end) seconds.
struct Asset {
    std::string id;
    std::string document_id;
    std::string module_id;
    std::string lesson_id;
    std::string title;
    std::optional<double> start_seconds;
    std::optional<double> end_seconds;
};

/// What the scope needs to know of a document of the course's workspace.
struct DocumentInfo {
    std::string id;
    std::string name;
    std::string file_type;  ///< extension or MIME type
    std::string status;     ///< only "embedded" documents are in a scope
};

/// Whether a file type (extension, with or without the dot, or MIME type) is a video.
bool isVideoFileType(const std::string& file_type);

/// An AssetCreate body (plus `start_seconds`/`end_seconds`) checked against the curriculum and
/// the course's other assets. `document`: the document when it is in the course's workspace,
/// nullptr otherwise (404 `document_not_found`, nothing told). A module or lesson the
/// curriculum does not hold, or a lesson outside the module given, is 422 (a lesson alone
/// implies its module); seconds on a document that is not a video, a negative start, or an end
/// not after the start are 422; the same document already at the same place is 409
/// `asset_exists`. The title defaults to the document's name. The id is the caller's to set.
plugin::Result<Asset> assetFromCreate(const nlohmann::json& body, const Curriculum& curriculum,
                                      const DocumentInfo* document,
                                      const std::vector<Asset>& existing);

nlohmann::json assetJson(const Asset& asset);

enum class ScopeType { kCourse, kModule, kLesson };
std::string toString(ScopeType t);

struct Scope {
    ScopeType type = ScopeType::kCourse;
    std::string module_id;
    std::string lesson_id;
    std::string label;        ///< "Course", "Course > Module" or "Course > Module > Lesson"
    std::string instruction;  ///< how the tutor is to answer, from the domain pack
    std::vector<std::string> document_ids;  ///< embedded documents in scope, each once
    nlohmann::json evidence_ranges;         ///< [{document_id, start_seconds, end_seconds}]
    std::vector<Asset> assets;              ///< every asset in scope, embedded or not
};

/// The scope of a course, module or lesson: the course scope is every asset of the course; a
/// module's is the course-wide assets, the module's own and its lessons'; a lesson's is the
/// course-wide assets, its module's module-wide ones and its own. `document_ids` keeps the
/// embedded documents only (in asset order); `evidence_ranges` the time ranges of their video
/// assets. A module or lesson the curriculum does not hold is 404; a lesson outside the given
/// module is 422. `documents`: the workspace's documents by id (a missing one is not embedded).
plugin::Result<Scope> resolveScope(const Course& course, const Curriculum& curriculum,
                                   const std::vector<Asset>& assets,
                                   const std::map<std::string, DocumentInfo>& documents,
                                   const std::string& module_id, const std::string& lesson_id);

/// GET .../scope's body: course_id, module_id, lesson_id (null when absent), scope_type, label,
/// instruction, document_ids, evidence_ranges, assets.
nlohmann::json scopeJson(const std::string& course_id, const Scope& scope);

}  // namespace docintel::learning

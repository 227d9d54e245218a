#pragma once

// A course's fields and the rules of CourseCreate / CourseUpdate (docs/learning.md "Courses").
// Pure; thread-safe.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "learning/learning_enums.h"
#include "plugin_api/result.h"

namespace docintel::learning {

/// One of the 11 domain packs a course may take: what the tutor stresses and who reviews.
struct DomainPack {
    std::string id;
    std::string label;
    std::string reviewer_persona;
    std::string tutor_focus;
};

/// The 11 packs, `general` first.
const std::vector<DomainPack>& domainPacks();
/// The pack named `id`; nullptr when there is none.
const DomainPack* findDomainPack(std::string_view id);

constexpr int kDefaultPassingScore = 80;

struct Course {
    std::string id;
    std::string workspace_id;
    std::string created_by;  ///< user id of the creator (enrolled as teacher, never removable)
    std::string title;
    std::string course_code;
    std::string semester;
    std::string description;
    std::string instructor_name;
    std::vector<std::string> objectives;
    std::string domain = "general";
    /// Free-form settings of the pack; `passing_score` (0..100) is always present.
    nlohmann::json domain_config = {{"passing_score", kDefaultPassingScore}};
    PublicationStatus publication_status = PublicationStatus::kDraft;
    CourseStatus status = CourseStatus::kActive;

    int passingScore() const;
};

/// A CourseCreate body → the new course (no id, creator or workspace check: the caller's).
/// Besides the schema's fields it takes `domain` (one of the packs), `domain_config` (an object;
/// `passing_score` an integer 0..100, default 80) and `publication_status`. Every problem is
/// reported at once: `validation_error` 422 with the detail array.
plugin::Result<Course> courseFromCreate(const nlohmann::json& body);

/// A CourseUpdate body applied to `current`: absent and null fields keep their value; the same
/// limits as courseFromCreate, plus `status`. `domain_config` is merged key by key.
plugin::Result<Course> applyCourseUpdate(const Course& current, const nlohmann::json& body);

/// The course as REST and MCP show it, its pack spelled out under `domain_pack`.
nlohmann::json courseJson(const Course& course);

}  // namespace docintel::learning

#pragma once

// A course's modules and lessons, and the replace rule of `PUT .../curriculum`
// (docs/learning.md "Curriculum"). Pure; thread-safe.

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::learning {

constexpr std::size_t kMaxModules = 100;
constexpr std::size_t kMaxLessonsPerModule = 200;

struct Lesson {
    std::string id;
    std::string title;
    std::string description;
    std::vector<std::string> objectives;
    std::vector<std::string> competencies;
    int position = 0;  ///< 0-based, within its module
};

struct Module {
    std::string id;
    std::string title;
    std::string description;
    int position = 0;  ///< 0-based, within the course
    std::vector<Lesson> lessons;
};

struct Curriculum {
    std::vector<Module> modules;

    const Module* findModule(const std::string& id) const;
    /// The lesson `id` and the module holding it; {nullptr, nullptr} when there is none.
    std::pair<const Module*, const Lesson*> findLesson(const std::string& id) const;
};

/// The outcome of a replace: the new tree and what it no longer holds (whose assets, progress
/// and artifacts the caller detaches or deletes).
struct CurriculumChange {
    Curriculum curriculum;
    std::vector<std::string> removed_module_ids;
    std::vector<std::string> removed_lesson_ids;
};

/// Replaces `stored` by a CurriculumSave body: an `id` sent keeps that module or lesson (a
/// lesson may move to another module); an id `stored` does not hold, or one sent twice, is 422;
/// items without an id get `new_id()`. Order is the order sent (positions 0, 1, ...). Items
/// whose title is empty or white space are skipped, with their lessons; anything not sent is
/// removed. More than 100 modules, or 200 lessons in a module, is 422 (counted as sent). Titles
/// are at most 180 characters, descriptions 4000; objectives and competencies lists of strings.
plugin::Result<CurriculumChange> replaceCurriculum(const Curriculum& stored,
                                                   const nlohmann::json& body,
                                                   const std::function<std::string()>& new_id);

nlohmann::json curriculumJson(const Curriculum& curriculum);

}  // namespace docintel::learning

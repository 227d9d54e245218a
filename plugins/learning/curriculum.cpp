#include "learning/curriculum.h"

#include <set>

#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

/// The checks every module or lesson item shares: an object, string fields within limits, an
/// id (when sent) that `known` holds and that was not sent before.
bool checkItem(const json& item, const json& loc, const std::set<std::string>& known,
               std::set<std::string>& sent, Problems& problems) {
    if (!item.is_object()) {
        problems.add(loc, "Input should be a valid dictionary", "dict_type");
        return false;
    }
    const std::size_t before = problems.detail().size();
    checkString(item, "title", 0, 180, true, loc, problems);
    checkString(item, "description", 0, 4000, true, loc, problems);
    checkString(item, "id", 1, 200, true, loc, problems);
    if (item.contains("id") && item["id"].is_string()) {
        const std::string id = item["id"].get<std::string>();
        json id_loc = loc;
        id_loc.push_back("id");
        if (!known.count(id)) {
            problems.add(id_loc, "Unknown id: not part of this course's curriculum", "unknown_id");
        } else if (!sent.insert(id).second) {
            problems.add(id_loc, "This id is sent more than once", "duplicate_id");
        }
    }
    return problems.detail().size() == before;
}

std::string text(const json& item, const char* field) {
    const auto it = item.find(field);
    return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings(const json& item, const char* field) {
    const auto it = item.find(field);
    if (it == item.end() || !it->is_array()) return {};
    std::vector<std::string> out;
    for (const auto& v : *it) {
        if (v.is_string()) out.push_back(v.get<std::string>());
    }
    return out;
}

}  // namespace

const Module* Curriculum::findModule(const std::string& id) const {
    for (const auto& m : modules) {
        if (m.id == id) return &m;
    }
    return nullptr;
}

std::pair<const Module*, const Lesson*> Curriculum::findLesson(const std::string& id) const {
    for (const auto& m : modules) {
        for (const auto& l : m.lessons) {
            if (l.id == id) return {&m, &l};
        }
    }
    return {nullptr, nullptr};
}

plugin::Result<CurriculumChange> replaceCurriculum(const Curriculum& stored, const json& body,
                                                   const std::function<std::string()>& new_id) {
    if (!body.is_object()) return validationError({"body"}, "Input should be a valid dictionary");
    const json modules = body.value("modules", json::array());
    if (!modules.is_array()) {
        return validationError({"body", "modules"}, "Input should be a valid list", "list_type");
    }
    if (modules.size() > kMaxModules) {
        return validationError(
            {"body", "modules"},
            "A curriculum has at most " + std::to_string(kMaxModules) + " modules", "too_long");
    }
    std::set<std::string> module_ids, lesson_ids, sent_modules, sent_lessons;
    for (const auto& m : stored.modules) {
        module_ids.insert(m.id);
        for (const auto& l : m.lessons) lesson_ids.insert(l.id);
    }

    Problems problems;
    CurriculumChange change;
    for (std::size_t mi = 0; mi < modules.size(); ++mi) {
        const json& m = modules[mi];
        const json loc = {"body", "modules", mi};
        if (!checkItem(m, loc, module_ids, sent_modules, problems)) continue;
        const json lessons = m.value("lessons", json::array());
        if (!lessons.is_array()) {
            problems.add({"body", "modules", mi, "lessons"}, "Input should be a valid list",
                         "list_type");
            continue;
        }
        if (lessons.size() > kMaxLessonsPerModule) {
            problems.add(
                {"body", "modules", mi, "lessons"},
                "A module has at most " + std::to_string(kMaxLessonsPerModule) + " lessons",
                "too_long");
            continue;
        }
        Module module;
        module.id = text(m, "id");
        module.title = trim(text(m, "title"));
        module.description = text(m, "description");
        for (std::size_t li = 0; li < lessons.size(); ++li) {
            const json& l = lessons[li];
            const json lloc = {"body", "modules", mi, "lessons", li};
            if (!checkItem(l, lloc, lesson_ids, sent_lessons, problems)) continue;
            checkStrings(l, "objectives", true, lloc, problems);
            checkStrings(l, "competencies", true, lloc, problems);
            Lesson lesson;
            lesson.id = text(l, "id");
            lesson.title = trim(text(l, "title"));
            if (lesson.title.empty()) continue;
            lesson.description = text(l, "description");
            lesson.objectives = strings(l, "objectives");
            lesson.competencies = strings(l, "competencies");
            module.lessons.push_back(std::move(lesson));
        }
        if (module.title.empty()) continue;
        change.curriculum.modules.push_back(std::move(module));
    }
    if (!problems.empty()) return problems.error();

    // Ids last, so a body refused above takes none.
    std::set<std::string> kept_modules, kept_lessons;
    int mpos = 0;
    for (auto& module : change.curriculum.modules) {
        if (module.id.empty()) module.id = new_id();
        kept_modules.insert(module.id);
        module.position = mpos++;
        int lpos = 0;
        for (auto& lesson : module.lessons) {
            if (lesson.id.empty()) lesson.id = new_id();
            kept_lessons.insert(lesson.id);
            lesson.position = lpos++;
        }
    }
    for (const auto& m : stored.modules) {
        if (!kept_modules.count(m.id)) change.removed_module_ids.push_back(m.id);
        for (const auto& l : m.lessons) {
            if (!kept_lessons.count(l.id)) change.removed_lesson_ids.push_back(l.id);
        }
    }
    return change;
}

json curriculumJson(const Curriculum& curriculum) {
    json modules = json::array();
    for (const auto& m : curriculum.modules) {
        json lessons = json::array();
        for (const auto& l : m.lessons) {
            lessons.push_back({{"id", l.id},
                               {"title", l.title},
                               {"description", l.description},
                               {"objectives", l.objectives},
                               {"competencies", l.competencies},
                               {"position", l.position}});
        }
        modules.push_back({{"id", m.id},
                           {"title", m.title},
                           {"description", m.description},
                           {"position", m.position},
                           {"lessons", lessons}});
    }
    return {{"modules", modules}};
}

}  // namespace docintel::learning

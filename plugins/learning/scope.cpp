#include "learning/scope.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

std::string optionalString(const json& body, const char* field) {
    const auto it = body.find(field);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// Reads `start_seconds`/`end_seconds` (numbers or null) into `asset`.
void readSeconds(const json& body, const char* field, std::optional<double>& into,
                 Problems& problems) {
    const auto it = body.find(field);
    if (it == body.end() || it->is_null()) return;
    if (!it->is_number()) {
        problems.add({"body", field}, "Input should be a valid number", "float_type");
        return;
    }
    into = it->get<double>();
}

bool samePlace(const Asset& a, const Asset& b) {
    return a.document_id == b.document_id && a.module_id == b.module_id &&
           a.lesson_id == b.lesson_id;
}

}  // namespace

bool isVideoFileType(const std::string& file_type) {
    std::string t = lowered(file_type);
    if (t.rfind("video/", 0) == 0) return true;
    if (!t.empty() && t.front() == '.') t.erase(0, 1);
    static const std::set<std::string> kVideo = {"mp4", "mov",  "m4v", "webm", "mkv",
                                                 "avi", "mpeg", "mpg", "video"};
    return kVideo.count(t) > 0;
}

plugin::Result<Asset> assetFromCreate(const json& body, const Curriculum& curriculum,
                                      const DocumentInfo* document,
                                      const std::vector<Asset>& existing) {
    if (!body.is_object()) return validationError({"body"}, "Input should be a valid dictionary");
    Problems problems;
    if (!body.contains("document_id")) {
        problems.add({"body", "document_id"}, "Field required", "missing");
    }
    checkString(body, "document_id", 1, 200, false, {"body"}, problems);
    checkString(body, "module_id", 0, 200, true, {"body"}, problems);
    checkString(body, "lesson_id", 0, 200, true, {"body"}, problems);
    checkString(body, "title", 0, 240, false, {"body"}, problems);
    Asset a;
    readSeconds(body, "start_seconds", a.start_seconds, problems);
    readSeconds(body, "end_seconds", a.end_seconds, problems);
    if (!problems.empty()) return problems.error();
    if (!document) return plugin::Error{"document_not_found", "document not found", 404};

    a.document_id = document->id;
    a.module_id = optionalString(body, "module_id");
    a.lesson_id = optionalString(body, "lesson_id");
    a.title = trim(optionalString(body, "title"));
    if (a.title.empty()) a.title = document->name;
    if (!a.lesson_id.empty()) {
        const auto [module, lesson] = curriculum.findLesson(a.lesson_id);
        if (!lesson) {
            problems.add({"body", "lesson_id"}, "Unknown lesson of this course", "unknown_id");
        } else if (!a.module_id.empty() && a.module_id != module->id) {
            problems.add({"body", "lesson_id"}, "The lesson is not part of this module",
                         "lesson_outside_module");
        } else {
            a.module_id = module->id;
        }
    } else if (!a.module_id.empty() && !curriculum.findModule(a.module_id)) {
        problems.add({"body", "module_id"}, "Unknown module of this course", "unknown_id");
    }
    if (a.start_seconds || a.end_seconds) {
        if (!isVideoFileType(document->file_type)) {
            problems.add({"body", "start_seconds"}, "Only video documents take a time range",
                         "not_video");
        }
        if (a.start_seconds && *a.start_seconds < 0) {
            problems.add({"body", "start_seconds"}, "Input should be at least 0",
                         "greater_than_equal");
        }
        if (a.end_seconds && *a.end_seconds <= a.start_seconds.value_or(0)) {
            problems.add({"body", "end_seconds"}, "end_seconds must be after start_seconds",
                         "range");
        }
    }
    if (!problems.empty()) return problems.error();
    for (const auto& e : existing) {
        if (samePlace(e, a)) {
            return plugin::Error::conflict("asset_exists",
                                           "this document is already attached there");
        }
    }
    return a;
}

json assetJson(const Asset& a) {
    const auto nullable = [](const std::string& s) { return s.empty() ? json() : json(s); };
    const auto seconds = [](const std::optional<double>& s) { return s ? json(*s) : json(); };
    return {{"id", a.id},
            {"document_id", a.document_id},
            {"module_id", nullable(a.module_id)},
            {"lesson_id", nullable(a.lesson_id)},
            {"title", a.title},
            {"start_seconds", seconds(a.start_seconds)},
            {"end_seconds", seconds(a.end_seconds)}};
}

std::string toString(ScopeType t) {
    switch (t) {
        case ScopeType::kCourse:
            return "course";
        case ScopeType::kModule:
            return "module";
        case ScopeType::kLesson:
            return "lesson";
    }
    return "course";
}

plugin::Result<Scope> resolveScope(const Course& course, const Curriculum& curriculum,
                                   const std::vector<Asset>& assets,
                                   const std::map<std::string, DocumentInfo>& documents,
                                   const std::string& module_id, const std::string& lesson_id) {
    Scope s;
    const Module* module = nullptr;
    const Lesson* lesson = nullptr;
    if (!lesson_id.empty()) {
        std::tie(module, lesson) = curriculum.findLesson(lesson_id);
        if (!lesson) return plugin::Error{"lesson_not_found", "lesson not found", 404};
        if (!module_id.empty() && module_id != module->id) {
            return validationError({"query", "lesson_id"}, "The lesson is not part of this module",
                                   "lesson_outside_module");
        }
    } else if (!module_id.empty()) {
        module = curriculum.findModule(module_id);
        if (!module) return plugin::Error{"module_not_found", "module not found", 404};
    }
    s.label = course.title;
    if (module) {
        s.type = ScopeType::kModule;
        s.module_id = module->id;
        s.label += " > " + module->title;
    }
    if (lesson) {
        s.type = ScopeType::kLesson;
        s.lesson_id = lesson->id;
        s.label += " > " + lesson->title;
    }
    const auto inScope = [&](const Asset& a) {
        if (!module || a.module_id.empty()) return true;  // the course scope, or course-wide
        if (a.module_id != module->id) return false;
        if (!lesson || a.lesson_id.empty()) return true;  // module-wide, or the module scope
        return a.lesson_id == lesson->id;
    };
    s.evidence_ranges = json::array();
    std::set<std::string> seen;
    for (const auto& a : assets) {
        if (!inScope(a)) continue;
        s.assets.push_back(a);
        const auto doc = documents.find(a.document_id);
        if (doc == documents.end() || doc->second.status != "embedded") continue;
        if (seen.insert(a.document_id).second) s.document_ids.push_back(a.document_id);
        if (a.start_seconds || a.end_seconds) {
            s.evidence_ranges.push_back(
                {{"document_id", a.document_id},
                 {"asset_id", a.id},
                 {"start_seconds", a.start_seconds.value_or(0)},
                 {"end_seconds", a.end_seconds ? json(*a.end_seconds) : json()}});
        }
    }
    const DomainPack* pack = findDomainPack(course.domain);
    s.instruction = "Answer only from the materials of " + s.label + ", citing them" +
                    (pack ? "; focus on " + pack->tutor_focus : std::string()) + ".";
    return s;
}

json scopeJson(const std::string& course_id, const Scope& s) {
    json assets = json::array();
    for (const auto& a : s.assets) assets.push_back(assetJson(a));
    const auto nullable = [](const std::string& v) { return v.empty() ? json() : json(v); };
    return {{"course_id", course_id},
            {"module_id", nullable(s.module_id)},
            {"lesson_id", nullable(s.lesson_id)},
            {"scope_type", toString(s.type)},
            {"label", s.label},
            {"instruction", s.instruction},
            {"document_ids", s.document_ids},
            {"evidence_ranges", s.evidence_ranges},
            {"assets", assets}};
}

}  // namespace docintel::learning

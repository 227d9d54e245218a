#include "learning/artifacts.h"

#include <algorithm>
#include <set>

#include "learning/generation.h"
#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;

namespace {

const json kBody = json::array({"body"});

std::string optionalString(const json& body, const char* field) {
    const auto it = body.find(field);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

plugin::Result<Artifact> artifactFromCreate(const json& body, const std::string& owner_id,
                                            const Curriculum& curriculum, const Scope& scope) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    for (const char* field : {"artifact_type", "content"}) {
        if (!body.contains(field)) problems.add({"body", field}, "Field required", "missing");
    }
    checkString(body, "content", 1, std::string::npos, false, kBody, problems);
    checkString(body, "title", 0, 240, false, kBody, problems);
    checkString(body, "module_id", 0, 200, true, kBody, problems);
    checkString(body, "lesson_id", 0, 200, true, kBody, problems);
    checkStrings(body, "source_document_ids", false, kBody, problems);
    Artifact a;
    if (body.contains("artifact_type")) {
        const auto& t = body["artifact_type"];
        const auto type = t.is_string() ? parseArtifactType(t.get<std::string>()) : std::nullopt;
        if (!type) {
            problems.add({"body", "artifact_type"},
                         "Input should be 'summary', 'study_guide', 'key_concepts', 'flashcards' "
                         "or 'practice_questions'",
                         "enum");
        } else {
            a.type = *type;
        }
    }
    if (!problems.empty()) return problems.error();

    a.owner_id = owner_id;
    a.content = body["content"].get<std::string>();
    a.title = trim(optionalString(body, "title"));
    a.module_id = optionalString(body, "module_id");
    a.lesson_id = optionalString(body, "lesson_id");
    if (!a.lesson_id.empty()) {
        const auto [module, lesson] = curriculum.findLesson(a.lesson_id);
        if (!lesson || (!a.module_id.empty() && a.module_id != module->id)) {
            problems.add({"body", "lesson_id"}, "Unknown lesson of this module or course",
                         "unknown_id");
        } else {
            a.module_id = module->id;
        }
    } else if (!a.module_id.empty() && !curriculum.findModule(a.module_id)) {
        problems.add({"body", "module_id"}, "Unknown module of this course", "unknown_id");
    }
    if (body.contains("source_document_ids")) {
        a.source_document_ids = body["source_document_ids"].get<std::vector<std::string>>();
    }
    const std::set<std::string> in_scope(scope.document_ids.begin(), scope.document_ids.end());
    for (std::size_t i = 0; i < a.source_document_ids.size(); ++i) {
        if (!in_scope.count(a.source_document_ids[i])) {
            problems.add({"body", "source_document_ids", i}, "The document is not in this scope",
                         "not_in_scope");
        }
    }
    if (a.type == ArtifactType::kPracticeQuestions) {
        const auto quiz = parseQuizText(a.content);
        if (!quiz) {
            for (const auto& d : json::parse(quiz.error().message)) {
                problems.add(d["loc"], d["msg"], d["type"]);
            }
        }
    }
    if (!problems.empty()) return problems.error();
    if (a.title.empty()) a.title = defaultTitle(a.type, scope.label);
    return a;
}

json artifactJson(const Artifact& a) {
    const auto nullable = [](const std::string& s) { return s.empty() ? json() : json(s); };
    json j = {{"id", a.id},
              {"owner_id", a.owner_id},
              {"artifact_type", toString(a.type)},
              {"title", a.title},
              {"content", a.content},
              {"source_document_ids", a.source_document_ids},
              {"module_id", nullable(a.module_id)},
              {"lesson_id", nullable(a.lesson_id)}};
    if (a.type == ArtifactType::kPracticeQuestions) {
        if (auto quiz = parseQuizText(a.content)) j["quiz"] = quizJson(*quiz);
    }
    return j;
}

plugin::Result<TutorRequest> tutorRequestFrom(const json& body) {
    if (!body.is_object()) return validationError(kBody, "Input should be a valid dictionary");
    Problems problems;
    if (!body.contains("question")) problems.add({"body", "question"}, "Field required", "missing");
    checkString(body, "question", 1, 12000, false, kBody, problems);
    checkString(body, "module_id", 0, 200, true, kBody, problems);
    checkString(body, "lesson_id", 0, 200, true, kBody, problems);
    TutorRequest r;
    if (body.contains("history") && !body["history"].is_null()) {
        const auto& h = body["history"];
        if (!h.is_array() || h.size() > kMaxTutorHistory ||
            !std::all_of(h.begin(), h.end(), [](const json& x) { return x.is_object(); })) {
            problems.add({"body", "history"}, "A history is at most 30 objects", "history");
        } else {
            r.history = h;
        }
    }
    if (body.contains("response_language") && !body["response_language"].is_null()) {
        static const std::set<std::string> languages = {"en", "es", "bn", "hi", "ar"};
        const auto& l = body["response_language"];
        if (!l.is_string() || !languages.count(l.get<std::string>())) {
            problems.add({"body", "response_language"},
                         "Input should be 'en', 'es', 'bn', 'hi' or 'ar'", "enum");
        } else {
            r.response_language = l.get<std::string>();
        }
    }
    if (body.contains("redact_pii") && !body["redact_pii"].is_boolean()) {
        problems.add({"body", "redact_pii"}, "Input should be a valid boolean", "bool_type");
    }
    if (!problems.empty()) return problems.error();
    r.question = body["question"].get<std::string>();
    r.module_id = optionalString(body, "module_id");
    r.lesson_id = optionalString(body, "lesson_id");
    r.redact_pii = body.value("redact_pii", false);
    return r;
}

plugin::Status tutorCanAnswer(const Scope& scope) {
    if (scope.document_ids.empty()) {
        return plugin::Error::conflict("content_not_ready",
                                       "no embedded content in " + scope.label + " yet");
    }
    return {};
}

}  // namespace docintel::learning

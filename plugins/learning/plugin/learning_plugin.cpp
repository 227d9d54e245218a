// The learning feature plugin (issue 16, docs/learning.md): serves the contract's 20 learning
// operations, six MCP tools and three resource templates over LearningService, on storage of its
// own (SDK v2, docs/plugins.md).

#include <regex>
#include <string>

#include "learning/plugin/learning_console.h"
#include "learning/plugin/learning_service.h"
#include "plugin_api/plugin.h"
#include "shared/registration.h"

namespace docintel::learning {
namespace {

using nlohmann::json;
using plugin::HttpRequest;
using plugin::HttpResponse;
using plugin::Result;

const std::string kRead = "learning:read";
const std::string kParticipate = "learning:participate";
const std::string kManage = "learning:manage";

Caller restCaller(const HttpRequest& r) { return {r.principal, r.workspace_id, r.trace_id}; }
Caller mcpCaller(const plugin::ToolCall& call) {
    return {call.principal, std::nullopt, call.trace_id};
}

using shared::respond;

/// The MCP arguments without `course_id`: the body of the REST operation they stand for.
json bodyOf(const json& args) {
    json body = args.is_object() ? args : json::object();
    body.erase("course_id");
    return body;
}

json stringProperty(const std::string& description) { return shared::schema::string(description); }
json nullableString(const std::string& description) {
    return {{"type", {"string", "null"}}, {"description", description}};
}

json toolSchema(json properties, std::vector<std::string> required) {
    return shared::schema::object(std::move(properties), std::move(required));
}

class LearningPlugin final : public plugin::Plugin {
  public:
    void registerWith(plugin::Registrar& r, plugin::HostServices& host) override {
        service_ = std::make_unique<LearningService>(host);
        for (auto& m : store::migrations()) r.addMigration(std::move(m));
        attachOperations(r);
        addTools(r);
        addResources(r);
        addConsolePages(r, *service_);
    }

  private:
    void attach(plugin::Registrar& r, const std::string& id,
                std::function<Result<json>(LearningService&, const HttpRequest&)> fn) {
        r.attachOperation(id, [this, fn = std::move(fn)](const HttpRequest& req) {
            return respond(fn(*service_, req));
        });
    }

    void attachOperations(plugin::Registrar& r) {
        using S = LearningService;
        using R = const HttpRequest&;
        const auto course = [](R q) { return q.pathParam("course_id"); };
        attach(r, "api_list_learning_courses_api_v1_learning_courses_get", [](S& s, R q) {
            return s.listCourses(restCaller(q), q.queryParam("workspace_id"));
        });
        attach(r, "api_create_learning_course_api_v1_learning_courses_post",
               [](S& s, R q) { return s.createCourse(restCaller(q), q.body); });
        attach(r, "api_get_learning_course_api_v1_learning_courses__course_id__get",
               [course](S& s, R q) { return s.getCourse(restCaller(q), course(q)); });
        attach(r, "api_update_learning_course_api_v1_learning_courses__course_id__patch",
               [course](S& s, R q) { return s.updateCourse(restCaller(q), course(q), q.body); });
        attach(r, "api_delete_learning_course_api_v1_learning_courses__course_id__delete",
               [course](S& s, R q) { return s.deleteCourse(restCaller(q), course(q)); });
        attach(r, "api_list_learning_artifacts_api_v1_learning_courses__course_id__artifacts_get",
               [course](S& s, R q) { return s.listArtifacts(restCaller(q), course(q)); });
        attach(r, "api_save_learning_artifact_api_v1_learning_courses__course_id__artifacts_post",
               [course](S& s, R q) { return s.saveArtifact(restCaller(q), course(q), q.body); });
        attach(r,
               "api_delete_learning_artifact_api_v1_learning_courses__course_id__artifacts__"
               "artifact_id__delete",
               [course](S& s, R q) {
                   return s.deleteArtifact(restCaller(q), course(q), q.pathParam("artifact_id"));
               });
        attach(r,
               "api_submit_learning_quiz_api_v1_learning_courses__course_id__artifacts__"
               "artifact_id__attempts_post",
               [course](S& s, R q) {
                   return s.submitAttempt(restCaller(q), course(q), q.pathParam("artifact_id"),
                                          q.body);
               });
        attach(r, "api_attach_learning_content_api_v1_learning_courses__course_id__assets_post",
               [course](S& s, R q) { return s.attachContent(restCaller(q), course(q), q.body); });
        attach(r,
               "api_remove_learning_content_api_v1_learning_courses__course_id__assets__asset_"
               "id__delete",
               [course](S& s, R q) {
                   return s.removeContent(restCaller(q), course(q), q.pathParam("asset_id"));
               });
        attach(r, "api_save_learning_curriculum_api_v1_learning_courses__course_id__curriculum_put",
               [course](S& s, R q) { return s.saveCurriculum(restCaller(q), course(q), q.body); });
        attach(r, "api_enroll_learning_member_api_v1_learning_courses__course_id__members_post",
               [course](S& s, R q) { return s.enroll(restCaller(q), course(q), q.body); });
        attach(r,
               "api_remove_learning_member_api_v1_learning_courses__course_id__members__member_"
               "user_id__delete",
               [course](S& s, R q) {
                   return s.removeMember(restCaller(q), course(q), q.pathParam("member_user_id"));
               });
        attach(r, "api_get_learning_progress_api_v1_learning_courses__course_id__progress_get",
               [course](S& s, R q) { return s.progress(restCaller(q), course(q)); });
        attach(r, "api_ask_learning_person_api_v1_learning_courses__course_id__questions_post",
               [course](S& s, R q) { return s.askPerson(restCaller(q), course(q), q.body); });
        attach(r,
               "api_update_learning_question_api_v1_learning_courses__course_id__questions__"
               "question_id__patch",
               [course](S& s, R q) {
                   return s.updateQuestion(restCaller(q), course(q), q.pathParam("question_id"),
                                           q.body);
               });
        attach(r, "api_resolve_learning_scope_api_v1_learning_courses__course_id__scope_get",
               [course](S& s, R q) {
                   return s.scope(restCaller(q), course(q), q.queryParam("module_id"),
                                  q.queryParam("lesson_id"));
               });
        attach(r, "api_list_learning_documents_api_v1_learning_documents_get", [](S& s, R q) {
            return s.listDocuments(restCaller(q), q.queryParam("workspace_id"));
        });

        r.attachOperation(
            "api_ask_learning_tutor_api_v1_learning_courses__course_id__tutor_query_stream_post",
            [this](const HttpRequest& q) -> Result<HttpResponse> {
                const Caller caller = restCaller(q);
                auto plan = service_->prepareTutor(caller, q.pathParam("course_id"), q.body);
                if (!plan) return plan.error();
                HttpResponse out;
                out.content_type = "text/event-stream";
                out.headers.emplace_back("Cache-Control", "no-cache");
                out.headers.emplace_back("X-Accel-Buffering", "no");
                out.stream = [this, caller, plan = std::move(plan).value()](
                                 const std::function<bool(const std::string&)>& write) {
                    const auto frame = [&write](const json& f) {
                        return write("data: " + f.dump() + "\n\n");
                    };
                    if (auto asked = service_->answerTutor(caller, plan, frame); !asked) {
                        frame({{"type", "error"},
                               {"code", asked.error().code},
                               {"message", asked.error().message}});
                    }
                };
                return out;
            });
    }

    void addTool(plugin::Registrar& r, std::string name, std::string description, json schema,
                 std::string scope,
                 std::function<Result<json>(LearningService&, const plugin::ToolCall&)> fn) {
        shared::addTool(r, std::move(name), std::move(description), std::move(schema), {scope},
                        [this, fn = std::move(fn)](const plugin::ToolCall& call) {
                            return fn(*service_, call);
                        });
    }

    void addTools(plugin::Registrar& r) {
        using S = LearningService;
        using C = const plugin::ToolCall&;
        const json course_id = stringProperty("The course's id.");
        const json module_id = nullableString("A module of the course (narrows the scope).");
        const json lesson_id = nullableString("A lesson of the course (narrows the scope).");

        addTool(r, "create_learning_course",
                "Create a course in a team workspace; you become its teacher. Returns the course "
                "with its `id`.",
                toolSchema({{"ws", stringProperty("The team workspace's id.")},
                            {"workspace_id", stringProperty("Same as `ws`.")},
                            {"title", stringProperty("1..180 characters.")},
                            {"course_code", stringProperty("At most 60 characters.")},
                            {"semester", stringProperty("At most 80 characters.")},
                            {"description", stringProperty("At most 4000 characters.")},
                            {"instructor_name", stringProperty("At most 180 characters.")},
                            {"objectives", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                            {"domain", stringProperty("One of the 11 domain packs.")}},
                           {"title"}),
                kManage, [](S& s, C call) {
                    json body = call.arguments;
                    if (!body.contains("workspace_id")) body["workspace_id"] = textOf(body, "ws");
                    body.erase("ws");
                    return s.createCourse(mcpCaller(call), body);
                });

        addTool(r, "save_learning_curriculum",
                "Replace a course's modules and lessons (ids kept when sent, order kept, what is "
                "not sent is removed). Returns `modules[].id` and `modules[].lessons[].id`.",
                toolSchema({{"course_id", course_id},
                            {"modules",
                             {{"type", "array"},
                              {"items", {{"type", "object"}}},
                              {"description",
                               "[{id?, title, description, lessons: [{id?, "
                               "title, description}]}]"}}}},
                           {"course_id", "modules"}),
                kManage, [](S& s, C call) -> Result<json> {
                    auto saved =
                        s.saveCurriculum(mcpCaller(call), textOf(call.arguments, "course_id"),
                                         bodyOf(call.arguments));
                    if (!saved) return saved;
                    json out = *saved;
                    out["modules"] = (*saved)["curriculum"]["modules"];
                    return out;
                });

        addTool(r, "attach_learning_content",
                "Attach a document of the course's workspace to the course, a module or a "
                "lesson.",
                toolSchema({{"course_id", course_id},
                            {"document_id", stringProperty("A document of the workspace.")},
                            {"module_id", module_id},
                            {"lesson_id", lesson_id},
                            {"title", stringProperty("Defaults to the document's name.")},
                            {"start_seconds", {{"type", {"number", "null"}}}},
                            {"end_seconds", {{"type", {"number", "null"}}}}},
                           {"course_id", "document_id"}),
                kManage, [](S& s, C call) {
                    return s.attachContent(mcpCaller(call), textOf(call.arguments, "course_id"),
                                           bodyOf(call.arguments));
                });

        addTool(r, "ask_learning_tutor",
                "Ask the course's tutor: answered only from the documents of the course, module "
                "or lesson scope, with citations; refused when the scope does not hold the "
                "answer. Returns answer, sources, trace_id and learning_scope.",
                toolSchema({{"course_id", course_id},
                            {"module_id", module_id},
                            {"lesson_id", lesson_id},
                            {"question", stringProperty("1..12000 characters.")},
                            {"history", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                            {"response_language", nullableString("en, es, bn, hi or ar.")},
                            {"redact_pii", {{"type", "boolean"}}}},
                           {"course_id", "question"}),
                kParticipate, [](S& s, C call) -> Result<json> {
                    const Caller caller = mcpCaller(call);
                    auto plan = s.prepareTutor(caller, textOf(call.arguments, "course_id"),
                                               bodyOf(call.arguments));
                    if (!plan) return plan.error();
                    json sources = json::array();
                    json done;
                    std::string streamed;
                    std::optional<plugin::Error> failed;
                    auto asked = s.answerTutor(caller, *plan, [&](const json& frame) {
                        const std::string type = textOf(frame, "type");
                        if (type == "sources") sources = frame.value("sources", json::array());
                        if (type == "token") streamed += textOf(frame, "content");
                        if (type == "done") done = frame;
                        if (type == "error") {
                            failed =
                                plugin::Error{textOf(frame, "code"), textOf(frame, "message"), 500};
                        }
                        return true;
                    });
                    if (!asked) return asked.error();
                    if (failed) return *failed;
                    return json{
                        {"answer", done.is_object() ? done.value("answer", streamed) : streamed},
                        {"sources", sources},
                        {"citations", done.value("citations", json::array())},
                        {"refused", done.value("refused", false)},
                        {"trace_id", done.value("trace_id", call.trace_id)},
                        {"learning_scope", plan->scope}};
                });

        addTool(r, "generate_learning_artifact",
                "Generate a study artifact (summary, study_guide, key_concepts, flashcards or "
                "practice_questions) from the scope's documents and save it as yours; every item "
                "cites its source document and page. Returns `artifact` and its `id`.",
                toolSchema({{"course_id", course_id},
                            {"module_id", module_id},
                            {"lesson_id", lesson_id},
                            {"artifact_type",
                             {{"type", "string"},
                              {"enum",
                               {"summary", "study_guide", "key_concepts", "flashcards",
                                "practice_questions"}}}},
                            {"title", stringProperty("Defaults to \"{Type} - {scope label}\".")},
                            {"custom_instruction", stringProperty("What to focus on.")},
                            {"max_items", {{"type", "integer"}, {"minimum", 1}, {"maximum", 20}}}},
                           {"course_id", "artifact_type"}),
                kParticipate, [](S& s, C call) {
                    return s.generateArtifact(mcpCaller(call), textOf(call.arguments, "course_id"),
                                              call.arguments);
                });

        addTool(r, "get_learning_progress",
                "A course's quiz attempts, lesson progress, mastery and questions: everyone's for "
                "teachers, advisors and managers, your own otherwise.",
                toolSchema({{"course_id", course_id}}, {"course_id"}), kRead, [](S& s, C call) {
                    return s.progress(mcpCaller(call), textOf(call.arguments, "course_id"));
                });
    }

    void addResources(plugin::Registrar& r) {
        const auto add = [&](std::string uri, std::string name, std::string description) {
            plugin::McpResourceTemplate t;
            t.uri_template = std::move(uri);
            t.name = std::move(name);
            t.description = std::move(description);
            t.scopes = {kRead};
            t.reader = [this](const std::string& uri, const plugin::Principal& p) {
                return read(uri, p);
            };
            r.addMcpResource(std::move(t));
        };
        add("docintel://learning/courses/{course_id}", "learning_course",
            "A course with its curriculum, members and attached content.");
        add("docintel://learning/courses/{course_id}/progress", "learning_progress",
            "A course's progress as the caller may see it.");
        add("docintel://learning/courses/{course_id}/artifacts/{artifact_id}", "learning_artifact",
            "A study artifact of a course (the caller's own, or any for reviewers).");
    }

    Result<json> read(const std::string& uri, const plugin::Principal& p) {
        static const std::regex kUri(
            R"(^docintel://learning/courses/([^/]+)(/progress|/artifacts/([^/]+))?$)");
        std::smatch m;
        if (!std::regex_match(uri, m, kUri)) {
            return plugin::Error{"resource_not_found", "no such learning resource", 404};
        }
        const Caller caller{p, std::nullopt, {}};
        const std::string course_id = m[1].str();
        if (!m[2].matched) return service_->getCourse(caller, course_id);
        if (m[2].str() == "/progress") return service_->progress(caller, course_id);
        return service_->getArtifact(caller, course_id, m[3].str());
    }

    std::unique_ptr<LearningService> service_;
};

}  // namespace
}  // namespace docintel::learning

DOCINTEL_PLUGIN(docintel::learning::LearningPlugin, "learning", "1.0.0")

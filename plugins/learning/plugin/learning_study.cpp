// The participation half of LearningService: the tutor, artifacts (saved and generated),
// quiz attempts and the progress they move, and questions to people.

#include "learning/generation.h"
#include "learning/generation_llm.h"
#include "learning/plugin/learning_service.h"
#include "learning/validation.h"

namespace docintel::learning {

using nlohmann::json;
using plugin::Error;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;

namespace {

constexpr std::size_t kMaxGroundedDocuments = 50;  // GroundedQuestion's limit

Error artifactNotFound() { return {"artifact_not_found", "artifact not found", 404}; }

/// The tutor's history as the answerer takes it: user and assistant turns with text.
json chatHistory(const json& history) {
    json out = json::array();
    for (const auto& turn : history) {
        const std::string role = textOf(turn, "role");
        const std::string content = textOf(turn, "content");
        if ((role == "user" || role == "assistant") && !content.empty()) {
            out.push_back({{"role", role}, {"content", content}});
        }
    }
    return out;
}

/// The host's support check in the shape generation takes. A failed check keeps nothing: an
/// item that cannot be checked is not shown as supported.
SupportCheck hostSupport(plugin::HostServices& host) {
    return [&host](const std::vector<SupportClaim>& claims) {
        std::vector<plugin::SupportClaim> asked;
        asked.reserve(claims.size());
        for (const auto& c : claims) asked.push_back({c.sentence, c.texts});
        std::vector<bool> out(claims.size(), false);
        auto verdicts = host.checkSupport(asked);
        if (!verdicts) {
            host.log("learning", "warning",
                     "event=support_check_failed code=" + verdicts.error().code);
            return out;
        }
        for (std::size_t i = 0; i < out.size() && i < verdicts->size(); ++i) {
            out[i] = (*verdicts)[i].supported;
        }
        return out;
    };
}

}  // namespace

Result<LearningService::TutorPlan> LearningService::prepareTutor(const Caller& c,
                                                                 const std::string& course_id,
                                                                 const json& body) {
    auto o = host_.transact(
        [&](PluginTx& tx) { return open(tx, c, course_id, Operation::kAskTutor, false); });
    if (!o) return o.error();
    auto request = tutorRequestFrom(body);
    if (!request) return request.error();
    auto scope = scopeOf(c, o->record, request->module_id, request->lesson_id);
    if (!scope) return scope.error();
    if (auto ready = tutorCanAnswer(*scope); !ready) return ready.error();
    TutorPlan plan;
    plan.question.question = request->question;
    plan.question.document_ids = scope->document_ids;
    if (plan.question.document_ids.size() > kMaxGroundedDocuments) {
        plan.question.document_ids.resize(kMaxGroundedDocuments);
    }
    plan.question.workspace_id = o->record.course.workspace_id;
    plan.question.history = chatHistory(request->history);
    plan.question.response_language = request->response_language;
    plan.question.redact_pii = request->redact_pii;
    plan.question.trace_id = c.trace_id;
    plan.scope = scopeJson(course_id, *scope);
    return plan;
}

Status LearningService::answerTutor(const Caller& c, const TutorPlan& plan, const FrameSink& emit) {
    return host_.askGrounded(c.principal, plan.question, emit);
}

Result<json> LearningService::listArtifacts(const Caller& c, const std::string& course_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kListArtifacts, false);
        if (!o) return o.error();
        const Visibility seen = visibility(Operation::kListArtifacts, o->ctx);
        auto artifacts = store::listArtifacts(tx, course_id);
        if (!artifacts) return artifacts.error();
        json items = json::array();
        for (const auto& a : *artifacts) {
            if (seen == Visibility::kOwn && a.artifact.owner_id != c.principal.user_id) continue;
            items.push_back(store::artifactRecordJson(a));
        }
        return json{{"course_id", course_id}, {"artifacts", items}, {"count", items.size()}};
    });
}

Result<LearningService::OpenedArtifact> LearningService::openArtifact(
    PluginTx& tx, const Caller& c, const std::string& course_id, const std::string& artifact_id,
    Operation op, bool lock) {
    auto o = open(tx, c, course_id, Operation::kGetCourse, lock);
    if (!o) return o.error();
    auto found = store::findArtifact(tx, course_id, artifact_id);
    if (!found) return found.error();
    if (!*found) return artifactNotFound();
    AccessContext ctx = o->ctx;
    ctx.own_item = (*found)->artifact.owner_id == c.principal.user_id;
    if (auto allowed = authorize(op, ctx); !allowed) return allowed.error();
    return OpenedArtifact{std::move(*o), std::move(**found)};
}

Result<json> LearningService::getArtifact(const Caller& c, const std::string& course_id,
                                          const std::string& artifact_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = openArtifact(tx, c, course_id, artifact_id, Operation::kReadArtifact, false);
        if (!o) return o.error();
        json j = store::artifactRecordJson(o->artifact);
        j["course_id"] = course_id;
        return j;
    });
}

Result<json> LearningService::saveArtifact(const Caller& c, const std::string& course_id,
                                           const json& body) {
    auto o = host_.transact([&](PluginTx& tx) {
        return open(tx, c, course_id, Operation::kSaveArtifact, false, true);
    });
    if (!o) return o.error();
    // The scope the artifact is saved for; a module or lesson the course does not hold is
    // reported by artifactFromCreate at its place (422), so the course's scope stands in.
    auto scope = scopeOf(c, o->record, textOf(body, "module_id"), textOf(body, "lesson_id"));
    if (!scope) scope = scopeOf(c, o->record, "", "");
    if (!scope) return scope.error();
    auto artifact = artifactFromCreate(body, c.principal.user_id, o->record.curriculum, *scope);
    if (!artifact) return artifact.error();
    artifact->id = store::newId();
    return storeArtifact(c, course_id, *artifact);
}

Result<json> LearningService::storeArtifact(const Caller& c, const std::string& course_id,
                                            const Artifact& artifact) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        // Checked again under the course's lock: archived or unenrolled in the meantime.
        auto o = open(tx, c, course_id, Operation::kSaveArtifact, true, true);
        if (!o) return o.error();
        if (auto s = store::insertArtifact(tx, course_id, artifact); !s) return s.error();
        if (auto s = emit(tx, c, "learning.artifact.saved", "learning_course", course_id,
                          o->record.course.workspace_id,
                          {{"course_id", course_id},
                           {"artifact_id", artifact.id},
                           {"artifact_type", toString(artifact.type)}});
            !s) {
            return s.error();
        }
        auto saved = store::findArtifact(tx, course_id, artifact.id);
        if (!saved) return saved.error();
        json j = store::artifactRecordJson(**saved);
        j["course_id"] = course_id;
        return j;
    });
}

Result<json> LearningService::generateArtifact(const Caller& c, const std::string& course_id,
                                               const json& args) {
    auto o = host_.transact([&](PluginTx& tx) {
        return open(tx, c, course_id, Operation::kSaveArtifact, false, true);
    });
    if (!o) return o.error();
    const auto type = parseArtifactType(textOf(args, "artifact_type"));
    if (!type) {
        return validationError({"arguments", "artifact_type"},
                               "Input should be 'summary', 'study_guide', 'key_concepts', "
                               "'flashcards' or 'practice_questions'",
                               "enum");
    }
    // The workspace's documents once: the scope keeps the embedded ones, passages take names.
    auto documents = documentsOf(c, o->record.course.workspace_id);
    if (!documents) return documents.error();
    auto scope = resolveScope(o->record.course, o->record.curriculum, o->record.assets, *documents,
                              textOf(args, "module_id"), textOf(args, "lesson_id"));
    if (!scope) return scope.error();
    if (auto ready = tutorCanAnswer(*scope); !ready) return ready.error();

    std::vector<Passage> passages;
    for (const auto& document_id : scope->document_ids) {
        auto chunks = host_.documentChunks(c.principal, document_id);
        if (!chunks) return chunks.error();
        const auto doc = documents->find(document_id);
        const std::string name = doc == documents->end() ? document_id : doc->second.name;
        for (const auto& chunk : chunks->value("chunks", json::array())) {
            passages.push_back({document_id, name, chunk.value("page", 1), textOf(chunk, "id"),
                                textOf(chunk, "text")});
        }
    }
    GenerationRequest request;
    request.type = *type;
    request.scope_label = scope->label;
    request.title = textOf(args, "title");
    request.custom_instruction = textOf(args, "custom_instruction");
    if (args.contains("max_items") && args["max_items"].is_number_integer()) {
        request.max_items = args["max_items"].get<int>();
    }
    const GenerationTools tools{hostSupport(host_), {}};
    // With an LLM it writes the text types, and what the scope does not support is dropped; when
    // it fails or nothing it wrote holds, the extractive rules make the artifact.
    std::string generator = "extractive";
    std::optional<plugin::Error> llm_failure;
    plugin::Result<GeneratedArtifact> generated = plugin::Error::internal("not generated");
    if (host_.hasLlm() && llmWrites(*type)) {
        auto reply = host_.completeChat(llmMessages(passages, request));
        if (reply) generated = artifactFromLlm(*reply, passages, request, tools);
        if (reply && generated) {
            generator = "llm";
        } else {
            llm_failure = reply ? generated.error() : reply.error();
            host_.log("learning", "warning",
                      "event=llm_generation_fallback code=" + llm_failure->code);
        }
    }
    if (generator != "llm") generated = learning::generateArtifact(passages, request, tools);
    if (!generated) return generated.error();

    Artifact artifact;
    artifact.id = store::newId();
    artifact.owner_id = c.principal.user_id;
    artifact.type = generated->type;
    artifact.title = generated->title;
    artifact.content = generated->content;
    artifact.source_document_ids = generated->source_document_ids;
    artifact.module_id = scope->module_id;
    artifact.lesson_id = scope->lesson_id;
    auto saved = storeArtifact(c, course_id, artifact);
    if (!saved) return saved.error();
    return json{{"id", artifact.id},
                {"artifact", *saved},
                {"items", generated->items},
                {"dropped", generated->dropped},
                {"generator", generator},
                {"llm_fallback", llm_failure ? json(llm_failure->code) : json()},
                {"learning_scope", scopeJson(course_id, *scope)}};
}

Result<json> LearningService::deleteArtifact(const Caller& c, const std::string& course_id,
                                             const std::string& artifact_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = openArtifact(tx, c, course_id, artifact_id, Operation::kDeleteArtifact, true);
        if (!o) return o.error();
        if (auto s = store::deleteArtifact(tx, artifact_id); !s) return s.error();
        return json{{"course_id", course_id}, {"artifact_id", artifact_id}, {"deleted", true}};
    });
}

Result<json> LearningService::submitAttempt(const Caller& c, const std::string& course_id,
                                            const std::string& artifact_id, const json& body) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = openArtifact(tx, c, course_id, artifact_id, Operation::kSubmitAttempt, true);
        if (!o) return o.error();
        const store::ArtifactRecord& quiz_artifact = o->artifact;
        if (quiz_artifact.artifact.type != ArtifactType::kPracticeQuestions) {
            return Error::unprocessable("not_a_quiz",
                                        "only practice_questions artifacts take attempts");
        }
        auto quiz = parseQuizText(quiz_artifact.artifact.content);
        if (!quiz) return quiz.error();
        auto previous = store::latestAnswers(tx, artifact_id, c.principal.user_id);
        if (!previous) return previous.error();
        auto answers = applyAttempt(*quiz, *previous, body);
        if (!answers) return answers.error();
        const QuizResult result = grade(*quiz, *answers);
        auto attempt = store::insertAttempt(tx, course_id, quiz_artifact, c.principal.user_id,
                                            *answers, result);
        if (!attempt) return attempt.error();
        const std::string& workspace_id = o->course.record.course.workspace_id;
        if (auto s =
                emit(tx, c, "learning.quiz.submitted", "learning_course", course_id, workspace_id,
                     {{"course_id", course_id},
                      {"artifact_id", artifact_id},
                      {"attempt_id", attempt->id},
                      {"user_id", c.principal.user_id},
                      {"score", result.score},
                      {"completed", result.completed}});
            !s) {
            return s.error();
        }
        json out = resultJson(result);
        out["attempt_id"] = attempt->id;
        out["artifact_id"] = artifact_id;
        out["course_id"] = course_id;
        out["submitted_at"] = attempt->submitted_at;
        out["lesson_progress"] = json();

        // A quiz of a lesson the curriculum still holds moves that lesson's progress.
        const std::string& lesson_id = quiz_artifact.artifact.lesson_id;
        if (lesson_id.empty() || !o->course.record.curriculum.findLesson(lesson_id).second) {
            return out;
        }
        auto current = store::lessonProgress(tx, course_id, c.principal.user_id, lesson_id);
        if (!current) return current.error();
        const LessonProgress next =
            advanceProgress(*current, result, o->course.record.course.passingScore());
        json progress = {{"lesson_id", lesson_id},
                         {"status", toString(next.status)},
                         {"percent", next.percent},
                         {"best_score", next.best_score}};
        out["lesson_progress"] = progress;
        if (next.status == current->status && next.percent == current->percent &&
            next.best_score == current->best_score) {
            return out;
        }
        if (auto s =
                store::saveLessonProgress(tx, course_id, {c.principal.user_id, lesson_id, next});
            !s) {
            return s.error();
        }
        progress["course_id"] = course_id;
        progress["user_id"] = c.principal.user_id;
        if (auto s = emit(tx, c, "learning.progress.updated", "learning_course", course_id,
                          workspace_id, progress);
            !s) {
            return s.error();
        }
        return out;
    });
}

Result<json> LearningService::progress(const Caller& c, const std::string& course_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kGetProgress, false);
        if (!o) return o.error();
        const Visibility seen = visibility(Operation::kGetProgress, o->ctx);
        auto attempts = store::listAttempts(tx, course_id);
        if (!attempts) return attempts.error();
        auto lessons = store::listLessonProgress(tx, course_id);
        if (!lessons) return lessons.error();
        auto questions = store::listQuestions(tx, course_id);
        if (!questions) return questions.error();
        json view = progressView(*attempts, *lessons, o->record.members, o->record.curriculum, seen,
                                 c.principal.user_id);
        // Questions follow the same rule: reviewers see all, a learner the ones they asked.
        json asked = json::array();
        for (const auto& q : *questions) {
            if (seen == Visibility::kOwn && q.question.asker_id != c.principal.user_id) continue;
            asked.push_back(store::questionRecordJson(q));
        }
        view["questions"] = std::move(asked);
        view["course_id"] = course_id;
        view["passing_score"] = o->record.course.passingScore();
        return view;
    });
}

Result<json> LearningService::askPerson(const Caller& c, const std::string& course_id,
                                        const json& body) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kAskPerson, true, true);
        if (!o) return o.error();
        auto question = questionFromCreate(body, c.principal.user_id, o->record.members);
        if (!question) return question.error();
        question->id = store::newId();
        if (auto s = store::insertQuestion(tx, course_id, *question); !s) return s.error();
        if (!question->assigned_to.empty()) {
            if (auto s = emit(tx, c, "learning.question.assigned", "learning_course", course_id,
                              o->record.course.workspace_id,
                              {{"course_id", course_id},
                               {"question_id", question->id},
                               {"assigned_to", question->assigned_to},
                               {"target_role", toString(question->target_role)}});
                !s) {
                return s.error();
            }
        }
        auto saved = store::findQuestion(tx, course_id, question->id);
        if (!saved) return saved.error();
        json j = store::questionRecordJson(**saved);
        j["course_id"] = course_id;
        return j;
    });
}

Result<json> LearningService::updateQuestion(const Caller& c, const std::string& course_id,
                                             const std::string& question_id, const json& body) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kGetCourse, true);
        if (!o) return o.error();
        auto found = store::findQuestion(tx, course_id, question_id);
        if (!found) return found.error();
        if (!*found) return Error{"question_not_found", "question not found", 404};
        const PersonQuestion& current = (*found)->question;
        AccessContext ctx = o->ctx;
        ctx.own_item = current.asker_id == c.principal.user_id;
        const Operation op = questionUpdateOperation(body);
        if (auto allowed = authorize(op, ctx); !allowed) return allowed.error();
        json j;
        if (op == Operation::kReadQuestion) {
            j = store::questionRecordJson(**found);
        } else {
            auto next = applyQuestionUpdate(current, body, c.principal.user_id, o->record.members);
            if (!next) return next.error();
            if (auto s = store::updateQuestion(tx, *next); !s) return s.error();
            const std::string& workspace_id = o->record.course.workspace_id;
            if (next->assigned_to != current.assigned_to && !next->assigned_to.empty()) {
                if (auto s = emit(tx, c, "learning.question.assigned", "learning_course", course_id,
                                  workspace_id,
                                  {{"course_id", course_id},
                                   {"question_id", question_id},
                                   {"assigned_to", next->assigned_to},
                                   {"target_role", toString(next->target_role)}});
                    !s) {
                    return s.error();
                }
            }
            if (next->status == QuestionStatus::kAnswered &&
                (current.status != QuestionStatus::kAnswered || next->answer != current.answer)) {
                if (auto s = emit(tx, c, "learning.question.answered", "learning_course", course_id,
                                  workspace_id,
                                  {{"course_id", course_id},
                                   {"question_id", question_id},
                                   {"answered_by", next->answered_by},
                                   {"asker_id", next->asker_id}});
                    !s) {
                    return s.error();
                }
            }
            auto saved = store::findQuestion(tx, course_id, question_id);
            if (!saved) return saved.error();
            j = store::questionRecordJson(**saved);
        }
        j["course_id"] = course_id;
        return j;
    });
}

}  // namespace docintel::learning

// The participation half of the learning plugin's storage: artifacts, attempts, lesson
// progress and questions (learning_store.h).

#include "learning/plugin/learning_store.h"
#include "learning/plugin/learning_store_rows.h"
#include "shared/json_text.h"

namespace docintel::learning::store {

using nlohmann::json;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;
using rows::ok;
using rows::strings;
using shared::nullable;

namespace {

ArtifactRecord artifactFromRow(const json& row) {
    ArtifactRecord r;
    Artifact& a = r.artifact;
    a.id = textOf(row, "id");
    a.owner_id = textOf(row, "owner_id");
    a.type = parseArtifactType(textOf(row, "artifact_type")).value_or(ArtifactType::kSummary);
    a.title = textOf(row, "title");
    a.content = textOf(row, "content");
    a.source_document_ids = strings(row.at("source_document_ids"));
    a.module_id = textOf(row, "module_id");
    a.lesson_id = textOf(row, "lesson_id");
    r.created_at = textOf(row, "created_at");
    return r;
}

QuestionRecord questionFromRow(const json& row) {
    QuestionRecord r;
    PersonQuestion& q = r.question;
    q.id = textOf(row, "id");
    q.asker_id = textOf(row, "asker_id");
    q.target_role = parsePersona(textOf(row, "target_role")).value_or(Persona::kTeacher);
    q.question = textOf(row, "question");
    q.context = row.at("context").is_object() ? row["context"] : json::object();
    q.assigned_to = textOf(row, "assigned_to");
    q.answer = textOf(row, "answer");
    q.answered_by = textOf(row, "answered_by");
    q.status = parseQuestionStatus(textOf(row, "status")).value_or(QuestionStatus::kOpen);
    r.created_at = textOf(row, "created_at");
    r.updated_at = textOf(row, "updated_at");
    return r;
}

json answersJson(const Answers& answers) {
    json out = json::object();
    for (const auto& [question, options] : answers) out[question] = options;
    return out;
}

}  // namespace

json artifactRecordJson(const ArtifactRecord& r) {
    json j = artifactJson(r.artifact);
    j["created_at"] = r.created_at;
    return j;
}

Status insertArtifact(PluginTx& tx, const std::string& course_id, const Artifact& a) {
    return ok(tx.query(
        "INSERT INTO artifacts (id, course_id, owner_id, artifact_type, title, content, "
        "source_document_ids, module_id, lesson_id) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, "
        "$5, $6, $7::jsonb, $8, $9)",
        {a.id, course_id, a.owner_id, toString(a.type), a.title, a.content,
         json(a.source_document_ids), nullable(a.module_id), nullable(a.lesson_id)}));
}

const char* const kArtifactColumns =
    "id::text AS id, owner_id::text AS owner_id, artifact_type, title, content, "
    "source_document_ids, module_id, lesson_id, created_at::text AS created_at";

Result<std::vector<ArtifactRecord>> listArtifacts(PluginTx& tx, const std::string& course_id) {
    auto rows = tx.query(std::string("SELECT ") + kArtifactColumns +
                             " FROM artifacts WHERE course_id = $1::uuid ORDER BY created_at, id",
                         {course_id});
    if (!rows) return rows.error();
    std::vector<ArtifactRecord> out;
    for (const auto& row : *rows) out.push_back(artifactFromRow(row));
    return out;
}

Result<std::optional<ArtifactRecord>> findArtifact(PluginTx& tx, const std::string& course_id,
                                                   const std::string& artifact_id) {
    if (!isUuid(artifact_id)) return std::optional<ArtifactRecord>();
    auto rows = tx.query(std::string("SELECT ") + kArtifactColumns +
                             " FROM artifacts WHERE course_id = $1::uuid AND id = $2::uuid",
                         {course_id, artifact_id});
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<ArtifactRecord>();
    return std::optional<ArtifactRecord>(artifactFromRow(rows->at(0)));
}

Status deleteArtifact(PluginTx& tx, const std::string& artifact_id) {
    return ok(tx.query("DELETE FROM artifacts WHERE id = $1::uuid", {artifact_id}));
}

Result<Answers> latestAnswers(PluginTx& tx, const std::string& artifact_id,
                              const std::string& user_id) {
    auto rows = tx.query(
        "SELECT answers FROM attempts WHERE artifact_id = $1::uuid AND user_id = $2::uuid "
        "ORDER BY submitted_at DESC LIMIT 1",
        {artifact_id, user_id});
    if (!rows) return rows.error();
    Answers out;
    if (rows->empty()) return out;
    for (const auto& [question, options] : rows->at(0).at("answers").items()) {
        const auto ids = strings(options);
        out[question] = std::set<std::string>(ids.begin(), ids.end());
    }
    return out;
}

Result<AttemptRecord> insertAttempt(PluginTx& tx, const std::string& course_id,
                                    const ArtifactRecord& quiz, const std::string& user_id,
                                    const Answers& answers, const QuizResult& result) {
    AttemptRecord r;
    r.id = newId();
    r.user_id = user_id;
    r.artifact_id = quiz.artifact.id;
    r.artifact_title = quiz.artifact.title;
    r.lesson_id = quiz.artifact.lesson_id;
    r.score = result.score;
    r.correct_count = result.correct_count;
    r.question_count = result.question_count;
    r.completed = result.completed;
    auto rows = tx.query(
        "INSERT INTO attempts (id, course_id, artifact_id, user_id, answers, score, "
        "correct_count, question_count, completed) VALUES ($1::uuid, $2::uuid, $3::uuid, "
        "$4::uuid, $5::jsonb, $6, $7, $8, $9) RETURNING submitted_at::text AS submitted_at",
        {r.id, course_id, r.artifact_id, user_id, answersJson(answers), r.score, r.correct_count,
         r.question_count, r.completed});
    if (!rows) return rows.error();
    r.submitted_at = textOf(rows->at(0), "submitted_at");
    return r;
}

Result<std::vector<AttemptRecord>> listAttempts(PluginTx& tx, const std::string& course_id) {
    auto rows = tx.query(
        "SELECT t.id::text AS id, t.user_id::text AS user_id, t.artifact_id::text AS artifact_id, "
        "a.title AS artifact_title, a.lesson_id, t.score, t.correct_count, t.question_count, "
        "t.completed, t.submitted_at::text AS submitted_at FROM attempts t "
        "JOIN artifacts a ON a.id = t.artifact_id WHERE t.course_id = $1::uuid "
        "ORDER BY t.submitted_at, t.id",
        {course_id});
    if (!rows) return rows.error();
    std::vector<AttemptRecord> out;
    for (const auto& row : *rows) {
        AttemptRecord r;
        r.id = textOf(row, "id");
        r.user_id = textOf(row, "user_id");
        r.artifact_id = textOf(row, "artifact_id");
        r.artifact_title = textOf(row, "artifact_title");
        r.lesson_id = textOf(row, "lesson_id");
        r.score = row.value("score", 0);
        r.correct_count = row.value("correct_count", 0);
        r.question_count = row.value("question_count", 0);
        r.completed = row.value("completed", false);
        r.submitted_at = textOf(row, "submitted_at");
        out.push_back(std::move(r));
    }
    return out;
}

Result<LessonProgress> lessonProgress(PluginTx& tx, const std::string& course_id,
                                      const std::string& user_id, const std::string& lesson_id) {
    auto rows = tx.query(
        "SELECT status, percent, best_score FROM lesson_progress WHERE course_id = $1::uuid AND "
        "user_id = $2::uuid AND lesson_id = $3 FOR UPDATE",
        {course_id, user_id, lesson_id});
    if (!rows) return rows.error();
    LessonProgress p;
    if (rows->empty()) return p;
    const auto& row = rows->at(0);
    p.status = parseProgressStatus(textOf(row, "status")).value_or(ProgressStatus::kNotStarted);
    p.percent = row.value("percent", 0);
    p.best_score = row.value("best_score", 0);
    return p;
}

Status saveLessonProgress(PluginTx& tx, const std::string& course_id,
                          const LessonProgressRecord& r) {
    return ok(tx.query(
        "INSERT INTO lesson_progress (course_id, user_id, lesson_id, status, percent, best_score) "
        "VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6) ON CONFLICT (course_id, user_id, lesson_id) "
        "DO UPDATE SET status = EXCLUDED.status, percent = EXCLUDED.percent, "
        "best_score = EXCLUDED.best_score, updated_at = clock_timestamp()",
        {course_id, r.user_id, r.lesson_id, toString(r.progress.status), r.progress.percent,
         r.progress.best_score}));
}

Result<std::vector<LessonProgressRecord>> listLessonProgress(PluginTx& tx,
                                                             const std::string& course_id) {
    auto rows = tx.query(
        "SELECT user_id::text AS user_id, lesson_id, status, percent, best_score "
        "FROM lesson_progress WHERE course_id = $1::uuid ORDER BY user_id, lesson_id",
        {course_id});
    if (!rows) return rows.error();
    std::vector<LessonProgressRecord> out;
    for (const auto& row : *rows) {
        LessonProgressRecord r;
        r.user_id = textOf(row, "user_id");
        r.lesson_id = textOf(row, "lesson_id");
        r.progress.status =
            parseProgressStatus(textOf(row, "status")).value_or(ProgressStatus::kNotStarted);
        r.progress.percent = row.value("percent", 0);
        r.progress.best_score = row.value("best_score", 0);
        out.push_back(std::move(r));
    }
    return out;
}

json questionRecordJson(const QuestionRecord& r) {
    json j = questionJson(r.question);
    j["created_at"] = r.created_at;
    j["updated_at"] = r.updated_at;
    return j;
}

Status insertQuestion(PluginTx& tx, const std::string& course_id, const PersonQuestion& q) {
    return ok(
        tx.query("INSERT INTO questions (id, course_id, asker_id, target_role, question, context, "
                 "assigned_to, status) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6::jsonb, "
                 "$7::uuid, $8)",
                 {q.id, course_id, q.asker_id, toString(q.target_role), q.question, q.context,
                  nullable(q.assigned_to), toString(q.status)}));
}

Status updateQuestion(PluginTx& tx, const PersonQuestion& q) {
    return ok(tx.query(
        "UPDATE questions SET assigned_to = $2::uuid, answer = $3, answered_by = $4::uuid, "
        "status = $5, updated_at = clock_timestamp() WHERE id = $1::uuid",
        {q.id, nullable(q.assigned_to), nullable(q.answer), nullable(q.answered_by),
         toString(q.status)}));
}

const char* const kQuestionColumns =
    "id::text AS id, asker_id::text AS asker_id, target_role, question, context, "
    "assigned_to::text AS assigned_to, answer, answered_by::text AS answered_by, status, "
    "created_at::text AS created_at, updated_at::text AS updated_at";

Result<std::optional<QuestionRecord>> findQuestion(PluginTx& tx, const std::string& course_id,
                                                   const std::string& question_id) {
    if (!isUuid(question_id)) return std::optional<QuestionRecord>();
    auto rows = tx.query(std::string("SELECT ") + kQuestionColumns +
                             " FROM questions WHERE course_id = $1::uuid AND id = $2::uuid "
                             "FOR UPDATE",
                         {course_id, question_id});
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<QuestionRecord>();
    return std::optional<QuestionRecord>(questionFromRow(rows->at(0)));
}

Result<std::vector<QuestionRecord>> listQuestions(PluginTx& tx, const std::string& course_id) {
    auto rows = tx.query(std::string("SELECT ") + kQuestionColumns +
                             " FROM questions WHERE course_id = $1::uuid ORDER BY created_at, id",
                         {course_id});
    if (!rows) return rows.error();
    std::vector<QuestionRecord> out;
    for (const auto& row : *rows) out.push_back(questionFromRow(row));
    return out;
}

}  // namespace docintel::learning::store

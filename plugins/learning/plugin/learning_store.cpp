#include "learning/plugin/learning_store.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <random>

namespace docintel::learning::store {

using nlohmann::json;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;

namespace {

// Rows that belong to a workspace, user or document reference it with ON DELETE CASCADE, so the
// core's deletes remove them (docs/plugins.md). Curriculum ids are the plugin's own (text).
const char* const kSchemaV1 = R"sql(
CREATE TABLE courses (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES public.workspaces (id) ON DELETE CASCADE,
  created_by uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  data jsonb NOT NULL,
  curriculum jsonb NOT NULL DEFAULT '{"modules": []}',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX courses_workspace_idx ON courses (workspace_id, created_at DESC);

CREATE TABLE members (
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  email text NOT NULL,
  persona text NOT NULL,
  enrolled_seq bigserial NOT NULL,
  PRIMARY KEY (course_id, user_id));

CREATE TABLE assets (
  id uuid PRIMARY KEY,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  document_id uuid NOT NULL REFERENCES public.documents (id) ON DELETE CASCADE,
  module_id text NULL,
  lesson_id text NULL,
  title text NOT NULL,
  start_seconds double precision NULL,
  end_seconds double precision NULL,
  seq bigserial NOT NULL);
CREATE INDEX assets_course_idx ON assets (course_id, seq);

CREATE TABLE artifacts (
  id uuid PRIMARY KEY,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  artifact_type text NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  source_document_ids jsonb NOT NULL DEFAULT '[]',
  module_id text NULL,
  lesson_id text NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX artifacts_course_idx ON artifacts (course_id, created_at);

CREATE TABLE attempts (
  id uuid PRIMARY KEY,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  artifact_id uuid NOT NULL REFERENCES artifacts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  answers jsonb NOT NULL,
  score int NOT NULL,
  correct_count int NOT NULL,
  question_count int NOT NULL,
  completed boolean NOT NULL,
  submitted_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX attempts_course_idx ON attempts (course_id, submitted_at);
CREATE INDEX attempts_learner_idx ON attempts (artifact_id, user_id, submitted_at DESC);

CREATE TABLE lesson_progress (
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  lesson_id text NOT NULL,
  status text NOT NULL,
  percent int NOT NULL,
  best_score int NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (course_id, user_id, lesson_id));

CREATE TABLE questions (
  id uuid PRIMARY KEY,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  asker_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  target_role text NOT NULL,
  question text NOT NULL,
  context jsonb NOT NULL DEFAULT '{}',
  assigned_to uuid NULL REFERENCES public.users (id) ON DELETE SET NULL,
  answer text NULL,
  answered_by uuid NULL REFERENCES public.users (id) ON DELETE SET NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX questions_course_idx ON questions (course_id, created_at);
)sql";

std::string text(const json& row, const char* key) {
    const auto it = row.find(key);
    return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

json nullable(const std::string& s) { return s.empty() ? json() : json(s); }

Status ok(const Result<json>& r) { return r ? Status{} : Status(r.error()); }

std::vector<std::string> strings(const json& value) {
    std::vector<std::string> out;
    if (!value.is_array()) return out;
    for (const auto& v : value) {
        if (v.is_string()) out.push_back(v.get<std::string>());
    }
    return out;
}

Course courseFromRow(const json& row) {
    const json& d = row.at("data");
    Course c;
    c.id = text(row, "id");
    c.workspace_id = text(row, "workspace_id");
    c.created_by = text(row, "created_by");
    c.title = text(d, "title");
    c.course_code = text(d, "course_code");
    c.semester = text(d, "semester");
    c.description = text(d, "description");
    c.instructor_name = text(d, "instructor_name");
    c.objectives = strings(d.value("objectives", json::array()));
    c.domain = d.value("domain", std::string("general"));
    if (d.contains("domain_config") && d["domain_config"].is_object()) {
        c.domain_config = d["domain_config"];
    }
    c.publication_status =
        parsePublicationStatus(text(d, "publication_status")).value_or(PublicationStatus::kDraft);
    c.status = parseCourseStatus(text(d, "status")).value_or(CourseStatus::kActive);
    return c;
}

Curriculum curriculumFromJson(const json& j) {
    Curriculum c;
    for (const auto& m : j.value("modules", json::array())) {
        Module module;
        module.id = text(m, "id");
        module.title = text(m, "title");
        module.description = text(m, "description");
        module.position = m.value("position", 0);
        for (const auto& l : m.value("lessons", json::array())) {
            Lesson lesson;
            lesson.id = text(l, "id");
            lesson.title = text(l, "title");
            lesson.description = text(l, "description");
            lesson.objectives = strings(l.value("objectives", json::array()));
            lesson.competencies = strings(l.value("competencies", json::array()));
            lesson.position = l.value("position", 0);
            module.lessons.push_back(std::move(lesson));
        }
        c.modules.push_back(std::move(module));
    }
    return c;
}

Asset assetFromRow(const json& row) {
    Asset a;
    a.id = text(row, "id");
    a.document_id = text(row, "document_id");
    a.module_id = text(row, "module_id");
    a.lesson_id = text(row, "lesson_id");
    a.title = text(row, "title");
    if (row.at("start_seconds").is_number()) a.start_seconds = row["start_seconds"].get<double>();
    if (row.at("end_seconds").is_number()) a.end_seconds = row["end_seconds"].get<double>();
    return a;
}

ArtifactRecord artifactFromRow(const json& row) {
    ArtifactRecord r;
    Artifact& a = r.artifact;
    a.id = text(row, "id");
    a.owner_id = text(row, "owner_id");
    a.type = parseArtifactType(text(row, "artifact_type")).value_or(ArtifactType::kSummary);
    a.title = text(row, "title");
    a.content = text(row, "content");
    a.source_document_ids = strings(row.at("source_document_ids"));
    a.module_id = text(row, "module_id");
    a.lesson_id = text(row, "lesson_id");
    r.created_at = text(row, "created_at");
    return r;
}

QuestionRecord questionFromRow(const json& row) {
    QuestionRecord r;
    PersonQuestion& q = r.question;
    q.id = text(row, "id");
    q.asker_id = text(row, "asker_id");
    q.target_role = parsePersona(text(row, "target_role")).value_or(Persona::kTeacher);
    q.question = text(row, "question");
    q.context = row.at("context").is_object() ? row["context"] : json::object();
    q.assigned_to = text(row, "assigned_to");
    q.answer = text(row, "answer");
    q.answered_by = text(row, "answered_by");
    q.status = parseQuestionStatus(text(row, "status")).value_or(QuestionStatus::kOpen);
    r.created_at = text(row, "created_at");
    r.updated_at = text(row, "updated_at");
    return r;
}

/// The stored form of a course: what courseJson shows, without what has columns of its own.
json courseData(const Course& c) {
    json d = courseJson(c);
    for (const char* key : {"id", "workspace_id", "created_by", "domain_pack", "passing_score"}) {
        d.erase(key);
    }
    return d;
}

json answersJson(const Answers& answers) {
    json out = json::object();
    for (const auto& [question, options] : answers) out[question] = options;
    return out;
}

const char* const kCourseColumns =
    "id::text AS id, workspace_id::text AS workspace_id, created_by::text AS created_by, data, "
    "curriculum, created_at::text AS created_at, updated_at::text AS updated_at";

/// Fills members and assets of the courses in `rows`.
Result<std::vector<CourseRecord>> withPeopleAndContent(PluginTx& tx, const json& rows) {
    std::vector<CourseRecord> out;
    json ids = json::array();
    for (const auto& row : rows) {
        CourseRecord r;
        r.course = courseFromRow(row);
        r.curriculum = curriculumFromJson(row.at("curriculum"));
        r.created_at = text(row, "created_at");
        r.updated_at = text(row, "updated_at");
        ids.push_back(r.course.id);
        out.push_back(std::move(r));
    }
    if (out.empty()) return out;
    auto members = tx.query(
        "SELECT course_id::text AS course_id, user_id::text AS user_id, email, persona "
        "FROM members WHERE course_id = ANY (SELECT jsonb_array_elements_text($1::jsonb)::uuid) "
        "ORDER BY enrolled_seq",
        json::array({ids}));
    if (!members) return members.error();
    auto assets = tx.query(
        "SELECT course_id::text AS course_id, id::text AS id, document_id::text AS document_id, "
        "module_id, lesson_id, title, start_seconds, end_seconds FROM assets "
        "WHERE course_id = ANY (SELECT jsonb_array_elements_text($1::jsonb)::uuid) ORDER BY seq",
        json::array({ids}));
    if (!assets) return assets.error();
    for (auto& r : out) {
        for (const auto& m : *members) {
            if (text(m, "course_id") != r.course.id) continue;
            r.members.push_back({text(m, "user_id"), text(m, "email"),
                                 parsePersona(text(m, "persona")).value_or(Persona::kStudent)});
        }
        for (const auto& a : *assets) {
            if (text(a, "course_id") == r.course.id) r.assets.push_back(assetFromRow(a));
        }
    }
    return out;
}

}  // namespace

std::vector<plugin::PluginMigration> migrations() { return {{1, "learning", kSchemaV1}}; }

std::string newId() {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    std::array<unsigned char, 16> b{};
    for (std::size_t i = 0; i < b.size(); i += 8) {
        const auto v = rng();
        for (std::size_t k = 0; k < 8; ++k) b[i + k] = static_cast<unsigned char>(v >> (8 * k));
    }
    b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40);
    b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);
    char out[37];
    std::snprintf(out, sizeof out,
                  "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    return out;
}

bool isUuid(const std::string& s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return false;
        } else if (!std::isxdigit(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

const Member* CourseRecord::member(const std::string& user_id) const {
    for (const auto& m : members) {
        if (m.user_id == user_id) return &m;
    }
    return nullptr;
}

Result<std::optional<CourseRecord>> loadCourse(PluginTx& tx, const std::string& id, bool lock) {
    if (!isUuid(id)) return std::optional<CourseRecord>();
    auto rows = tx.query(std::string("SELECT ") + kCourseColumns +
                             " FROM courses WHERE id = $1::uuid" + (lock ? " FOR UPDATE" : ""),
                         {id});
    if (!rows) return rows.error();
    auto records = withPeopleAndContent(tx, *rows);
    if (!records) return records.error();
    if (records->empty()) return std::optional<CourseRecord>();
    return std::optional<CourseRecord>(std::move(records->front()));
}

Result<std::vector<CourseRecord>> listCourses(PluginTx& tx, const std::string& workspace_id) {
    auto rows = tx.query(std::string("SELECT ") + kCourseColumns +
                             " FROM courses WHERE workspace_id = $1::uuid "
                             "ORDER BY created_at DESC, id",
                         {workspace_id});
    if (!rows) return rows.error();
    return withPeopleAndContent(tx, *rows);
}

Result<std::optional<std::string>> courseWorkspace(PluginTx& tx, const std::string& id) {
    if (!isUuid(id)) return std::optional<std::string>();
    auto rows = tx.query("SELECT workspace_id::text AS w FROM courses WHERE id = $1::uuid", {id});
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<std::string>();
    return std::optional<std::string>(text(rows->at(0), "w"));
}

Status insertCourse(PluginTx& tx, const Course& c) {
    return ok(
        tx.query("INSERT INTO courses (id, workspace_id, created_by, data) "
                 "VALUES ($1::uuid, $2::uuid, $3::uuid, $4::jsonb)",
                 {c.id, c.workspace_id, c.created_by, courseData(c)}));
}

Status updateCourse(PluginTx& tx, const Course& c) {
    return ok(tx.query(
        "UPDATE courses SET data = $2::jsonb, updated_at = clock_timestamp() WHERE id = $1::uuid",
        {c.id, courseData(c)}));
}

Status saveCurriculum(PluginTx& tx, const std::string& course_id, const CurriculumChange& change) {
    if (auto s = ok(tx.query("UPDATE courses SET curriculum = $2::jsonb, "
                             "updated_at = clock_timestamp() WHERE id = $1::uuid",
                             {course_id, curriculumJson(change.curriculum)}));
        !s) {
        return s;
    }
    // What the tree no longer holds: assets there are detached, artifacts there become the
    // course's (their text stays), progress rows stay but are no longer shown.
    const json modules = change.removed_module_ids;
    const json lessons = change.removed_lesson_ids;
    if (auto s = ok(tx.query("DELETE FROM assets WHERE course_id = $1::uuid AND "
                             "(module_id IN (SELECT jsonb_array_elements_text($2::jsonb)) OR "
                             " lesson_id IN (SELECT jsonb_array_elements_text($3::jsonb)))",
                             {course_id, modules, lessons}));
        !s) {
        return s;
    }
    return ok(tx.query(
        "UPDATE artifacts SET module_id = NULL, lesson_id = NULL WHERE course_id = $1::uuid AND "
        "(module_id IN (SELECT jsonb_array_elements_text($2::jsonb)) OR "
        " lesson_id IN (SELECT jsonb_array_elements_text($3::jsonb)))",
        {course_id, modules, lessons}));
}

Status deleteCourse(PluginTx& tx, const std::string& id) {
    return ok(tx.query("DELETE FROM courses WHERE id = $1::uuid", {id}));
}

Status upsertMember(PluginTx& tx, const std::string& course_id, const Member& m) {
    return ok(
        tx.query("INSERT INTO members (course_id, user_id, email, persona) "
                 "VALUES ($1::uuid, $2::uuid, $3, $4) ON CONFLICT (course_id, user_id) "
                 "DO UPDATE SET email = EXCLUDED.email, persona = EXCLUDED.persona",
                 {course_id, m.user_id, m.email, toString(m.persona)}));
}

Status deleteMember(PluginTx& tx, const std::string& course_id, const std::string& user_id) {
    return ok(tx.query("DELETE FROM members WHERE course_id = $1::uuid AND user_id = $2::uuid",
                       {course_id, user_id}));
}

Status insertAsset(PluginTx& tx, const std::string& course_id, const Asset& a) {
    const auto seconds = [](const std::optional<double>& s) { return s ? json(*s) : json(); };
    return ok(
        tx.query("INSERT INTO assets (id, course_id, document_id, module_id, lesson_id, title, "
                 "start_seconds, end_seconds) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, "
                 "$7::double precision, $8::double precision)",
                 {a.id, course_id, a.document_id, nullable(a.module_id), nullable(a.lesson_id),
                  a.title, seconds(a.start_seconds), seconds(a.end_seconds)}));
}

Result<bool> deleteAsset(PluginTx& tx, const std::string& course_id, const std::string& asset_id) {
    if (!isUuid(asset_id)) return false;
    auto rows = tx.query(
        "DELETE FROM assets WHERE course_id = $1::uuid AND id = $2::uuid RETURNING id::text",
        {course_id, asset_id});
    if (!rows) return rows.error();
    return !rows->empty();
}

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
    r.submitted_at = text(rows->at(0), "submitted_at");
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
        r.id = text(row, "id");
        r.user_id = text(row, "user_id");
        r.artifact_id = text(row, "artifact_id");
        r.artifact_title = text(row, "artifact_title");
        r.lesson_id = text(row, "lesson_id");
        r.score = row.value("score", 0);
        r.correct_count = row.value("correct_count", 0);
        r.question_count = row.value("question_count", 0);
        r.completed = row.value("completed", false);
        r.submitted_at = text(row, "submitted_at");
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
    p.status = parseProgressStatus(text(row, "status")).value_or(ProgressStatus::kNotStarted);
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
        r.user_id = text(row, "user_id");
        r.lesson_id = text(row, "lesson_id");
        r.progress.status =
            parseProgressStatus(text(row, "status")).value_or(ProgressStatus::kNotStarted);
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

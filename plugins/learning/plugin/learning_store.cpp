#include "learning/plugin/learning_store.h"
#include "learning/plugin/learning_store_rows.h"
#include "shared/json_text.h"

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

}  // namespace

namespace rows {

Status ok(const Result<json>& r) { return r ? Status{} : Status(r.error()); }

std::vector<std::string> strings(const json& value) {
    std::vector<std::string> out;
    if (!value.is_array()) return out;
    for (const auto& v : value) {
        if (v.is_string()) out.push_back(v.get<std::string>());
    }
    return out;
}

}  // namespace rows

namespace {

using rows::ok;
using rows::strings;
using shared::nullable;

Course courseFromRow(const json& row) {
    const json& d = row.at("data");
    Course c;
    c.id = textOf(row, "id");
    c.workspace_id = textOf(row, "workspace_id");
    c.created_by = textOf(row, "created_by");
    c.title = textOf(d, "title");
    c.course_code = textOf(d, "course_code");
    c.semester = textOf(d, "semester");
    c.description = textOf(d, "description");
    c.instructor_name = textOf(d, "instructor_name");
    c.objectives = strings(d.value("objectives", json::array()));
    c.domain = d.value("domain", std::string("general"));
    if (d.contains("domain_config") && d["domain_config"].is_object()) {
        c.domain_config = d["domain_config"];
    }
    c.publication_status =
        parsePublicationStatus(textOf(d, "publication_status")).value_or(PublicationStatus::kDraft);
    c.status = parseCourseStatus(textOf(d, "status")).value_or(CourseStatus::kActive);
    return c;
}

Curriculum curriculumFromJson(const json& j) {
    Curriculum c;
    for (const auto& m : j.value("modules", json::array())) {
        Module module;
        module.id = textOf(m, "id");
        module.title = textOf(m, "title");
        module.description = textOf(m, "description");
        module.position = m.value("position", 0);
        for (const auto& l : m.value("lessons", json::array())) {
            Lesson lesson;
            lesson.id = textOf(l, "id");
            lesson.title = textOf(l, "title");
            lesson.description = textOf(l, "description");
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
    a.id = textOf(row, "id");
    a.document_id = textOf(row, "document_id");
    a.module_id = textOf(row, "module_id");
    a.lesson_id = textOf(row, "lesson_id");
    a.title = textOf(row, "title");
    if (row.at("start_seconds").is_number()) a.start_seconds = row["start_seconds"].get<double>();
    if (row.at("end_seconds").is_number()) a.end_seconds = row["end_seconds"].get<double>();
    return a;
}

/// The stored form of a course: what courseJson shows, without what has columns of its own.
json courseData(const Course& c) {
    json d = courseJson(c);
    for (const char* key : {"id", "workspace_id", "created_by", "domain_pack", "passing_score"}) {
        d.erase(key);
    }
    return d;
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
        r.created_at = textOf(row, "created_at");
        r.updated_at = textOf(row, "updated_at");
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
            if (textOf(m, "course_id") != r.course.id) continue;
            r.members.push_back({textOf(m, "user_id"), textOf(m, "email"),
                                 parsePersona(textOf(m, "persona")).value_or(Persona::kStudent)});
        }
        for (const auto& a : *assets) {
            if (textOf(a, "course_id") == r.course.id) r.assets.push_back(assetFromRow(a));
        }
    }
    return out;
}

}  // namespace

std::vector<plugin::PluginMigration> migrations() { return {{1, "learning", kSchemaV1}}; }

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
    return std::optional<std::string>(textOf(rows->at(0), "w"));
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

}  // namespace docintel::learning::store

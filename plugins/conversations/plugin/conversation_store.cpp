#include "conversations/plugin/conversation_store.h"

#include "shared/json_text.h"

namespace docintel::conversations::store {

using nlohmann::json;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;
using shared::textOf;

namespace {

const char* const kSchemaV1 = R"sql(
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES public.documents (id) ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  workspace_id uuid NULL REFERENCES public.workspaces (id) ON DELETE CASCADE,
  title text NOT NULL,
  template jsonb NOT NULL,
  language_code text NOT NULL,
  redact_pii boolean NOT NULL,
  consent_status text NOT NULL CHECK (consent_status IN ('pending', 'confirmed', 'declined')),
  processing_status text NOT NULL CHECK (processing_status IN
    ('active', 'in_review', 'received', 'processing', 'completed', 'error')),
  processing_step text NOT NULL,
  review_status text NOT NULL CHECK (review_status IN
    ('draft', 'in_review', 'approved', 'withdrawn')),
  progress_pct int NOT NULL DEFAULT 0,
  participant_turns int NOT NULL DEFAULT 0,
  state jsonb NOT NULL,
  summary jsonb NULL,
  consent_by uuid NULL,
  consent_at timestamptz NULL,
  approved_by uuid NULL,
  approved_at timestamptz NULL,
  approved_transcript text NULL,
  error_message text NULL,
  job_id uuid NULL,
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  ended_at timestamptz NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX sessions_scope_idx ON sessions (workspace_id, owner_id, started_at DESC);

CREATE TABLE turns (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  sequence int NOT NULL,
  role text NOT NULL CHECK (role IN ('assistant', 'user')),
  speaker text NOT NULL DEFAULT '',
  transcript text NOT NULL,
  source text NOT NULL DEFAULT 'text' CHECK (source IN ('text', 'audio')),
  audio_object text NULL,
  collected_fields jsonb NOT NULL DEFAULT '{}',
  citations jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (session_id, sequence));

CREATE TABLE templates (
  workspace_id uuid NOT NULL REFERENCES public.workspaces (id) ON DELETE CASCADE,
  id text NOT NULL,
  data jsonb NOT NULL,
  created_by uuid NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (workspace_id, id));
)sql";

#define DOCINTEL_TS(col) "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

const char* const kColumns =
    "id::text AS id, document_id::text AS document_id, owner_id::text AS owner_id, "
    "coalesce(workspace_id::text, '') AS workspace_id, title, template, language_code, "
    "redact_pii, consent_status, processing_status, processing_step, review_status, "
    "progress_pct, participant_turns, state, summary, "
    "coalesce(consent_by::text, '') AS consent_by, "
    "coalesce(" DOCINTEL_TS("consent_at") ", '') AS consent_at, "
    "coalesce(approved_by::text, '') AS approved_by, "
    "coalesce(" DOCINTEL_TS("approved_at") ", '') AS approved_at, "
    "coalesce(approved_transcript, '') AS approved_transcript, "
    "coalesce(error_message, '') AS error_message, coalesce(job_id::text, '') AS job_id, "
    DOCINTEL_TS("started_at") " AS started_at, "
    "coalesce(" DOCINTEL_TS("ended_at") ", '') AS ended_at, "
    DOCINTEL_TS("updated_at") " AS updated_at";

Status ok(const Result<json>& r) {
    if (!r) return r.error();
    return {};
}

/// A stored template snapshot (templateJson's shape) back into a Template.
Template templateFrom(const json& j) {
    Template t;
    t.id = textOf(j, "id");
    t.name = textOf(j, "name");
    t.description = textOf(j, "description");
    t.built_in = j.value("built_in", false);
    for (const auto& f : j.value("fields", json::array())) {
        t.fields.push_back({textOf(f, "key"), textOf(f, "label"), f.value("required", false),
                            textOf(f, "question")});
    }
    return t;
}

SessionRecord sessionFrom(const json& r) {
    SessionRecord s;
    s.id = textOf(r, "id");
    s.document_id = textOf(r, "document_id");
    s.owner_id = textOf(r, "owner_id");
    s.workspace_id = textOf(r, "workspace_id");
    s.title = textOf(r, "title");
    s.tmpl = templateFrom(r.value("template", json::object()));
    s.language_code = textOf(r, "language_code");
    s.redact_pii = r.value("redact_pii", true);
    s.status.consent =
        consentStatusFrom(textOf(r, "consent_status")).value_or(ConsentStatus::pending);
    s.status.processing =
        processingStatusFrom(textOf(r, "processing_status")).value_or(ProcessingStatus::active);
    s.status.step =
        processingStepFrom(textOf(r, "processing_step")).value_or(ProcessingStep::awaiting_consent);
    s.status.review = reviewStatusFrom(textOf(r, "review_status")).value_or(ReviewStatus::draft);
    s.status.progress_pct = r.value("progress_pct", 0);
    s.status.participant_turns = r.value("participant_turns", 0);
    s.state = r.value("state", json::object());
    s.summary = r.value("summary", json());
    s.consent_by = textOf(r, "consent_by");
    s.consent_at = textOf(r, "consent_at");
    s.approved_by = textOf(r, "approved_by");
    s.approved_at = textOf(r, "approved_at");
    s.approved_transcript = textOf(r, "approved_transcript");
    s.error_message = textOf(r, "error_message");
    s.job_id = textOf(r, "job_id");
    s.started_at = textOf(r, "started_at");
    s.ended_at = textOf(r, "ended_at");
    s.updated_at = textOf(r, "updated_at");
    return s;
}

}  // namespace

std::vector<plugin::PluginMigration> migrations() { return {{1, "conversations", kSchemaV1}}; }

Status insertSession(PluginTx& tx, const SessionRecord& s) {
    return ok(tx.query(
        "INSERT INTO sessions (id, document_id, owner_id, workspace_id, title, template, "
        "language_code, redact_pii, consent_status, processing_status, processing_step, "
        "review_status, progress_pct, participant_turns, state) VALUES ($1::uuid, $2::uuid, "
        "$3::uuid, NULLIF($4, '')::uuid, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, "
        "$15::jsonb)",
        json::array({s.id, s.document_id, s.owner_id, s.workspace_id, s.title, templateJson(s.tmpl),
                     s.language_code, s.redact_pii, toString(s.status.consent),
                     toString(s.status.processing), toString(s.status.step),
                     toString(s.status.review), s.status.progress_pct, s.status.participant_turns,
                     s.state})));
}

Result<std::optional<SessionRecord>> findSession(PluginTx& tx, const std::string& id, bool lock) {
    auto rows = tx.query(std::string("SELECT ") + kColumns + " FROM sessions WHERE id = $1::uuid" +
                             (lock ? " FOR UPDATE" : ""),
                         json::array({id}));
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<SessionRecord>();
    return std::optional<SessionRecord>(sessionFrom((*rows)[0]));
}

Status updateSession(PluginTx& tx, const SessionRecord& s) {
    return ok(tx.query(
        "UPDATE sessions SET consent_status = $2, processing_status = $3, processing_step = $4, "
        "review_status = $5, progress_pct = $6, participant_turns = $7, state = $8::jsonb, "
        "summary = $9::jsonb, consent_by = NULLIF($10, '')::uuid, "
        "consent_at = CASE WHEN $2 <> 'pending' THEN coalesce(consent_at, clock_timestamp()) END, "
        "approved_by = NULLIF($11, '')::uuid, "
        "approved_at = CASE WHEN $11 <> '' THEN coalesce(approved_at, clock_timestamp()) END, "
        "approved_transcript = NULLIF($12, ''), error_message = NULLIF($13, ''), "
        "job_id = NULLIF($14, '')::uuid, "
        "ended_at = CASE WHEN $3 <> 'active' OR $2 = 'declined' THEN coalesce(ended_at, "
        "clock_timestamp()) END, updated_at = clock_timestamp() WHERE id = $1::uuid",
        json::array({s.id, toString(s.status.consent), toString(s.status.processing),
                     toString(s.status.step), toString(s.status.review), s.status.progress_pct,
                     s.status.participant_turns, s.state, s.summary.is_null() ? json() : s.summary,
                     s.consent_by, s.approved_by, s.approved_transcript, s.error_message,
                     s.job_id})));
}

Result<std::vector<SessionRecord>> listSessions(PluginTx& tx, const std::string& workspace_id,
                                                const std::string& owner_id) {
    // A workspace's sessions, or (no workspace) the owner's personal ones.
    auto rows = tx.query(std::string("SELECT ") + kColumns +
                             " FROM sessions WHERE CASE WHEN $1 = '' THEN workspace_id IS NULL AND "
                             "owner_id = $2::uuid ELSE workspace_id = NULLIF($1, '')::uuid END "
                             "ORDER BY started_at DESC, id LIMIT 500",
                         json::array({workspace_id, owner_id}));
    if (!rows) return rows.error();
    std::vector<SessionRecord> out;
    for (const auto& r : *rows) out.push_back(sessionFrom(r));
    return out;
}

Status deleteSession(PluginTx& tx, const std::string& id) {
    return ok(tx.query("DELETE FROM sessions WHERE id = $1::uuid", json::array({id})));
}

Status insertTurn(PluginTx& tx, const std::string& session_id, const TurnRecord& t) {
    return ok(
        tx.query("INSERT INTO turns (session_id, sequence, role, speaker, transcript, source, "
                 "audio_object, collected_fields, citations) VALUES ($1::uuid, $2, $3, $4, $5, $6, "
                 "NULLIF($7, ''), $8::jsonb, $9::jsonb)",
                 json::array({session_id, t.turn.sequence, t.turn.role, t.turn.speaker, t.turn.text,
                              t.source, t.audio_object, t.collected_fields, t.citations})));
}

Result<std::vector<TurnRecord>> turns(PluginTx& tx, const std::string& session_id) {
    auto rows = tx.query(
        "SELECT sequence, role, speaker, transcript, source, coalesce(audio_object, '') AS "
        "audio_object, collected_fields, citations, " DOCINTEL_TS("created_at") " AS created_at "
        "FROM turns WHERE session_id = $1::uuid ORDER BY sequence",
        json::array({session_id}));
    if (!rows) return rows.error();
    std::vector<TurnRecord> out;
    for (const auto& r : *rows) {
        TurnRecord t;
        t.turn.sequence = r.value("sequence", 0);
        t.turn.role = textOf(r, "role");
        t.turn.speaker = textOf(r, "speaker");
        t.turn.text = textOf(r, "transcript");
        t.source = textOf(r, "source");
        t.audio_object = textOf(r, "audio_object");
        t.collected_fields = r.value("collected_fields", json::object());
        t.citations = r.value("citations", json::array());
        t.created_at = textOf(r, "created_at");
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<Turn> turnsOf(const std::vector<TurnRecord>& records) {
    std::vector<Turn> out;
    out.reserve(records.size());
    for (const auto& r : records) out.push_back(r.turn);
    return out;
}

Result<int> nextSequence(PluginTx& tx, const std::string& session_id) {
    auto rows = tx.query(
        "SELECT coalesce(max(sequence) + 1, 0) AS next FROM turns WHERE session_id = $1::uuid",
        json::array({session_id}));
    if (!rows) return rows.error();
    return (*rows)[0].value("next", 0);
}

Status insertTemplate(PluginTx& tx, const std::string& workspace_id, const Template& t,
                      const std::string& created_by) {
    return ok(
        tx.query("INSERT INTO templates (workspace_id, id, data, created_by) VALUES ($1::uuid, $2, "
                 "$3::jsonb, $4::uuid)",
                 json::array({workspace_id, t.id, templateJson(t), created_by})));
}

Result<std::vector<Template>> customTemplates(PluginTx& tx, const std::string& workspace_id) {
    std::vector<Template> out;
    if (workspace_id.empty()) return out;
    auto rows =
        tx.query("SELECT data FROM templates WHERE workspace_id = $1::uuid ORDER BY created_at, id",
                 json::array({workspace_id}));
    if (!rows) return rows.error();
    for (const auto& r : *rows) out.push_back(templateFrom(r.value("data", json::object())));
    return out;
}

}  // namespace docintel::conversations::store

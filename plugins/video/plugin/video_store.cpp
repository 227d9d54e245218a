#include "video/plugin/video_store.h"

#include "shared/json_text.h"

namespace docintel::video::store {

using nlohmann::json;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;

namespace {

const char* const kSchemaV1 = R"sql(
CREATE TABLE videos (
  document_id uuid PRIMARY KEY REFERENCES public.documents (id) ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  workspace_id uuid NULL REFERENCES public.workspaces (id) ON DELETE CASCADE,
  processing_status text NOT NULL DEFAULT 'uploaded'
    CHECK (processing_status IN ('uploaded', 'queued', 'running', 'completed', 'error')),
  progress_step text NOT NULL DEFAULT 'uploaded',
  progress_pct int NOT NULL DEFAULT 0,
  progress_message text NOT NULL DEFAULT '',
  progress_updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  error_message text NULL,
  job_id uuid NULL,
  options jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NULL,
  transcript jsonb NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp());

CREATE TABLE frames (
  document_id uuid NOT NULL REFERENCES videos (document_id) ON DELETE CASCADE,
  frame_index int NOT NULL,
  timestamp_seconds double precision NOT NULL,
  width int NOT NULL,
  height int NOT NULL,
  object_name text NOT NULL,
  ocr_text text NOT NULL DEFAULT '',
  PRIMARY KEY (document_id, frame_index));

CREATE TABLE segments (
  document_id uuid NOT NULL REFERENCES videos (document_id) ON DELETE CASCADE,
  segment_index int NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (document_id, segment_index));
)sql";

const char* const kColumns =
    "document_id::text AS document_id, owner_id::text AS owner_id, "
    "coalesce(workspace_id::text, '') AS workspace_id, processing_status, progress_step, "
    "progress_pct, progress_message, to_char(progress_updated_at AT TIME ZONE 'UTC', "
    "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS progress_updated_at, coalesce(error_message, '') AS "
    "error_message, coalesce(job_id::text, '') AS job_id, options, metadata, transcript, "
    "to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS updated_at";

Status ok(const Result<json>& r) {
    if (!r) return r.error();
    return {};
}

}  // namespace

std::vector<plugin::PluginMigration> migrations() { return {{1, "video", kSchemaV1}}; }

Status registerVideo(PluginTx& tx, const std::string& document_id, const std::string& owner_id,
                     const std::string& workspace_id) {
    return ok(tx.query(
        "INSERT INTO videos (document_id, owner_id, workspace_id) VALUES ($1::uuid, $2::uuid, "
        "NULLIF($3, '')::uuid) ON CONFLICT (document_id) DO NOTHING",
        json::array({document_id, owner_id, workspace_id})));
}

Result<std::optional<VideoRecord>> find(PluginTx& tx, const std::string& document_id) {
    auto rows = tx.query(std::string("SELECT ") + kColumns + " FROM videos WHERE document_id = $1",
                         json::array({document_id}));
    if (!rows) return rows.error();
    if (rows->empty()) return std::optional<VideoRecord>();
    const json& r = (*rows)[0];
    VideoRecord v;
    v.document_id = shared::textOf(r, "document_id");
    v.owner_id = shared::textOf(r, "owner_id");
    v.workspace_id = shared::textOf(r, "workspace_id");
    v.processing_status = shared::textOf(r, "processing_status");
    v.progress_step = shared::textOf(r, "progress_step");
    v.progress_pct = r.value("progress_pct", 0);
    v.progress_message = shared::textOf(r, "progress_message");
    v.progress_updated_at = shared::textOf(r, "progress_updated_at");
    v.error_message = shared::textOf(r, "error_message");
    v.job_id = shared::textOf(r, "job_id");
    v.options = r.value("options", json::object());
    v.metadata = r.value("metadata", json());
    v.transcript = r.value("transcript", json());
    v.updated_at = shared::textOf(r, "updated_at");
    return std::optional<VideoRecord>(std::move(v));
}

Result<bool> claim(PluginTx& tx, const std::string& document_id, const json& options) {
    auto rows = tx.query(
        "UPDATE videos SET processing_status = 'queued', progress_step = 'queued', "
        "progress_pct = 2, progress_message = 'Queued for processing', error_message = NULL, "
        "options = $2::jsonb, progress_updated_at = clock_timestamp(), "
        "updated_at = clock_timestamp() WHERE document_id = $1 AND processing_status NOT IN "
        "('queued', 'running') RETURNING document_id",
        json::array({document_id, options}));
    if (!rows) return rows.error();
    return !rows->empty();
}

Status setJob(PluginTx& tx, const std::string& document_id, const std::string& job_id) {
    return ok(tx.query("UPDATE videos SET job_id = $2::uuid WHERE document_id = $1",
                       json::array({document_id, job_id})));
}

Status progress(PluginTx& tx, const std::string& document_id, const std::string& status,
                const std::string& step, int pct, const std::string& message,
                const std::string& error_message) {
    return ok(
        tx.query("UPDATE videos SET processing_status = $2, progress_step = $3, progress_pct = $4, "
                 "progress_message = $5, error_message = NULLIF($6, ''), "
                 "progress_updated_at = clock_timestamp(), updated_at = clock_timestamp() "
                 "WHERE document_id = $1",
                 json::array({document_id, status, step, pct, message, error_message})));
}

Status saveMetadata(PluginTx& tx, const std::string& document_id, const json& metadata) {
    return ok(tx.query("UPDATE videos SET metadata = $2::jsonb WHERE document_id = $1",
                       json::array({document_id, metadata})));
}

Status saveTranscript(PluginTx& tx, const std::string& document_id, const json& transcript) {
    return ok(tx.query("UPDATE videos SET transcript = $2::jsonb WHERE document_id = $1",
                       json::array({document_id, transcript})));
}

Status replaceFrames(PluginTx& tx, const std::string& document_id,
                     const std::vector<FrameRecord>& frames) {
    if (auto r = tx.query("DELETE FROM frames WHERE document_id = $1", json::array({document_id}));
        !r) {
        return r.error();
    }
    for (const auto& f : frames) {
        auto r = tx.query(
            "INSERT INTO frames (document_id, frame_index, timestamp_seconds, width, height, "
            "object_name, ocr_text) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            json::array({document_id, f.frame_index, f.timestamp_seconds, f.width, f.height,
                         f.object_name, f.ocr_text}));
        if (!r) return r.error();
    }
    return {};
}

Result<std::vector<FrameRecord>> frames(PluginTx& tx, const std::string& document_id) {
    auto rows = tx.query(
        "SELECT frame_index, timestamp_seconds, width, height, object_name, ocr_text FROM frames "
        "WHERE document_id = $1 ORDER BY frame_index",
        json::array({document_id}));
    if (!rows) return rows.error();
    std::vector<FrameRecord> out;
    for (const auto& r : *rows) {
        FrameRecord f;
        f.frame_index = r.value("frame_index", 0);
        f.timestamp_seconds = r.value("timestamp_seconds", 0.0);
        f.width = r.value("width", 0);
        f.height = r.value("height", 0);
        f.object_name = shared::textOf(r, "object_name");
        f.ocr_text = shared::textOf(r, "ocr_text");
        out.push_back(std::move(f));
    }
    return out;
}

Status replaceSegments(PluginTx& tx, const std::string& document_id,
                       const std::vector<Segment>& segments) {
    if (auto r =
            tx.query("DELETE FROM segments WHERE document_id = $1", json::array({document_id}));
        !r) {
        return r.error();
    }
    for (const auto& s : segments) {
        auto r = tx.query(
            "INSERT INTO segments (document_id, segment_index, data) VALUES ($1, $2, $3::jsonb)",
            json::array({document_id, s.segment_index, toJson(s)}));
        if (!r) return r.error();
    }
    return {};
}

Result<json> segments(PluginTx& tx, const std::string& document_id) {
    auto rows = tx.query("SELECT data FROM segments WHERE document_id = $1 ORDER BY segment_index",
                         json::array({document_id}));
    if (!rows) return rows.error();
    json out = json::array();
    for (const auto& r : *rows) out.push_back(r.value("data", json::object()));
    return out;
}

std::vector<Cue> cuesOf(const json& transcript) {
    std::vector<Cue> cues;
    if (!transcript.is_object() || !transcript.contains("cues")) return cues;
    for (const auto& c : transcript["cues"]) {
        cues.push_back({c.value("start_seconds", 0.0), c.value("end_seconds", 0.0),
                        c.value("text", std::string())});
    }
    return cues;
}

json cuesJson(const std::vector<Cue>& cues) {
    json out = json::array();
    for (const auto& c : cues) {
        out.push_back({{"start_seconds", c.start},
                       {"end_seconds", c.end},
                       {"start_time", clock(c.start)},
                       {"end_time", clock(c.end)},
                       {"text", c.text}});
    }
    return out;
}

}  // namespace docintel::video::store

#include "video/plugin/video_service.h"

#include <algorithm>

#include "shared/file_names.h"
#include "shared/ids.h"
#include "shared/json_text.h"
#include "shared/problems.h"
#include "shared/workspace_arg.h"

namespace docintel::video {

using nlohmann::json;
using plugin::Error;
using plugin::Result;
using plugin::Status;

using shared::nullable;
using shared::textOf;

namespace {

const char* const kExtensions[] = {"mp4", "mov", "m4v", "mkv", "webm", "avi"};

bool isVideoFile(const std::string& filename, const std::string& content_type) {
    const std::string ext = shared::extensionOf(filename);
    for (const char* e : kExtensions) {
        if (ext == e) return true;
    }
    return content_type.rfind("video/", 0) == 0;
}

std::string workspaceOf(const Caller& caller, const json& body) {
    return shared::workspaceArgument(body, caller.workspace_id);
}

Error notFound() { return Error{"video_not_found", "video not found", 404}; }

Error rightsRequired() {
    return Error{"rights_confirmation_required",
                 "confirm that you have the rights to process this video (rights_confirmed: true)",
                 400};
}

}  // namespace

VideoService::VideoService(plugin::HostServices& host, VideoLimits limits,
                           std::unique_ptr<Transcriber> transcriber)
    : host_(host), limits_(limits), transcriber_(std::move(transcriber)) {}

Result<VideoService::Loaded> VideoService::load(const Caller& caller,
                                                const std::string& document_id, bool manage) {
    if (!shared::isUuid(document_id)) return notFound();
    auto document = host_.getDocument(caller.principal, document_id);
    if (!document) {
        if (document.error().http_status == 404) return notFound();
        return document.error();
    }
    if (textOf(*document, "doc_type") != "video") return notFound();
    const std::string workspace = textOf(*document, "workspace_id");
    if (manage && !workspace.empty()) {
        auto role = host_.workspaceRole(caller.principal, workspace);
        if (!role) return notFound();
        if (*role != "owner" && *role != "editor") {
            return Error::forbidden("forbidden",
                                    "processing a workspace's video needs the editor role");
        }
    }
    // Reads only read; a change registers the video first (createUpload already has, unless
    // the document came another way).
    auto found =
        host_.transact([&](plugin::PluginTx& tx) -> Result<std::optional<store::VideoRecord>> {
            if (manage) {
                auto ok =
                    store::registerVideo(tx, document_id, textOf(*document, "owner_id"), workspace);
                if (!ok) return ok.error();
            }
            return store::find(tx, document_id);
        });
    if (!found) return found.error();
    store::VideoRecord video;
    if (found->has_value()) {
        video = std::move(**found);
    } else {  // never processed nor registered: what registration would have said
        video.document_id = document_id;
        video.processing_status = video.progress_step = "uploaded";
    }
    return Loaded{std::move(document).value(), std::move(video)};
}

Result<json> VideoService::createUpload(const Caller& caller, const json& body) {
    const std::string filename = textOf(body, "filename");
    const std::string content_type = textOf(body, "content_type");
    if (!isVideoFile(filename, content_type)) {
        return Error{"unsupported_type",
                     "videos are MP4, MOV, M4V, MKV, WebM or AVI files (a video/* content type)",
                     415};
    }
    plugin::MediaUpload upload;
    upload.workspace_id = workspaceOf(caller, body);
    upload.filename = filename;
    upload.content_type = content_type;
    upload.size = body.value("file_size", static_cast<std::int64_t>(0));
    upload.doc_type = "video";
    upload.max_bytes = limits_.max_bytes;
    auto session = host_.createMediaUpload(caller.principal, upload);
    if (!session) return session.error();
    const std::string id = textOf(*session, "doc_id");
    auto registered = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
        if (auto ok = store::registerVideo(tx, id, caller.principal.user_id, upload.workspace_id);
            !ok) {
            return ok.error();
        }
        return true;
    });
    if (!registered) return registered.error();
    json out = *session;
    out["method"] = "PUT";
    out["headers"] = session->value("upload_headers", json::object());
    out["expires_in_seconds"] = 15 * 60;
    out["doc_type"] = "video";
    return out;
}

Result<json> VideoService::completeUpload(const Caller& caller, const json& body) {
    const bool process_after = body.value("process_after_upload", false);
    if (process_after && !body.value("rights_confirmed", false)) return rightsRequired();
    const std::string id = textOf(body, "doc_id");
    json complete = {{"doc_id", id}};
    for (const char* key : {"storage_source_path", "gcs_source_path"}) {
        if (body.contains(key)) complete[key] = body[key];
    }
    auto done = host_.completeUpload(caller.principal, workspaceOf(caller, body), complete);
    if (!done) return done.error();
    json out = *done;
    if (process_after) {
        auto started = process(caller, id, body);
        if (!started) return started.error();
        out["processing"] = *started;
    }
    return out;
}

Result<json> VideoService::process(const Caller& caller, const std::string& document_id,
                                   const json& body) {
    if (!body.value("rights_confirmed", false)) return rightsRequired();
    auto loaded = load(caller, document_id, true);
    if (!loaded) return loaded.error();
    const std::string doc_status = textOf(loaded->document, "status");
    if (doc_status == "uploading") {
        return Error::conflict("upload_incomplete", "complete the video's upload first");
    }
    const ProcessOptions options = optionsFrom(body);
    auto claimed = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
        return store::claim(tx, document_id, toJson(options));
    });
    if (!claimed) return claimed.error();
    if (!*claimed) {
        return Error::conflict("processing_in_progress",
                               "this video is already being processed; poll get_video_status");
    }
    auto job = host_.enqueueJob(kProcessJob, {{"document_id", document_id},
                                              {"user_id", caller.principal.user_id},
                                              {"email", caller.principal.email},
                                              {"options", toJson(options)}});
    if (!job) {
        (void)progress(document_id, "error", "failed", 100, "Could not queue processing",
                       job.error().message);
        return job.error();
    }
    auto queued =
        host_.transact([&](plugin::PluginTx& tx) -> Result<std::optional<store::VideoRecord>> {
            if (auto ok = store::setJob(tx, document_id, *job); !ok) return ok.error();
            return store::find(tx, document_id);
        });
    Loaded current = *loaded;
    if (queued && queued->has_value()) current.video = **queued;
    json out = statusJson(current);
    out["job_id"] = *job;
    return out;
}

Result<json> VideoService::status(const Caller& caller, const std::string& document_id) {
    auto loaded = load(caller, document_id, false);
    if (!loaded) return loaded.error();
    return statusJson(*loaded);
}

json VideoService::statusJson(const Loaded& loaded) {
    const auto& v = loaded.video;
    const json& d = loaded.document;
    const std::string document_id = v.document_id;
    json document_error = nullptr;
    if (textOf(d, "status") == "error") {
        document_error = {{"code", d.value("error_code", json())},
                          {"message", d.value("error_message", json())}};
    }
    return json{{"document_id", document_id},
                {"processing_status", v.processing_status},
                {"progress_step", v.progress_step},
                {"progress_pct", v.progress_pct},
                {"progress_message", v.progress_message},
                {"progress_updated_at", v.progress_updated_at},
                {"progress",
                 {{"step", v.progress_step},
                  {"progress_pct", v.progress_pct},
                  {"message", v.progress_message},
                  {"updated_at", v.progress_updated_at}}},
                {"error_message", nullable(v.error_message)},
                {"document_error", document_error},
                {"document_status", textOf(d, "status")},
                {"job_id", nullable(v.job_id)},
                {"options", v.options},
                {"metadata", v.metadata},
                {"done", v.processing_status == "completed" || v.processing_status == "error"}};
}

Result<json> VideoService::video(const Caller& caller, const std::string& document_id) {
    auto loaded = load(caller, document_id, false);
    if (!loaded) return loaded.error();
    const auto& v = loaded->video;
    return json{{"document_id", document_id},
                {"filename", loaded->document.value("filename", "")},
                {"workspace_id", loaded->document.value("workspace_id", json())},
                {"status", loaded->document.value("status", "")},
                {"processing_status", v.processing_status},
                {"metadata", v.metadata},
                {"transcript_source",
                 v.transcript.is_object() ? v.transcript.value("source", json()) : json()},
                {"created_at", loaded->document.value("created_at", json())}};
}

Result<json> VideoService::timeline(const Caller& caller, const std::string& document_id) {
    auto about = video(caller, document_id);
    if (!about) return about.error();
    auto rows = host_.transact([&](plugin::PluginTx& tx) -> Result<json> {
        auto segments = store::segments(tx, document_id);
        if (!segments) return segments.error();
        auto frames = store::frames(tx, document_id);
        if (!frames) return frames.error();
        json listed = json::array();
        for (const auto& f : *frames) listed.push_back(toJson(f));
        return json{{"segments", *segments}, {"frames", listed}};
    });
    if (!rows) return rows.error();
    return json{{"document_id", document_id},
                {"video", *about},
                {"segments", (*rows)["segments"]},
                {"frames", (*rows)["frames"]}};
}

Result<json> VideoService::transcript(const Caller& caller, const std::string& document_id) {
    auto loaded = load(caller, document_id, false);
    if (!loaded) return loaded.error();
    const json& t = loaded->video.transcript;
    const auto cues = store::cuesOf(t);
    std::string text;
    for (const auto& c : cues) text += (text.empty() ? "" : " ") + c.text;
    return json{{"document_id", document_id},
                {"processing_status", loaded->video.processing_status},
                {"source", t.is_object() ? t.value("source", json()) : json()},
                {"language", t.is_object() ? t.value("language", json()) : json()},
                {"model", t.is_object() ? t.value("model", json()) : json()},
                {"segments", store::cuesJson(cues)},
                {"words", t.is_object() ? t.value("words", json::array()) : json::array()},
                {"text", text}};
}

Result<json> VideoService::frames(const Caller& caller, const std::string& document_id,
                                  std::size_t with_urls) {
    auto loaded = load(caller, document_id, false);
    if (!loaded) return loaded.error();
    auto rows =
        host_.transact([&](plugin::PluginTx& tx) { return store::frames(tx, document_id); });
    if (!rows) return rows.error();
    json listed = json::array();
    for (const auto& f : *rows) {
        listed.push_back(toJson(f));
        if (listed.size() > with_urls) continue;
        auto url =
            host_.signedDownloadUrl(f.object_name, "image/jpeg", limits_.frame_url_ttl_seconds);
        if (!url) return url.error();
        listed.back()["url"] = *url;
    }
    return json{{"document_id", document_id}, {"frames", listed}, {"count", listed.size()}};
}

Result<json> VideoService::frameUrl(const Caller& caller, const std::string& document_id,
                                    int frame_index) {
    auto loaded = load(caller, document_id, false);
    if (!loaded) return loaded.error();
    auto rows =
        host_.transact([&](plugin::PluginTx& tx) { return store::frames(tx, document_id); });
    if (!rows) return rows.error();
    for (const auto& f : *rows) {
        if (f.frame_index != frame_index) continue;
        auto url =
            host_.signedDownloadUrl(f.object_name, "image/jpeg", limits_.frame_url_ttl_seconds);
        if (!url) return url.error();
        return json{{"document_id", document_id},
                    {"frame_index", f.frame_index},
                    {"timestamp_seconds", f.timestamp_seconds},
                    {"url", *url},
                    {"method", "GET"},
                    {"content_type", "image/jpeg"},
                    {"expires_in_seconds", limits_.frame_url_ttl_seconds}};
    }
    return Error{"frame_not_found", "the video has no frame with that index", 404};
}

Result<json> VideoService::search(const Caller& caller, const std::string& document_id,
                                  const json& body) {
    auto loaded = load(caller, document_id, false);
    if (!loaded) return loaded.error();
    if (textOf(loaded->document, "status") != "embedded") {
        return Error::conflict("content_not_ready",
                               "the video is not processed and embedded yet; poll "
                               "get_video_status until it is completed");
    }
    const std::string question = textOf(body, "question");
    const int limit = std::clamp(body.value("limit", 8), 1, 12);
    plugin::GroundedQuestion q;
    q.question = question;
    q.document_ids = {document_id};
    q.workspace_id = textOf(loaded->document, "workspace_id");
    q.trace_id = caller.trace_id;
    auto found = host_.retrieve(caller.principal, q);
    if (!found) return found.error();
    json hits = json::array();
    for (const auto& s : found->value("sources", json::array())) {
        if (static_cast<int>(hits.size()) >= limit) break;
        if (!s.contains("start_seconds")) continue;
        const double start = s["start_seconds"].get<double>();
        const double end = s.value("end_seconds", start);
        const std::string excerpt = s.value("excerpt", "");
        hits.push_back({{"rank", hits.size() + 1},
                        {"document_id", document_id},
                        {"chunk_index", s.value("chunk_index", json())},
                        {"start_seconds", start},
                        {"end_seconds", end},
                        {"start_time", clock(start)},
                        {"end_time", clock(end)},
                        {"label", s.contains("section_path") && !s["section_path"].empty()
                                      ? s["section_path"][0]
                                      : json("")},
                        {"text", excerpt},
                        {"best_sentence", bestSentence(excerpt, question)},
                        {"similarity", s.value("similarity", json())},
                        {"match_type", s.value("match_type", json())}});
    }
    return json{{"document_id", document_id},
                {"question", question},
                {"hits", hits},
                {"count", hits.size()}};
}

Result<json> VideoService::attachSubtitles(const Caller& caller, const std::string& document_id,
                                           const json& body) {
    auto loaded = load(caller, document_id, true);
    if (!loaded) return loaded.error();
    const std::string text = textOf(body, "text");
    const auto cues = parseSubtitleText(text);
    if (cues.empty()) {
        return shared::validationError({"body", "text"},
                                       "no cues found: send the text of an SRT or WebVTT file");
    }
    auto stored = host_.putObject("documents/" + document_id + "/subtitles.vtt", text, "text/vtt");
    if (!stored) return stored.error();
    return json{{"document_id", document_id}, {"cues", cues.size()}, {"stored", true}};
}

Status VideoService::progress(const std::string& document_id, const std::string& status,
                              const std::string& step, int pct, const std::string& message,
                              const std::string& error_message) {
    auto done = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
        if (auto ok = store::progress(tx, document_id, status, step, pct, message, error_message);
            !ok) {
            return ok.error();
        }
        return true;
    });
    if (!done) return done.error();
    return {};
}

}  // namespace docintel::video

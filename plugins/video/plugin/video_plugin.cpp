// The video feature plugin (issue 17, docs/video.md): REST routes tagged `video`, the
// contract's nine video MCP tools and the video resources, over VideoService, with a durable
// processing job and storage of its own (SDK, docs/plugins.md).

#include <algorithm>
#include <cstdlib>
#include <string>

#include "plugin_api/plugin.h"
#include "shared/registration.h"
#include "video/plugin/video_console.h"
#include "video/plugin/video_service.h"

namespace docintel::video {
namespace {

using nlohmann::json;
using plugin::HttpRequest;
using plugin::HttpResponse;
using plugin::Result;

/// The largest video the contract accepts; DOCINTEL_VIDEO_MAX_BYTES may only lower it.
constexpr long long kMaxVideoBytes = 2LL * 1024 * 1024 * 1024;
const std::string kRead = "video:read";
const std::string kProcess = "video:process";

Caller restCaller(const HttpRequest& r) { return {r.principal, r.workspace_id, r.trace_id}; }
/// An MCP call's workspace is its `ws`/`workspace_id` argument, which the service reads from
/// the arguments as it reads REST bodies.
Caller mcpCaller(const plugin::ToolCall& call) { return {call.principal, "", call.trace_id}; }

using shared::respond;
using shared::schema::boolean;
using shared::schema::integer;
using shared::schema::object;

json str(const std::string& description) { return shared::schema::string(description); }

/// process_video's parameters (the REST body and the tool's arguments).
json processProperties() {
    return {{"rights_confirmed",
             boolean("You confirm you have the rights to process this video; must be true.")},
            {"transcript_language",
             {{"type", "string"},
              {"pattern", "^(auto|[a-z]{2}(-[A-Za-z]{2,4})?)$"},
              {"description", "`auto` (detect) or a language code such as en, es, hi, bn, ar."}}},
            {"max_frames", integer("Frames to sample (default 12).", 1, 60)},
            {"segment_seconds", integer("Timeline segment length (default 60).", 15, 600)},
            {"embed_after_processing", boolean("Embed for search when done (default true).")},
            {"use_subtitles",
             boolean("Use a subtitle track or sidecar as the transcript when there is one "
                     "(default true); false runs speech recognition.")}};
}

json uploadProperties() {
    return {{"filename", {{"type", "string"}, {"minLength", 1}, {"maxLength", 255}}},
            {"content_type", {{"type", "string"}, {"minLength", 1}, {"maxLength", 200}}},
            {"file_size",
             {{"type", "integer"},
              {"minimum", 1},
              {"maximum", kMaxVideoBytes},
              {"description",
               "Size in bytes: at most 2 GiB (a smaller configured limit, "
               "DOCINTEL_VIDEO_MAX_BYTES, answers 413 file_too_large)"}}},
            {"workspace_id", str("The team workspace (default: the X-Workspace-ID header).")},
            {"ws", str("Same as workspace_id.")}};
}

/// A video file: a `video/*` content type or a video file name. The request validator does not
/// read `anyOf`; the service refuses anything else with 415 `unsupported_type`.
json uploadSchema() {
    json schema = object(uploadProperties(), {"filename", "content_type", "file_size"});
    schema["anyOf"] = json::array({{{"properties", {{"content_type", {{"pattern", "^video/"}}}}}},
                                   {{"properties",
                                     {{"filename",
                                       {{"pattern",
                                         "\\.([Mm][Pp]4|[Mm][Oo][Vv]|[Mm]4[Vv]|[Mm][Kk][Vv]|[Ww]["
                                         "Ee][Bb][Mm]|[Aa][Vv][Ii])$"}}}}}}});
    return schema;
}

json completeProperties() {
    json p = processProperties();
    p["doc_id"] = str("The video's document id from create_video_upload.");
    p["storage_source_path"] = str("The storage path create_video_upload returned.");
    p["gcs_source_path"] = str("Same as storage_source_path.");
    p["filename"] = str("The file name (as uploaded).");
    p["content_type"] = str("The content type (as uploaded).");
    p["file_size"] = {{"type", "integer"}, {"minimum", 1}};
    p["workspace_id"] = str("The team workspace.");
    p["ws"] = str("Same as workspace_id.");
    p["process_after_upload"] = boolean("Start processing at once (needs rights_confirmed).");
    return p;
}

json withDocument(json properties) {
    properties["document_id"] = str("The video's document id.");
    properties["ws"] = str("The team workspace (optional).");
    return properties;
}

class VideoPlugin final : public plugin::Plugin {
  public:
    void registerWith(plugin::Registrar& r, plugin::HostServices& host) override {
        VideoLimits limits;
        if (const char* max = std::getenv("DOCINTEL_VIDEO_MAX_BYTES")) {
            try {
                limits.max_bytes = std::clamp(std::stoll(max), 1LL, kMaxVideoBytes);
            } catch (const std::exception&) {
                host.log("video", "warning", "event=bad_setting name=DOCINTEL_VIDEO_MAX_BYTES");
            }
        }
        service_ =
            std::make_unique<VideoService>(host, limits, makePluginTranscriber(host.dataDir()));
        for (auto& m : store::migrations()) r.addMigration(std::move(m));
        r.addJobKind({VideoService::kProcessJob,
                      [this](plugin::PluginJob& job) { return service_->runJob(job); }});
        addSchemas(r);
        addRoutes(r);
        addTools(r);
        addResources(r);
        addConsolePages(r, *service_, host);
    }

  private:
    void addSchemas(plugin::Registrar& r) {
        r.addSchema("VideoUploadRequest", uploadSchema());
        json complete = object(completeProperties(), {"doc_id"});
        r.addSchema("VideoUploadComplete", complete);
        r.addSchema("VideoProcessRequest", object(processProperties(), {"rights_confirmed"}));
        r.addSchema(
            "VideoSearchRequest",
            object({{"question", {{"type", "string"}, {"minLength", 1}, {"maxLength", 2000}}},
                    {"limit", integer("Hits to return (default 8).", 1, 12)}},
                   {"question"}));
        r.addSchema(
            "VideoSubtitles",
            object({{"text", {{"type", "string"}, {"minLength", 1}, {"maxLength", 2000000}}}},
                   {"text"}));
    }

    void route(plugin::Registrar& r, std::string method, std::string path, std::string id,
               std::string summary, const std::string& scope, std::string schema,
               plugin::HttpHandler handler, int success = 200) {
        shared::addRoute(r, std::move(method), std::move(path), std::move(id), std::move(summary),
                         {scope}, std::move(schema), std::move(handler), success);
    }

    void addRoutes(plugin::Registrar& r) {
        const std::string base = "/api/v1/videos";
        const auto doc = [](const HttpRequest& q) { return q.pathParam("document_id"); };
        route(
            r, "POST", "/api/v1/video-uploads", "create_video_upload",
            "Start a direct upload of a video (a signed PUT URL)", kProcess, "VideoUploadRequest",
            [this](const HttpRequest& q) {
                return respond(service_->createUpload(restCaller(q), q.body), 201);
            },
            201);
        route(r, "POST", "/api/v1/video-uploads/complete", "complete_video_upload",
              "Complete a video upload (optionally start processing)", kProcess,
              "VideoUploadComplete", [this](const HttpRequest& q) {
                  return respond(service_->completeUpload(restCaller(q), q.body));
              });
        route(
            r, "POST", base + "/{document_id}/process", "process_video",
            "Process a video: transcript, frames, timeline, embedding (a durable job)", kProcess,
            "VideoProcessRequest",
            [this, doc](const HttpRequest& q) {
                return respond(service_->process(restCaller(q), doc(q), q.body), 202);
            },
            202);
        route(r, "POST", base + "/{document_id}/subtitles", "attach_video_subtitles",
              "Attach an SRT or WebVTT sidecar used as the transcript", kProcess, "VideoSubtitles",
              [this, doc](const HttpRequest& q) {
                  return respond(service_->attachSubtitles(restCaller(q), doc(q), q.body));
              });
        route(r, "GET", base + "/{document_id}", "get_video", "A video's metadata", kRead, "",
              [this, doc](const HttpRequest& q) {
                  return respond(service_->video(restCaller(q), doc(q)));
              });
        route(r, "GET", base + "/{document_id}/status", "get_video_status",
              "Where a video's processing stands", kRead, "", [this, doc](const HttpRequest& q) {
                  return respond(service_->status(restCaller(q), doc(q)));
              });
        route(r, "GET", base + "/{document_id}/timeline", "get_video_timeline",
              "A video's segments and frames", kRead, "", [this, doc](const HttpRequest& q) {
                  return respond(service_->timeline(restCaller(q), doc(q)));
              });
        route(r, "GET", base + "/{document_id}/transcript", "get_video_transcript",
              "A video's timed transcript", kRead, "", [this, doc](const HttpRequest& q) {
                  return respond(service_->transcript(restCaller(q), doc(q)));
              });
        route(r, "GET", base + "/{document_id}/frames", "get_video_frames",
              "A video's sampled frames with their on-screen text", kRead, "",
              [this, doc](const HttpRequest& q) {
                  return respond(service_->frames(restCaller(q), doc(q)));
              });
        route(r, "GET", base + "/{document_id}/frames/{frame_index}/url", "get_video_frame_url",
              "A short-lived signed URL of a frame's JPEG", kRead, "",
              [this, doc](const HttpRequest& q) -> Result<HttpResponse> {
                  int index = -1;
                  try {
                      index = std::stoi(q.pathParam("frame_index"));
                  } catch (const std::exception&) {
                      return plugin::Error{"frame_not_found", "frame_index is a number", 404};
                  }
                  return respond(service_->frameUrl(restCaller(q), doc(q), index));
              });
        route(r, "POST", base + "/{document_id}/search", "search_video",
              "Timestamp-grounded search within a video", kRead, "VideoSearchRequest",
              [this, doc](const HttpRequest& q) {
                  return respond(service_->search(restCaller(q), doc(q), q.body));
              });
    }

    void tool(plugin::Registrar& r, std::string name, std::string description, json schema,
              const std::string& scope,
              std::function<Result<json>(VideoService&, const plugin::ToolCall&)> fn) {
        shared::addTool(
            r, std::move(name), std::move(description), std::move(schema), {scope},
            [this, fn = std::move(fn)](const plugin::ToolCall& c) { return fn(*service_, c); });
    }

    void addTools(plugin::Registrar& r) {
        using S = VideoService;
        using C = const plugin::ToolCall&;
        const auto doc = [](C c) { return c.arguments.value("document_id", std::string()); };
        tool(r, "create_video_upload",
             "Start a direct upload of a video (mp4, mov, m4v, mkv, webm, avi). PUT the bytes to "
             "`upload_url` with the returned headers, then call complete_video_upload.",
             uploadSchema(), kProcess,
             [](S& s, C c) { return s.createUpload(mcpCaller(c), c.arguments); });
        tool(r, "complete_video_upload",
             "Finish a video upload after the PUT; with process_after_upload (and "
             "rights_confirmed) processing starts.",
             object(completeProperties(), {"doc_id"}), kProcess,
             [](S& s, C c) { return s.completeUpload(mcpCaller(c), c.arguments); });
        tool(r, "process_video",
             "Transcribe a video locally, sample frames and read their text, build its timeline "
             "and embed it. Needs rights_confirmed true. Poll get_video_status until "
             "processing_status is completed or error.",
             object(withDocument(processProperties()), {"document_id", "rights_confirmed"}),
             kProcess, [doc](S& s, C c) { return s.process(mcpCaller(c), doc(c), c.arguments); });
        tool(r, "get_video_status", "Where a video's processing stands.",
             object(withDocument(json::object()), {"document_id"}), kRead,
             [doc](S& s, C c) { return s.status(mcpCaller(c), doc(c)); });
        tool(r, "get_video_timeline", "A processed video's segments and frames.",
             object(withDocument(json::object()), {"document_id"}), kRead,
             [doc](S& s, C c) { return s.timeline(mcpCaller(c), doc(c)); });
        tool(r, "get_video_transcript", "A processed video's timed transcript.",
             object(withDocument(json::object()), {"document_id"}), kRead,
             [doc](S& s, C c) { return s.transcript(mcpCaller(c), doc(c)); });
        tool(r, "get_video_frames", "A processed video's frames with their on-screen text.",
             object(withDocument(json::object()), {"document_id"}), kRead,
             [doc](S& s, C c) { return s.frames(mcpCaller(c), doc(c)); });
        tool(r, "get_video_frame_url", "A short-lived signed URL of one frame's JPEG.",
             object(withDocument({{"frame_index", integer("The frame's index.", 0, 59)}}),
                    {"document_id", "frame_index"}),
             kRead, [doc](S& s, C c) {
                 return s.frameUrl(mcpCaller(c), doc(c), c.arguments.value("frame_index", -1));
             });
        tool(r, "search_video",
             "Search within a processed video: ranked moments with their start and end times "
             "and the best matching sentence.",
             object(withDocument({{"question", {{"type", "string"}, {"minLength", 1}}},
                                  {"limit", integer("Hits (default 8).", 1, 12)}}),
                    {"document_id", "question"}),
             kRead, [doc](S& s, C c) { return s.search(mcpCaller(c), doc(c), c.arguments); });
    }

    void resource(
        plugin::Registrar& r, std::string uri_template, std::string name, std::string description,
        std::function<Result<json>(VideoService&, const Caller&, const std::string&)> fn) {
        plugin::McpResourceTemplate t;
        t.uri_template = uri_template;
        t.name = std::move(name);
        t.description = std::move(description);
        t.scopes = {kRead};
        const std::string prefix = "docintel://videos/";
        t.reader = [this, prefix, fn = std::move(fn)](const std::string& uri,
                                                      const plugin::Principal& p) -> Result<json> {
            return fn(*service_, Caller{p, "", ""}, shared::resourceId(uri, prefix));
        };
        r.addMcpResource(std::move(t));
    }

    void addResources(plugin::Registrar& r) {
        using S = VideoService;
        using K = const Caller&;
        using D = const std::string&;
        resource(r, "docintel://videos/{document_id}", "video", "A video's metadata and status",
                 [](S& s, K c, D id) { return s.video(c, id); });
        resource(r, "docintel://videos/{document_id}/timeline", "video timeline",
                 "A video's segments and frames",
                 [](S& s, K c, D id) { return s.timeline(c, id); });
        resource(r, "docintel://videos/{document_id}/transcript", "video transcript",
                 "A video's timed transcript", [](S& s, K c, D id) { return s.transcript(c, id); });
        resource(r, "docintel://videos/{document_id}/frames", "video frames",
                 "A video's frames with on-screen text",
                 [](S& s, K c, D id) { return s.frames(c, id); });
    }

    std::unique_ptr<VideoService> service_;
};

}  // namespace
}  // namespace docintel::video

DOCINTEL_PLUGIN(docintel::video::VideoPlugin, "video", "1.0.0")

// The video plugin's pages in the reviewer console (Registrar::addConsolePage): the workspace's
// videos with their processing status, and a processed video as a run of frames (each with its
// on-screen text), its timeline and its transcript, every cue a time link to the frame shown at
// that moment. Read-only; processing stays on the REST routes and MCP tools.

#include "video/plugin/video_console.h"

#include "video/timeline.h"

namespace docintel::video {
namespace {

using nlohmann::json;

/// Frames shown on a page: each one costs a signed URL.
constexpr std::size_t kMaxFrames = 48;

const char* const kVideosTemplate = R"(<h1>Videos</h1>
{{#has_videos}}
<div class="table-wrap">
<table id="videos">
  <thead><tr><th scope="col">Video</th><th scope="col">Document</th><th scope="col">Processing</th></tr></thead>
  <tbody>{{#videos}}<tr><td><a href="/console/plugins/video/videos/{{id}}?workspace={{workspace}}">{{filename}}</a></td><td>{{status}}</td><td><span class="status">{{processing_status}}</span></td></tr>{{/videos}}</tbody>
</table>
</div>
{{/has_videos}}
{{^has_videos}}<p class="empty">No video in this workspace yet.</p>{{/has_videos}}
)";

const char* const kVideoTemplate =
    R"(<p class="crumbs"><a href="/console/plugins/video/videos?workspace={{workspace}}">Videos</a></p>
<h1>{{filename}}</h1>
<p class="meta"><span class="status" id="processing-status">{{processing_status}}</span>{{#language}} · transcript language {{language}}{{/language}}{{#source}} · from {{source}}{{/source}}</p>
<div class="run-layout">
<section aria-labelledby="transcript-title">
  <h2 id="transcript-title">Transcript</h2>
  {{#has_cues}}<ol class="transcript" id="transcript">{{#cues}}<li><a class="time" href="#frame-{{frame_index}}">{{start_time}}</a> {{text}}</li>{{/cues}}</ol>{{/has_cues}}
  {{^has_cues}}<p class="muted">No transcript yet.</p>{{/has_cues}}
  <h2 id="timeline-title">Timeline</h2>
  {{#has_segments}}<ol class="timeline" id="timeline">{{#segments}}<li><a class="time" href="#frame-{{frame_index}}">{{start_time}}–{{end_time}}</a> <strong>{{title}}</strong>{{#summary}} <span class="muted">{{summary}}</span>{{/summary}}</li>{{/segments}}</ol>{{/has_segments}}
  {{^has_segments}}<p class="muted">No segment yet.</p>{{/has_segments}}
</section>
<section aria-labelledby="frames-title">
  <h2 id="frames-title">Frames</h2>
  {{#has_frames}}<div class="gallery" id="frames">{{#frames}}<figure id="frame-{{frame_index}}" class="frame"><img src="{{url}}" alt="Frame at {{timestamp}}" width="{{width}}" height="{{height}}"><figcaption>{{timestamp}}{{#ocr_text}} · <span class="muted">{{ocr_text}}</span>{{/ocr_text}}</figcaption></figure>{{/frames}}</div>{{/has_frames}}
  {{^has_frames}}<p class="muted">No frame yet.</p>{{/has_frames}}
</section>
</div>
)";

Caller consoleCaller(const plugin::HttpRequest& r) {
    return {r.principal, r.workspace_id, r.trace_id};
}

/// The index of the last frame shown at or before `seconds` (the first frame when none is).
int frameAt(const json& frames, double seconds) {
    int index = frames.empty() ? 0 : frames.front().value("frame_index", 0);
    for (const auto& f : frames) {
        if (f.value("timestamp_seconds", 0.0) > seconds) break;
        index = f.value("frame_index", 0);
    }
    return index;
}

plugin::Result<json> videosView(VideoService& service, plugin::HostServices& host,
                                const plugin::HttpRequest& r) {
    auto listed = host.listDocuments(r.principal, r.workspace_id);
    if (!listed) return listed.error();
    json videos = json::array();
    for (const auto& d : listed->value("documents", json::array())) {
        if (d.value("doc_type", "") != "video") continue;
        const std::string id = d.value("id", "");
        auto status = service.status(consoleCaller(r), id);
        videos.push_back(
            {{"id", id},
             {"filename", d.value("filename", id)},
             {"status", d.value("status", "")},
             {"processing_status", status ? status->value("processing_status", "") : std::string()},
             {"workspace", r.workspace_id.empty() ? "personal" : r.workspace_id}});
    }
    return json{{"title", "Videos"}, {"videos", videos}, {"has_videos", !videos.empty()}};
}

plugin::Result<json> videoView(VideoService& service, plugin::HostServices& host,
                               const plugin::HttpRequest& r) {
    const Caller caller = consoleCaller(r);
    const std::string id = r.pathParam("document_id");
    auto transcript = service.transcript(caller, id);
    if (!transcript) return transcript.error();
    auto timeline = service.timeline(caller, id);
    if (!timeline) return timeline.error();
    auto listed = service.frames(caller, id, kMaxFrames);
    if (!listed) return listed.error();
    auto document = host.getDocument(r.principal, id);
    if (!document) return document.error();

    json frames = (*listed)["frames"];
    if (frames.size() > kMaxFrames) {
        frames.erase(frames.begin() + static_cast<std::ptrdiff_t>(kMaxFrames), frames.end());
    }
    json cues = json::array();
    for (auto cue : (*transcript)["segments"]) {
        cue["frame_index"] = frameAt(frames, cue.value("start_seconds", 0.0));
        cues.push_back(std::move(cue));
    }
    json segments = json::array();
    for (auto s : timeline->value("segments", json::array())) {
        s["frame_index"] = frameAt(frames, s.value("start_seconds", 0.0));
        s["start_time"] = clock(s.value("start_seconds", 0.0));
        s["end_time"] = clock(s.value("end_seconds", 0.0));
        segments.push_back(std::move(s));
    }
    const std::string filename = document->value("filename", id);
    return json{{"title", filename},
                {"filename", filename},
                {"processing_status", (*transcript)["processing_status"]},
                {"language", (*transcript)["language"]},
                {"source", (*transcript)["source"]},
                {"cues", cues},
                {"has_cues", !cues.empty()},
                {"segments", segments},
                {"has_segments", !segments.empty()},
                {"frames", frames},
                {"has_frames", !frames.empty()}};
}

}  // namespace

void addConsolePages(plugin::Registrar& registrar, VideoService& service,
                     plugin::HostServices& host) {
    registrar.addConsolePage(
        {"videos",
         "Videos",
         kVideosTemplate,
         {"video:read"},
         [&service, &host](const plugin::HttpRequest& r) { return videosView(service, host, r); }});
    registrar.addConsolePage(
        {"videos/{document_id}",
         "",
         kVideoTemplate,
         {"video:read"},
         [&service, &host](const plugin::HttpRequest& r) { return videoView(service, host, r); }});
}

}  // namespace docintel::video

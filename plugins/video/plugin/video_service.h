#pragma once

// The video operations (docs/video.md), one function each, shared by the plugin's REST routes
// and MCP tools: upload, process (a durable job, video_job.cpp), status, timeline, transcript,
// frames, a frame's signed URL, search. Every call acts as the caller through the host, so a
// video is visible exactly when its document is.

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "plugin_api/host_services.h"
#include "plugin_api/jobs.h"
#include "video/plugin/video_store.h"
#include "video/transcriber.h"

namespace docintel::video {

/// Who asks, and in which workspace (REST's X-Workspace-ID header; MCP's `ws` argument).
struct Caller {
    plugin::Principal principal;
    std::string workspace_id;
    std::string trace_id;
};

/// Limits of the video feature (environment: DOCINTEL_VIDEO_MAX_BYTES).
struct VideoLimits {
    std::int64_t max_bytes = 2LL * 1024 * 1024 * 1024;
    int frame_url_ttl_seconds = 300;
};

class VideoService {
  public:
    static constexpr const char* kProcessJob = "process_video";

    VideoService(plugin::HostServices& host, VideoLimits limits,
                 std::unique_ptr<Transcriber> transcriber);

    plugin::Result<nlohmann::json> createUpload(const Caller& caller, const nlohmann::json& body);
    plugin::Result<nlohmann::json> completeUpload(const Caller& caller, const nlohmann::json& body);
    plugin::Result<nlohmann::json> process(const Caller& caller, const std::string& document_id,
                                           const nlohmann::json& body);
    plugin::Result<nlohmann::json> status(const Caller& caller, const std::string& document_id);
    plugin::Result<nlohmann::json> video(const Caller& caller, const std::string& document_id);
    plugin::Result<nlohmann::json> timeline(const Caller& caller, const std::string& document_id);
    plugin::Result<nlohmann::json> transcript(const Caller& caller, const std::string& document_id);
    /// The frames with their on-screen text; the first `with_urls` also carry `url`, a signed
    /// URL of the JPEG (as frameUrl gives one), read in the same pass.
    plugin::Result<nlohmann::json> frames(const Caller& caller, const std::string& document_id,
                                          std::size_t with_urls = 0);
    plugin::Result<nlohmann::json> frameUrl(const Caller& caller, const std::string& document_id,
                                            int frame_index);
    plugin::Result<nlohmann::json> search(const Caller& caller, const std::string& document_id,
                                          const nlohmann::json& body);
    /// Stores an SRT or WebVTT sidecar (`{text}`) as the video's subtitles; processing then
    /// uses it as the transcript (unless `use_subtitles` is false).
    plugin::Result<nlohmann::json> attachSubtitles(const Caller& caller,
                                                   const std::string& document_id,
                                                   const nlohmann::json& body);

    /// The process_video job (video_job.cpp).
    plugin::Status runJob(plugin::PluginJob& job);

  private:
    struct Loaded {
        nlohmann::json document;
        store::VideoRecord video;
    };
    /// The video as the caller sees it; `video_not_found` (404) when the document is not
    /// visible or is not a video. `manage` also requires the right to change it.
    plugin::Result<Loaded> load(const Caller& caller, const std::string& document_id, bool manage);
    /// get_video_status's answer for a loaded video.
    static nlohmann::json statusJson(const Loaded& loaded);
    plugin::Status progress(const std::string& document_id, const std::string& status,
                            const std::string& step, int pct, const std::string& message,
                            const std::string& error_message = "");
    plugin::Status failJob(const plugin::Principal& principal, const std::string& document_id,
                           const plugin::Error& error);

    plugin::HostServices& host_;
    const VideoLimits limits_;
    std::unique_ptr<Transcriber> transcriber_;
};

}  // namespace docintel::video

#pragma once

// The video plugin's storage (docs/video.md "Storage"): one row a video with its processing
// state, metadata and transcript, and its frames and segments, over the host's PluginTx. Rows
// reference the core's document ON DELETE CASCADE, so deleting the document removes them.

#include <optional>
#include <string>
#include <vector>

#include "plugin_api/plugin_storage.h"
#include "plugin_api/registrar.h"
#include "video/media.h"
#include "video/timeline.h"

namespace docintel::video::store {

std::vector<plugin::PluginMigration> migrations();

/// A video's row. `processing_status`: uploaded, queued, running, completed or error.
struct VideoRecord {
    std::string document_id;
    std::string owner_id;
    std::string workspace_id;
    std::string processing_status;
    std::string progress_step;
    int progress_pct = 0;
    std::string progress_message;
    std::string progress_updated_at;
    std::string error_message;
    std::string job_id;
    nlohmann::json options = nlohmann::json::object();
    nlohmann::json metadata;    ///< MediaInfo's JSON; null before extracting_metadata
    nlohmann::json transcript;  ///< {source, language, model, cues}; null before transcription
    std::string updated_at;
};

/// Registers an uploaded video (nothing when it is already registered).
plugin::Status registerVideo(plugin::PluginTx& tx, const std::string& document_id,
                             const std::string& owner_id, const std::string& workspace_id);
plugin::Result<std::optional<VideoRecord>> find(plugin::PluginTx& tx,
                                                const std::string& document_id);
/// Queues processing with `options` unless a job is queued or running for the video (then
/// false, nothing changed): one active job a video.
plugin::Result<bool> claim(plugin::PluginTx& tx, const std::string& document_id,
                           const nlohmann::json& options);
plugin::Status setJob(plugin::PluginTx& tx, const std::string& document_id,
                      const std::string& job_id);
/// Records where processing stands (`status` running, completed or error).
plugin::Status progress(plugin::PluginTx& tx, const std::string& document_id,
                        const std::string& status, const std::string& step, int pct,
                        const std::string& message, const std::string& error_message = "");
plugin::Status saveMetadata(plugin::PluginTx& tx, const std::string& document_id,
                            const nlohmann::json& metadata);
plugin::Status saveTranscript(plugin::PluginTx& tx, const std::string& document_id,
                              const nlohmann::json& transcript);
plugin::Status replaceFrames(plugin::PluginTx& tx, const std::string& document_id,
                             const std::vector<FrameRecord>& frames);
plugin::Result<std::vector<FrameRecord>> frames(plugin::PluginTx& tx,
                                                const std::string& document_id);
plugin::Status replaceSegments(plugin::PluginTx& tx, const std::string& document_id,
                               const std::vector<Segment>& segments);
plugin::Result<nlohmann::json> segments(plugin::PluginTx& tx, const std::string& document_id);

/// The cues of a transcript's JSON.
std::vector<Cue> cuesOf(const nlohmann::json& transcript);
nlohmann::json cuesJson(const std::vector<Cue>& cues);

}  // namespace docintel::video::store

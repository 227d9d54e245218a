// The process_video job (docs/video.md "Processing"): the original's steps, each checkpointed,
// so a worker killed mid-way resumes at the first unfinished step. What a step produces is
// stored (the plugin's rows, objects under the document) before the step is marked done.

#include <algorithm>
#include <cmath>
#include <optional>

#include "video/plugin/video_service.h"

namespace docintel::video {

using nlohmann::json;
using plugin::Error;
using plugin::Result;
using plugin::Status;

namespace {

/// A permanent failure of the video (a 4xx ends the job without retries).
bool permanent(const Error& e) { return e.http_status >= 400 && e.http_status < 500; }

std::string objectOf(const std::string& document_id, const std::string& rest) {
    return "documents/" + document_id + "/" + rest;
}

json infoJson(const MediaInfo& m) {
    return {{"container", m.container},
            {"duration_seconds", m.duration_seconds},
            {"fps", m.fps},
            {"width", m.width},
            {"height", m.height},
            {"video_codec", m.video_codec.empty() ? json() : json(m.video_codec)},
            {"audio_codec", m.audio_codec.empty() ? json() : json(m.audio_codec)},
            {"bitrate", m.bitrate},
            {"frame_count", m.frame_count},
            {"has_audio", !m.audio_codec.empty()},
            {"has_subtitles", m.has_subtitles}};
}

json wordsJson(const std::vector<Word>& words) {
    json out = json::array();
    for (const auto& w : words) {
        out.push_back({{"start_seconds", w.start}, {"end_seconds", w.end}, {"text", w.text}});
    }
    return out;
}

}  // namespace

Status VideoService::failJob(const plugin::Principal& principal, const std::string& document_id,
                             const Error& error) {
    (void)progress(document_id, "error", "failed", 100, "Processing failed", error.message);
    (void)host_.setDocumentState(principal, document_id, "error", error.code, error.message);
    host_.log("video", "info",
              "event=video_failed document_id=" + document_id + " code=" + error.code);
    return {};  // the video's state says what happened; retrying would not help
}

Status VideoService::runJob(plugin::PluginJob& job) {
    const json& payload = job.payload();
    const std::string id = payload.value("document_id", "");
    plugin::Principal principal;
    principal.user_id = payload.value("user_id", "");
    principal.email = payload.value("email", "");
    const ProcessOptions options = optionsFrom(payload.value("options", json::object()));

    auto document = host_.getDocument(principal, id);
    if (!document) {
        if (document.error().http_status == 404) return {};  // deleted meanwhile
        return document.error();
    }
    auto found = host_.transact([&](plugin::PluginTx& tx) { return store::find(tx, id); });
    if (!found) return found.error();
    if (!found->has_value()) return {};
    const std::string filename = document->value("filename", "video");

    // Runs one step unless an earlier attempt finished it; a 4xx ends the video in `error`.
    const auto step = [&](const std::string& name, int pct, const std::string& message,
                          const std::function<Status()>& fn) -> Result<bool> {
        if (job.done(name)) return true;
        if (auto ok = progress(id, "running", name, pct, message); !ok) return ok.error();
        (void)job.progress(pct);
        if (auto ok = fn(); !ok) {
            if (permanent(ok.error())) {
                (void)failJob(principal, id, ok.error());
                return false;
            }
            return ok.error();
        }
        if (auto ok = job.mark(name); !ok) return ok.error();
        return true;
    };
    // False when the job stops here; `stop` then holds what runJob returns.
    std::optional<Status> stop;
    const auto run = [&](const std::string& name, int pct, const std::string& message,
                         const std::function<Status()>& fn) {
        auto ran = step(name, pct, message, fn);
        if (!ran)
            stop = Status(ran.error());
        else if (!*ran)
            stop = Status{};
        return ran && *ran;
    };

    if (auto ok = host_.setDocumentState(principal, id, "processing", "", ""); !ok) {
        return permanent(ok.error()) ? Status{} : ok;
    }
    std::string path;
    if (auto file = host_.documentFile(principal, id); file) {
        path = *file;
    } else {
        return permanent(file.error()) ? failJob(principal, id, file.error()) : file.error();
    }

    MediaInfo info;
    if (!run("extracting_metadata", 16, "Reading the video's streams", [&]() -> Status {
            auto probed = probe(path);
            if (!probed) return probed.error();
            if (probed->video_codec.empty()) {
                return Error::unprocessable("no_video_stream", "the file has no video stream");
            }
            auto saved = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
                if (auto ok = store::saveMetadata(tx, id, infoJson(*probed)); !ok)
                    return ok.error();
                return true;
            });
            if (!saved) return saved.error();
            return {};
        })) {
        return *stop;
    }
    {
        auto again = host_.transact([&](plugin::PluginTx& tx) { return store::find(tx, id); });
        if (!again) return again.error();
        if (!again->has_value()) return {};
        const json& m = (*again)->metadata;
        info.duration_seconds = m.value("duration_seconds", 0.0);
        info.audio_codec = m.value("audio_codec", json()).is_string()
                               ? m["audio_codec"].get<std::string>()
                               : std::string();
        info.has_subtitles = m.value("has_subtitles", false);
    }

    if (!run("transcribing_audio", 26, "Transcribing the audio", [&]() -> Status {
            json transcript = {{"source", "none"}, {"language", json()}, {"cues", json::array()}};
            std::vector<Cue> cues;
            if (options.use_subtitles) {
                if (auto sidecar = host_.readObject(objectOf(id, "subtitles.vtt")); sidecar) {
                    cues = parseSubtitleText(*sidecar);
                    transcript["source"] = "sidecar";
                }
                if (cues.empty() && info.has_subtitles) {
                    auto track = subtitleCues(path);
                    if (track && !track->empty()) {
                        cues = std::move(track).value();
                        transcript["source"] = "subtitle_track";
                    }
                }
            }
            if (cues.empty() && !info.audio_codec.empty()) {
                auto pcm = decodeAudio16kMono(path);
                if (!pcm) return pcm.error();
                int reported = 26;
                auto heard =
                    transcriber_->transcribe(*pcm, options.transcript_language, [&](int pct) {
                        // One write a point of the overall 26..44, not one a whisper callback.
                        const int overall = 26 + pct * 18 / 100;
                        if (overall != reported) {
                            reported = overall;
                            (void)progress(id, "running", "transcribing_audio", overall,
                                           "Transcribing the audio (" + std::to_string(pct) + "%)");
                        }
                        return true;
                    });
                if (!heard) return heard.error();
                cues = heard->cues;
                transcript["source"] = "speech_recognition";
                transcript["language"] = heard->language;
                transcript["model"] = heard->model;
                transcript["words"] = wordsJson(heard->words);
            }
            if (info.audio_codec.empty() && cues.empty()) {
                (void)progress(id, "running", "audio_transcription_skipped", 44,
                               "The video has no audio track");
            }
            if (transcript["language"].is_null() && transcript["source"] != "none") {
                transcript["language"] = options.transcript_language == "auto"
                                             ? json()
                                             : json(options.transcript_language);
            }
            transcript["cues"] = store::cuesJson(cues);
            auto saved = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
                if (auto ok = store::saveTranscript(tx, id, transcript); !ok) return ok.error();
                return true;
            });
            if (!saved) return saved.error();
            return {};
        })) {
        return *stop;
    }

    if (!run("sampling_frames", 45, "Choosing frames", [&]() -> Status {
            const FramePlan plan =
                planFrames(info.duration_seconds, options.segment_seconds, options.max_frames);
            std::vector<double> candidates;
            for (const auto& slot : plan.slots)
                candidates.insert(candidates.end(), slot.begin(), slot.end());
            auto grabbed = grabFrames(path, candidates, 64);
            if (!grabbed) return grabbed.error();
            std::vector<double> change(candidates.size(), 0.0);
            for (std::size_t i = 1; i < grabbed->size() && i < change.size(); ++i) {
                change[i] = pictureChange((*grabbed)[i - 1], (*grabbed)[i]);
            }
            const auto chosen = chooseFrames(plan, change);
            json times = json::array();
            for (std::size_t s = 0; s < chosen.size(); ++s)
                times.push_back(plan.slots[s][chosen[s]]);
            return job.mark("frame_times", times);
        })) {
        return *stop;
    }

    if (!run("processing_frames", 46, "Reading text on the frames", [&]() -> Status {
            std::vector<double> times;
            for (const auto& t : job.checkpoint().value("frame_times", json::array())) {
                times.push_back(t.get<double>());
            }
            auto grabbed = grabFrames(path, times, 960);
            if (!grabbed) return grabbed.error();
            std::vector<FrameRecord> records;
            for (std::size_t i = 0; i < grabbed->size(); ++i) {
                const Frame& f = (*grabbed)[i];
                FrameRecord r;
                r.frame_index = static_cast<int>(i);
                r.timestamp_seconds = f.timestamp;
                r.width = f.width;
                r.height = f.height;
                r.object_name = objectOf(id, "frames/" + std::to_string(i) + ".jpg");
                auto stored = host_.putObject(r.object_name, f.jpeg, "image/jpeg");
                if (!stored) return stored.error();
                plugin::GrayImage gray{f.gray.data(), f.width, f.height, f.width};
                auto text = host_.recognizeText(gray);
                if (text) r.ocr_text = *text;
                records.push_back(std::move(r));
                const int pct = 46 + static_cast<int>(15 * (i + 1) / grabbed->size());
                (void)progress(id, "running", "processing_frames", pct,
                               "Read frame " + std::to_string(i + 1) + " of " +
                                   std::to_string(grabbed->size()));
            }
            auto saved = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
                if (auto ok = store::replaceFrames(tx, id, records); !ok) return ok.error();
                return true;
            });
            if (!saved) return saved.error();
            return {};
        })) {
        return *stop;
    }

    std::vector<Cue> cues;
    std::vector<FrameRecord> frames;
    {
        auto again = host_.transact([&](plugin::PluginTx& tx) -> Result<json> {
            auto v = store::find(tx, id);
            if (!v) return v.error();
            auto f = store::frames(tx, id);
            if (!f) return f.error();
            frames = std::move(f).value();
            return v->has_value() ? (*v)->transcript : json();
        });
        if (!again) return again.error();
        cues = store::cuesOf(*again);
    }
    std::vector<Segment> segments =
        buildSegments(info.duration_seconds, options.segment_seconds, cues, frames);

    if (!run("building_segments", 62, "Building the timeline", [&]() -> Status {
            auto saved = host_.transact([&](plugin::PluginTx& tx) -> Result<bool> {
                if (auto ok = store::replaceSegments(tx, id, segments); !ok) return ok.error();
                return true;
            });
            if (!saved) return saved.error();
            return {};
        })) {
        return *stop;
    }

    if (!run("creating_chunks", 72, "Creating search chunks", [&]() -> Status {
            std::vector<plugin::TimedChunk> chunks;
            for (auto& c : buildChunks(filename, info.duration_seconds, segments, cues, frames)) {
                chunks.push_back({std::move(c.text), c.start_seconds, c.end_seconds, {c.label}});
            }
            return host_.storeDocumentChunks(principal, id, chunks);
        })) {
        return *stop;
    }

    if (!run("saving_artifacts", 80, "Saving the transcript", [&]() -> Status {
            json artifact = {{"document_id", id}, {"segments", store::cuesJson(cues)}};
            auto stored = host_.putObject(objectOf(id, "transcript.json"), artifact.dump(),
                                          "application/json");
            if (!stored) return stored.error();
            return {};
        })) {
        return *stop;
    }

    if (options.embed_after_processing) {
        if (!run("embedding_chunks", 88, "Embedding for search",
                 [&]() -> Status { return host_.embedDocument(principal, id); })) {
            return *stop;
        }
    }

    if (auto ok = progress(id, "completed", "completed", 100, "Processing completed"); !ok) {
        return ok;
    }
    const std::string workspace = document->value("workspace_id", json()).is_string()
                                      ? (*document)["workspace_id"].get<std::string>()
                                      : std::string();
    plugin::PluginEvent event;
    event.type = "video.processing.completed";
    event.resource_type = "video";
    event.resource_id = id;
    event.workspace_id = workspace;
    event.user_id = principal.user_id;
    event.actor_id = principal.user_id;
    event.payload = {{"document_id", id},
                     {"status", "completed"},
                     {"segment_count", segments.size()},
                     {"frame_count", frames.size()},
                     {"duration_seconds", info.duration_seconds}};
    (void)host_.emitEvent(event);
    return {};
}

}  // namespace docintel::video

#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "video/media.h"

/// The video feature's rules (docs/video.md): how a video is cut into segments, which frames are
/// sampled, what a segment and a chunk hold. Pure functions over plain structs; no FFmpeg, no
/// host, so they are unit-tested alone.
namespace docintel::video {

/// process_video's parameters (validated by the request schema before they get here).
struct ProcessOptions {
    std::string transcript_language = "auto";  ///< "auto" or a language code (en, es, ...)
    int max_frames = 12;                       ///< 1..60
    int segment_seconds = 60;                  ///< 15..600
    bool embed_after_processing = true;
    bool use_subtitles = true;  ///< a subtitle track or sidecar, when present, is the transcript
};
ProcessOptions optionsFrom(const nlohmann::json& body);
nlohmann::json toJson(const ProcessOptions& options);

/// "mm:ss" (or "h:mm:ss" from an hour on) of `seconds`, rounded down.
std::string clock(double seconds);

/// Where frames are looked for: one slot a segment (or `max_frames` even slots when there are
/// more segments than that), each with three candidate times across it; chooseFrames keeps one
/// candidate a slot.
struct FramePlan {
    std::vector<std::vector<double>> slots;  ///< candidate times of each slot, ascending
};
FramePlan planFrames(double duration, int segment_seconds, int max_frames);

/// For each slot the index of the candidate to keep, so that as many scenes as possible are
/// shown: candidates split into scenes where the picture changes clearly, and each slot takes a
/// candidate of a scene not shown yet (the one that ends soonest), else its middle one. `change`
/// holds, for every candidate in time order (all slots flattened), the picture change from the
/// one before (the first candidate's is ignored).
std::vector<std::size_t> chooseFrames(const FramePlan& plan, const std::vector<double>& change);

/// A sampled frame as stored and listed.
struct FrameRecord {
    int frame_index = 0;
    double timestamp_seconds = 0;
    int width = 0;
    int height = 0;
    std::string object_name;  ///< the plugin's object (documents/<id>/frames/<n>.jpg)
    std::string ocr_text;
};

/// One piece of the timeline (`segment_seconds` long, the last one shorter).
struct Segment {
    int segment_index = 0;
    double start_seconds = 0;
    double end_seconds = 0;
    std::string title;  ///< "mm:ss – mm:ss"
    std::string transcript;
    std::string ocr_text;
    std::vector<int> frame_indices;
    std::string summary;
};

/// ceil(duration / segment_seconds) segments (at least one), each with the transcript cues
/// whose middle falls in it, the text of its frames and an extractive summary.
std::vector<Segment> buildSegments(double duration, int segment_seconds,
                                   const std::vector<Cue>& transcript,
                                   const std::vector<FrameRecord>& frames);

/// Up to `max_sentences` sentences of `text` that carry its most frequent content words, in
/// their original order (a Luhn-style extractive summary).
std::string extractiveSummary(const std::string& text, std::size_t max_sentences = 2);

/// A chunk of the video for search: text and the time span it covers.
struct VideoChunk {
    std::string text;
    double start_seconds = 0;
    double end_seconds = 0;
    std::string label;  ///< "overview", a segment's title, or "frame mm:ss"
};

/// An overview chunk, the transcript of each segment in pieces of at most `max_words` words
/// (each spanning the cues it holds), and one chunk for each frame with on-screen text.
std::vector<VideoChunk> buildChunks(const std::string& title, double duration,
                                    const std::vector<Segment>& segments,
                                    const std::vector<Cue>& transcript,
                                    const std::vector<FrameRecord>& frames,
                                    std::size_t max_words = 120);

/// The sentence of `text` sharing the most content words with `question` (the first one when
/// none shares any).
std::string bestSentence(const std::string& text, const std::string& question);

/// Lower-case letters and digits of `text` with everything else as single spaces: the form
/// transcripts are compared in.
std::string normalised(const std::string& text);

nlohmann::json toJson(const FrameRecord& frame);
nlohmann::json toJson(const Segment& segment);

}  // namespace docintel::video

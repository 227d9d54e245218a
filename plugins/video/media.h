#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plugin_api/result.h"

namespace docintel::video {

/// What a media file holds (ffprobe's facts, read with libavformat).
struct MediaInfo {
    std::string container;  ///< libavformat's short name, e.g. "mov,mp4,m4a,3gp,3g2,mj2"
    double duration_seconds = 0;
    double fps = 0;
    int width = 0;
    int height = 0;
    std::string video_codec;  ///< empty without a video stream
    std::string audio_codec;  ///< empty without an audio stream
    std::int64_t bitrate = 0;
    std::int64_t frame_count = 0;  ///< from the stream header, else estimated from fps
    bool has_subtitles = false;    ///< a text subtitle track libavcodec can decode
};

/// A timed piece of text: a subtitle cue or a recognised speech segment.
struct Cue {
    double start = 0;
    double end = 0;
    std::string text;
};

/// A decoded video frame: JPEG bytes for people, an 8-bit gray plane for OCR.
struct Frame {
    double timestamp = 0;
    int width = 0;
    int height = 0;
    std::string jpeg;
    std::vector<std::uint8_t> gray;  ///< width * height bytes
};

/// Reads the file's container and streams. `unreadable_media` (422) when libavformat cannot
/// open it or it has neither video nor audio; a truncated file whose header is readable opens.
plugin::Result<MediaInfo> probe(const std::string& path);

/// The first audio stream decoded and resampled to 16 kHz mono float PCM (whisper.cpp's input).
/// Empty when the file has no audio stream. A damaged tail ends the audio where it breaks.
plugin::Result<std::vector<float>> decodeAudio16kMono(const std::string& path);

/// The frame shown at each of `timestamps` (seconds, any order; each seeks to the key frame
/// before it and decodes forward), scaled to at most `max_width` pixels wide. Timestamps past
/// the end give the last frame decoded; a timestamp with no decodable frame is left out.
plugin::Result<std::vector<Frame>> grabFrames(const std::string& path,
                                              const std::vector<double>& timestamps,
                                              int max_width = 960);

/// How much the picture changes from `a` to `b` (same size): the mean absolute difference of
/// their gray planes on a coarse grid, 0 (same) .. 255.
double pictureChange(const Frame& a, const Frame& b);

/// The cues of the first text subtitle track (mov_text, SubRip, WebVTT, ASS), with styling
/// removed; empty when there is none.
plugin::Result<std::vector<Cue>> subtitleCues(const std::string& path);

/// The cues of an `.srt` or `.vtt` file's text (both forms are read; cues without text are
/// dropped).
std::vector<Cue> parseSubtitleText(const std::string& text);

}  // namespace docintel::video

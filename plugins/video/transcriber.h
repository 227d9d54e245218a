#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "plugin_api/result.h"
#include "video/media.h"

namespace docintel::video {

/// A timed word of a transcript.
struct Word {
    double start = 0;
    double end = 0;
    std::string text;
};

/// What speech recognition heard.
struct Transcript {
    std::vector<Cue> cues;    ///< phrases, in order
    std::vector<Word> words;  ///< the same text word by word, when the recogniser times words
    std::string language;     ///< the spoken (or asked) language's code, e.g. "en"
    std::string model;        ///< which model heard it, e.g. "whisper-base"
};

/// A local speech recogniser. Thread-safe.
class Transcriber {
  public:
    virtual ~Transcriber() = default;
    /// Transcribes 16 kHz mono `pcm` in `language` ("auto" detects it). `progress` sees 0..100
    /// and returns false to stop (`transcription_cancelled`). Silence gives no cues.
    virtual plugin::Result<Transcript> transcribe(const std::vector<float>& pcm,
                                                  const std::string& language,
                                                  const std::function<bool(int)>& progress) = 0;
};

/// whisper.cpp (docs/video.md "Speech recognition") with the models `make model` converts into
/// `models_dir`: whisper-tiny.en for English, whisper-base for every other language and for
/// "auto", and Silero voice-activity detection (whisper-vad) so silence and music give no text.
/// `models_dir` is read at the first transcription; a missing model then fails with
/// `speech_model_missing` (503).
std::unique_ptr<Transcriber> makeWhisperTranscriber(std::string models_dir, int threads);

/// makeWhisperTranscriber for a plugin: the models in DOCINTEL_MODELS_DIR when set, else in
/// `<data_dir>/models`, on up to four threads.
std::unique_ptr<Transcriber> makePluginTranscriber(const std::string& data_dir);

}  // namespace docintel::video

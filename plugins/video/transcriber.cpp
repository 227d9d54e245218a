#include "video/transcriber.h"

#include <whisper.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

namespace docintel::video {
namespace {

struct ContextFreer {
    void operator()(whisper_context* c) const { whisper_free(c); }
};

void quiet(enum ggml_log_level, const char*, void*) {}

/// "en-US" → "en"; "" → "auto".
std::string languageCode(const std::string& language) {
    if (language.empty() || language == "auto") return "auto";
    std::string code = language.substr(0, language.find_first_of("-_"));
    for (auto& c : code) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return code;
}

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\n");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t\n") - a + 1);
}

/// `text` with invalid UTF-8 dropped (a token can end inside a character).
std::string validUtf8(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80         ? 1
                              : (c >> 5) == 6  ? 2
                              : (c >> 4) == 14 ? 3
                              : (c >> 3) == 30 ? 4
                                               : 0;
        bool ok = n > 0 && i + n <= text.size();
        for (std::size_t k = 1; ok && k < n; ++k) {
            ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        }
        if (ok) out.append(text, i, n);
        i += ok ? n : 1;
    }
    return out;
}

/// Whether `text` is speech rather than whisper's annotations of non-speech: it holds a letter
/// or digit outside [brackets] and (parentheses) — "[Music]", "(applause)" and "♪" (U+2600..27BF,
/// lead byte 0xE2) are not speech.
bool isSpeech(const std::string& text) {
    int depth = 0;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '[' || ch == '(') ++depth;
        if (ch == ']' || ch == ')') depth = std::max(0, depth - 1);
        if (depth > 0) continue;
        if (std::isalnum(c)) return true;
        // The lead byte of a letter of another script (Latin-1 letters to Arabic, Indic, CJK);
        // 0xE2 leads punctuation and symbols.
        if ((c >= 0xC3 && c <= 0xE1) || (c >= 0xE3 && c <= 0xED)) return true;
    }
    return false;
}

/// whisper's progress callback: forwards to the caller's function.
struct ProgressSink {
    const std::function<bool(int)>* progress = nullptr;
    bool stopped = false;
};

void onProgress(whisper_context*, whisper_state*, int pct, void* user) {
    auto* sink = static_cast<ProgressSink*>(user);
    if (sink->progress && *sink->progress && !(*sink->progress)(pct)) sink->stopped = true;
}

bool onAbort(void* user) { return static_cast<ProgressSink*>(user)->stopped; }

class WhisperTranscriber final : public Transcriber {
  public:
    WhisperTranscriber(std::string models_dir, int threads)
        : models_dir_(std::move(models_dir)), threads_(threads) {}

    plugin::Result<Transcript> transcribe(const std::vector<float>& pcm,
                                          const std::string& language,
                                          const std::function<bool(int)>& progress) override {
        const std::string code = languageCode(language);
        // English goes to the English-only tiny model when it is there; everything else (and
        // detection) to the multilingual base model.
        std::string model = code == "en" ? "whisper-tiny.en" : "whisper-base";
        if (code == "en" && !std::filesystem::exists(modelPath(model))) model = "whisper-base";
        auto loaded = load(model);
        if (!loaded) return loaded.error();
        Model& m = **loaded;
        // whisper_full (not whisper_full_with_state) is the call that runs voice-activity
        // detection in whisper.cpp 1.8; it uses the context's own state, so a model
        // transcribes one audio at a time.
        std::lock_guard busy(m.busy);
        whisper_context* context = m.context.get();
        Transcript out;
        out.model = model;
        out.language = code == "auto" ? "" : code;
        if (pcm.size() < 1600) return out;  // under 0.1 s: nothing to hear

        whisper_full_params params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
        params.n_threads = threads_;
        params.language = code.c_str();
        params.translate = false;
        params.no_context = true;
        params.token_timestamps = true;
        params.suppress_nst = true;
        params.print_progress = false;
        params.print_realtime = false;
        params.print_special = false;
        params.print_timestamps = false;
        const std::string vad = modelPath("whisper-vad");
        if (std::filesystem::exists(vad)) {
            params.vad = true;
            params.vad_model_path = vad.c_str();
        }
        ProgressSink sink{&progress};
        params.progress_callback = onProgress;
        params.progress_callback_user_data = &sink;
        params.abort_callback = onAbort;
        params.abort_callback_user_data = &sink;

        const int rc = whisper_full(context, params, pcm.data(), static_cast<int>(pcm.size()));
        if (sink.stopped) {
            return plugin::Error{"transcription_cancelled", "transcription was stopped", 409};
        }
        if (rc != 0) {
            return plugin::Error::internal("whisper.cpp failed to transcribe (code " +
                                           std::to_string(rc) + ")");
        }
        if (code == "auto") {
            const int id = whisper_full_lang_id(context);
            if (id >= 0) out.language = whisper_lang_str(id);
        }
        const whisper_token eot = whisper_token_eot(context);
        const int segments = whisper_full_n_segments(context);
        for (int s = 0; s < segments; ++s) {
            Cue cue;
            cue.start = whisper_full_get_segment_t0(context, s) / 100.0;
            cue.end = whisper_full_get_segment_t1(context, s) / 100.0;
            cue.text = trimmed(validUtf8(whisper_full_get_segment_text(context, s)));
            if (!isSpeech(cue.text)) continue;  // silence and music give no text
            out.cues.push_back(cue);
            // Words: a token starting with a space starts a word; special tokens are skipped.
            const int tokens = whisper_full_n_tokens(context, s);
            for (int t = 0; t < tokens; ++t) {
                const whisper_token_data data = whisper_full_get_token_data(context, s, t);
                if (data.id >= eot) continue;
                const std::string piece = whisper_full_get_token_text(context, s, t);
                if (piece.empty()) continue;
                const double t0 = data.t0 / 100.0;
                const double t1 = data.t1 / 100.0;
                if (piece.front() == ' ' || out.words.empty() || out.words.back().end < cue.start) {
                    out.words.push_back({t0, t1, trimmed(piece)});
                } else {
                    out.words.back().text += piece;
                    out.words.back().end = std::max(out.words.back().end, t1);
                }
            }
        }
        for (auto& w : out.words) w.text = validUtf8(w.text);
        out.words.erase(std::remove_if(out.words.begin(), out.words.end(),
                                       [](const Word& w) { return !isSpeech(w.text); }),
                        out.words.end());
        return out;
    }

  private:
    std::string modelPath(const std::string& model) const {
        if (model == "whisper-vad") return models_dir_ + "/whisper-vad/ggml-silero.bin";
        return models_dir_ + "/" + model + "/ggml-model.bin";
    }

    /// A loaded model and the lock its (single) decoding state is used under.
    struct Model {
        std::unique_ptr<whisper_context, ContextFreer> context;
        std::mutex busy;
    };

    plugin::Result<Model*> load(const std::string& model) {
        std::lock_guard lock(mutex_);
        auto it = models_.find(model);
        if (it != models_.end()) return it->second.get();
        const std::string path = modelPath(model);
        if (!std::filesystem::exists(path)) {
            return plugin::Error::unavailable(
                "speech_model_missing",
                "the speech recognition model " + model + " is not installed (`make model`)");
        }
        static std::once_flag silenced;
        std::call_once(silenced, [] { whisper_log_set(quiet, nullptr); });
        whisper_context_params params = whisper_context_default_params();
        params.use_gpu = false;
        auto loaded = std::make_unique<Model>();
        loaded->context.reset(whisper_init_from_file_with_params(path.c_str(), params));
        if (!loaded->context) {
            return plugin::Error::unavailable("speech_model_unreadable",
                                              "whisper.cpp could not load " + path);
        }
        Model* raw = loaded.get();
        models_.emplace(model, std::move(loaded));
        return raw;
    }

    const std::string models_dir_;
    const int threads_;
    std::mutex mutex_;  // guards models_ (each model is loaded once and kept)
    std::map<std::string, std::unique_ptr<Model>> models_;
};

}  // namespace

std::unique_ptr<Transcriber> makeWhisperTranscriber(std::string models_dir, int threads) {
    return std::make_unique<WhisperTranscriber>(std::move(models_dir), threads);
}

std::unique_ptr<Transcriber> makePluginTranscriber(const std::string& data_dir) {
    std::string models = data_dir + "/models";
    if (const char* dir = std::getenv("DOCINTEL_MODELS_DIR"); dir && *dir) models = dir;
    const int threads =
        static_cast<int>(std::max(1u, std::min(4u, std::thread::hardware_concurrency())));
    return makeWhisperTranscriber(std::move(models), threads);
}

}  // namespace docintel::video

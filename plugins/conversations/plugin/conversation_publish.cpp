// Approval and publication of a conversation's transcript (docs/conversations.md
// "Publication"), and audio turns: what needs the job engine, the object store or the speech
// recogniser.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "conversations/languages.h"
#include "conversations/plugin/conversation_service.h"
#include "shared/file_names.h"
#include "shared/ids.h"
#include "shared/json_text.h"
#include "shared/problems.h"
#include "shared/study_text.h"
#include "video/media.h"

namespace docintel::conversations {

using nlohmann::json;
using plugin::Error;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;
using shared::textOf;

namespace {

const char* const kAudioExtensions[] = {"wav",  "flac", "ogg", "oga",  "opus", "mp3",
                                        "webm", "mp4",  "m4a", "mpeg", "mpga"};

bool isAudioFile(const std::string& filename, const std::string& content_type) {
    const std::string ext = shared::extensionOf(filename);
    for (const char* e : kAudioExtensions) {
        if (ext == e) return true;
    }
    const std::string type = content_type.substr(0, content_type.find(';'));
    return type.rfind("audio/", 0) == 0 || type == "video/webm" || type == "video/mp4" ||
           type == "application/ogg";
}

/// Removes the file when it goes out of scope.
struct TempFile {
    std::string path;
    ~TempFile() {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
    }
};

}  // namespace

Result<json> ConversationService::approve(const Caller& c, const std::string& id,
                                          const json& body) {
    if (body.value("confirm", false) != true) {
        return confirmationRequired("approve_conversation_transcript",
                                    "publishes the transcript for good");
    }
    // Every refusal is checked before the job is queued; the job is queued before the approval
    // commits (it waits for it), so a process killed in between leaves no approved transcript
    // without its job.
    const auto approveIn = [&](PluginTx& tx) -> Result<store::SessionRecord> {
        auto o = open(tx, c, id, true);
        if (!o) return o.error();
        auto& s = o->session;
        if (auto ok = conversations::approve(s.status); !ok) return ok.error();
        std::string text = study::trim(textOf(body, "transcript"));
        if (text.empty()) {
            auto turns = store::turns(tx, s.id);
            if (!turns) return turns.error();
            text = editableTranscript(store::turnsOf(*turns));
        }
        if (text.empty()) {
            return shared::validationError(json::array({"body", "transcript"}),
                                           "There is no transcript to approve", "empty_transcript");
        }
        if (auto segments = parseTranscript(text); !segments) {
            return shared::atField(segments.error(), json::array({"body", "transcript"}));
        }
        s.approved_by = c.principal.user_id;
        s.approved_transcript = text;
        return std::move(s);
    };
    auto checked = host_.transact([&](PluginTx& tx) { return approveIn(tx); });
    if (!checked) return checked.error();
    auto job =
        host_.enqueueJob(kPublishJob, {{"session_id", id}, {"user_id", c.principal.user_id}});
    if (!job) return job.error();
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto s = approveIn(tx);
        if (!s) return s.error();
        s->job_id = *job;
        if (auto ok = store::updateSession(tx, *s); !ok) return ok.error();
        return storedJson(tx, id);
    });
}

Status ConversationService::runPublish(plugin::PluginJob& job) {
    const std::string id = textOf(job.payload(), "session_id");
    plugin::Principal principal;
    principal.user_id = textOf(job.payload(), "user_id");
    // The job is queued just before the approval commits: give the commit a moment, then
    // leave it to the engine's retry.
    std::optional<store::SessionRecord> loaded;
    for (int attempt = 0; attempt < 20; ++attempt) {
        auto found =
            host_.transact([&](PluginTx& tx) { return store::findSession(tx, id, false); });
        if (!found) return found.error();
        if (!found->has_value()) return {};  // deleted before it was published
        loaded = std::move(*found);
        if (!loaded->job_id.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    store::SessionRecord s = std::move(*loaded);
    if (s.job_id.empty()) {
        return Error::unavailable("approval_pending", "the approval has not committed yet");
    }
    if (s.job_id != job.id()) return {};  // another approval's job publishes it
    const auto status = s.status.processing;
    if (status != ProcessingStatus::received && status != ProcessingStatus::processing) return {};

    const auto step = [&](ProcessingStep next, const json* summary) -> Status {
        auto stepped = host_.transact([&](PluginTx& tx) -> Result<bool> {
            auto found = store::findSession(tx, id, true);
            if (!found) return found.error();
            if (!found->has_value()) return Error::notFound("session deleted");
            store::SessionRecord row = **found;
            if (row.status.step != next) {
                if (auto ok = advanceProcessing(row.status, next); !ok) return ok.error();
            }
            if (summary) row.summary = *summary;
            if (auto ok = store::updateSession(tx, row); !ok) return ok.error();
            return true;
        });
        if (!stepped) return stepped.error();
        return {};
    };
    const auto fail = [&](const Error& e) -> Status {
        (void)host_.transact([&](PluginTx& tx) -> Result<bool> {
            auto found = store::findSession(tx, id, true);
            if (!found || !found->has_value()) return true;
            store::SessionRecord row = **found;
            if (!failProcessing(row.status)) return true;
            row.error_message = e.message;
            if (auto ok = store::updateSession(tx, row); !ok) return ok.error();
            return true;
        });
        (void)host_.setDocumentState(principal, s.document_id, "error", e.code, e.message);
        return e;
    };

    if (auto ok = step(ProcessingStep::transcribing, nullptr); !ok) return ok;
    auto parsed = parseTranscript(s.approved_transcript);
    if (!parsed) return fail(parsed.error());
    std::vector<Segment> segments = *parsed;
    if (s.redact_pii) {
        std::vector<std::string> texts;
        for (const auto& seg : segments) texts.push_back(seg.text);
        auto redacted = host_.redactPii(texts);
        if (!redacted) return fail(redacted.error());
        for (std::size_t i = 0; i < segments.size(); ++i) segments[i].text = (*redacted)[i];
    }
    const json summary = summaryOf(segments, s.state, s.tmpl);
    if (auto ok = step(ProcessingStep::saving_transcript, &summary); !ok) return ok;
    if (auto ok = host_.writeDocumentText(principal, s.document_id, formatTranscript(segments),
                                          "call_transcript");
        !ok) {
        return fail(ok.error());
    }
    std::vector<plugin::TimedChunk> chunks;
    for (const auto& seg : segments) {
        plugin::TimedChunk chunk;
        chunk.text = seg.speaker + ": " + seg.text;
        chunk.section_path = {seg.speaker};
        chunk.timed = seg.start_seconds.has_value();
        chunk.start_seconds = seg.start_seconds.value_or(0);
        chunk.end_seconds = seg.end_seconds.value_or(chunk.start_seconds);
        chunks.push_back(std::move(chunk));
    }
    if (auto ok = host_.storeDocumentChunks(principal, s.document_id, chunks); !ok) {
        return fail(ok.error());
    }
    if (auto ok = step(ProcessingStep::embedding, nullptr); !ok) return ok;
    if (auto ok = host_.embedDocument(principal, s.document_id); !ok) return fail(ok.error());
    if (auto ok = step(ProcessingStep::completed, nullptr); !ok) return ok;
    emit(s, "conversation.approved", principal.user_id,
         {{"segment_count", segments.size()}, {"template_id", s.tmpl.id}});
    return {};
}

Result<json> ConversationService::addAudioTurn(const Caller& c, const std::string& id,
                                               const AudioInput& audio, const json& fields) {
    if (audio.bytes.size() > kMaxAudioBytes) {
        return Error{"file_too_large", "an audio turn may be at most 15 MB", 413};
    }
    if (!isAudioFile(audio.filename, audio.content_type)) {
        return Error{"unsupported_type", "an audio turn is WAV, FLAC, OGG, MP3, WebM or MP4 audio",
                     415};
    }
    if (audio.bytes.empty()) {
        return shared::validationError(json::array({"body", "audio"}), "The recording is empty",
                                       "empty_audio");
    }
    auto checked = turnAllowed(c, id);
    if (!checked) return checked.error();

    const std::string ext = shared::extensionOf(audio.filename);
    std::error_code ec;
    const std::string dir = host_.dataDir() + "/plugins/conversations/tmp";
    std::filesystem::create_directories(dir, ec);
    TempFile file{dir + "/" + shared::newId() + (ext.empty() ? "" : "." + ext)};
    {
        std::ofstream out(file.path, std::ios::binary);
        out.write(audio.bytes.data(), static_cast<std::streamsize>(audio.bytes.size()));
        if (!out) return Error::unavailable("storage_error", "the recording could not be staged");
    }
    const json at = json::array({"body", "audio"});
    auto pcm = video::decodeAudio16kMono(file.path);
    if (!pcm) return shared::validationError(at, pcm.error().message, "unreadable_audio");
    if (pcm->empty()) {
        return shared::validationError(at, "The file holds no audio stream", "unreadable_audio");
    }
    auto heard = transcriber_->transcribe(*pcm, baseLanguage(checked->language_code), nullptr);
    if (!heard) return heard.error();
    std::string text;
    for (const auto& cue : heard->cues) {
        const std::string piece = study::trim(cue.text);
        if (piece.empty()) continue;
        if (!text.empty()) text += ' ';
        text += piece;
    }
    if (text.empty()) {
        return shared::validationError(at, "No speech was heard in the recording", "no_speech");
    }
    const std::string object = "documents/" + checked->document_id + "/audio/" + shared::newId() +
                               (ext.empty() ? "" : "." + ext);
    auto stored = host_.putObject(
        object, audio.bytes,
        audio.content_type.empty() ? "application/octet-stream" : audio.content_type);
    if (!stored) return stored.error();
    const json transcription = {{"model", heard->model},
                                {"language", heard->language},
                                {"duration_seconds", static_cast<double>(pcm->size()) / 16000.0}};
    return recordTurn(c, id, text, textOf(fields, "speaker"), "audio", object,
                      {{"transcription", transcription}});
}

}  // namespace docintel::conversations

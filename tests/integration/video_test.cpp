// Acceptance test of the video plugin (issue 17, docs/video.md) over REST against the real
// server with build/plugins/video.so: real FFmpeg, whisper.cpp with the converted models, the
// server's Tesseract and encoder, real Postgres.
//
// - The shared JFK clip (../shared/datasets/speech-jfk/jfk-subtitled.mp4) processed twice: with
//   its subtitle track, and with subtitles ignored (speech recognition, language detected).
//   Both transcripts hold "ask not what your country can do for you"; "Americans" is timed
//   within 1 s of 1.8 s; search for "fellow Americans" finds a window holding 1.8 s.
// - A video the test makes (espeak-ng speech over three coloured scenes with drawn words):
//   the frames' OCR text holds the words; ceil(duration / segment_seconds) segments.
// - Refusals (rights not confirmed, bad parameters, not a video, too large), a truncated MP4
//   (error, with the document's error), an MP4 without audio (completed, transcription
//   skipped), another user (404), and deletion removing every object.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "support/test_server.h"
#include "video/timeline.h"

namespace docintel::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string jfkDir() { return sharedDir() + "/datasets/speech-jfk/"; }

using video::normalised;

int run(const std::string& command) { return std::system(command.c_str()); }

class Video : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        ASSERT_TRUE(fs::exists(builtPlugin("video"))) << builtPlugin("video") << " is not built";
        setenv("DOCINTEL_MODELS_DIR", modelsDir().c_str(), 1);
        setenv("DOCINTEL_VIDEO_MAX_BYTES", "50000000", 1);
        TestServer::Options options;
        options.plugins = {builtPlugin("video")};
        server_ = new TestServer(options);
        owner_ = server_->createUser("owner@video.example");
        token_ = server_->token(owner_, TestServer::allScopes(), 3600);
        const std::string other = server_->createUser("other@video.example");
        other_token_ = server_->token(other, TestServer::allScopes(), 3600);
        work_ = fs::temp_directory_path() / ("docintel_video_test_" + std::to_string(::getpid()));
        fs::create_directories(work_);
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
        fs::remove_all(work_);
    }

    static Response call(const std::string& method, const std::string& path,
                         const json& body = nullptr, const std::string& token = token_) {
        const auto r =
            server_->request(method, path, body.is_null() ? std::string() : body.dump(), token);
        EXPECT_LT(r.status, 500) << method << " " << path << ": " << r.body;
        return r;
    }

    /// create → PUT → complete; returns the document id.
    static std::string upload(const std::string& filename, const std::string& bytes) {
        auto created = call(
            "POST", "/api/v1/video-uploads",
            {{"filename", filename}, {"content_type", "video/mp4"}, {"file_size", bytes.size()}});
        EXPECT_EQ(created.status, 201) << created.body;
        const json session = created.json();
        EXPECT_EQ(session.value("method", ""), "PUT");
        const auto put =
            TestServer::putObject(session["upload_url"].get<std::string>(), bytes, "video/mp4");
        EXPECT_LT(put.status, 300) << put.body;
        const std::string id = session["doc_id"];
        const auto done =
            call("POST", "/api/v1/video-uploads/complete",
                 {{"doc_id", id}, {"storage_source_path", session["storage_source_path"]}});
        EXPECT_EQ(done.status, 200) << done.body;
        EXPECT_EQ(done.json().value("status", ""), "uploaded");
        const auto document = call("GET", "/api/v1/documents/" + id);
        EXPECT_EQ(document.json().value("doc_type", ""), "video");
        EXPECT_EQ(document.json().value("status", ""), "uploaded");
        return id;
    }

    /// Starts processing and polls until it is completed or error (as clients do).
    static json process(const std::string& id, json options) {
        options["rights_confirmed"] = true;
        const auto started = call("POST", "/api/v1/videos/" + id + "/process", options);
        EXPECT_EQ(started.status, 202) << started.body;
        json status;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
        while (std::chrono::steady_clock::now() < deadline) {
            status = call("GET", "/api/v1/videos/" + id + "/status").json();
            const std::string s = status.value("processing_status", "");
            if (s == "completed" || s == "error") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return status;
    }

    static std::string file(const std::string& path) { return readFile(path); }

    /// A hit of search_video for `question` (not the overview) whose window holds `t` (±slack).
    /// Retried for a few seconds: the search index follows a newly embedded document shortly after.
    static bool searchFinds(const std::string& id, const std::string& question, double t,
                            double slack) {
        std::string last;
        const bool found = eventually([&] {
            const auto r =
                call("POST", "/api/v1/videos/" + id + "/search", {{"question", question}});
            last = r.body;
            if (r.status != 200) return false;
            for (const auto& hit : r.json().value("hits", json::array())) {
                // The overview spans the whole video: it holds every time, so it proves nothing.
                if (hit.value("label", "") == "overview") continue;
                if (hit["start_seconds"].get<double>() - slack <= t &&
                    t <= hit["end_seconds"].get<double>() + slack) {
                    return true;
                }
            }
            return false;
        });
        EXPECT_TRUE(found) << "no hit of \"" << question << "\" holds " << t << " s: " << last;
        return found;
    }

    static inline TestServer* server_ = nullptr;
    static inline std::string owner_, token_, other_token_;
    static inline fs::path work_;
};

TEST_F(Video, SubtitleTrackIsTheTranscript) {
    const std::string id = upload("jfk-subtitled.mp4", file(jfkDir() + "jfk-subtitled.mp4"));
    const json status = process(id, {{"segment_seconds", 15}, {"max_frames", 4}});
    ASSERT_EQ(status.value("processing_status", ""), "completed") << status.dump();
    EXPECT_EQ(status.value("progress_pct", 0), 100);
    EXPECT_NEAR(status["metadata"].value("duration_seconds", 0.0), 11.0, 0.3);
    EXPECT_EQ(status["metadata"].value("video_codec", ""), "h264");

    const json transcript = call("GET", "/api/v1/videos/" + id + "/transcript").json();
    EXPECT_EQ(transcript.value("source", ""), "subtitle_track");
    EXPECT_NE(
        normalised(transcript.value("text", "")).find("ask not what your country can do for you"),
        std::string::npos)
        << transcript.dump();

    const json timeline = call("GET", "/api/v1/videos/" + id + "/timeline").json();
    ASSERT_EQ(timeline["segments"].size(), 1u);  // ceil(11 / 15)
    EXPECT_EQ(timeline["segments"][0].value("title", ""), "00:00 – 00:11");
    ASSERT_GE(timeline["frames"].size(), 1u);

    const auto url = call("GET", "/api/v1/videos/" + id + "/frames/0/url");
    ASSERT_EQ(url.status, 200) << url.body;
    const std::string signed_url = url.json()["url"];
    const auto path = signed_url.substr(signed_url.find("/objects/"));
    const auto jpeg = server_->request("GET", path);
    ASSERT_EQ(jpeg.status, 200) << jpeg.body.substr(0, 200);
    ASSERT_GT(jpeg.body.size(), 100u);
    EXPECT_EQ(static_cast<unsigned char>(jpeg.body[0]), 0xFF);
    EXPECT_EQ(call("GET", "/api/v1/videos/" + id + "/frames/7/url").status, 404);

    EXPECT_EQ(call("GET", "/api/v1/documents/" + id).json().value("status", ""), "embedded");
    searchFinds(id, "fellow Americans", 1.8, 0.0);

    // The video takes part in knowledge search like any document, with times for pages.
    const auto chunks = call("GET", "/api/v1/documents/" + id + "/chunks").json();
    ASSERT_FALSE(chunks["chunks"].empty());
    EXPECT_TRUE(chunks["chunks"][0].contains("start_seconds"));
}

TEST_F(Video, SpeechRecognitionWhenSubtitlesAreIgnored) {
    const std::string id = upload("jfk-speech.mp4", file(jfkDir() + "jfk-subtitled.mp4"));
    const json status = process(id, {{"use_subtitles", false}, {"transcript_language", "auto"}});
    ASSERT_EQ(status.value("processing_status", ""), "completed") << status.dump();

    const json transcript = call("GET", "/api/v1/videos/" + id + "/transcript").json();
    EXPECT_EQ(transcript.value("source", ""), "speech_recognition");
    EXPECT_EQ(transcript.value("language", ""), "en");  // detected by the base model
    const std::string text = normalised(transcript.value("text", ""));
    EXPECT_NE(text.find("ask not what your country can do for you"), std::string::npos) << text;
    bool timed = false;
    for (const auto& w : transcript["words"]) {
        if (normalised(w.value("text", "")) == "americans") {
            timed =
                std::abs(w["start_seconds"].get<double>() - 1.8) <= 1.0 ||
                (w["start_seconds"].get<double>() <= 1.8 && 1.8 <= w["end_seconds"].get<double>());
        }
    }
    EXPECT_TRUE(timed) << transcript["words"].dump();
    searchFinds(id, "fellow Americans", 1.8, 0.0);
}

TEST_F(Video, OnScreenTextAndSegments) {
    const std::string speech = (work_ / "speech.wav").string();
    const std::string video = (work_ / "scenes.mp4").string();
    ASSERT_EQ(run("espeak-ng -w " + speech +
                  " 'Welcome to the quarterly review. Revenue grew in the northern region.'"),
              0);
    const std::string font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
    const auto scene = [&](int input, const std::string& word) {
        return "[" + std::to_string(input) + "]drawtext=fontfile=" + font + ":text=" + word +
               ":fontsize=90:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2[s" +
               std::to_string(input) + "]";
    };
    const std::string command =
        "ffmpeg -v error -y -f lavfi -i color=c=darkred:s=640x360:d=11:r=10 "
        "-f lavfi -i color=c=navy:s=640x360:d=11:r=10 "
        "-f lavfi -i color=c=darkgreen:s=640x360:d=10:r=10 -i " +
        speech + " -filter_complex '" + scene(0, "HARBOR") + ";" + scene(1, "LANTERN") + ";" +
        scene(2, "MEADOW") +
        ";[s0][s1][s2]concat=n=3:v=1:a=0[v];[3]apad=whole_dur=32[a]' "
        "-map '[v]' -map '[a]' -c:v libx264 -pix_fmt yuv420p -c:a aac -t 32 " +
        video;
    ASSERT_EQ(run(command), 0) << command;

    const std::string id = upload("scenes.mp4", file(video));
    const json status = process(id, {{"segment_seconds", 15}, {"transcript_language", "en"}});
    ASSERT_EQ(status.value("processing_status", ""), "completed") << status.dump();
    const json timeline = call("GET", "/api/v1/videos/" + id + "/timeline").json();
    EXPECT_EQ(timeline["segments"].size(), 3u);  // ceil(32 / 15)
    std::string screen;
    for (const auto& f : timeline["frames"]) screen += " " + f.value("ocr_text", "");
    for (const char* word : {"HARBOR", "LANTERN", "MEADOW"}) {
        EXPECT_NE(screen.find(word), std::string::npos) << word << " not in: " << screen;
    }
    const json frames = call("GET", "/api/v1/videos/" + id + "/frames").json();
    ASSERT_GE(frames["frames"].size(), 3u);
    EXPECT_EQ(frames["frames"][0].value("width", 0), 640);
    // The on-screen words are searchable at their frame's time (11..22 s).
    searchFinds(id, "LANTERN", 16.5, 5.5);
}

TEST_F(Video, SidecarKnowledgeAndEvents) {
    const std::string id = upload("jfk-sidecar.mp4", file(jfkDir() + "jfk-subtitled.mp4"));
    auto r = call("POST", "/api/v1/videos/" + id + "/subtitles",
                  {{"text", "WEBVTT\n\nnot a cue at all\n"}});
    EXPECT_EQ(r.status, 422) << r.body;
    r = call("POST", "/api/v1/videos/" + id + "/subtitles", {{"text", file(jfkDir() + "jfk.vtt")}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("cues", 0), 3);
    ASSERT_EQ(process(id, json::object()).value("processing_status", ""), "completed");
    const json transcript = call("GET", "/api/v1/videos/" + id + "/transcript").json();
    EXPECT_EQ(transcript.value("source", ""), "sidecar");  // the sidecar wins over the track
    ASSERT_EQ(transcript["segments"].size(), 3u);
    EXPECT_NEAR(transcript["segments"][0].value("start_seconds", 0.0), 0.33, 0.01);

    // A grounded answer over the video cites it with times instead of pages.
    std::vector<json> frames;
    eventually([&] {
        const auto asked =
            call("POST", "/api/v1/knowledge/query/stream",
                 {{"question", "What should my fellow Americans ask?"}, {"document_ids", {id}}});
        frames = sseFrames(asked.body);
        for (const auto& f : frames) {
            if (f.value("type", "") == "sources" && !f.value("sources", json::array()).empty()) {
                return true;
            }
        }
        return false;
    });
    bool timed = false;
    for (const auto& f : frames) {
        for (const auto& source : f.value("sources", json::array())) {
            timed = timed || (source.value("document_id", "") == id &&
                              source.contains("start_seconds") && source.contains("end_seconds"));
        }
    }
    EXPECT_TRUE(timed) << json(frames).dump().substr(0, 2000);

    const json events = call("GET", "/api/v1/events?resource_type=video&resource_id=" + id).json();
    bool completed = false;
    for (const auto& e : events.value("events", json::array())) {
        completed =
            completed || e.value("event_type", e.value("type", "")) == "video.processing.completed";
    }
    EXPECT_TRUE(completed) << events.dump();
}

TEST_F(Video, LanguageIsDetectedAndToneGivesNoText) {
    const std::string speech = (work_ / "es.wav").string();
    const std::string video = (work_ / "es.mp4").string();
    ASSERT_EQ(run("espeak-ng -v es -w " + speech +
                  " 'Buenos días a todos. Hoy vamos a hablar del presupuesto de la ciudad y de "
                  "las nuevas escuelas del barrio norte.'"),
              0);
    ASSERT_EQ(run("ffmpeg -v error -y -f lavfi -i color=c=gray:s=320x240:r=5 -i " + speech +
                  " -shortest -c:v libx264 -pix_fmt yuv420p -c:a aac " + video),
              0);
    const std::string es = upload("es.mp4", file(video));
    ASSERT_EQ(process(es, {{"transcript_language", "auto"}}).value("processing_status", ""),
              "completed");
    const json spanish = call("GET", "/api/v1/videos/" + es + "/transcript").json();
    EXPECT_EQ(spanish.value("language", ""), "es") << spanish.dump();
    EXPECT_NE(normalised(spanish.value("text", "")).find("presupuesto"), std::string::npos)
        << spanish.dump();

    // A steady tone is not speech: voice-activity detection leaves nothing to invent text from.
    const std::string tone = (work_ / "tone.mp4").string();
    ASSERT_EQ(run("ffmpeg -v error -y -f lavfi -i color=c=black:s=320x240:r=5:d=15 -f lavfi -i "
                  "sine=frequency=440:duration=15 -shortest -c:v libx264 -pix_fmt yuv420p "
                  "-c:a aac " +
                  tone),
              0);
    const std::string t = upload("tone.mp4", file(tone));
    ASSERT_EQ(process(t, {{"transcript_language", "en"}}).value("processing_status", ""),
              "completed");
    const json silent = call("GET", "/api/v1/videos/" + t + "/transcript").json();
    EXPECT_EQ(silent.value("source", ""), "speech_recognition");
    EXPECT_TRUE(silent["segments"].empty()) << silent.dump();
}

TEST_F(Video, RefusalsAndAccess) {
    const std::string id = upload("refusals.mp4", file(jfkDir() + "jfk-subtitled.mp4"));
    auto r = call("POST", "/api/v1/videos/" + id + "/process", {{"rights_confirmed", false}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.json().value("code", ""), "rights_confirmation_required");
    EXPECT_EQ(call("GET", "/api/v1/videos/" + id + "/status").json().value("processing_status", ""),
              "uploaded");
    r = call("POST", "/api/v1/videos/" + id + "/process",
             {{"rights_confirmed", true}, {"max_frames", 0}});
    EXPECT_EQ(r.status, 422) << r.body;
    r = call("POST", "/api/v1/videos/" + id + "/process",
             {{"rights_confirmed", true}, {"segment_seconds", 601}});
    EXPECT_EQ(r.status, 422) << r.body;
    r = call("POST", "/api/v1/videos/" + id + "/search", {{"question", "anything"}});
    EXPECT_EQ(r.status, 409) << r.body;  // not processed yet
    EXPECT_EQ(r.json().value("code", ""), "content_not_ready");

    r = call("POST", "/api/v1/video-uploads",
             {{"filename", "notes.txt"}, {"content_type", "text/plain"}, {"file_size", 10}});
    EXPECT_EQ(r.status, 415) << r.body;  // neither a video type nor a video file name
    r = call("POST", "/api/v1/video-uploads",
             {{"filename", "huge.mp4"}, {"content_type", "video/mp4"}, {"file_size", 60000000}});
    EXPECT_EQ(r.status, 413) << r.body;

    // Another user learns nothing about the video.
    for (const std::string path : {"/status", "/timeline", "/transcript", "/frames"}) {
        EXPECT_EQ(call("GET", "/api/v1/videos/" + id + path, nullptr, other_token_).status, 404);
    }
    EXPECT_EQ(call("POST", "/api/v1/videos/" + id + "/process", {{"rights_confirmed", true}},
                   other_token_)
                  .status,
              404);
    // A document that is not a video is not one here either.
    const std::string text = server_->uploadDocument(token_, "note.txt", "text/plain", "hello");
    EXPECT_EQ(call("GET", "/api/v1/videos/" + text + "/status").status, 404);
}

TEST_F(Video, DamagedAndSilentFilesEndClearly) {
    const std::string whole = file(jfkDir() + "jfk-subtitled.mp4");
    // The head of the file: its ftyp box says MP4, but the stream index (moov) is missing.
    const std::string truncated = upload("truncated.mp4", whole.substr(0, whole.size() * 4 / 10));
    json status = process(truncated, json::object());
    EXPECT_EQ(status.value("processing_status", ""), "error") << status.dump();
    EXPECT_FALSE(status.value("error_message", json()).is_null());
    ASSERT_TRUE(status["document_error"].is_object()) << status.dump();
    EXPECT_EQ(status["document_error"].value("code", ""), "unreadable_media");
    EXPECT_EQ(call("GET", "/api/v1/documents/" + truncated).json().value("status", ""), "error");

    const std::string silent_path = (work_ / "silent.mp4").string();
    ASSERT_EQ(run("ffmpeg -v error -y -i " + jfkDir() + "jfk-subtitled.mp4 -an -sn -c:v copy " +
                  silent_path),
              0);
    const std::string silent = upload("silent.mp4", file(silent_path));
    status = process(silent, json::object());
    EXPECT_EQ(status.value("processing_status", ""), "completed") << status.dump();
    const json transcript = call("GET", "/api/v1/videos/" + silent + "/transcript").json();
    EXPECT_EQ(transcript.value("source", ""), "none");
    EXPECT_TRUE(transcript["segments"].empty());
    EXPECT_FALSE(status["metadata"].value("has_audio", true));
}

TEST_F(Video, DeletingRemovesEveryObject) {
    const std::string id = upload("delete-me.mp4", file(jfkDir() + "jfk-subtitled.mp4"));
    ASSERT_EQ(process(id, {{"max_frames", 3}}).value("processing_status", ""), "completed");
    const fs::path objects = fs::path(server_->dataDir()) / "objects" / "documents" / id;
    ASSERT_TRUE(fs::exists(objects / "plugins" / "video" / "frames" / "0.jpg")) << objects;
    ASSERT_TRUE(fs::exists(objects / "plugins" / "video" / "transcript.json"));
    const auto r = call("DELETE", "/api/v1/documents/" + id);
    ASSERT_LT(r.status, 300) << r.body;
    EXPECT_FALSE(fs::exists(objects)) << objects;
    EXPECT_EQ(call("GET", "/api/v1/videos/" + id + "/status").status, 404);
    const auto chunks = call("GET", "/api/v1/documents/" + id + "/chunks");
    EXPECT_EQ(chunks.status, 404);
}

}  // namespace
}  // namespace docintel::test

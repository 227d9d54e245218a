// A worker killed (SIGKILL) while it transcribes a video loses nothing: the restarted server
// reclaims the job when its lease runs out and resumes it after its last finished step
// (extracting_metadata is not repeated), and the video completes.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "support/server_process.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const fs::path kWork =
    fs::temp_directory_path() / ("docintel_video_crash_" + std::to_string(::getpid()));

/// A plugins folder holding video.so, made before the server environment is.
std::string pluginsDir() {
    fs::create_directories(kWork / "plugins");
    fs::copy_file(builtPlugin("video"), kWork / "plugins/video.so",
                  fs::copy_options::overwrite_existing);
    return (kWork / "plugins").string();
}

class VideoCrash : public ::testing::Test {
  protected:
    ~VideoCrash() override { fs::remove_all(kWork); }

    Response call(const std::string& method, const std::string& path, const json& body = nullptr) {
        try {
            return httpRequest(procs_.port(), method, path, body.is_null() ? "" : body.dump(),
                               token_);
        } catch (const std::exception&) {
            return Response{};
        }
    }
    json status(const std::string& id) {
        const auto r = call("GET", "/api/v1/videos/" + id + "/status");
        return r.status == 200 ? r.json() : json::object();
    }

    TestDatabase db_;
    ServerProcesses procs_{db_.url(), "DOCINTEL_MODELS_DIR=" + modelsDir() +
                                          " DOCINTEL_PLUGINS_DIR=" + pluginsDir() +
                                          " DOCINTEL_JOB_LEASE_SECONDS=3"};
    std::string token_;
};

TEST_F(VideoCrash, AKilledTranscriptionResumesAndCompletes) {
    // 40 s of speech, so transcription with the base model is long enough to be cut.
    const std::string speech = (kWork / "speech.wav").string();
    const std::string video = (kWork / "talk.mp4").string();
    std::string words;
    for (int i = 0; i < 6; ++i) {
        words +=
            "The harbour committee met on Tuesday to discuss the new lighthouse and the "
            "repairs to the northern pier. ";
    }
    ASSERT_EQ(std::system(("espeak-ng -w " + speech + " '" + words + "'").c_str()), 0);
    ASSERT_EQ(std::system(("ffmpeg -v error -y -f lavfi -i color=c=navy:s=320x240:r=5 -i " +
                           speech + " -shortest -c:v libx264 -pix_fmt yuv420p -c:a aac " + video)
                              .c_str()),
              0);
    const std::string bytes = readFile(video);
    ASSERT_FALSE(bytes.empty());

    token_ = procs_.preparedToken("crash@video.example", "video:read video:process documents:read");
    ASSERT_FALSE(token_.empty());
    pid_t pid = procs_.start();
    ASSERT_GT(pid, 0);

    const auto created = call(
        "POST", "/api/v1/video-uploads",
        {{"filename", "talk.mp4"}, {"content_type", "video/mp4"}, {"file_size", bytes.size()}});
    ASSERT_EQ(created.status, 201) << created.body;
    const json session = created.json();
    ASSERT_LT(TestServer::putObject(session["upload_url"], bytes, "video/mp4").status, 300);
    const std::string id = session["doc_id"];
    ASSERT_EQ(call("POST", "/api/v1/video-uploads/complete",
                   {{"doc_id", id}, {"storage_source_path", session["storage_source_path"]}})
                  .status,
              200);
    const auto started = call("POST", "/api/v1/videos/" + id + "/process",
                              {{"rights_confirmed", true}, {"transcript_language", "auto"}});
    ASSERT_EQ(started.status, 202) << started.body;
    const std::string job = started.json()["job_id"];

    // Kill the server while it transcribes.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    std::string step;
    while (std::chrono::steady_clock::now() < deadline && step != "transcribing_audio") {
        step = status(id).value("progress_step", "");
        ASSERT_NE(step, "completed") << "finished before it could be killed";
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(step, "transcribing_audio");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    procs_.kill(pid);
    EXPECT_EQ(
        db_.scalar("SELECT checkpoint ? 'extracting_metadata' FROM jobs WHERE id = '" + job + "'"),
        "t");
    EXPECT_EQ(
        db_.scalar("SELECT checkpoint ? 'transcribing_audio' FROM jobs WHERE id = '" + job + "'"),
        "f");

    pid = procs_.start();
    ASSERT_GT(pid, 0);
    json last;
    deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (std::chrono::steady_clock::now() < deadline) {
        last = status(id);
        const std::string s = last.value("processing_status", "");
        if (s == "completed" || s == "error") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    ASSERT_EQ(last.value("processing_status", ""), "completed") << last.dump();
    EXPECT_EQ(db_.scalar("SELECT attempts >= 2 FROM jobs WHERE id = '" + job + "'"), "t");
    const auto transcript = call("GET", "/api/v1/videos/" + id + "/transcript").json();
    EXPECT_NE(transcript.value("text", "").find("lighthouse"), std::string::npos)
        << transcript.dump();
}

}  // namespace
}  // namespace docintel::test

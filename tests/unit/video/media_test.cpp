// The video media layer on the shared JFK clip (../shared/datasets/speech-jfk): an 11 s H.264
// 320x240 10 fps MP4 with AAC audio and a mov_text subtitle track, and its SRT/VTT sidecars.
#include "video/media.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace docintel::video {
namespace {

const std::string kJfk = std::string(DOCINTEL_SOURCE_DIR) + "/../shared/datasets/speech-jfk/";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Media, ProbeReadsStreams) {
    auto info = probe(kJfk + "jfk-subtitled.mp4");
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_NEAR(info->duration_seconds, 11.0, 0.2);
    EXPECT_EQ(info->width, 320);
    EXPECT_EQ(info->height, 240);
    EXPECT_NEAR(info->fps, 10.0, 0.01);
    EXPECT_EQ(info->video_codec, "h264");
    EXPECT_EQ(info->audio_codec, "aac");
    EXPECT_TRUE(info->has_subtitles);
    EXPECT_GT(info->bitrate, 0);
    EXPECT_NEAR(static_cast<double>(info->frame_count), 110, 2);
}

TEST(Media, AudioIsSixteenKilohertzMono) {
    auto pcm = decodeAudio16kMono(kJfk + "jfk.flac");
    ASSERT_TRUE(pcm) << pcm.error().message;
    EXPECT_NEAR(static_cast<double>(pcm->size()) / 16000.0, 11.0, 0.1);
    float peak = 0;
    for (float s : *pcm) peak = std::max(peak, std::abs(s));
    EXPECT_GT(peak, 0.1f);
    EXPECT_LE(peak, 1.01f);
}

TEST(Media, SubtitleTrackAndSidecarsAgree) {
    auto track = subtitleCues(kJfk + "jfk-subtitled.mp4");
    ASSERT_TRUE(track) << track.error().message;
    const auto srt = parseSubtitleText(slurp(kJfk + "jfk.srt"));
    const auto vtt = parseSubtitleText(slurp(kJfk + "jfk.vtt"));
    ASSERT_EQ(track->size(), 3u);
    ASSERT_EQ(srt.size(), 3u);
    ASSERT_EQ(vtt.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ((*track)[i].text, srt[i].text);
        EXPECT_EQ(vtt[i].text, srt[i].text);
        EXPECT_NEAR((*track)[i].start, srt[i].start, 0.05);
        EXPECT_NEAR((*track)[i].end, srt[i].end, 0.05);
        EXPECT_NEAR(vtt[i].start, srt[i].start, 0.01);
    }
    EXPECT_NEAR(srt[0].start, 0.33, 0.01);
    EXPECT_NE(srt[0].text.find("fellow Americans"), std::string::npos);
}

TEST(Media, FramesAreJpegsAtTheirTimes) {
    auto frames = grabFrames(kJfk + "jfk-subtitled.mp4", {9.0, 1.0, 5.0, 30.0});
    ASSERT_TRUE(frames) << frames.error().message;
    ASSERT_EQ(frames->size(), 4u);
    EXPECT_DOUBLE_EQ((*frames)[0].timestamp, 1.0);
    EXPECT_DOUBLE_EQ((*frames)[3].timestamp, 30.0);  // past the end: the last frame
    for (const auto& f : *frames) {
        EXPECT_EQ(f.width, 320);
        EXPECT_EQ(f.height, 240);
        ASSERT_GT(f.jpeg.size(), 100u);
        EXPECT_EQ(static_cast<unsigned char>(f.jpeg[0]), 0xFF);
        EXPECT_EQ(static_cast<unsigned char>(f.jpeg[1]), 0xD8);
        EXPECT_EQ(f.gray.size(), 320u * 240u);
    }
    // testsrc2 moves: pictures seconds apart differ, a picture does not differ from itself.
    EXPECT_GT(pictureChange((*frames)[0], (*frames)[1]), 1.0);
    EXPECT_DOUBLE_EQ(pictureChange((*frames)[0], (*frames)[0]), 0.0);
}

TEST(Media, DamagedFilesFailClearly) {
    const auto dir = std::filesystem::temp_directory_path() / "docintel_media_test";
    std::filesystem::create_directories(dir);
    const std::string garbage = (dir / "garbage.mp4").string();
    std::ofstream(garbage) << "this is not a video at all";
    auto bad = probe(garbage);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, "unreadable_media");
    EXPECT_EQ(bad.error().http_status, 422);

    // The first 40 % of the MP4: its header (moov) is at the end, so libavformat refuses it.
    const std::string whole = slurp(kJfk + "jfk-subtitled.mp4");
    const std::string cut = (dir / "truncated.mp4").string();
    std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() * 4 / 10);
    auto truncated = probe(cut);
    if (truncated) {
        auto audio = decodeAudio16kMono(cut);  // what is there decodes, without a crash
        EXPECT_TRUE(audio || audio.error().code == "unreadable_media");
    } else {
        EXPECT_EQ(truncated.error().code, "unreadable_media");
    }
    std::filesystem::remove_all(dir);
}

TEST(Media, SubtitleTextReadsBothForms) {
    const auto cues = parseSubtitleText(
        "WEBVTT\n\n00:01.000 --> 00:02.500 align:start\n<b>Hello</b>\nworld\n\n"
        "1\n00:00:03,000 --> 00:00:04,000\n\n2\n00:00:05,000 --> 00:00:06,000\nagain\n");
    ASSERT_EQ(cues.size(), 2u);
    EXPECT_EQ(cues[0].text, "Hello world");
    EXPECT_DOUBLE_EQ(cues[0].start, 1.0);
    EXPECT_DOUBLE_EQ(cues[0].end, 2.5);
    EXPECT_EQ(cues[1].text, "again");
}

}  // namespace
}  // namespace docintel::video

// The video rules (plugins/video/timeline.h): segments, frame choice, chunks and summaries.
#include "video/timeline.h"

#include <gtest/gtest.h>

namespace docintel::video {
namespace {

TEST(Timeline, ClockFormats) {
    EXPECT_EQ(clock(0), "00:00");
    EXPECT_EQ(clock(61.9), "01:01");
    EXPECT_EQ(clock(3725), "1:02:05");
}

TEST(Timeline, OptionsAreClampedAndDefaulted) {
    const auto o = optionsFrom({{"max_frames", 99}, {"segment_seconds", 5}});
    EXPECT_EQ(o.max_frames, 60);
    EXPECT_EQ(o.segment_seconds, 15);
    EXPECT_EQ(o.transcript_language, "auto");
    EXPECT_TRUE(o.embed_after_processing);
    EXPECT_EQ(optionsFrom(toJson(o)).max_frames, 60);
}

TEST(Timeline, SegmentsCoverTheVideo) {
    const std::vector<Cue> cues = {
        {1, 3, "First words."}, {14, 18, "Across the line."}, {31, 33, "Last words."}};
    const std::vector<FrameRecord> frames = {{0, 5, 320, 240, "f0", "TITLE"},
                                             {1, 20, 320, 240, "f1", "SLIDE TWO"}};
    const auto segments = buildSegments(34.0, 15, cues, frames);
    ASSERT_EQ(segments.size(), 3u);  // ceil(34 / 15)
    EXPECT_EQ(segments[0].title, "00:00 – 00:15");
    EXPECT_EQ(segments[2].title, "00:30 – 00:34");
    EXPECT_DOUBLE_EQ(segments[2].end_seconds, 34.0);
    EXPECT_EQ(segments[0].transcript, "First words.");
    EXPECT_EQ(segments[1].transcript, "Across the line.");  // its middle (16 s) is in segment 1
    EXPECT_EQ(segments[0].frame_indices, std::vector<int>{0});
    EXPECT_EQ(segments[1].ocr_text, "SLIDE TWO");
    EXPECT_EQ(buildSegments(60.0004, 60, {}, {}).size(), 1u);
    EXPECT_EQ(buildSegments(0, 60, {}, {}).size(), 1u);
}

TEST(Timeline, OneFrameSlotPerSegmentUpToTheLimit) {
    const auto plan = planFrames(34.0, 15, 12);
    ASSERT_EQ(plan.slots.size(), 3u);
    for (const auto& slot : plan.slots) EXPECT_EQ(slot.size(), 3u);
    EXPECT_GE(plan.slots[1][0], 15.0);
    EXPECT_LT(plan.slots[1][2], 30.0);
    const auto capped = planFrames(600.0, 15, 4);  // 40 segments, 4 frames
    ASSERT_EQ(capped.slots.size(), 4u);
    EXPECT_GT(capped.slots[3][2], 450.0);
    EXPECT_LT(capped.slots[3][2], 600.0);
}

TEST(Timeline, EveryScenesIsShownWhenSlotsAllow) {
    FramePlan plan;
    plan.slots = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    // Scenes A A B | B C C | C C C: the cuts fall inside slots, yet each scene gets a frame.
    const auto chosen = chooseFrames(plan, {0, 0, 40, 0, 40, 0, 0, 0, 0});
    ASSERT_EQ(chosen.size(), 3u);
    EXPECT_EQ(chosen[0], 1u);  // A, the middle of the slot
    EXPECT_EQ(chosen[1], 0u);  // B: it ends in this slot
    EXPECT_EQ(chosen[2], 1u);  // C
    // Nothing changes: the middle of each slot.
    EXPECT_EQ(chooseFrames(plan, std::vector<double>(9, 1.0)), (std::vector<std::size_t>{1, 1, 1}));
}

TEST(Timeline, ChunksCarryTheirTimes) {
    std::vector<Cue> cues;
    for (int i = 0; i < 30; ++i) {
        cues.push_back({i * 2.0, i * 2.0 + 2, "word word word word word word word word word."});
    }
    const std::vector<FrameRecord> frames = {{0, 10, 320, 240, "f0", "Quarterly revenue"},
                                             {1, 40, 320, 240, "f1", "  "}};
    const auto segments = buildSegments(60, 30, cues, frames);
    const auto chunks = buildChunks("talk.mp4", 60, segments, cues, frames, 40);
    ASSERT_GE(chunks.size(), 4u);
    EXPECT_EQ(chunks.front().label, "overview");
    EXPECT_DOUBLE_EQ(chunks.front().end_seconds, 60);
    for (std::size_t i = 1; i + 1 < chunks.size(); ++i) {
        const auto& c = chunks[i];
        EXPECT_LE(c.end_seconds - c.start_seconds, 30.0) << c.text;
        // Never across the segment boundary at 30 s.
        EXPECT_TRUE(c.end_seconds <= 30.0 || c.start_seconds >= 30.0) << c.label;
    }
    EXPECT_EQ(chunks.back().label, "frame 00:10");
    EXPECT_NE(chunks.back().text.find("Quarterly revenue"), std::string::npos);
}

TEST(Timeline, SummaryAndBestSentence) {
    const std::string text =
        "The budget grew by ten percent this year. Weather was mild. The budget covers roads "
        "and schools. Budget talks continue next week with the council.";
    const auto summary = extractiveSummary(text, 2);
    EXPECT_NE(summary.find("budget"), std::string::npos);
    EXPECT_EQ(summary.find("Weather"), std::string::npos);
    EXPECT_EQ(bestSentence(text, "what does the budget cover?"),
              "The budget covers roads and schools.");
    EXPECT_EQ(normalised("And so, my fellow Americans: ask not!"),
              "and so my fellow americans ask not");
}

}  // namespace
}  // namespace docintel::video

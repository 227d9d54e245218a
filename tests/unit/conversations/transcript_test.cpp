// The transcript: editable text from turns, parsing the reviewer's text, and the summary.

#include <gtest/gtest.h>

#include "conversations/collection.h"
#include "conversations/transcript.h"

namespace docintel::conversations {
namespace {

using nlohmann::json;

std::vector<Segment> parsed(const std::string& text) {
    auto r = parseTranscript(text);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().code + " " + r.error().message);
    return r.ok() ? *r : std::vector<Segment>{};
}

TEST(ConversationTranscript, EditableTranscriptFromTurns) {
    const std::vector<Turn> turns = {
        {2, "user", "Priya Sharma", "My name is Priya Sharma."},
        {0, "assistant", "", "Thank you for agreeing. May I have your name, please?"},
        {3, "assistant", "", "How can we help you?"},
        {4, "user", "", "The heating failed.\nIt is urgent."},
        {5, "user", "", "   "},
    };
    EXPECT_EQ(editableTranscript(turns),
              "Assistant: Thank you for agreeing. May I have your name, please?\n"
              "Priya Sharma: My name is Priya Sharma.\n"
              "Assistant: How can we help you?\n"
              "Participant: The heating failed. It is urgent.");
    EXPECT_EQ(speakerOf({1, "user", "", "x"}), "Participant");
    EXPECT_EQ(editableTranscript({}), "");
}

TEST(ConversationTranscript, ParsesTimedAndPlainLines) {
    const auto segs = parsed(
        "[0-12] Assistant: May I have your name?\n"
        "[00:12-01:05] Priya Sharma: My name is Priya Sharma.\n"
        "I am calling about the heating.\n"
        "\n"
        "Assistant: Thank you.\n"
        "[1:00:00-1:00:30] Priya Sharma: Bye.");
    ASSERT_EQ(segs.size(), 4U);
    EXPECT_EQ(segs[0].speaker, "Assistant");
    EXPECT_EQ(segs[0].start_seconds, 0.0);
    EXPECT_EQ(segs[0].end_seconds, 12.0);
    EXPECT_EQ(segs[1].speaker, "Priya Sharma");
    EXPECT_EQ(segs[1].text, "My name is Priya Sharma. I am calling about the heating.");
    EXPECT_EQ(segs[1].start_seconds, 12.0);
    EXPECT_EQ(segs[1].end_seconds, 65.0);
    EXPECT_FALSE(segs[2].start_seconds.has_value());
    EXPECT_EQ(segs[3].start_seconds, 3600.0);
}

TEST(ConversationTranscript, ContinuationAndUnknownSpeaker) {
    const auto segs = parsed(
        "Some words before anyone speaks.\n"
        "Participant: The meeting is at 10:30 today.\n"
        "and the sentence, with a comma, continues.");
    ASSERT_EQ(segs.size(), 2U);
    EXPECT_EQ(segs[0].speaker, "Unknown");
    EXPECT_EQ(segs[1].text,
              "The meeting is at 10:30 today. and the sentence, with a comma, continues.");
}

TEST(ConversationTranscript, RoundTrip) {
    const std::vector<Segment> segs = {
        {"Assistant", "May I have your name?", 0.0, 12.0},
        {"Priya Sharma", "My name is Priya Sharma.", 12.0, 65.0},
        {"Assistant", "Thank you.", std::nullopt, std::nullopt},
        {"أحمد", "شكرًا لك.", 3600.0, 3630.0},
    };
    const std::string text = formatTranscript(segs);
    EXPECT_NE(text.find("[00:12-01:05] Priya Sharma: My name is Priya Sharma."), std::string::npos);
    EXPECT_NE(text.find("[1:00:00-1:00:30] أحمد: شكرًا لك."), std::string::npos);
    EXPECT_EQ(parsed(text), segs);

    // Turns → editable text → segments → text again.
    const std::vector<Turn> turns = {{0, "assistant", "", "What is the purpose?"},
                                     {1, "user", "Ana", "Planning the audit."}};
    const std::string editable = editableTranscript(turns);
    EXPECT_EQ(formatTranscript(parsed(editable)), editable);
}

TEST(ConversationTranscript, Limits) {
    auto empty = parseTranscript("");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().code, "empty_transcript");
    EXPECT_EQ(empty.error().http_status, 422);
    EXPECT_EQ(parseTranscript(" \n\t\n").error().code, "empty_transcript");
    EXPECT_EQ(parseTranscript("Assistant:\nParticipant:   ").error().code, "empty_transcript");

    const std::string line = "Participant: " + std::string(87, 'a') + "\n";  // 101 chars
    std::string big;
    while (big.size() + line.size() <= kMaxTranscriptChars) big += line;
    big += std::string(kMaxTranscriptChars - big.size(), 'b');
    ASSERT_EQ(big.size(), kMaxTranscriptChars);
    EXPECT_TRUE(parseTranscript(big).ok());
    auto too_big = parseTranscript(big + "c");
    ASSERT_FALSE(too_big.ok());
    EXPECT_EQ(too_big.error().code, "validation_error");
    EXPECT_EQ(too_big.error().http_status, 422);
    EXPECT_EQ(json::parse(too_big.error().message)[0]["type"], "string_too_long");
    // Characters, not bytes, count: 200000 three-byte characters are within the limit.
    std::string wide = "Participant: ";
    for (int i = 0; i < 200000; ++i) wide += "ক";
    EXPECT_TRUE(parseTranscript(wide).ok());

    auto backwards = parseTranscript("[30-10] Assistant: Hello.");
    ASSERT_FALSE(backwards.ok());
    EXPECT_EQ(backwards.error().http_status, 422);
}

TEST(ConversationTranscript, Summary) {
    const Template& t = *findBuiltInTemplate("customer-intake");
    json state = newCollectionState(t, true);
    state = mergeLlmFields(state, t,
                           {{"participant_name", "Priya Sharma"},
                            {"request_summary", "The office heating has failed."}});
    const auto segs = parsed(
        "Assistant: May I have your name, please, and the reason for your call today?\n"
        "Priya Sharma: My name is Priya Sharma and I manage the office on the third floor.\n"
        "Assistant: How can we help you today with the heating or anything else?\n"
        "Priya Sharma: The office heating system has failed and the radiators are cold.\n"
        "Priya Sharma: The heating engineer visited last winter and replaced the office boiler "
        "pump.");
    const json s = summaryOf(segs, state, t);
    EXPECT_EQ(s["segment_count"], 5);
    EXPECT_EQ(s["speakers"], json({"Assistant", "Priya Sharma"}));
    EXPECT_EQ(s["missing_required_fields"], json({"preferred_follow_up"}));
    EXPECT_EQ(s["collected_fields"]["participant_name"]["value"], "Priya Sharma");
    EXPECT_EQ(s["collected_fields"]["participant_name"]["label"], "Participant name");
    EXPECT_FALSE(s["collected_fields"].contains("urgency"));
    ASSERT_TRUE(s["key_points"].is_array());
    EXPECT_GE(s["key_points"].size(), 1U);
    EXPECT_LE(s["key_points"].size(), 5U);
    for (const auto& k : s["key_points"]) {
        EXPECT_EQ(k.get<std::string>().find("May I have"), std::string::npos);  // not the assistant
    }
    const std::string overview = s["overview"];
    EXPECT_NE(overview.find("Customer intake"), std::string::npos);
    EXPECT_NE(overview.find("2 of 3 required fields"), std::string::npos);
    EXPECT_NE(overview.find("5 segments"), std::string::npos);
}

}  // namespace
}  // namespace docintel::conversations

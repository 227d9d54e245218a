#pragma once

// A conversation's transcript (docs/conversations.md "Transcript format"): the editable text
// built from the recorded turns, the reviewer's text parsed back into speaker segments, and the
// summary published with it. Pure; thread-safe.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conversations/templates.h"
#include "plugin_api/result.h"

namespace docintel::conversations {

constexpr std::size_t kMaxTranscriptChars = 500000;

/// One recorded turn. `role` is "assistant" or "user"; `speaker` the participant's display
/// name (may be empty).
struct Turn {
    int sequence = 0;
    std::string role;
    std::string speaker;
    std::string text;
};

/// One speaker's stretch of the transcript, with its time span when the text gave one.
struct Segment {
    std::string speaker;
    std::string text;
    std::optional<double> start_seconds;
    std::optional<double> end_seconds;

    bool operator==(const Segment&) const = default;
};

/// The speaker a turn is shown as: "Assistant" for the assistant, else the participant's
/// display name, else "Participant".
std::string speakerOf(const Turn& turn);

/// "Speaker: text" lines of the turns in sequence order (empty texts skipped; line breaks in a
/// text become spaces).
std::string editableTranscript(const std::vector<Turn>& turns);

/// The reviewer's transcript as segments. Lines are "[s-e] Speaker: text" (s and e in seconds,
/// mm:ss or hh:mm:ss) or "Speaker: text" (a speaker is 1..60 bytes, at most five words, no
/// digits or sentence punctuation); any other non-blank line continues the previous segment
/// (before any speaker: a segment of "Unknown"). 1..500000 characters else 422
/// `validation_error`; no text at all → 422 `empty_transcript`; an end before its start → 422.
plugin::Result<std::vector<Segment>> parseTranscript(const std::string& text);

/// The segments as transcript text again: "[mm:ss-mm:ss] Speaker: text" when timed (hours
/// when needed), else "Speaker: text". parseTranscript(formatTranscript(s)) == s for whole
/// seconds.
std::string formatTranscript(const std::vector<Segment>& segments);

/// The published summary: {overview, key_points (up to 5 central sentences, in transcript
/// order), speakers (first-appearance order), segment_count, collected_fields ({key: {label,
/// value}}), missing_required_fields} from the segments and the collection state.
nlohmann::json summaryOf(const std::vector<Segment>& segments, const nlohmann::json& state,
                         const Template& tmpl);

}  // namespace docintel::conversations

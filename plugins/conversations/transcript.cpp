#include "conversations/transcript.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>

#include "conversations/collection.h"
#include "conversations/text.h"
#include "shared/clock_text.h"
#include "shared/problems.h"
#include "shared/study_text.h"

namespace docintel::conversations {

using nlohmann::json;

namespace {

std::string oneLine(std::string text) {
    for (auto& c : text) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    return trim(text);
}

/// "75", "1:15", "01:15", "0:01:15", "12.5" → seconds; nullopt when malformed.
std::optional<double> seconds(const std::string& s) {
    static const std::regex re(R"(^(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$)");
    std::smatch m;
    if (!std::regex_match(s, m, re)) return std::nullopt;
    double total = std::stod(m[3].str());
    if (m[1].matched && m[2].matched) {
        total += std::stod(m[1].str()) * 3600 + std::stod(m[2].str()) * 60;
    } else if (m[1].matched) {
        total += std::stod(m[1].str()) * 60;
    }
    return total;
}

std::string clock(double secs) { return shared::clockText(secs); }

bool isSpeaker(const std::string& s) {
    if (s.empty() || s.size() > 60) return false;
    std::size_t words = 1;
    for (const char c : s) {
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '?' || c == '!' || c == ',' ||
            c == ';' || c == '"' || c == '[' || c == ']')
            return false;
        if (c == ' ') ++words;
    }
    return words <= 5;
}

}  // namespace

std::string speakerOf(const Turn& turn) {
    if (turn.role == "assistant") return "Assistant";
    const std::string name = oneLine(turn.speaker);
    return name.empty() ? "Participant" : name;
}

std::string editableTranscript(const std::vector<Turn>& turns) {
    std::vector<const Turn*> ordered;
    for (const auto& t : turns) ordered.push_back(&t);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const Turn* a, const Turn* b) { return a->sequence < b->sequence; });
    std::string out;
    for (const Turn* t : ordered) {
        const std::string text = oneLine(t->text);
        if (text.empty()) continue;
        if (!out.empty()) out += '\n';
        out += speakerOf(*t) + ": " + text;
    }
    return out;
}

plugin::Result<std::vector<Segment>> parseTranscript(const std::string& text) {
    const std::size_t chars = utf8Length(text);
    if (chars > kMaxTranscriptChars) {
        return shared::validationError(json::array({"body", "transcript"}),
                                       "String should have at most 500000 characters",
                                       "string_too_long");
    }
    if (trim(text).empty()) {
        return plugin::Error::unprocessable("empty_transcript", "The transcript is empty");
    }
    std::vector<Segment> segments;
    std::istringstream in(text);
    std::string raw;
    int line_no = 0;
    while (std::getline(in, raw)) {
        ++line_no;
        const std::string line = trim(raw);
        if (line.empty()) continue;
        // Scanned by hand, not with std::regex: a line may be 500000 characters long.
        std::optional<double> start, end;
        std::size_t from = 0;
        if (line[0] == '[') {
            const auto close = line.find(']');
            const auto dash = line.find('-');
            if (close != std::string::npos && close < 40 && dash < close) {
                start = seconds(trim(line.substr(1, dash - 1)));
                end = seconds(trim(line.substr(dash + 1, close - dash - 1)));
                if (start && end) from = close + 1;
            }
        }
        const auto colon = line.find(':', from);
        const std::string speaker = colon == std::string::npos || colon - from > 80
                                        ? std::string()
                                        : trim(line.substr(from, colon - from));
        if (!speaker.empty() && isSpeaker(speaker)) {
            if (start && end && *end < *start) {
                return shared::validationError(json::array({"body", "transcript", line_no}),
                                               "A segment's time span must be [start-end] with "
                                               "end not before start");
            }
            segments.push_back({speaker, trim(line.substr(colon + 1)), start, end});
        } else if (segments.empty()) {
            segments.push_back({"Unknown", line, std::nullopt, std::nullopt});
        } else {
            auto& last = segments.back().text;
            last += (last.empty() ? "" : " ") + line;
        }
    }
    std::erase_if(segments, [](const Segment& s) { return s.text.empty(); });
    if (segments.empty()) {
        return plugin::Error::unprocessable("empty_transcript", "The transcript has no text");
    }
    return segments;
}

std::string formatTranscript(const std::vector<Segment>& segments) {
    std::string out;
    for (const auto& s : segments) {
        if (!out.empty()) out += '\n';
        if (s.start_seconds && s.end_seconds) {
            out += "[" + clock(*s.start_seconds) + "-" + clock(*s.end_seconds) + "] ";
        }
        out += s.speaker + ": " + oneLine(s.text);
    }
    return out;
}

json summaryOf(const std::vector<Segment>& segments, const json& state, const Template& tmpl) {
    std::vector<std::string> speakers;
    std::vector<study::Passage> passages;
    for (const auto& s : segments) {
        if (std::find(speakers.begin(), speakers.end(), s.speaker) == speakers.end()) {
            speakers.push_back(s.speaker);
        }
        // The assistant's prompts are not what the conversation is about.
        if (s.speaker != "Assistant") passages.push_back({"", "", 1, "", s.text});
    }
    const auto sentences = study::quotableSentences(passages);
    const auto picked = study::pickDiverse(sentences, study::centrality(sentences, {}), 5);
    std::vector<std::size_t> order(picked.begin(), picked.end());
    std::sort(order.begin(), order.end());
    json key_points = json::array();
    for (const auto i : order) key_points.push_back(sentences[i].text);

    json collected = json::object();
    const json fields = state.is_object() && state.contains("collected_fields")
                            ? state.at("collected_fields")
                            : json::object();
    for (const auto& f : tmpl.fields) {
        if (fields.is_object() && fields.contains(f.key) && fields.at(f.key).is_object() &&
            fields.at(f.key).contains("value")) {
            collected[f.key] = {{"label", f.label}, {"value", fields.at(f.key).at("value")}};
        }
    }
    const auto missing = missingRequired(state, tmpl);
    std::string who;
    for (std::size_t i = 0; i < speakers.size(); ++i) {
        if (i > 0) who += i + 1 == speakers.size() ? " and " : ", ";
        who += speakers[i];
    }
    const std::size_t required = tmpl.requiredKeys().size();
    std::string overview = tmpl.name + " conversation between " + who + " in " +
                           std::to_string(segments.size()) +
                           (segments.size() == 1 ? " segment" : " segments") + "; " +
                           std::to_string(required - missing.size()) + " of " +
                           std::to_string(required) + " required fields collected.";
    return {{"overview", overview},          {"key_points", key_points},
            {"speakers", speakers},          {"segment_count", segments.size()},
            {"collected_fields", collected}, {"missing_required_fields", missing}};
}

}  // namespace docintel::conversations

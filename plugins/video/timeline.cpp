#include "video/timeline.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "shared/clock_text.h"
#include "shared/study_text.h"

namespace docintel::video {
namespace {

int segmentCount(double duration, int segment_seconds) {
    if (duration <= 0 || segment_seconds <= 0) return 1;
    // A hair over a whole number of segments (container rounding) adds none.
    return std::max(1, static_cast<int>(std::ceil(duration / segment_seconds - 1e-3)));
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const auto& p : parts) {
        if (p.empty()) continue;
        if (!out.empty()) out += separator;
        out += p;
    }
    return out;
}

std::size_t wordCount(const std::string& text) {
    std::size_t n = 0;
    bool in_word = false;
    for (const char c : text) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (!space && !in_word) ++n;
        in_word = !space;
    }
    return n;
}

}  // namespace

ProcessOptions optionsFrom(const nlohmann::json& body) {
    ProcessOptions o;
    if (!body.is_object()) return o;
    o.transcript_language = body.value("transcript_language", o.transcript_language);
    if (o.transcript_language.empty()) o.transcript_language = "auto";
    o.max_frames = std::clamp(body.value("max_frames", o.max_frames), 1, 60);
    o.segment_seconds = std::clamp(body.value("segment_seconds", o.segment_seconds), 15, 600);
    o.embed_after_processing = body.value("embed_after_processing", o.embed_after_processing);
    o.use_subtitles = body.value("use_subtitles", o.use_subtitles);
    return o;
}

nlohmann::json toJson(const ProcessOptions& o) {
    return {{"transcript_language", o.transcript_language},
            {"max_frames", o.max_frames},
            {"segment_seconds", o.segment_seconds},
            {"embed_after_processing", o.embed_after_processing},
            {"use_subtitles", o.use_subtitles}};
}

std::string clock(double seconds) { return shared::clockText(seconds); }

FramePlan planFrames(double duration, int segment_seconds, int max_frames) {
    FramePlan plan;
    const double length = std::max(duration, 0.1);
    const int segments = segmentCount(duration, segment_seconds);
    const int slots = std::max(1, std::min(segments, max_frames));
    const double width =
        segments <= max_frames ? static_cast<double>(segment_seconds) : length / slots;
    for (int s = 0; s < slots; ++s) {
        const double start = s * width;
        const double end = std::min(length, start + width);
        std::vector<double> candidates;
        for (int k = 0; k < 3; ++k) candidates.push_back(start + (end - start) * (k + 0.5) / 3.0);
        plan.slots.push_back(std::move(candidates));
    }
    return plan;
}

std::vector<std::size_t> chooseFrames(const FramePlan& plan, const std::vector<double>& change) {
    // Scenes: runs of candidates (in time order) without a clear cut between them (a change
    // well above encoding noise).
    constexpr double kCut = 8.0;
    std::vector<int> scene;
    std::vector<std::size_t> slot_of;
    for (std::size_t s = 0; s < plan.slots.size(); ++s) {
        for (std::size_t k = 0; k < plan.slots[s].size(); ++k) {
            const std::size_t flat = scene.size();
            const bool cut = flat > 0 && flat < change.size() && change[flat] >= kCut;
            scene.push_back(flat == 0 ? 0 : scene.back() + (cut ? 1 : 0));
            slot_of.push_back(s);
        }
    }
    std::vector<std::size_t> last(scene.empty() ? 0 : static_cast<std::size_t>(scene.back()) + 1);
    for (std::size_t i = 0; i < scene.size(); ++i) last[static_cast<std::size_t>(scene[i])] = i;

    // Slot by slot: a candidate of a scene no frame shows yet, the scene that ends soonest first
    // (later slots cannot show it), nearest the slot's middle; else the slot's middle.
    std::vector<bool> shown(last.size(), false);
    std::vector<std::size_t> chosen;
    std::size_t flat = 0;
    for (const auto& slot : plan.slots) {
        const std::size_t middle = slot.size() / 2;
        std::size_t best = middle;
        bool found = false;
        std::size_t best_end = 0;
        std::size_t best_distance = 0;
        for (std::size_t k = 0; k < slot.size(); ++k) {
            const auto sc = static_cast<std::size_t>(scene[flat + k]);
            if (shown[sc]) continue;
            const std::size_t distance = k > middle ? k - middle : middle - k;
            if (!found || last[sc] < best_end ||
                (last[sc] == best_end && distance < best_distance)) {
                found = true;
                best = k;
                best_end = last[sc];
                best_distance = distance;
            }
        }
        if (!slot.empty()) shown[static_cast<std::size_t>(scene[flat + best])] = true;
        chosen.push_back(best);
        flat += slot.size();
    }
    return chosen;
}

std::vector<Segment> buildSegments(double duration, int segment_seconds,
                                   const std::vector<Cue>& transcript,
                                   const std::vector<FrameRecord>& frames) {
    const int count = segmentCount(duration, segment_seconds);
    std::vector<Segment> segments;
    for (int i = 0; i < count; ++i) {
        Segment s;
        s.segment_index = i;
        s.start_seconds = static_cast<double>(i) * segment_seconds;
        s.end_seconds = std::min(duration > 0 ? duration : s.start_seconds + segment_seconds,
                                 s.start_seconds + segment_seconds);
        if (i == count - 1 && duration > 0) s.end_seconds = duration;
        s.title = clock(s.start_seconds) + " – " + clock(s.end_seconds);
        segments.push_back(std::move(s));
    }
    const auto at = [&](double t) {
        const int i = static_cast<int>(std::floor(t / segment_seconds));
        return static_cast<std::size_t>(std::clamp(i, 0, count - 1));
    };
    std::vector<std::vector<std::string>> texts(segments.size()), screens(segments.size());
    for (const auto& cue : transcript) texts[at((cue.start + cue.end) / 2)].push_back(cue.text);
    for (const auto& f : frames) {
        const std::size_t i = at(f.timestamp_seconds);
        segments[i].frame_indices.push_back(f.frame_index);
        screens[i].push_back(f.ocr_text);
    }
    for (std::size_t i = 0; i < segments.size(); ++i) {
        segments[i].transcript = joined(texts[i], " ");
        segments[i].ocr_text = joined(screens[i], "\n");
        segments[i].summary = extractiveSummary(segments[i].transcript);
    }
    return segments;
}

std::string extractiveSummary(const std::string& text, std::size_t max_sentences) {
    if (text.empty()) return "";
    std::vector<study::Passage> passages{{"", "", 1, "", text}};
    std::vector<study::Sentence> sentences;
    int position = 0;
    for (const auto& [start, end] : study::splitSentences(text)) {
        study::Sentence s;
        s.start = start;
        s.end = end;
        s.text = text.substr(start, end - start);
        s.position = position++;
        if (!study::contentWords(s.text).empty()) sentences.push_back(std::move(s));
    }
    if (sentences.size() <= max_sentences) {
        std::vector<std::string> all;
        for (const auto& s : sentences) all.push_back(s.text);
        return joined(all, " ");
    }
    const auto score = study::centrality(sentences, {});
    auto picked = study::pickDiverse(sentences, score, max_sentences);
    std::sort(picked.begin(), picked.end());
    std::vector<std::string> out;
    for (const std::size_t i : picked) out.push_back(sentences[i].text);
    return joined(out, " ");
}

std::vector<VideoChunk> buildChunks(const std::string& title, double duration,
                                    const std::vector<Segment>& segments,
                                    const std::vector<Cue>& transcript,
                                    const std::vector<FrameRecord>& frames, std::size_t max_words) {
    std::vector<VideoChunk> chunks;
    std::string overview = "Video: " + title + " (" + clock(duration) + ").";
    for (const auto& s : segments) {
        if (!s.summary.empty()) overview += "\n" + s.title + ": " + s.summary;
    }
    chunks.push_back({overview, 0, duration, "overview"});

    // The transcript in pieces of at most max_words words, never across a segment boundary.
    const int segment_seconds =
        segments.size() > 1 ? static_cast<int>(std::lround(segments[1].start_seconds)) : 0;
    std::size_t segment = 0;
    VideoChunk piece;
    std::size_t words = 0;
    const auto flush = [&] {
        if (!piece.text.empty()) chunks.push_back(piece);
        piece = VideoChunk{};
        words = 0;
    };
    for (const auto& cue : transcript) {
        std::size_t at = 0;
        if (segment_seconds > 0) {
            at = std::min(segments.size() - 1,
                          static_cast<std::size_t>(std::max(
                              0.0, std::floor((cue.start + cue.end) / 2 / segment_seconds))));
        }
        const std::size_t n = wordCount(cue.text);
        if (at != segment || (words > 0 && words + n > max_words)) flush();
        segment = at;
        if (piece.text.empty()) {
            piece.start_seconds = cue.start;
            piece.label = segments.empty() ? "" : segments[at].title;
        } else {
            piece.text += " ";
        }
        piece.text += cue.text;
        piece.end_seconds = std::max(piece.end_seconds, cue.end);
        words += n;
    }
    flush();

    for (const auto& f : frames) {
        if (study::contentWords(f.ocr_text).empty()) continue;
        const std::string label = "frame " + clock(f.timestamp_seconds);
        chunks.push_back({"On screen at " + clock(f.timestamp_seconds) + ": " + f.ocr_text,
                          f.timestamp_seconds, f.timestamp_seconds, label});
    }
    return chunks;
}

std::string bestSentence(const std::string& text, const std::string& question) {
    const auto asked = study::contentWordSet(question);
    std::string best;
    double best_score = -1;
    for (const auto& [start, end] : study::splitSentences(text)) {
        const std::string sentence = text.substr(start, end - start);
        const double score = study::coverage(asked, study::contentWordSet(sentence));
        if (score > best_score) {
            best_score = score;
            best = sentence;
        }
    }
    return best.empty() ? text : best;
}

std::string normalised(const std::string& text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u)) {
            if (space && !out.empty()) out += ' ';
            out += static_cast<char>(std::tolower(u));
            space = false;
        } else if (c != '\'') {
            space = true;
        }
    }
    return out;
}

nlohmann::json toJson(const FrameRecord& f) {
    return {{"frame_index", f.frame_index},
            {"timestamp_seconds", f.timestamp_seconds},
            {"timestamp", clock(f.timestamp_seconds)},
            {"width", f.width},
            {"height", f.height},
            {"ocr_text", f.ocr_text}};
}

nlohmann::json toJson(const Segment& s) {
    return {{"segment_index", s.segment_index},
            {"start_seconds", s.start_seconds},
            {"end_seconds", s.end_seconds},
            {"title", s.title},
            {"transcript", s.transcript},
            {"ocr_text", s.ocr_text},
            {"frame_indices", s.frame_indices},
            {"summary", s.summary},
            {"metadata", {{"frame_indices", s.frame_indices}}}};
}

}  // namespace docintel::video

#include "classify/document_classifier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "classify/class_profiles.h"

namespace docintel::classify {

namespace {

constexpr std::size_t kNamed = kDocClassCount - 1;
/// Cue evidence at which the cue score reaches 1 - 1/e.
constexpr double kCueScale = 6.0;

bool alnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string lowerAscii(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

/// Occurrences of `phrase` on word boundaries in `text` (both lower case); a trailing '*'
/// lets the word run on. Counts at most `cap`.
int countPhrase(const std::string& text, std::string_view phrase, int cap) {
    const bool prefix = !phrase.empty() && phrase.back() == '*';
    if (prefix) phrase.remove_suffix(1);
    int n = 0;
    for (std::size_t pos = text.find(phrase); pos != std::string::npos && n < cap;
         pos = text.find(phrase, pos + 1)) {
        if (pos > 0 && alnum(text[pos - 1]) && alnum(phrase.front())) continue;
        const std::size_t end = pos + phrase.size();
        if (!prefix && end < text.size() && alnum(text[end]) && alnum(phrase.back())) continue;
        ++n;
    }
    return n;
}

double cueEvidence(const std::string& lower, const std::vector<Cue>& cues) {
    double evidence = 0;
    for (const auto& cue : cues) {
        const int n = countPhrase(lower, cue.phrase, 5);
        if (n > 0) evidence += cue.weight * (1.0 + std::log(static_cast<double>(n)));
    }
    return evidence;
}

// Chunk text has its lines joined by spaces, so structure is found from tokens, not lines.

/// Distinct mail header labels ("from:", "to:", "subject:", ...) near the start of the text.
int mailHeaders(const std::string& lower) {
    const std::string head = lower.substr(0, 800);
    int n = 0;
    for (std::string_view h : {"from:", "to:", "subject:", "sent:", "cc:", "date:"}) {
        n += countPhrase(head, h, 1);
    }
    return n;
}

bool upper(char c) { return c >= 'A' && c <= 'Z'; }

/// Turn-taking: speaker labels before a colon ("THE COURT:", "MS. PARK:", "Interviewer:") or
/// "Q." / "A." that recur. Returns the number of turns by labels used at least twice, when at
/// least two such labels exist.
int speakerTurns(std::string_view text) {
    std::map<std::string, int> labels;
    for (std::size_t colon = text.find(':'); colon != std::string_view::npos;
         colon = text.find(':', colon + 1)) {
        // Up to three capitalised words right before the colon.
        std::size_t start = colon;
        int words = 0;
        while (words < 3 && start > 0) {
            std::size_t w = start;
            while (w > 0 && (alnum(text[w - 1]) || text[w - 1] == '.' || text[w - 1] == '\'')) --w;
            if (w == start || !upper(text[w])) break;
            start = w;
            ++words;
            if (start > 0 && text[start - 1] == ' ') {
                --start;
            } else {
                break;
            }
        }
        while (start < colon && text[start] == ' ') ++start;
        if (words == 0 || start == colon) continue;
        // Table rows carry their column headers as "Header: value | Header: value".
        const std::size_t bar = text.find(" | ", colon);
        const std::size_t stop = text.find_first_of(".\n", colon);
        if ((bar != std::string_view::npos && bar - colon < 80 && bar < stop) ||
            (start >= 2 && text.substr(start - 2, 2) == "| ")) {
            continue;
        }
        ++labels[std::string(text.substr(start, colon - start))];
    }
    for (std::string_view qa : {" Q. ", " A. "}) {
        int n = 0;
        for (std::size_t p = text.find(qa); p != std::string_view::npos; p = text.find(qa, p + 1)) {
            ++n;
        }
        if (text.substr(0, 3) == qa.substr(1)) ++n;
        if (n > 0) labels[std::string(qa)] += n;
    }
    int recurring = 0;
    int turns = 0;
    for (const auto& [label, n] : labels) {
        if (n >= 2) {
            ++recurring;
            turns += n;
        }
    }
    return recurring >= 2 ? turns : 0;
}

std::size_t indexOf(DocClass c) {
    for (std::size_t i = 0; i < kNamed; ++i) {
        if (kNamedClasses[i] == c) return i;
    }
    return 0;
}

void normalise(std::vector<float>& v) {
    double norm = 0;
    for (float x : v) norm += static_cast<double>(x) * x;
    norm = std::sqrt(norm);
    if (norm > 0) {
        for (float& x : v) x = static_cast<float>(x / norm);
    }
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        s += static_cast<double>(a[i]) * b[i];
    return s;
}

}  // namespace

plugin::Result<std::unique_ptr<DocumentClassifier>> DocumentClassifier::create(
    const embed::SentenceEncoder* encoder, ClassifierOptions options) {
    std::unique_ptr<DocumentClassifier> c(new DocumentClassifier(encoder, options));
    if (!encoder) return c;
    for (const auto& profile : classProfiles()) {
        std::vector<std::string> texts(profile.descriptions.begin(), profile.descriptions.end());
        auto vectors = encoder->encode(texts);
        if (!vectors) return vectors.error();
        auto unit = std::move(vectors).value();
        for (auto& v : unit) normalise(v);
        c->descriptions_[indexOf(profile.type)] = std::move(unit);
    }
    return c;
}

DocumentClassifier::Scores DocumentClassifier::score(const ClassifierInput& input) const {
    Scores s;
    const std::size_t n = std::min(input.texts.size(), static_cast<std::size_t>(options_.chunks));
    std::string text;
    for (std::size_t i = 0; i < n && text.size() < options_.text_bytes; ++i) {
        text += input.texts[i];
        text += '\n';
    }
    if (text.size() > options_.text_bytes) text.resize(options_.text_bytes);

    // Embedding: the mean of the first chunks' vectors against each class's descriptions.
    if (encoder_ && n > 0) {
        std::vector<std::vector<float>> vectors;
        if (input.vectors.size() >= n) {
            vectors.assign(input.vectors.begin(), input.vectors.begin() + static_cast<long>(n));
        } else {
            auto encoded = encoder_->encode(std::vector<std::string>(
                input.texts.begin(), input.texts.begin() + static_cast<long>(n)));
            if (encoded) vectors = std::move(encoded).value();
        }
        if (!vectors.empty()) {
            std::vector<float> mean(vectors[0].size(), 0.0f);
            for (auto v : vectors) {
                normalise(v);
                for (std::size_t k = 0; k < mean.size() && k < v.size(); ++k) mean[k] += v[k];
            }
            normalise(mean);
            for (std::size_t c = 0; c < kNamed; ++c) {
                double best = -1;
                for (const auto& d : descriptions_[c]) best = std::max(best, dot(mean, d));
                s.similarity[c] = best;
            }
            s.has_similarity = true;
        }
    }

    // Cue words and structure.
    const std::string lower = lowerAscii(text);
    std::array<double, kNamed> evidence{};
    for (const auto& profile : classProfiles()) {
        evidence[indexOf(profile.type)] = cueEvidence(lower, profile.cues);
    }
    const int headers = mailHeaders(lower);
    if (headers >= 3 || input.detected_type == "eml") {
        evidence[indexOf(DocClass::kEmail)] += 6.0 + 2.0 * headers;
    }
    const int turns = speakerTurns(text);
    if (turns >= 4) evidence[indexOf(DocClass::kTranscript)] += std::min(2.0 * turns, 12.0);
    for (std::size_t c = 0; c < kNamed; ++c) s.cues[c] = 1.0 - std::exp(-evidence[c] / kCueScale);
    return s;
}

Classification DocumentClassifier::decide(const Scores& scores) const {
    Classification out;
    std::array<double, kNamed> logits{};
    double top = -1e9;
    for (std::size_t c = 0; c < kNamed; ++c) {
        logits[c] = (scores.has_similarity ? scores.similarity[c] : 0.0) +
                    options_.cue_weight * scores.cues[c];
        top = std::max(top, logits[c]);
    }
    double sum = 0;
    for (std::size_t c = 0; c < kNamed; ++c) {
        out.probabilities[c] = std::exp((logits[c] - top) / options_.temperature);
        sum += out.probabilities[c];
    }
    std::size_t best = 0;
    for (std::size_t c = 0; c < kNamed; ++c) {
        out.probabilities[c] /= sum;
        if (out.probabilities[c] > out.probabilities[best]) best = c;
    }
    if (out.probabilities[best] < options_.other_below) {
        out.type = DocClass::kOther;
        out.confidence = 1.0 - out.probabilities[best];
    } else {
        out.type = kNamedClasses[best];
        out.confidence = out.probabilities[best];
    }
    return out;
}

Classification DocumentClassifier::classify(const ClassifierInput& input) const {
    return decide(score(input));
}

}  // namespace docintel::classify

#pragma once

#include <cctype>
#include <set>
#include <string>

#include <nlohmann/json.hpp>
#include <vector>

#include "embed/sentence_encoder.h"
#include "knowledge/question_analysis.h"
#include "knowledge/refusal.h"
#include "knowledge/sentence_spans.h"
#include "storage/document_repository.h"

namespace docintel::knowledge {

/// A numbered source an answer may cite.
struct Source {
    int number = 0;  ///< 1-based, as cited: [n]
    storage::Passage passage;
};

/// A source as the `sources` frame and the tools show it: document, chunk, page, span, section
/// and `excerpt` (the chunk's text as shown, redacted or not).
nlohmann::json sourceJson(const Source& source, const std::string& excerpt);

/// One sentence of an answer and the span of its source it was taken from.
struct AnswerSentence {
    std::string text;
    int source_number = 0;
    int page = 1;
    int char_start = 0;  ///< in the text of `page`, like chunk offsets
    int char_end = 0;
    double support = 0;  ///< how well it answers the question (0..1)
};

struct Answer {
    std::string text;  ///< sentences joined, each followed by its [n]
    std::vector<AnswerSentence> sentences;
    bool refused = false;
    double best_support = 0;  ///< of the best sentence (0 without one)
    /// What the refusal weighed: the best sentence's match and the signs of a question the
    /// sources only seem to answer (names, numbers, rare words or a negation they lack, a
    /// near-duplicate word in their place, no date or number where one is asked for).
    RefusalEvidence evidence;
    /// answerProbability(evidence); refused below refuse_below (0 without a sentence).
    double confidence = 0;
};

struct ExtractiveOptions {
    int max_sentences = 3;
    /// Below this confidence (Answer::confidence, a probability) the answerer refuses. Chosen
    /// with the weights on the even-numbered articles of SQuAD v2 (bench/qa,
    /// docs/decisions/0057).
    double refuse_below = 0.35;
    /// Sentences within this fraction of the best one's support join the answer.
    double keep_within = 0.85;
    /// Added to the support of a sentence that states a value of the type the question asks
    /// for (statesAskedValue: a date for "when", an amount for "how much … cost").
    double typed_bonus = 0.15;
};

/// The default answerer (no LLM): picks the source sentences (quotableSentences) that best
/// answer the question — cosine of the sentence to the question under the local encoder blended
/// with the rarity-weighted share of the question's words it contains, plus typed_bonus when it
/// states a value of the type the question asks for (a date for "when") — keeps the best few in
/// source order, and cites each one. With weak evidence (answerProbability of the
/// RefusalEvidence of the most relevant sentence, bonus left out, below refuse_below) it refuses
/// with kRefusal.
///
/// Thread-safe (the encoder is).
class ExtractiveAnswerer {
  public:
    static constexpr const char* kRefusal =
        "The provided documents don't contain this information.";

    ExtractiveAnswerer(const embed::SentenceEncoder* encoder, ExtractiveOptions options = {})
        : encoder_(encoder), options_(options) {}

    Answer answer(const QuestionAnalysis& question, const std::vector<float>& question_vector,
                  const std::vector<Source>& sources) const;

  private:
    const embed::SentenceEncoder* encoder_;
    const ExtractiveOptions options_;
};

/// `span` of the source's chunk as a cited answer sentence: the page and the character span in
/// that page's text (chunk offsets plus the sentence's place in the chunk).
AnswerSentence citeSentence(const Source& source, const SentenceSpan& span, double support = 0);

/// The inner product of two unit vectors: their cosine.
double cosine(const std::vector<float>& a, const std::vector<float>& b);
/// Scales `v` to unit length (a zero vector stays as it is).
void normalise(std::vector<float>& v);

/// The lower-cased content words of a text (no stop words, plural "s" dropped).
std::vector<std::string> contentWords(const std::string& text);
/// The distinct content words of a text.
std::set<std::string> contentWordSet(const std::string& text);
/// The names of a question (its capitalised words but the first), lower-cased.
std::set<std::string> questionNames(const std::string& question);
/// Whether `text` is a number: digits only, at least one.
bool isNumber(const std::string& text);
/// Whether `text` holds a digit (a number, a code such as "DHAW20190030", a date).
bool hasDigit(const std::string& text);

/// Calls `f(word, first_char)` for each run of letters and digits (bytes ≥ 0x80 count as
/// letters), `word` lower-cased.
template <typename F>
void forEachWord(const std::string& text, F f) {
    std::string word;
    char first = 0;
    auto flush = [&] {
        if (!word.empty()) f(word, first);
        word.clear();
    };
    for (const char ch : text) {
        const auto u = static_cast<unsigned char>(ch);
        if (std::isalnum(u) || u >= 0x80) {
            if (word.empty()) first = ch;
            word += static_cast<char>(std::tolower(u));
        } else {
            flush();
        }
    }
    flush();
}

/// The share of the `question`'s words found in `words` (0 when it has none).
double coverage(const std::set<std::string>& question, const std::set<std::string>& words);

}  // namespace docintel::knowledge

#pragma once

// The text machinery feature plugins need over plain passages (learning's artifact generation,
// video's segment summaries and search hits): sentences with where they sit, content words, and
// how central a sentence is to its scope. The host has richer versions
// (ICU sentence boundaries, the encoder) that the plugin cannot link; a SentenceSplitter from
// the host may replace the built-in one (GenerationTools). Pure; thread-safe.

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace docintel::study {

/// A chunk of a document in scope, as the host's document API hands it over.
struct Passage {
    std::string document_id;
    std::string document_name;
    int page = 1;
    std::string chunk_id;
    std::string text;
};

/// A sentence of a passage: bytes [start, end) of the passage's text.
struct Sentence {
    std::size_t passage = 0;  ///< index into the passages given
    int start = 0;
    int end = 0;
    std::string text;
    int position = 0;  ///< its place in the passage (0 = first)
};

/// Sentence boundaries of a text as [start, end) byte spans.
using SentenceSplitter = std::function<std::vector<std::pair<int, int>>(const std::string&)>;

/// The built-in splitter: a boundary after . ! or ? (and closing quotes or brackets) followed by
/// white space and an upper-case letter, digit or opening quote, unless the word before the
/// stop is a known abbreviation or a single capital (an initial); also at blank lines.
std::vector<std::pair<int, int>> splitSentences(const std::string& text);

/// The quotable sentences of the passages, in order: trimmed, 30..500 bytes, at least 5 words,
/// each distinct text once. `split` defaults to splitSentences.
std::vector<Sentence> quotableSentences(const std::vector<Passage>& passages,
                                        const SentenceSplitter& split = {});

/// The lower-cased content words of a text (stop words out, a plural "s" dropped), in order.
std::vector<std::string> contentWords(const std::string& text);
std::set<std::string> contentWordSet(const std::string& text);

/// The share of `of`'s words that `in` holds (0 when `of` is empty).
double coverage(const std::set<std::string>& of, const std::set<std::string>& in);
/// |a ∩ b| / |a ∪ b| (0 when both are empty).
double jaccard(const std::set<std::string>& a, const std::set<std::string>& b);

/// How central each sentence is to the scope: the mean log document frequency of its content
/// words across all sentences (words the scope keeps returning to), a little more for a
/// passage's opening sentence, plus `focus_weight` × the share of `focus` words it holds (the
/// custom instruction's steer). Same order as `sentences`.
std::vector<double> centrality(const std::vector<Sentence>& sentences,
                               const std::set<std::string>& focus, double focus_weight = 2.0);

/// Up to `k` sentences by descending `score`, skipping any whose content words overlap one
/// already taken by a Jaccard of `max_overlap` or more. Indices in the order taken.
std::vector<std::size_t> pickDiverse(const std::vector<Sentence>& sentences,
                                     const std::vector<double>& score, std::size_t k,
                                     double max_overlap = 0.5);

/// `text` with ASCII letters in lower case (other bytes as they are).
std::string lowered(std::string text);
/// `text` without leading and trailing ASCII white space.
std::string trim(const std::string& text);
/// Characters (code points) of UTF-8 text, as JSON Schema's minLength/maxLength count them.
std::size_t utf8Length(const std::string& text);

}  // namespace docintel::study

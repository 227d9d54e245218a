#pragma once

#include <array>
#include <set>
#include <string>
#include <vector>

#include "knowledge/question_analysis.h"

namespace docintel::knowledge {

/// What the extractive answerer weighs before answering: how well its best sentence matches the
/// question, and the signs of a question the sources only seem to answer (SQuAD v2's
/// unanswerable questions are plausible passages with one entity, number or negation altered).
/// Words are compared lower-cased and without punctuation; a question word matches a source
/// word with the same first five letters (or the whole word when shorter; numbers exactly), so
/// "developed" matches "develop" and "Protestantism" "Protestant".
struct RefusalEvidence {
    double cosine = 0;   ///< the best sentence's cosine to the question
    double overlap = 0;  ///< share of the question's content words in the best sentence
    /// Share of the question's content words in the best sentence and its neighbours, each word
    /// weighted by its rarity among the candidate sentences (log((n+1)/(f+0.5)), f = sentences
    /// holding it): the rare words of a question are the ones that must be there.
    double window_coverage = 0;
    int missing = 0;         ///< content words of the question that no source contains
    int missing_names = 0;   ///< of which names (capitalised after the first word) and numbers
    int missing_long = 0;    ///< of which long words (8 bytes or more): the specific ones
    int question_words = 0;  ///< distinct content words of the question
    /// Missing words whose near-duplicate a source contains: the same ending with another
    /// beginning ("asynchronously" for "synchronously", "western" for "eastern") or a number of
    /// the same length one digit apart ("1979" for "1973").
    int altered = 0;
    /// The question negates ("not", "never", "n't", "no", "non", "without") and neither the
    /// best sentence nor its neighbours do.
    bool negation_unmatched = false;
    /// The question asks for a value of a type (QuestionAnalysis::expects: a date, a number,
    /// an amount, a person or place) and the best sentence states none (statesAskedValue).
    bool type_mismatch = false;

    // Added by decision 0057's amendment (chosen by bench/qa/select_refusal_features.py).
    /// Adjacent content-word pairs of the question ("Bretton Woods", "second oil") whose two words
    /// are both in the sources but never within two content words of each other in any source:
    /// words the question combines that the sources keep apart.
    int pairs_apart = 0;
    /// Names and numbers of the question the sources hold but the window does not: the
    /// question's subject is in another sentence.
    int displaced_names = 0;
    /// The English question words the question holds, in kQuestionWords' order.
    std::array<bool, 7> asks{};
    double cosine_lift = 0;    ///< the best cosine minus the candidates' mean cosine
    int sentences = 0;         ///< candidate sentences
    double best_coverage = 0;  ///< window_coverage of the best sentence alone
    /// The question reads as English (QuestionAnalysis::english). Otherwise answerProbability()
    /// weighs only the features that do not depend on English words (decision 0078).
    bool english = true;
};

/// Features in the order of the fitted weights (bench/qa/fit_refusal.py).
constexpr std::size_t kRefusalFeatures = 22;
std::array<double, kRefusalFeatures> refusalFeatures(const RefusalEvidence& e);

/// The probability that the question is answered by the sources, from a logistic combination
/// of the features fit on the even-numbered articles of SQuAD v2 (docs/decisions/0057); for a
/// question that does not read as English, of the cosine, its lift and the number of sentences
/// alone (docs/decisions/0078).
double answerProbability(const RefusalEvidence& e);

/// `cosine`, a cosine between two vectors of `model`, on the scale of all-MiniLM-L6-v2's cosines,
/// the scale answerProbability() and the extractive answerer's sentence support were fitted on.
/// multilingual-e5-small's cosines crowd into a narrow high band: read as MiniLM's, they call
/// almost any sentence well supported. Its cosines are mapped by an affine function matching the
/// two models' mean and spread on SQuAD questions (bench/qa/fit_cosine_scale.py,
/// docs/decisions/0078). Any other model's cosine is returned as it is.
double comparableCosine(const std::string& model, double cosine);

/// The evidence for `question` given its best sentence, the sentences around it (the best one
/// included), the words of every candidate sentence (refusalWords; for the rarity of words),
/// the sources' texts (their words and the words' positions) and the candidate sentences' mean
/// cosine.
RefusalEvidence refusalEvidence(const QuestionAnalysis& question, const std::string& best_sentence,
                                const std::string& window,
                                const std::vector<std::set<std::string>>& sentence_words,
                                const std::vector<std::string>& source_texts, double cosine,
                                double overlap, double mean_cosine);

/// The content words of a text as the refusal compares them: contentWordSet with Latin letters'
/// diacritics dropped ("Temür" is "temur"), and the acronyms the text spells out
/// (spelledAcronyms), so a question's "CEO" is in "Chief Executive Officer Lorraine Castellanos".
std::set<std::string> refusalWords(const std::string& text);

/// The acronyms a text spells out, lower-cased: the initials of every run of two to five
/// consecutive capitalised words ("Chief Executive Officer" gives "ceo", "ce" and "eo"; "of",
/// "and", "for" and "the" inside a run are passed over, so "Department of Health" gives "dh").
/// Punctuation after a word or an opening bracket before one ends a run.
std::set<std::string> spelledAcronyms(const std::string& text);

/// Latin letters with diacritics (U+00C0–U+017F) as their base letters, so "Yesun Temur" matches
/// "Yesün Temür".
std::string foldLatin(const std::string& text);

/// Whether the question word `q` matches the source word `w`: the same word, the same first five
/// letters (the whole word when shorter; words under three letters only exactly), or for a
/// number the same digits followed by letters ("1950" matches "1950s"); a word with a digit
/// matches only itself.
bool matchesWord(const std::string& q, const std::string& w);

/// Whether a question word matches a word of `words` (the rule of RefusalEvidence).
bool fuzzyContains(const std::set<std::string>& words, const std::string& word);

/// The share of the question's adjacent content-word pairs (`question_words` in order) that
/// stand together in `sequence` (content words in order): matched as RefusalEvidence matches
/// words, at most two content words apart; 0 for a question of one word.
double pairsTogether(const std::vector<std::string>& question_words,
                     const std::vector<std::string>& sequence);

}  // namespace docintel::knowledge

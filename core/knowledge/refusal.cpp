#include "knowledge/refusal.h"

#include <algorithm>
#include <cmath>

#include "embed/encoder_set.h"
#include "ingest/language_guess.h"
#include "knowledge/extractive_answerer.h"

namespace docintel::knowledge {
namespace {

// Logistic weights over refusalFeatures (bias first), fit by bench/qa/fit_refusal.py on the
// even-numbered articles of the SQuAD v2 dev file (docs/decisions/0057). Regenerate with
// `bench/qa/run.sh --features FILE --fit-data` then `bench/qa/fit_refusal.py FILE`.
constexpr double kBias = -2.4976;
constexpr std::array<double, kRefusalFeatures> kWeights = {
    4.1527, -0.2019, 0.1610, 0.5610, -0.6163, -0.4788, -3.5696, -1.2635, 0.1319,  -1.0951, 0.1361,
    0.3179, 0.8258,  0.8850, 0.0982, 0.4735,  0.4247,  1.9764,  0.0904,  -0.4386, -2.0361, 0.1354};

// The same for a question that does not read as English (docs/decisions/0078): the word features
// count, stem and match English words, so only the cosine, its lift and the number of sentences
// weigh. Fit on multilingual-e5-small's features of the same questions (its cosines through
// comparableCosine): `bench/qa/fit_refusal.py FILE 1.0 --only cosine,cosine_lift,log1p_sentences`,
// with the bias moved to the product's threshold.
constexpr double kAnyLanguageBias = -2.7374;
constexpr std::array<double, kRefusalFeatures> kAnyLanguageWeights = {
    3.7805, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.5280, 0.0735};

/// Latin letters with diacritics (U+00C0–U+017F) as their base letters, so "Yesun Temur" matches
/// "Yesün Temür".
std::string foldLatin(const std::string& text) {
    // U+00C0–U+00FF, two bytes C3 xx; "" keeps the character (× and ÷).
    static const char* const latin1[64] = {
        "A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I",  "I",
        "D", "N", "O", "O", "O", "O", "O",  "",  "O", "U", "U", "U", "U", "Y", "TH", "ss",
        "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i",  "i",
        "d", "n", "o", "o", "o", "o", "o",  "",  "o", "u", "u", "u", "u", "y", "th", "y"};
    // U+0100–U+017F by ranges: first code point of each run and its letter.
    static const std::pair<int, const char*> extended[] = {
        {0x100, "a"}, {0x106, "c"},  {0x10E, "d"}, {0x112, "e"}, {0x11C, "g"}, {0x124, "h"},
        {0x128, "i"}, {0x132, "ij"}, {0x134, "j"}, {0x136, "k"}, {0x139, "l"}, {0x143, "n"},
        {0x14C, "o"}, {0x152, "oe"}, {0x154, "r"}, {0x15A, "s"}, {0x162, "t"}, {0x168, "u"},
        {0x174, "w"}, {0x176, "y"},  {0x179, "z"}, {0x17F, "s"}};
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto b = static_cast<unsigned char>(text[i]);
        if (i + 1 < text.size() && (b == 0xC3 || b == 0xC4 || b == 0xC5)) {
            const auto c = static_cast<unsigned char>(text[i + 1]);
            if (c >= 0x80 && c <= 0xBF) {
                const int code = ((b & 0x1F) << 6) | (c & 0x3F);
                const char* base = "";
                if (code >= 0xC0 && code <= 0xFF) {
                    base = latin1[code - 0xC0];
                } else if (code >= 0x100) {
                    for (const auto& [first, letter] : extended) {
                        if (code >= first) base = letter;
                    }
                }
                if (*base != '\0') {
                    out += base;
                    ++i;
                    continue;
                }
            }
        }
        out += text[i];
    }
    return out;
}

/// Contractions' stems ("didn't" is "didn" and "t"): the negation is weighed on its own.
bool isContractionStem(const std::string& w) {
    static const std::set<std::string> stems = {"didn",   "doesn",  "don",     "wasn",  "weren",
                                                "isn",    "aren",   "hasn",    "haven", "hadn",
                                                "couldn", "wouldn", "shouldn", "won",   "can"};
    return stems.count(w) > 0;
}

bool isNumber(const std::string& w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

std::size_t commonPrefix(const std::string& a, const std::string& b) {
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
}

std::size_t commonSuffix(const std::string& a, const std::string& b) {
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
    return n;
}

/// A missing question word with a near-duplicate among `words`: another beginning of the same
/// word, or a number one digit apart.
bool hasNearDuplicate(const std::set<std::string>& words, const std::string& word) {
    if (isNumber(word)) {
        for (const auto& w : words) {
            if (w.size() != word.size() || !isNumber(w)) continue;
            std::size_t differ = 0;
            for (std::size_t i = 0; i < w.size(); ++i) differ += w[i] != word[i];
            if (differ == 1) return true;
        }
        return false;
    }
    if (word.size() < 4) return false;
    for (const auto& w : words) {
        if (w.size() < 4 || commonPrefix(w, word) >= 3) continue;
        const std::size_t shorter = std::min(w.size(), word.size());
        const std::size_t need = std::max<std::size_t>(4, shorter > 3 ? shorter - 3 : 0);
        if (commonSuffix(w, word) >= need) return true;
    }
    return false;
}

bool isNegation(const std::string& w) {
    static const std::set<std::string> words = {"not",  "never", "no",      "non",     "without",
                                                "none", "nor",   "nothing", "neither", "cannot"};
    if (words.count(w)) return true;
    // "doesn’t" with a typographic apostrophe stays one word.
    const std::string curly = "n\xE2\x80\x99t";
    return w.size() > curly.size() && w.compare(w.size() - curly.size(), curly.size(), curly) == 0;
}

bool negates(const std::string& text) {
    bool found = false;
    std::string previous;
    forEachWord(text, [&](const std::string& w, char) {
        // "doesn't" is the words "doesn" and "t".
        if (isNegation(w) || (w == "t" && previous.size() > 1 && previous.back() == 'n')) {
            found = true;
        }
        previous = w;
    });
    return found;
}

enum class Wanted { kAny, kDate, kQuantity, kName };

bool containsPhrase(const std::string& lower, const char* phrase) {
    return (" " + lower + " ").find(std::string(" ") + phrase + " ") != std::string::npos;
}

Wanted wantedType(const std::string& question) {
    std::string lower;
    forEachWord(question,
                [&](const std::string& w, char) { lower += (lower.empty() ? "" : " ") + w; });
    for (const char* p : {"how many", "how much", "how long", "how old", "how far", "how large",
                          "how big", "how high", "what percentage", "what percent"}) {
        if (containsPhrase(lower, p)) return Wanted::kQuantity;
    }
    for (const char* p : {"when", "what year", "which year", "what century", "what decade",
                          "what date", "what month", "what day", "which century"}) {
        if (containsPhrase(lower, p)) return Wanted::kDate;
    }
    for (const char* p : {"who", "whom", "whose", "where"}) {
        if (containsPhrase(lower, p)) return Wanted::kName;
    }
    return Wanted::kAny;
}

bool hasDigit(const std::string& text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool hasDate(const std::string& text) {
    if (hasDigit(text)) return true;
    static const std::set<std::string> words = {
        "january",   "february", "march",    "april",    "may",     "june",      "july",   "august",
        "september", "october",  "november", "december", "century", "centuries", "decade", "year",
        "years",     "today",    "ago",      "spring",   "summer",  "autumn",    "winter"};
    bool found = false;
    forEachWord(text, [&](const std::string& w, char) { found = found || words.count(w) > 0; });
    return found;
}

bool hasQuantity(const std::string& text) {
    if (hasDigit(text)) return true;
    static const std::set<std::string> words = {
        "one",     "two",      "three",   "four",    "five",     "six",      "seven",
        "eight",   "nine",     "ten",     "eleven",  "twelve",   "twenty",   "thirty",
        "forty",   "fifty",    "sixty",   "hundred", "hundreds", "thousand", "thousands",
        "million", "millions", "billion", "dozen",   "dozens",   "half",     "several",
        "few",     "many",     "percent", "double",  "twice",    "single",   "once"};
    bool found = false;
    forEachWord(text, [&](const std::string& w, char) { found = found || words.count(w) > 0; });
    return found;
}

/// A capitalised word of `text` (not its first) that the question does not contain.
bool hasNewName(const std::string& text, const std::set<std::string>& question_words) {
    bool found = false;
    bool first = true;
    forEachWord(text, [&](const std::string& w, char c) {
        if (!first && std::isupper(static_cast<unsigned char>(c)) && !question_words.count(w)) {
            found = true;
        }
        first = false;
    });
    return found;
}

/// Whether the question word `q` matches the source word `w`: the same word, the same first
/// five letters (the whole word when shorter; words under three letters only exactly), or for a
/// number the same digits followed by letters ("1950" matches "1950s" and "10" "10th", never
/// "100").
bool matchesWord(const std::string& q, const std::string& w) {
    if (q == w) return true;
    if (isNumber(q)) {
        return w.size() > q.size() && w.compare(0, q.size(), q) == 0 &&
               !std::isdigit(static_cast<unsigned char>(w[q.size()]));
    }
    if (q.size() < 3) return false;
    const std::size_t need = std::min<std::size_t>(5, q.size());
    return w.size() >= need && w.compare(0, need, q, 0, need) == 0;
}

/// Whether `a` and `b` match words of `sequence` at most two content words apart.
bool standTogether(const std::vector<std::string>& sequence, const std::string& a,
                   const std::string& b) {
    constexpr std::size_t kReach = 2;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        if (!matchesWord(a, sequence[i])) continue;
        const std::size_t from = i >= kReach ? i - kReach : 0;
        for (std::size_t j = from; j <= i + kReach && j < sequence.size(); ++j) {
            if (j != i && matchesWord(b, sequence[j])) return true;
        }
    }
    return false;
}

}  // namespace

std::set<std::string> refusalWords(const std::string& text) {
    return contentWordSet(foldLatin(text));
}

bool fuzzyContains(const std::set<std::string>& words, const std::string& word) {
    // Every word matchesWord accepts begins with the word's first five letters (a number's
    // digits, all of them), so only that range of the sorted set is looked at.
    const std::string prefix =
        isNumber(word) ? word : word.substr(0, std::min<std::size_t>(5, word.size()));
    for (auto it = words.lower_bound(prefix);
         it != words.end() && it->compare(0, prefix.size(), prefix) == 0; ++it) {
        if (matchesWord(word, *it)) return true;
    }
    return false;
}

std::array<double, kRefusalFeatures> refusalFeatures(const RefusalEvidence& e) {
    const auto asks = [&](std::size_t i) { return e.asks[i] ? 1.0 : 0.0; };
    return {e.cosine,
            e.overlap,
            e.window_coverage,
            static_cast<double>(std::min(e.missing, 4)),
            static_cast<double>(std::min(e.missing_names, 3)),
            static_cast<double>(std::min(e.altered, 2)),
            e.negation_unmatched ? 1.0 : 0.0,
            e.type_mismatch ? 1.0 : 0.0,
            static_cast<double>(std::min(e.missing_long, 2)),
            std::log1p(static_cast<double>(e.question_words)),
            asks(0),
            asks(1),
            asks(2),
            asks(3),
            asks(4),
            asks(5),
            asks(6),
            e.best_coverage,
            static_cast<double>(std::min(e.pairs_apart, 3)),
            static_cast<double>(std::min(e.displaced_names, 2)),
            e.cosine_lift,
            std::log1p(static_cast<double>(e.sentences))};
}

double comparableCosine(const std::string& model, double cosine) {
    // bench/qa/fit_cosine_scale.py over the 2,545 SQuAD questions of split "fit": MiniLM's best
    // cosines have mean 0.603 and spread 0.136, e5's 0.865 and 0.031.
    if (model == embed::EncoderSet::kMultilingualModel) return 4.4148 * cosine - 3.2143;
    return cosine;
}

double answerProbability(const RefusalEvidence& e) {
    const auto f = refusalFeatures(e);
    const auto& weights = e.english ? kWeights : kAnyLanguageWeights;
    double z = e.english ? kBias : kAnyLanguageBias;
    for (std::size_t i = 0; i < f.size(); ++i) z += weights[i] * f[i];
    return 1.0 / (1.0 + std::exp(-z));
}

RefusalEvidence refusalEvidence(const std::string& question, const std::string& best_sentence,
                                const std::string& window,
                                const std::vector<std::set<std::string>>& sentence_words,
                                const std::vector<std::string>& source_texts, double cosine,
                                double overlap, double mean_cosine) {
    // Each source's words in order (for the pairs kept apart) and all of them (refusalWords).
    std::vector<std::vector<std::string>> source_sequences;
    std::set<std::string> source_words;
    for (const auto& text : source_texts) {
        source_sequences.push_back(contentWords(foldLatin(text)));
        source_words.insert(source_sequences.back().begin(), source_sequences.back().end());
    }
    RefusalEvidence e;
    e.english = ingest::readsAsEnglish({question});
    e.cosine = cosine;
    e.overlap = overlap;
    e.cosine_lift = cosine - mean_cosine;
    e.sentences = static_cast<int>(sentence_words.size());
    const auto best_words = refusalWords(best_sentence);
    auto q_words = refusalWords(question);
    for (auto it = q_words.begin(); it != q_words.end();) {
        it = isContractionStem(*it) ? q_words.erase(it) : std::next(it);
    }
    const auto window_words = refusalWords(window);
    e.question_words = static_cast<int>(q_words.size());

    double total = 0, covered = 0, in_best = 0;
    const double n = static_cast<double>(sentence_words.size());
    for (const auto& q : q_words) {
        double holding = 0;
        for (const auto& words : sentence_words) holding += fuzzyContains(words, q);
        const double weight = std::log((n + 1) / (holding + 0.5));
        total += weight;
        if (fuzzyContains(window_words, q)) covered += weight;
        if (fuzzyContains(best_words, q)) in_best += weight;
        if (!fuzzyContains(source_words, q)) {
            ++e.missing;
            e.missing_long += q.size() >= 8;
            e.altered += hasNearDuplicate(source_words, q);
        }
    }
    e.window_coverage = total > 0 ? covered / total : 0;
    e.best_coverage = total > 0 ? in_best / total : 0;

    for (const auto& term : keyTerms(foldLatin(question))) {
        const auto normalised = contentWords(term);  // stop words out, plural "s" dropped
        if (normalised.empty()) continue;
        if (!fuzzyContains(source_words, normalised.front())) {
            ++e.missing_names;
        } else if (!fuzzyContains(window_words, normalised.front())) {
            ++e.displaced_names;
        }
    }

    // The question's adjacent content words, in order, that no source holds together.
    std::vector<std::string> q_sequence;
    for (auto& w : contentWords(foldLatin(question))) {
        if (!isContractionStem(w)) q_sequence.push_back(std::move(w));
    }
    std::set<std::pair<std::string, std::string>> pairs;
    for (std::size_t i = 0; i + 1 < q_sequence.size(); ++i) {
        if (q_sequence[i] != q_sequence[i + 1]) pairs.emplace(q_sequence[i], q_sequence[i + 1]);
    }
    for (const auto& [a, b] : pairs) {
        if (!fuzzyContains(source_words, a) || !fuzzyContains(source_words, b)) continue;
        e.pairs_apart += std::none_of(
            source_sequences.begin(), source_sequences.end(),
            [&](const std::vector<std::string>& words) { return standTogether(words, a, b); });
    }

    e.negation_unmatched = negates(question) && !negates(window);

    std::set<std::string> question_lower;
    forEachWord(question, [&](const std::string& w, char) { question_lower.insert(w); });
    for (std::size_t i = 0; i < kQuestionWords.size(); ++i) {
        e.asks[i] = question_lower.count(kQuestionWords[i]) > 0;
    }
    switch (wantedType(question)) {
        case Wanted::kDate:
            e.type_mismatch = !hasDate(best_sentence);
            break;
        case Wanted::kQuantity:
            e.type_mismatch = !hasQuantity(best_sentence);
            break;
        case Wanted::kName:
            e.type_mismatch = !hasNewName(best_sentence, question_lower);
            break;
        case Wanted::kAny:
            break;
    }
    return e;
}

}  // namespace docintel::knowledge

#include "knowledge/extractive_answerer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "common/log.h"
#include "ingest/chunker.h"
#include "knowledge/stated_numbers.h"

namespace docintel::knowledge {
namespace {

const std::set<std::string>& stopWords() {
    static const std::set<std::string> words = {
        "a",      "about",  "above", "after", "again", "all",   "also",    "am",     "an",
        "and",    "any",    "are",   "as",    "at",    "be",    "been",    "before", "being",
        "both",   "but",    "by",    "can",   "could", "did",   "do",      "does",   "doing",
        "down",   "during", "each",  "few",   "for",   "from",  "had",     "has",    "have",
        "having", "he",     "her",   "here",  "hers",  "him",   "his",     "how",    "i",
        "if",     "in",     "into",  "is",    "it",    "its",   "just",    "me",     "more",
        "most",   "my",     "no",    "nor",   "not",   "of",    "off",     "on",     "once",
        "only",   "or",     "other", "our",   "out",   "over",  "own",     "same",   "she",
        "should", "so",     "some",  "such",  "than",  "that",  "the",     "their",  "them",
        "then",   "there",  "these", "they",  "this",  "those", "through", "to",     "too",
        "under",  "until",  "up",    "very",  "was",   "we",    "were",    "what",   "when",
        "where",  "which",  "while", "who",   "whom",  "why",   "will",    "with",   "would",
        "you",    "your",   "many",  "much",  "name",  "named", "called",  "whose",  "according",
        "did",    "does"};
    return words;
}

constexpr std::size_t kMaxCandidates = 64;
/// A sentence stating a value of the asked type is judged by the refusal instead of the most
/// relevant one when its relevance is at least this share of it.
constexpr double kJudgedTypedShare = 0.85;
/// A label is the one the question names (markNamedLabel) when its cosine with the question's
/// point is at least this, and this much above every other label's.
constexpr double kNamedLabelCosine = 0.40;
constexpr double kNamedLabelMargin = 0.08;

/// A "Label: value" line's two parts: a label of one to four words before a colon in its first
/// 40 bytes, and a value after it that is not a row of more cells ("Ordered by: | Dr Priya
/// Ramanathan" is such a line; a wider row is not). Empty when the sentence is none.
struct LabelLine {
    std::string label;
    std::vector<std::string> words;  ///< the label's content words
    std::string value;
};

LabelLine labelLine(const std::string& sentence) {
    const auto colon = sentence.find(':');
    if (colon == std::string::npos || colon == 0 || colon > 40) return {};
    auto value = sentence.find_first_not_of(' ', colon + 1);
    if (value != std::string::npos && sentence[value] == '|') ++value;
    if (value == std::string::npos || sentence.find('|', value) != std::string::npos) return {};
    std::string label = sentence.substr(0, colon);
    auto words = contentWords(foldLatin(label));
    if (words.empty() || words.size() > 4) return {};
    return {std::move(label), std::move(words), sentence.substr(value)};
}

struct Candidate {
    std::size_t source = 0;  ///< index into sources
    int start = 0;           ///< byte offsets in the chunk text
    int end = 0;
    std::string text;
    std::vector<std::string> sequence;  ///< its content words in order, folded as refusalWords
    std::set<std::string> words;        ///< refusalWords(text): the same words as a set
    std::set<std::string> held;         ///< the question's words it holds (holdsWord)
    bool states_value = false;          ///< statesAskedValue
    LabelLine line;                     ///< its label and value when it is a "Label: value" line
    bool label_named = false;           ///< its label is the question's words (labelAsksValue)
    bool label_meant = false;  ///< its label is nearest the question's point (markNamedLabel)
    double overlap = 0;
    double cosine = 0;
    double relevance = 0;  ///< cosine and rarity-weighted word coverage
    double support = 0;    ///< relevance plus the typed bonus
};

/// The cells of a table row ("label: value | label: value ...") holding a word of the question,
/// joined as the row writes them, when one of them holds a name or number of the question (the
/// row is the one the question names) or the question names none ("on what date was the
/// message sent?" against an e-mail's header row); "" for a sentence that is not a row, a row
/// the question does not name, or when every cell holds a word of the question.
std::string questionCells(const QuestionAnalysis& question, const std::string& text) {
    static const std::string kSeparator = " | ";
    if (text.find(kSeparator) == std::string::npos) return "";
    std::string out;
    std::size_t cells = 0, kept = 0;
    bool named = false;
    for (std::size_t from = 0; from <= text.size();) {
        std::size_t to = text.find(kSeparator, from);
        if (to == std::string::npos) to = text.size();
        const std::string cell = text.substr(from, to - from);
        ++cells;
        const auto words = refusalWords(cell);
        if (std::any_of(question.word_set.begin(), question.word_set.end(),
                        [&](const std::string& w) { return words.count(w) > 0; })) {
            if (!out.empty()) out += kSeparator;
            out += cell;
            ++kept;
        }
        named = named || std::any_of(question.key_terms.begin(), question.key_terms.end(),
                                     [&](const std::string& term) { return words.count(term); });
        from = to + kSeparator.size();
    }
    return (!named && !question.key_terms.empty()) || kept == cells ? "" : out;
}

/// Whether a sentence is one of the headings its chunk stands under (a title for "what is the
/// slide's title?").
bool isHeading(const storage::Chunk& chunk, const std::string& sentence) {
    return std::find(chunk.section_path.begin(), chunk.section_path.end(), sentence) !=
           chunk.section_path.end();
}

/// The chunk's headings, outermost first: "Q3 2025 Operations Review: Supply chain".
std::string headingTrail(const storage::Chunk& chunk) {
    std::string out;
    for (const auto& heading : chunk.section_path) out += (out.empty() ? "" : ": ") + heading;
    return out;
}

/// Two unit vectors joined as mean pooling joins the tokens of two texts, each weighing as many
/// tokens as it had, and normalised again: near what encoding the texts as one would give.
std::vector<float> pooledTogether(const std::vector<float>& a, int a_tokens,
                                  const std::vector<float>& b, int b_tokens) {
    std::vector<float> out(a.size());
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        out[i] = static_cast<float>(a_tokens) * a[i] + static_cast<float>(b_tokens) * b[i];
    }
    normalise(out);
    return out;
}

/// Whether a sentence holds nothing but the question's own words ("5 Petitioner :" for "Who
/// argued for the petitioner?"): it says nothing the question does not, so no answer is in it.
/// A number counts as new unless the question holds it or it opens the sentence (a line or item
/// number): "Column 1: Row 2, Cell 1" says something to "the cell at row 2, column 2".
bool restatesQuestion(const QuestionAnalysis& question, const std::string& sentence,
                      const std::set<std::string>& words) {
    if (!std::all_of(words.begin(), words.end(),
                     [&](const std::string& w) { return question.word_set.count(w) > 0; })) {
        return false;
    }
    bool opening = true, new_number = false;
    forEachWord(sentence, [&](const std::string& w, char first) {
        new_number = new_number || (!opening && std::isdigit(static_cast<unsigned char>(first)) &&
                                    !question.all_words.count(w));
        opening = false;
    });
    return !new_number;
}

/// Whether a sentence is a "Label: value" line whose label is the question's own words and whose
/// value states the asked type: "Ordered by: Dr Priya Ramanathan" for "who ordered the
/// equipment?", "Required by: 2 October 2026" for "by what date are the goods needed?". The
/// label says what the value is, so the line answers even where other sentences share more of
/// the question's words.
bool labelAsksValue(const QuestionAnalysis& question, const LabelLine& line) {
    if (line.label.empty()) return false;
    // Each label word matches a question word, either way round ("Ordered" and "ordered",
    // "Maintainer" and "maintains").
    const bool named = std::all_of(line.words.begin(), line.words.end(), [&](const std::string& l) {
        return std::any_of(question.words.begin(), question.words.end(),
                           [&](const auto& q) { return matchesWord(l, q) || matchesWord(q, l); });
    });
    return named && statesAskedValue(question, line.value);
}

/// Whether two words are one stem, the longer the shorter with an ending that makes a verb a
/// doer or a tense of it ("conductor" and "conduct", "teacher" and "teache" (as contentWords
/// reads "teaches"), "owner" and "own", "ordered" and "order"), a final "e" dropped before a
/// vowel ("managing" and "manage").
bool sameStem(const std::string& a, const std::string& b) {
    if (a == b) return true;
    const std::string& shorter = a.size() < b.size() ? a : b;
    const std::string& longer = a.size() < b.size() ? b : a;
    if (shorter.size() < 3 || hasDigit(shorter) ||
        longer.compare(0, shorter.size() - 1, shorter, 0, shorter.size() - 1) != 0) {
        return false;
    }
    for (const std::string_view ending : {"er", "or", "r", "ed", "d", "ing"}) {
        if (longer.size() == shorter.size() + ending.size() && longer.ends_with(ending) &&
            longer.compare(0, shorter.size(), shorter) == 0) {
            return true;
        }
        if (shorter.back() == 'e' && ending.front() != 'r' && ending.front() != 'd' &&
            longer.size() + 1 == shorter.size() + ending.size() && longer.ends_with(ending)) {
            return true;
        }
    }
    return false;
}

/// Whether a sentence's words hold a question word, as written or of the same stem (sameStem).
bool holdsWord(const std::set<std::string>& words, const std::string& q) {
    if (words.count(q)) return true;
    if (q.size() < 3 || hasDigit(q)) return false;
    // Either word may be the longer: the words sharing all but the longest ending's letters.
    const std::size_t stem = std::max<std::size_t>(2, q.size() - 3);  // q.size() >= 3 here
    for (auto it = words.lower_bound(q.substr(0, stem));
         it != words.end() && it->compare(0, stem, q, 0, stem) == 0; ++it) {
        if (sameStem(q, *it)) return true;
    }
    return false;
}

/// The question without the words of its topic, those more than a few of the candidate
/// sentences hold: what it asks about the topic ("Who teaches" of "Who teaches the Italian
/// evening class?" over a syllabus of that class). The question itself when no word is the
/// topic's.
std::string questionPoint(const QuestionAnalysis& question,
                          const std::vector<Candidate>& candidates) {
    const std::size_t topic = std::max<std::size_t>(2, candidates.size() / 8);
    std::set<std::string> common;
    for (const auto& w : question.word_set) {
        std::size_t holding = 0;
        for (const auto& c : candidates) holding += c.words.count(w);
        if (holding > topic) common.insert(w);
    }
    if (common.empty()) return question.text;
    std::string out;
    std::istringstream tokens(question.text);
    for (std::string token; tokens >> token;) {
        const auto words = contentWords(foldLatin(token));
        if (words.size() == 1 && common.count(words.front())) continue;
        out += (out.empty() ? "" : " ") + token;
    }
    return out;
}

/// The texts to encode for the candidates: each one's own, in order, then the others each is
/// also compared as (its cosine is the highest): the row cells the question names, the sentence
/// under its chunk's headings, a heading as a title.
struct Readings {
    std::vector<std::string> texts;
    std::vector<std::pair<std::size_t, std::size_t>> labels;  ///< candidate -> its label alone
    std::size_t point = 0;  ///< the question's point (questionPoint), when any label is
    std::vector<std::pair<std::size_t, std::size_t>> also;    ///< candidate -> another text
    std::vector<std::pair<std::size_t, std::size_t>> pooled;  ///< candidate -> its heading trail
};

Readings otherReadings(const QuestionAnalysis& question, const std::vector<Source>& sources,
                       const std::vector<Candidate>& candidates) {
    Readings r;
    r.texts.reserve(candidates.size());
    for (const auto& c : candidates) r.texts.push_back(c.text);
    // A "Label: value" line whose value is of the asked type is also read by its label alone,
    // to be compared with the question's point: "Tutor" with "who teaches".
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const auto& c = candidates[i];
        if (c.line.label.empty() || !(c.states_value || question.expects == AnswerType::kAny)) {
            continue;
        }
        r.labels.emplace_back(i, r.texts.size());
        r.texts.push_back(c.line.label);
    }
    if (!r.labels.empty()) {
        r.point = r.texts.size();
        r.texts.push_back(questionPoint(question, candidates));
    }
    // A table row is also compared by the cells the question names: a question about one
    // column of a wide row is diluted by the others ("the service start date of document
    // DHAW20190045" against a row of seven labelled cells).
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        std::string focus = questionCells(question, candidates[i].text);
        if (focus.empty()) continue;
        r.also.emplace_back(i, r.texts.size());
        r.texts.push_back(std::move(focus));
    }
    // A sentence is also compared read under its chunk's headings. When they hold a word of the
    // question the sentence does not ("Maintainer: Oona Hartikainen." under "tidepool" for "who
    // maintains tidepool?"), the two are encoded as one text; otherwise each heading trail is
    // encoded once and joined to the sentence's vector as mean pooling joins tokens
    // (pooledTogether): a few texts more, not one per sentence. For a title question a heading
    // is read as what it is: "Title: Adding a Bullet Slide".
    struct Trail {
        std::size_t text = 0;
        std::set<std::string> asked;  ///< the question's words its headings hold
    };
    std::map<std::string, Trail> trails;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const auto& c = candidates[i];
        const auto& chunk = sources[c.source].passage.chunk;
        if (chunk.section_path.empty()) continue;
        if (isHeading(chunk, c.text)) {
            if (question.expects != AnswerType::kTitle) continue;
            r.also.emplace_back(i, r.texts.size());
            r.texts.push_back("Title: " + c.text);
            continue;
        }
        const std::string trail = headingTrail(chunk);
        auto found = trails.find(trail);
        if (found == trails.end()) {
            Trail t;
            for (const auto& heading : chunk.section_path) {
                for (const auto& w : refusalWords(heading)) {
                    if (question.word_set.count(w)) t.asked.insert(w);
                }
            }
            found = trails.emplace(trail, std::move(t)).first;
        }
        Trail& t = found->second;
        if (std::any_of(t.asked.begin(), t.asked.end(),
                        [&](const std::string& w) { return !c.words.count(w); })) {
            r.also.emplace_back(i, r.texts.size());
            r.texts.push_back(trail + ": " + c.text);
        }
        if (t.text == 0) {  // candidates' own texts come first, so 0 is never a trail's
            t.text = r.texts.size();
            r.texts.push_back(trail);
        }
        r.pooled.emplace_back(i, t.text);
    }
    return r;
}

/// Of the "Label: value" lines whose value is of the asked type, the one whose label is nearest
/// the question's point in meaning names what the question asks, when it is near enough and
/// clearly nearer than the next: "Tutor: Chiara Bellamy-Osei" for "who teaches the class?",
/// "Authorised dealer: Windlestrae Cycles" for "which bike shop sold the e-bike?".
void markNamedLabel(std::vector<Candidate>& candidates,
                    const std::vector<std::vector<float>>& vectors, const Readings& readings,
                    const std::string& model) {
    if (readings.labels.empty()) return;
    const auto& point = vectors[readings.point];
    // Each label once: a label repeated (the same "Fax:" line on two pages) is one.
    std::map<std::string, double> similarity;
    for (const auto& [i, text] : readings.labels) {
        similarity.emplace(readings.texts[text],
                           comparableCosine(model, cosine(point, vectors[text])));
    }
    const auto best =
        std::max_element(similarity.begin(), similarity.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    double next = -1;
    for (auto it = similarity.begin(); it != similarity.end(); ++it) {
        if (it != best) next = std::max(next, it->second);
    }
    if (best->second < kNamedLabelCosine || best->second - next < kNamedLabelMargin) return;
    for (const auto& [i, text] : readings.labels) {
        if (readings.texts[text] == best->first) candidates[i].label_meant = true;
    }
}

/// At most kMaxCandidates sentences to encode: those sharing the most of the question's words
/// first, the better-ranked sources' next, in their order; then back in source and reading
/// order. Taking the sources' sentences in order until the budget ran out never looked at the
/// last sources of long chunks, whatever they held.
void keepLikeliest(std::vector<Candidate>& candidates) {
    if (candidates.size() <= kMaxCandidates) return;
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.overlap > b.overlap; });
    candidates.resize(kMaxCandidates);
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.source != b.source ? a.source < b.source : a.start < b.start;
    });
}

}  // namespace

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) sum += a[i] * b[i];
    return sum;
}

void normalise(std::vector<float>& v) {
    double norm = 0;
    for (const float x : v) norm += static_cast<double>(x) * x;
    norm = std::sqrt(norm);
    if (norm > 0) {
        for (float& x : v) x = static_cast<float>(x / norm);
    }
}

AnswerSentence citeSentence(const Source& source, const SentenceSpan& span, double support) {
    const auto& chunk = source.passage.chunk;
    AnswerSentence s;
    s.text = span.text;
    s.source_number = source.number;
    s.page = chunk.page_start;
    s.char_start = chunk.char_start + span.start;
    s.char_end = chunk.char_start + span.end;
    s.support = support;
    return s;
}

/// The word an abbreviation before a figure stands for: "No. 07-1315" is a number, "Vol. 85"
/// a volume.
const std::string& spelledOut(const std::string& word) {
    static const std::map<std::string, std::string> words = {
        {"no", "number"},   {"nos", "numbers"}, {"vol", "volume"}, {"sec", "section"},
        {"art", "article"}, {"fig", "figure"},  {"pp", "pages"}};
    const auto it = words.find(word);
    return it == words.end() ? word : it->second;
}

namespace {

/// The base form of an irregular verb's past tense or participle ("took" and "taken" are
/// "take"), so "who took the minutes?" shares its verb with "Minutes taken by:". Forms that
/// are also common other words ("left", "saw", "found", "rose", "felt") stay as they are.
const std::string& baseVerb(const std::string& word) {
    // Each line: the base form, then its irregular past tense and participle forms.
    static const auto forms = [] {
        std::unordered_map<std::string, std::string> out;  // looked up for every word read
        std::istringstream lines(
            "take took taken\ngive gave given\nwrite wrote written\nmake made\npay paid\n"
            "sell sold\nbuy bought\nhold held\nlead led\nrun ran\nbegin began begun\n"
            "choose chose chosen\nwin won\nmeet met\nspend spent\nsend sent\nbring brought\n"
            "build built\nkeep kept\ntell told\nsay said\ngrow grew grown\ndraw drew drawn\n"
            "fly flew flown\ngo went gone\ncome came\nsee seen\nknow knew known\n"
            "think thought\nteach taught\ncatch caught\nfight fought\nstand stood\nlose lost\n"
            "hear heard\nmean meant\nseek sought\nspeak spoke spoken\nwear wore worn\n"
            "drive drove driven\nride rode ridden\neat ate eaten\nflee fled\nhide hid hidden\n"
            "forget forgot forgotten\nundertake undertook undertaken\n"
            "overtake overtook overtaken\nwithdraw withdrew withdrawn\nunderstand understood\n"
            "strike struck\nswear swore sworn\nbreak broke broken\nfreeze froze frozen\n"
            "steal stole stolen\nthrow threw thrown\nshow shown\nsing sang sung\ndeal dealt\n"
            "lend lent\nsleep slept\nswim swam");
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream words(line);
            std::string base, form;
            words >> base;
            while (words >> form) out.emplace(form, base);
        }
        return out;
    }();
    const auto it = forms.find(word);
    return it == forms.end() ? word : it->second;
}

/// At debug level, the refusal's features and probability of each answer (no question or
/// document text): why an answer was given or refused, and the rows `bench/qa_corpus`
/// collects for refitting the refusal (bench/qa/fit_refusal.py --also).
void logRefusalEvidence(const RefusalEvidence& evidence, double probability) {
    if (!common::logs(common::LogLevel::kDebug)) return;
    std::string features;
    char number[32];
    for (const double f : refusalFeatures(evidence)) {
        std::snprintf(number, sizeof number, "%s%.4f", features.empty() ? "" : ",", f);
        features += number;
    }
    std::snprintf(number, sizeof number, "%.4f", probability);
    common::log(common::LogLevel::kDebug, "answer_refusal_evidence",
                {{"probability", number}, {"features", features}});
}

/// The length of the e-mail or web address that begins at `at` (0 when none does): an
/// identifier, whose words are not what the text says ("bookings@thistledown-coaches.example.co.uk"
/// holds "coaches" in every header of a thread about a coach).
std::size_t addressLength(const std::string& text, std::size_t at) {
    if (at > 0 && std::string_view(" \t\r\n<([\"'").find(text[at - 1]) == std::string_view::npos) {
        return 0;
    }
    const std::size_t end = std::min(text.find_first_of(" \t\r\n<>()[]\"',;|", at), text.size());
    const std::string_view token(text.data() + at, end - at);
    if (token.starts_with("http://") || token.starts_with("https://") ||
        token.starts_with("www.")) {
        return token.size();
    }
    const auto sign = token.find('@');
    return sign != std::string_view::npos && sign > 0 &&
                   token.find('.', sign) != std::string_view::npos
               ? token.size()
               : 0;
}

}  // namespace

std::vector<std::string> contentWords(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    std::size_t at = 0;  // where the word ends
    auto flush = [&] {
        if (at + 2 < text.size() && text[at] == '.' &&
            (std::isdigit(static_cast<unsigned char>(text[at + 1])) ||
             (text[at + 1] == ' ' && std::isdigit(static_cast<unsigned char>(text[at + 2]))))) {
            word = spelledOut(word);
        }
        // A year with a short prefix is also the year ("FY2023" is "FY 2023"): a question about
        // 2023 asks about the fiscal year's column.
        if (word.size() >= 5 && word.size() <= 7 &&
            std::isalpha(static_cast<unsigned char>(word[0]))) {
            const auto digits = std::min(word.find_first_of("0123456789"), word.size());
            const auto year = word.substr(digits);
            if (year.size() == 4 && isNumber(year) && (year[0] == '1' || year[0] == '2') &&
                std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(digits),
                            [](char c) { return std::isalpha(static_cast<unsigned char>(c)); })) {
                if (digits > 1) words.push_back(word.substr(0, digits));
                word = year;
            }
        }
        // A number of two figures written as a word is the number ("twelve states" is "12
        // states"); smaller ones are no content word either way.
        if (const long long n = numberWordValue(word); n >= 10) word = std::to_string(n);
        word = baseVerb(word);
        if (word.size() > 1 && !stopWords().count(word)) {
            if (word.size() > 3 && word.back() == 's' && word[word.size() - 2] != 's') {
                word.pop_back();
            }
            words.push_back(word);
        }
        word.clear();
    };
    for (; at < text.size(); ++at) {
        const auto u = static_cast<unsigned char>(text[at]);
        if (word.empty() && std::isalnum(u)) {
            if (const std::size_t skip = addressLength(text, at)) {
                at += skip - 1;
                continue;
            }
        }
        if (std::isalnum(u) || u >= 0x80) {
            word += static_cast<char>(std::tolower(u));
        } else if ((u == '.' || u == ',') && isNumber(word) && at + 1 < text.size() &&
                   std::isdigit(static_cast<unsigned char>(text[at + 1]))) {
            // A number is one word: "2.2" is not "2" and "2", and "12,765" is 12765 (the
            // question may group its figures differently from the source).
            if (u == '.') word += '.';
        } else {
            flush();
        }
    }
    flush();
    return words;
}

std::set<std::string> contentWordSet(const std::string& text) {
    const auto words = contentWords(text);
    return {words.begin(), words.end()};
}

bool isNumber(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

bool hasDigit(const std::string& text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::set<std::string> questionNames(const std::string& question) {
    std::set<std::string> out;
    bool first_word = true;
    forEachWord(question, [&](const std::string& word, char first) {
        if (!first_word && std::isupper(static_cast<unsigned char>(first))) out.insert(word);
        first_word = false;
    });
    return out;
}

double coverage(const std::set<std::string>& question, const std::set<std::string>& words) {
    if (question.empty()) return 0;
    std::size_t shared = 0;
    for (const auto& w : question) shared += words.count(w);
    return static_cast<double>(shared) / static_cast<double>(question.size());
}

Answer ExtractiveAnswerer::answer(const QuestionAnalysis& question,
                                  const std::vector<float>& question_vector,
                                  const std::vector<Source>& sources) const {
    Answer out;

    std::vector<Candidate> candidates;
    for (std::size_t s = 0; s < sources.size(); ++s) {
        for (auto& span : quotableSentences(sources[s].passage.chunk)) {
            Candidate c;
            c.sequence = contentWords(foldLatin(span.text));
            c.words = {c.sequence.begin(), c.sequence.end()};
            c.words.merge(spelledAcronyms(span.text));  // as refusalWords(span.text) reads it
            if (restatesQuestion(question, span.text, c.words)) continue;
            c.source = s;
            c.start = span.start;
            c.end = span.end;
            c.overlap = coverage(question.word_set, c.words);
            c.text = std::move(span.text);
            candidates.push_back(std::move(c));
        }
    }
    keepLikeliest(candidates);
    const bool asks_title = question.expects == AnswerType::kTitle;
    for (auto& c : candidates) {
        // A heading answers a question for a title, and no other: it names its section, and its
        // capitals are its style, not a name ("Minutes of the Annual General Meeting" for "who
        // took the minutes?"), its year no date ("Open Day 2027" for "when must I book?").
        const bool heading = isHeading(sources[c.source].passage.chunk, c.text);
        c.states_value = asks_title ? heading : !heading && statesAskedValue(question, c.text);
        if (!heading) c.line = labelLine(c.text);
        for (const auto& w : question.word_set) {
            if (holdsWord(c.words, w)) c.held.insert(w);
        }
        c.label_named = labelAsksValue(question, c.line);
    }

    if (encoder_ && !question_vector.empty() && !candidates.empty()) {
        const Readings readings = otherReadings(question, sources, candidates);
        if (auto vectors = encoder_->encode(readings.texts, 32)) {
            const auto comparable = [&](const std::vector<float>& v) {
                return comparableCosine(encoder_->modelName(), cosine(question_vector, v));
            };
            for (std::size_t i = 0; i < candidates.size(); ++i)
                candidates[i].cosine = comparable((*vectors)[i]);
            for (const auto& [i, text] : readings.also) {
                candidates[i].cosine = std::max(candidates[i].cosine, comparable((*vectors)[text]));
            }
            markNamedLabel(candidates, *vectors, readings, encoder_->modelName());
            for (const auto& [i, trail] : readings.pooled) {
                const auto joined = pooledTogether(
                    (*vectors)[i], ingest::approximateTokens(candidates[i].text), (*vectors)[trail],
                    ingest::approximateTokens(readings.texts[trail]));
                candidates[i].cosine = std::max(candidates[i].cosine, comparable(joined));
            }
        }
    }
    // The question's words weighted by their rarity among the candidate sentences: a code or a
    // name only one sentence holds says more than a word every table row repeats.
    std::map<std::string, double> weight;
    double total_weight = 0;
    const double n = static_cast<double>(candidates.size());
    for (const auto& w : question.word_set) {
        double holding = 0;
        for (const auto& c : candidates) holding += static_cast<double>(c.held.count(w));
        weight[w] = std::log((n + 1) / (holding + 0.5));
        total_weight += weight[w];
    }
    for (auto& c : candidates) {
        // A small prior for the better-ranked sources.
        const double rank_prior = 0.02 * (1.0 / (1.0 + static_cast<double>(c.source)));
        double rare_overlap = 0;
        for (const auto& [w, wt] : weight) rare_overlap += c.held.count(w) ? wt : 0.0;
        rare_overlap = total_weight > 0 ? rare_overlap / total_weight : 0;
        // The question's adjacent words standing together in the sentence ("Director of Public
        // Works"): a phrase of the question, not its words scattered.
        const double phrases = pairsTogether(question.words, c.sequence);
        c.relevance =
            0.6 * std::max(0.0, c.cosine) + 0.3 * rare_overlap + 0.1 * phrases + rank_prior;
        // A "Label: value" line whose label is the question's words, or nearest its point in
        // meaning, counts its value twice.
        c.support = c.relevance + (c.states_value ? options_.typed_bonus : 0.0) +
                    (c.label_named ? options_.typed_bonus : 0.0) +
                    (c.label_meant ? options_.typed_bonus : 0.0);
    }

    const auto by = [](double Candidate::*score) {
        return [score](const Candidate& a, const Candidate& b) { return a.*score < b.*score; };
    };
    const auto best =
        std::max_element(candidates.begin(), candidates.end(), by(&Candidate::support));
    out.best_support = best == candidates.end() ? 0 : best->support;
    if (best != candidates.end()) {
        // The refusal judges the most relevant sentence, not the one the typed bonus chose: a
        // sentence holding some date must not make a question the sources do not answer look
        // answered (the bonus alone cost SQuAD's unanswerable "when" questions, decision 0077).
        auto judged =
            std::max_element(candidates.begin(), candidates.end(), by(&Candidate::relevance));
        // Unless a sentence stating a value of the asked type is nearly as relevant: "DOCKET
        // NUMBER: GWB-2026-0147" against "Please refer to the docket number in every comment."
        if (!judged->states_value) {
            const auto typed = std::max_element(candidates.begin(), candidates.end(),
                                                [](const Candidate& a, const Candidate& b) {
                                                    return std::tie(a.states_value, a.relevance) <
                                                           std::tie(b.states_value, b.relevance);
                                                });
            if (typed->states_value && typed->relevance >= kJudgedTypedShare * judged->relevance) {
                judged = typed;
            }
        }
        // The judged sentence with its neighbours in the same chunk.
        std::string window;
        const auto at = static_cast<std::size_t>(judged - candidates.begin());
        for (std::size_t i = at == 0 ? 0 : at - 1; i <= at + 1 && i < candidates.size(); ++i) {
            if (candidates[i].source == judged->source) window += candidates[i].text + " ";
        }
        std::vector<std::set<std::string>> sentence_words;
        sentence_words.reserve(candidates.size());
        // The candidates' words are read no more after this: moved, not copied.
        for (auto& c : candidates) sentence_words.push_back(std::move(c.words));
        double mean_cosine = 0;
        for (const auto& c : candidates) {
            mean_cosine += c.cosine / static_cast<double>(candidates.size());
        }
        std::vector<std::string> source_texts;
        source_texts.reserve(sources.size());
        for (const auto& s : sources) source_texts.push_back(s.passage.chunk.text);
        out.evidence = refusalEvidence(question, judged->text, window, sentence_words, source_texts,
                                       judged->cosine, judged->overlap, mean_cosine);
        out.confidence = answerProbability(out.evidence);
        logRefusalEvidence(out.evidence, out.confidence);
    }
    if (best == candidates.end() || out.confidence < options_.refuse_below) {
        out.refused = true;
        out.text = kRefusal;
        return out;
    }
    std::vector<const Candidate*> chosen;
    std::vector<const Candidate*> ranked;
    for (const auto& c : candidates) ranked.push_back(&c);
    std::stable_sort(ranked.begin(), ranked.end(), [](const Candidate* a, const Candidate* b) {
        return a->support > b->support;
    });
    std::set<std::string> seen_text;
    for (const Candidate* c : ranked) {
        if (static_cast<int>(chosen.size()) >= options_.max_sentences) break;
        if (c->support < best->support * options_.keep_within) break;
        if (!seen_text.insert(c->text).second) continue;  // overlapping chunks repeat sentences
        chosen.push_back(c);
    }
    std::sort(chosen.begin(), chosen.end(), [](const Candidate* a, const Candidate* b) {
        return a->source != b->source ? a->source < b->source : a->start < b->start;
    });
    for (const Candidate* c : chosen) {
        AnswerSentence s =
            citeSentence(sources[c->source], SentenceSpan{c->start, c->end, c->text}, c->support);
        if (!out.text.empty()) out.text += ' ';
        out.text += s.text + " [" + std::to_string(s.source_number) + "]";
        out.sentences.push_back(std::move(s));
    }
    return out;
}

nlohmann::json sourceJson(const Source& source, const std::string& excerpt) {
    const auto& chunk = source.passage.chunk;
    nlohmann::json out = {{"source_number", source.number},
                          {"document_id", source.passage.document_id},
                          {"doc_name", source.passage.filename},
                          {"chunk_id", chunk.id},
                          {"chunk_index", chunk.chunk_index},
                          {"page", chunk.page_start},
                          {"page_end", chunk.page_end},
                          {"section_path", chunk.section_path},
                          {"char_start", chunk.char_start},
                          {"char_end", chunk.char_end},
                          {"excerpt", excerpt}};
    if (chunk.start_seconds) {  // a media document's chunk is cited by its time span
        out["start_seconds"] = *chunk.start_seconds;
        out["end_seconds"] = chunk.end_seconds.value_or(*chunk.start_seconds);
    }
    return out;
}

}  // namespace docintel::knowledge

#pragma once

#include <array>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace docintel::knowledge {

/// The kind of value a question asks for, read from its English wording ("how many", "on what
/// date", "which city", "who"); kAny when the wording does not say (and in other languages).
enum class AnswerType {
    kAny,
    kDate,    ///< when, what year/date/day
    kTime,    ///< what time, at what hour
    kNumber,  ///< how many/long/old, what percentage
    kMoney,   ///< how much … cost/paid, what price/amount/fee/rate
    kPlace,   ///< where, which city/country/town
    kPerson,  ///< who, which lawyer/company/body: a person or an organisation
    kTitle,   ///< what title/heading/headline: a heading of the document
    /// what phone/fax number, e-mail or web address, postcode: a value of that form
    /// (QuestionAnalysis::contact)
    kContact,
};

std::string_view toString(AnswerType type);

/// The English question words of QuestionAnalysis::asks, in order (no effect in other
/// languages).
constexpr std::array<const char*, 7> kQuestionWords = {"what", "who", "when", "which",
                                                       "how",  "why", "where"};

/// A question read once, for every step that weighs sources against it: re-ranking (its
/// words), sentence choice (its words and the type of value it asks for) and refusal (all of
/// it). Words are the content words of refusalWords (lower-cased, stop words and contraction
/// stems out, plural "s" dropped, Latin diacritics folded), so every step compares the same
/// words. A plain value; analyseQuestion is pure and thread-safe.
struct QuestionAnalysis {
    std::string text;                 ///< the question as asked
    std::vector<std::string> words;   ///< content words in order
    std::set<std::string> word_set;   ///< the distinct content words
    std::set<std::string> key_terms;  ///< names (capitalised but the first word) and numbers
    std::set<std::string> all_words;  ///< every word lower-cased, stop words included
    std::array<bool, 7> asks{};       ///< which of kQuestionWords it holds
    AnswerType expects = AnswerType::kAny;
    /// For kContact, the form asked for: "phone", "email", "web" or "postcode".
    std::string contact;
    bool negated = false;  ///< "not", "never", "n't", "no", "without" …
    /// It reads as English (ingest::readsAsEnglish): the word features are English's (0078).
    bool english = true;
};

QuestionAnalysis analyseQuestion(const std::string& question);

/// Whether `sentence` states a value of the type the question asks for: a date or a year for
/// kDate, a figure or a number word for kNumber, an amount (a currency, or a figure with cents)
/// for kMoney, a capitalised word the question does not hold for kPlace and kPerson, a phone
/// number, e-mail or web address or postcode (as `contact` asks) for kContact. Always
/// false for kAny and kTitle (a heading is told by where the sentence stands, not by its words:
/// the answerer asks the chunk's section path).
bool statesAskedValue(const QuestionAnalysis& question, const std::string& sentence);

/// Whether a text negates ("not", "never", "doesn't", "no", "without", "none" …).
bool negates(const std::string& text);

}  // namespace docintel::knowledge

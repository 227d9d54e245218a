#include "knowledge/question_analysis.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "ingest/language_guess.h"
#include "knowledge/extractive_answerer.h"
#include "knowledge/refusal.h"

namespace docintel::knowledge {
namespace {

/// Contractions' stems ("didn't" is "didn" and "t"): the negation is weighed on its own.
bool isContractionStem(const std::string& w) {
    static const std::set<std::string> stems = {"didn",   "doesn",  "don",     "wasn",  "weren",
                                                "isn",    "aren",   "hasn",    "haven", "hadn",
                                                "couldn", "wouldn", "shouldn", "won",   "can"};
    return stems.count(w) > 0;
}

bool isNegation(const std::string& w) {
    static const std::set<std::string> words = {"not",  "never", "no",      "non",     "without",
                                                "none", "nor",   "nothing", "neither", "cannot"};
    if (words.count(w)) return true;
    // "doesn’t" with a typographic apostrophe stays one word.
    const std::string curly = "n\xE2\x80\x99t";
    return w.size() > curly.size() && w.compare(w.size() - curly.size(), curly.size(), curly) == 0;
}

bool containsPhrase(const std::string& lower, const std::string& phrase) {
    return (" " + lower + " ").find(" " + phrase + " ") != std::string::npos;
}

bool containsAny(const std::string& lower, std::initializer_list<const char*> phrases) {
    return std::any_of(phrases.begin(), phrases.end(),
                       [&](const char* p) { return containsPhrase(lower, p); });
}

/// Verbs that put the subject after them: "what does the author love?", "what did the company
/// report?".
bool isAuxiliary(const std::string& w) {
    static const std::set<std::string> words = {"do",    "does",   "did",   "has",   "have",
                                                "had",   "can",    "could", "will",  "would",
                                                "shall", "should", "may",   "might", "must"};
    return words.count(w) > 0;
}

/// Nouns that, within `window` words after "what" or "which" ("which city", "what hourly rate"),
/// say what is asked. With `entity`, a noun naming a kind of person or place, it must not be the
/// subject of the question (after an auxiliary: "what does the author love?") or a possessor
/// ("what was the company's revenue?"): the question asks about it, not for it.
bool asksFor(const std::string& lower, std::initializer_list<const char*> nouns,
             bool entity = false, int window = 4) {
    for (const char* noun : nouns) {
        for (const char* wh : {"what", "which"}) {
            // The noun within the next four words: "which Indonesian body", "what hourly
            // labour rate".
            const std::string w = std::string(" ") + wh + " ";
            const std::string padded = " " + lower + " ";
            for (auto at = padded.find(w); at != std::string::npos; at = padded.find(w, at + 1)) {
                std::size_t pos = at + w.size() - 1;
                for (int word = 0; word < window && pos < padded.size(); ++word) {
                    const auto end = padded.find(' ', pos + 1);
                    if (end == std::string::npos) break;
                    std::string next = padded.substr(pos + 1, end - pos - 1);
                    if (entity && isAuxiliary(next)) break;
                    // A possessive's "s" ("the slide's title"), an article, a copula or "of" does
                    // not count: "what was the on-time delivery rate".
                    // "The name of" says nothing of the kind: "what is the name of the chief
                    // people officer" asks for a person.
                    const bool name_of =
                        (next == "name" || next == "names") && padded.compare(end, 4, " of ") == 0;
                    if (next.size() == 1 || next == "the" || next == "an" || next == "is" ||
                        next == "was" || next == "are" || next == "were" || next == "of" ||
                        name_of) {
                        --word;
                    }
                    // A plural names the noun too ("which cities"), but a noun that ends in
                    // "s" is itself ("what surplus").
                    const bool plural = next.size() > 3 && next.back() == 's' &&
                                        next.compare(0, next.size() - 1, noun) == 0;
                    const bool possessor = padded.compare(end, 3, " s ") == 0;
                    if ((next == noun || plural) && !(entity && possessor)) return true;
                    pos = end;
                }
            }
        }
    }
    return false;
}

/// The form of contact detail a question asks for ("what phone number", "which e-mail address",
/// "what number do I call"): "phone", "email", "web", "postcode", or "" when none.
std::string contactAsked(const std::string& lower) {
    // The detail is what "what" asks for, not a word further on ("in which year was the first
    // email sent?").
    constexpr int kNear = 2;
    if (asksFor(lower, {"phone", "telephone", "fax"}, false, kNear) ||
        containsAny(lower, {"number do i call", "number should i call", "number to call",
                            "number can i call", "number do i ring"})) {
        return "phone";
    }
    if (asksFor(lower, {"email"}, false, kNear)) return "email";
    if (asksFor(lower, {"website", "url"}, false, kNear) || containsPhrase(lower, "web address")) {
        return "web";
    }
    if (asksFor(lower, {"postcode", "zip", "postal"}, false, kNear)) return "postcode";
    return {};
}

/// Whether `text` states a contact detail of the form `kind` (contactAsked).
bool hasContact(const std::string& text, const std::string& kind) {
    // Digits, spaces, brackets, dots and dashes (an en or em dash too: "202–493–2251").
    static const std::regex phone(R"((?:\+|\b)\d(?:[\d ().\-]|\xE2\x80\x93|\xE2\x80\x94){5,}\d\b)");
    static const std::regex email(R"([A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,})");
    static const std::regex web(R"(https?://|\bwww\.|\b[a-z0-9\-]+\.(?:com|org|net|gov|edu|io)\b)",
                                std::regex::icase);
    static const std::regex postcode(
        R"(\b\d{5}(?:-\d{4})?\b|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b|\b[A-Z]\d[A-Z] ?\d[A-Z]\d\b|\b[A-Z]{2,3} \d{4}\b)");
    if (kind == "phone") {
        // Seven digits or more in one run.
        for (auto it = std::sregex_iterator(text.begin(), text.end(), phone);
             it != std::sregex_iterator(); ++it) {
            const std::string run = it->str();
            if (std::count_if(run.begin(), run.end(), [](char c) { return std::isdigit(c); }) >=
                7) {
                return true;
            }
        }
        return false;
    }
    if (kind == "email") return std::regex_search(text, email);
    if (kind == "web") return std::regex_search(text, web);
    if (kind == "postcode") return std::regex_search(text, postcode);
    return false;
}

AnswerType expectedType(const std::string& lower) {
    // "What makes an employee a hybrid employee?" asks what defines one, not for a person.
    if (lower.rfind("what makes ", 0) == 0 || containsPhrase(lower, "what is meant by")) {
        return AnswerType::kAny;
    }
    const bool money_words =
        containsAny(lower, {"cost",    "costs",   "paid",      "pay",      "spend",   "spent",
                            "price",   "worth",   "charge",    "charged",  "fee",     "salary",
                            "earn",    "earned",  "budget",    "fund",     "money",   "revenue",
                            "income",  "profit",  "allowance", "rent",     "wage",    "wages",
                            "penalty", "fine",    "deposit",   "premium",  "payment", "reimbursed",
                            "surplus", "deficit", "loss",      "turnover", "fare",    "takings"});
    // "What did Oregon spend on ...?": "what" as the object of a verb of paying.
    const bool what_paid =
        containsAny(lower, {"what did", "what does", "what do", "what will", "what would"}) &&
        containsAny(lower, {"spend", "spent", "cost", "pay", "paid", "earn", "earned", "charge"});
    if (asksFor(lower, {"price",   "cost",    "amount",    "fee",    "salary",      "revenue",
                        "income",  "profit",  "allowance", "rent",   "wage",        "penalty",
                        "deposit", "premium", "payment",   "budget", "expenditure", "surplus",
                        "deficit", "loss",    "turnover",  "fare",   "takings"}) ||
        what_paid ||
        ((containsPhrase(lower, "how much") || asksFor(lower, {"rate"})) && money_words)) {
        return AnswerType::kMoney;
    }
    if (!contactAsked(lower).empty()) return AnswerType::kContact;
    if (containsAny(lower, {"how many", "how much", "how long", "how old", "how far", "how large",
                            "how big", "how high", "what percentage", "what percent"}) ||
        asksFor(lower, {"number", "percentage", "rate", "total", "count"})) {
        return AnswerType::kNumber;
    }
    if (asksFor(lower, {"time", "hour"})) return AnswerType::kTime;
    if (containsPhrase(lower, "when") ||
        asksFor(lower, {"year", "date", "day", "month", "century", "decade"})) {
        return AnswerType::kDate;
    }
    if (asksFor(lower, {"title", "heading", "headline"})) return AnswerType::kTitle;
    if (containsPhrase(lower, "where") ||
        asksFor(lower,
                {"city", "town", "country", "place", "state", "location", "county", "region",
                 "village", "province", "continent", "island", "address"},
                true)) {
        return AnswerType::kPlace;
    }
    if (containsAny(lower, {"who", "whom", "whose"}) ||
        asksFor(
            lower,
            {"person",       "lawyer",     "attorney",   "counsel",    "company",    "organization",
             "organisation", "body",       "agency",     "department", "firm",       "team",
             "member",       "payee",      "author",     "president",  "king",       "queen",
             "official",     "officer",    "judge",      "justice",    "employee",   "group",
             "party",        "university", "councillor", "councilor",  "senator",    "mayor",
             "governor",     "minister",   "director",   "manager",    "chair",      "chairman",
             "chairwoman",   "doctor",     "physician",  "nurse",      "patient",    "tenant",
             "landlord",     "owner",      "supplier",   "vendor",     "contractor", "witness",
             "speaker",      "clerk",      "engineer",   "inspector",  "maintainer", "candidate"},
            true)) {
        return AnswerType::kPerson;
    }
    return AnswerType::kAny;
}

bool hasWordOf(const std::string& text, const std::set<std::string>& words) {
    bool found = false;
    forEachWord(text, [&](const std::string& w, char) { found = found || words.count(w) > 0; });
    return found;
}

/// Whether `text` has a digit at `k` (false past its end).
bool digitAt(const std::string& text, std::size_t k) {
    return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k])) != 0;
}

/// Whether `text` has `separator` between a digit and exactly `figures` digits: "1,204,500"
/// for (',', 3), "920.68" for ('.', 2).
bool separatedFigures(const std::string& text, char separator, std::size_t figures) {
    for (std::size_t i = 1; i < text.size(); ++i) {
        if (text[i] != separator || !digitAt(text, i - 1) || digitAt(text, i + figures + 1)) {
            continue;
        }
        std::size_t k = 1;
        while (k <= figures && digitAt(text, i + k)) ++k;
        if (k > figures) return true;
    }
    return false;
}

/// The months' names, lower-cased ("may" among them).
const std::set<std::string>& monthNames() {
    static const std::set<std::string> names = {"january",   "february", "march",    "april",
                                                "may",       "june",     "july",     "august",
                                                "september", "october",  "november", "december"};
    return names;
}

/// A date or a year: a month's name ("May" only before a figure), a year (1000–2999, "1970s"),
/// "09/28" style figures or a word of time ("century", "ago"). A bare figure is not one:
/// transcripts and tables number their lines.
bool hasDate(const std::string& text) {
    static const std::set<std::string> words = {
        "jan",   "feb",   "mar", "apr",    "jun",     "jul",       "aug",    "sep",
        "sept",  "oct",   "nov", "dec",    "century", "centuries", "decade", "year",
        "years", "today", "ago", "spring", "summer",  "autumn",    "winter", "yesterday"};
    bool found = false;
    std::string previous;
    forEachWord(text, [&](const std::string& w, char) {
        if (previous == "may" && std::isdigit(static_cast<unsigned char>(w[0]))) found = true;
        if (words.count(w) || (w != "may" && monthNames().count(w))) found = true;
        previous = w;
    });
    const auto digit = [&](std::size_t k) { return digitAt(text, k); };
    for (std::size_t i = 0; !found && i < text.size(); ++i) {
        if (!digit(i) || (i > 0 && (digit(i - 1) || text[i - 1] == '-' ||
                                    std::isalpha(static_cast<unsigned char>(text[i - 1]))))) {
            continue;
        }
        std::size_t end = i;
        while (digit(end)) ++end;
        // A year (not a part of a code such as "07-1315"), or "09/28" style figures.
        const bool year = end - i == 4 && (text[i] == '1' || text[i] == '2') &&
                          (end == text.size() || text[end] != '-');
        const bool slashed = end < text.size() && text[end] == '/' && digit(end + 1);
        found = year || slashed;
    }
    return found;
}

/// A time of day: "1:01", "9 a.m.", "5 pm".
bool hasTime(const std::string& text) {
    for (std::size_t i = 1; i + 2 < text.size(); ++i) {
        if (text[i] == ':' && digitAt(text, i - 1) && digitAt(text, i + 1) &&
            digitAt(text, i + 2)) {
            return true;
        }
    }
    bool found = false;
    std::string previous;
    forEachWord(text, [&](const std::string& w, char) {
        found =
            found || (!previous.empty() && std::isdigit(static_cast<unsigned char>(previous[0])) &&
                      (w == "am" || w == "pm" || w == "a" || w == "p"));
        previous = w;
    });
    return found || text.find("a.m.") != std::string::npos ||
           text.find("p.m.") != std::string::npos;
}

bool hasQuantity(const std::string& text) {
    static const std::set<std::string> words = {
        "one",     "two",      "three",   "four",    "five",     "six",      "seven",
        "eight",   "nine",     "ten",     "eleven",  "twelve",   "twenty",   "thirty",
        "forty",   "fifty",    "sixty",   "hundred", "hundreds", "thousand", "thousands",
        "million", "millions", "billion", "dozen",   "dozens",   "half",     "several",
        "few",     "many",     "percent", "double",  "twice",    "single",   "once"};
    return hasDigit(text) || hasWordOf(text, words);
}

/// A figure with a currency sign or word, a figure with cents ("920.68", a table's amount) or
/// a figure grouped in thousands in a table row ("FY2023: 948,250", the currency in a heading
/// or a caption). A heading's "AMOUNT ($)" is none.
bool hasMoney(const std::string& text) {
    if (!hasDigit(text)) return false;
    for (const char* sign : {"$", "\xC2\xA3", "\xE2\x82\xAC", "\xC2\xA5"}) {  // $ £ € ¥
        if (text.find(sign) != std::string::npos) return true;
    }
    static const std::set<std::string> words = {"dollar", "dollars", "usd",   "pound", "pounds",
                                                "euro",   "euros",   "cents", "yen"};
    if (hasWordOf(text, words)) return true;
    // A figure grouped in thousands in a table row: the unit is in a heading or a caption.
    if (text.find(" | ") != std::string::npos && separatedFigures(text, ',', 3)) return true;
    return separatedFigures(text, '.', 2);
}

/// Whether a capitalised word names a day or a month ("Thursdays", "March"): a date's word,
/// not a person's or a place's name.
bool namesDayOrMonth(std::string word) {
    static const std::set<std::string> days = {"monday", "tuesday",  "wednesday", "thursday",
                                               "friday", "saturday", "sunday"};
    if (word.size() > 4 && word.back() == 's') word.pop_back();
    return days.count(word) > 0 || monthNames().count(word) > 0;
}

/// A capitalised word of `text` that the question does not contain, but the first word of the
/// text and of a label's value ("Subject: Fake email" names nobody), and a day's or a month's.
bool hasNewName(const std::string& text, const std::set<std::string>& question_words) {
    bool found = false;
    bool first = true;
    std::size_t at = 0;
    forEachWord(text, [&](const std::string& w, char c) {
        at = text.find(c, at);
        std::size_t before = at;
        while (before > 0 && text[before - 1] == ' ') --before;
        const bool after_label = before > 0 && text[before - 1] == ':';
        if (!first && !after_label && std::isupper(static_cast<unsigned char>(c)) &&
            !question_words.count(w) && !namesDayOrMonth(w)) {
            found = true;
        }
        first = false;
        at += w.size();
    });
    return found;
}

}  // namespace

std::string_view toString(AnswerType type) {
    switch (type) {
        case AnswerType::kDate:
            return "date";
        case AnswerType::kTime:
            return "time";
        case AnswerType::kNumber:
            return "number";
        case AnswerType::kMoney:
            return "money";
        case AnswerType::kPlace:
            return "place";
        case AnswerType::kPerson:
            return "person";
        case AnswerType::kTitle:
            return "title";
        case AnswerType::kContact:
            return "contact";
        case AnswerType::kAny:
            break;
    }
    return "any";
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

QuestionAnalysis analyseQuestion(const std::string& question) {
    QuestionAnalysis q;
    q.text = question;
    q.english = ingest::readsAsEnglish({question});
    const std::string folded = foldLatin(question);
    for (auto& w : contentWords(folded)) {
        if (!isContractionStem(w)) q.words.push_back(std::move(w));
    }
    q.word_set.insert(q.words.begin(), q.words.end());
    for (const auto& name : questionNames(folded)) {
        const auto normalised = contentWords(name);  // stop words out, plural "s" dropped
        if (!normalised.empty()) q.key_terms.insert(normalised.front());
    }
    // Numbers as contentWords reads them: "2.2" and "12,765" whole.
    for (const auto& w : q.words) {
        if (std::all_of(w.begin(), w.end(), [](char c) { return c == '.' || std::isdigit(c); }) &&
            hasDigit(w)) {
            q.key_terms.insert(w);
        }
    }
    forEachWord(question, [&](const std::string& w, char) { q.all_words.insert(w); });
    // The type is read with hyphenated compounds as one word: "the on-time delivery rate" asks
    // for a rate, not a time.
    std::string compounds = question;
    for (std::size_t i = 1; i + 1 < compounds.size(); ++i) {
        if (compounds[i] == '-' && std::isalnum(static_cast<unsigned char>(compounds[i - 1])) &&
            std::isalnum(static_cast<unsigned char>(compounds[i + 1]))) {
            compounds.erase(i, 1);
        }
    }
    std::string lower;
    forEachWord(compounds,
                [&](const std::string& w, char) { lower += (lower.empty() ? "" : " ") + w; });
    for (std::size_t i = 0; i < kQuestionWords.size(); ++i) {
        q.asks[i] = q.all_words.count(kQuestionWords[i]) > 0;
    }
    q.expects = expectedType(lower);
    if (q.expects == AnswerType::kContact) q.contact = contactAsked(lower);
    q.negated = negates(question);
    return q;
}

bool statesAskedValue(const QuestionAnalysis& question, const std::string& sentence) {
    switch (question.expects) {
        case AnswerType::kDate:
            return hasDate(sentence);
        case AnswerType::kTime:
            return hasTime(sentence);
        case AnswerType::kNumber:
            return hasQuantity(sentence);
        case AnswerType::kMoney:
            return hasMoney(sentence);
        case AnswerType::kPlace:
        case AnswerType::kPerson:
            return hasNewName(sentence, question.all_words);
        case AnswerType::kContact:
            return hasContact(sentence, question.contact);
        case AnswerType::kTitle:
        case AnswerType::kAny:
            break;
    }
    return false;
}

}  // namespace docintel::knowledge

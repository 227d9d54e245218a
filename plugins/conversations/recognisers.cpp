#include "conversations/recognisers.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "conversations/text.h"
#include "shared/typed_values.h"

namespace docintel::conversations {

namespace typed = plugins::typed;

namespace {

bool isUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

/// Words of `text` starting at `at`, as a name: up to four words of letters (non-ASCII bytes,
/// apostrophes, hyphens, dots), stopping at punctuation or a joining word.
std::vector<std::string> nameWords(const std::string& text, std::size_t at) {
    static const std::set<std::string> stops = {"and", "from", "with", "at", "of", "calling",
                                                "i",   "but",  "the",  "y",  "de", "from"};
    std::vector<std::string> words;
    std::size_t i = at;
    while (words.size() < 4 && i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        std::size_t e = i;
        while (e < text.size()) {
            const auto u = static_cast<unsigned char>(text[e]);
            if (!(std::isalpha(u) || u >= 0x80 || text[e] == '\'' || text[e] == '-')) break;
            ++e;
        }
        if (e == i) break;
        const std::string word = text.substr(i, e - i);
        if (stops.count(typed::lower(word))) break;
        words.push_back(word);
        i = e;
        if (i < text.size() && text[i] != ' ') break;  // punctuation ends the name
    }
    return words;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

std::string titled(std::string word) {
    if (!word.empty())
        word[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
    return word;
}

std::optional<Recognised> firstMatch(const std::string& text, const std::regex& re,
                                     std::string value) {
    std::smatch m;
    if (!std::regex_search(text, m, re)) return std::nullopt;
    return Recognised{value.empty() ? m.str() : std::move(value), m.str()};
}

/// The first word of `text`, lower-cased, without punctuation around it.
std::string firstWord(const std::string& text) {
    std::size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '"' || text[i] == '\'')) ++i;
    std::size_t e = i;
    while (e < text.size() && text[e] != ' ' && text[e] != ',' && text[e] != '?' &&
           text[e] != '.' && text[e] != '!')
        ++e;
    return typed::lower(text.substr(i, e - i));
}

}  // namespace

std::optional<Recognised> recogniseName(std::string_view view) {
    const std::string text(view);
    // Explicit introductions take any words; the looser ones need capitalised words.
    static const std::regex explicit_re(
        R"((?:\bmy\s+name\s+is|\bname's|\bcall\s+me|\bme\s+llamo|\bmi\s+nombre\s+es)\s+)",
        std::regex::icase);
    static const std::regex loose_re(R"((?:\bI\s+am|\bI'm|\b[Tt]his\s+is|\b[Ss]oy)\s+)");
    static const std::set<std::string> not_names = {
        "Happy",      "Sorry",   "Fine",  "Good",   "Here",    "Not",  "Calling", "Looking",
        "Interested", "Very",    "Just",  "So",     "Glad",    "Okay", "Ok",      "Ready",
        "Sure",       "Afraid",  "About", "The",    "A",       "An",   "It",      "Urgent",
        "Available",  "Working", "Going", "Trying", "Writing", "Also"};
    std::smatch m;
    if (std::regex_search(text, m, explicit_re)) {
        const auto at = static_cast<std::size_t>(m.position(0) + m.length(0));
        auto words = nameWords(text, at);
        // "call me at 555..." / "call me back" are contact requests, not names.
        if (!words.empty() &&
            !(typed::lower(words[0]) == "back" || typed::lower(words[0]) == "at" ||
              typed::lower(words[0]) == "on" || typed::lower(words[0]) == "later")) {
            for (auto& w : words) w = titled(w);
            return Recognised{joined(words), trim(m.str() + text.substr(at, joined(words).size()))};
        }
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), loose_re);
         it != std::sregex_iterator(); ++it) {
        const auto at = static_cast<std::size_t>(it->position(0) + it->length(0));
        auto words = nameWords(text, at);
        std::vector<std::string> name;
        for (const auto& w : words) {
            if (!isUpper(w[0]) || not_names.count(w)) break;
            name.push_back(w);
        }
        if (!name.empty()) {
            const std::string value = joined(name);
            return Recognised{value, trim(it->str() + value)};
        }
    }
    return std::nullopt;
}

std::optional<Recognised> recogniseDate(std::string_view view) {
    const std::string text(view);
    const auto full = typed::dates(text);
    if (!full.empty()) {
        return Recognised{full.front().value.get<std::string>(),
                          text.substr(full.front().pos, full.front().len)};
    }
    static const std::regex month_day(
        R"(\b(?:(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(January|February|March|April|May|June|July|August|September|October|November|December))\b)");
    std::smatch m;
    if (std::regex_search(text, m, month_day)) {
        const int day = std::stoi(m[2].matched ? m[2].str() : m[3].str());
        if (day >= 1 && day <= 31) return Recognised{m.str(), m.str()};
    }
    static const std::regex relative(
        R"(\b(?:(?:next|this|on|by|until)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:today|tomorrow|day\s+after\s+tomorrow|next\s+week|next\s+month)\b)",
        std::regex::icase);
    if (std::regex_search(text, m, relative)) {
        static const std::regex lead(R"(^(?:on|by|until)\s+)", std::regex::icase);
        return Recognised{typed::lower(std::regex_replace(m.str(), lead, "")), m.str()};
    }
    return std::nullopt;
}

std::optional<Recognised> recogniseAmount(std::string_view view) {
    const std::string text(view);
    const auto money = typed::money(text);
    if (!money.empty()) {
        return Recognised{money.front().value.get<std::string>(),
                          text.substr(money.front().pos, money.front().len)};
    }
    static const std::regex other(
        R"((?:€|£|₹|৳|\b(?:EUR|GBP|INR|BDT|SAR|AED|USD)\s?)\s?\d[\d,]*(?:\.\d{1,2})?|\b\d[\d,]*(?:\.\d{1,2})?\s?(?:€|(?:EUR|GBP|INR|BDT|SAR|AED|USD|euros?|pounds|rupees|taka|riyals?|dollars)\b))",
        std::regex::icase);
    return firstMatch(text, other, "");
}

std::optional<Recognised> recogniseUrgency(std::string_view view) {
    const std::string text(view);
    static const std::regex low(
        R"(\b(?:not\s+urgent|no\s+rush|no\s+hurry|whenever|low\s+priority|when\s+you\s+(?:can|get\s+a\s+chance)|not\s+in\s+a\s+hurry|sin\s+prisa)\b)",
        std::regex::icase);
    static const std::regex high(
        R"(\b(?:urgent(?:ly)?|urgente|asap|as\s+soon\s+as\s+possible|immediately|right\s+away|emergency|critical|high\s+priority|top\s+priority)\b)",
        std::regex::icase);
    static const std::regex medium(
        R"(\b(?:medium\s+priority|normal\s+priority|moderate(?:ly)?\s+urgent|this\s+week|fairly\s+soon|soon)\b)",
        std::regex::icase);
    if (auto r = firstMatch(text, low, "low")) return r;
    if (auto r = firstMatch(text, high, "high")) return r;
    return firstMatch(text, medium, "medium");
}

std::optional<Recognised> recogniseContact(std::string_view view) {
    const std::string text(view);
    struct Channel {
        const char* name;
        std::regex re;
    };
    static const std::vector<Channel> channels = {
        {"email", std::regex(R"(\b(?:e-?mail(?:ed|ing)?|correo(?:\s+electr(?:o|ó)nico)?)\b)",
                             std::regex::icase)},
        {"whatsapp", std::regex(R"(\bwhats\s?app\b)", std::regex::icase)},
        {"sms",
         std::regex(R"(\b(?:sms|text\s+me|text\s+message|texts|by\s+text|via\s+text|a\s+text)\b)",
                    std::regex::icase)},
        {"phone",
         std::regex(
             R"(\b(?:phone|telephone|call\s+(?:me|back)|give\s+me\s+a\s+call|by\s+call|a\s+call|ring\s+me|tel(?:e|é)fono|llamada)\b)",
             std::regex::icase)},
    };
    std::size_t best = std::string::npos;
    std::string channel;
    std::string source;
    for (const auto& c : channels) {
        std::smatch m;
        if (std::regex_search(text, m, c.re) && static_cast<std::size_t>(m.position(0)) < best) {
            best = static_cast<std::size_t>(m.position(0));
            channel = c.name;
            source = m.str();
        }
    }
    const auto emails = typed::emails(text);
    static const std::regex phone_re(R"(\+?\d[\d\s().-]{6,}\d)");
    std::smatch pm;
    const bool has_phone = std::regex_search(text, pm, phone_re);
    if (channel.empty() && !emails.empty()) channel = "email";
    if (channel.empty()) return std::nullopt;
    if (channel == "email" && !emails.empty()) {
        const auto& e = emails.front();
        return Recognised{"email: " + e.value.get<std::string>(), text.substr(e.pos, e.len)};
    }
    if (channel != "email" && has_phone) {
        return Recognised{channel + ": " + trim(pm.str()), source + " " + trim(pm.str())};
    }
    return Recognised{channel, source};
}

bool isQuestionAboutDocuments(std::string_view view) {
    const std::string text = trim(std::string(view));
    if (text.empty()) return false;
    const auto ends = [&](const std::string& s) {
        return text.size() >= s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0;
    };
    if (ends("?") || ends("؟") || text.rfind("¿", 0) == 0) return true;
    static const std::set<std::string> words = {
        // English
        "what", "what's", "who", "whom", "whose", "where", "when", "why", "how", "which", "is",
        "are", "can", "could", "does", "do", "did", "should", "will", "would", "was", "were",
        // Spanish
        "qué", "que", "quién", "quien", "quiénes", "dónde", "donde", "cuándo", "cuando", "cómo",
        "como", "cuál", "cual", "cuánto", "cuanto", "por qué", "puede", "puedes",
        // Bengali
        "কী", "কি", "কে", "কেন", "কোথায়", "কখন", "কীভাবে", "কিভাবে", "কোন", "কত",
        // Hindi
        "क्या", "कौन", "कहाँ", "कहां", "कब", "क्यों", "कैसे", "कितना", "कितने", "कौन-सा",
        // Arabic
        "ما", "ماذا", "من", "أين", "متى", "لماذا", "كيف", "هل", "كم", "أي"};
    const std::string first = firstWord(text);
    if (words.count(first)) {
        // "Is" / "do" / "como" etc. also open statements in some languages; require no
        // trailing full stop for those short auxiliaries.
        static const std::set<std::string> weak = {
            "is",  "are",   "do",     "does", "did",  "was",    "were",  "will", "would",
            "can", "could", "should", "que",  "como", "cuando", "donde", "cual", "من"};
        return !weak.count(first) || !ends(".");
    }
    return typed::lower(text).rfind("por qué", 0) == 0;
}

bool isClosingPhrase(std::string_view view) {
    static const std::regex re(
        R"(\b(?:that'?s\s+(?:all|it|everything)|that\s+is\s+(?:all|it|everything)|nothing\s+(?:else|more)|we'?re\s+done|i'?m\s+done|we\s+are\s+done|save\s+(?:it|this|the\s+conversation)|eso\s+es\s+todo|nada\s+m(?:a|á)s)\b)",
        std::regex::icase);
    const std::string text(view);
    std::size_t words = 1;
    for (const char c : trim(text)) words += c == ' ' ? 1 : 0;
    if (words > 8) return false;  // a longer text says more than goodbye
    if (std::regex_search(text, re)) return true;
    for (const char* phrase :
         {"আর কিছু নেই", "এটুকুই", "बस इतना ही", "और कुछ नहीं", "هذا كل شيء", "لا شيء آخر"}) {
        if (text.find(phrase) != std::string::npos) return true;
    }
    return false;
}

bool isAffirmative(std::string_view view) {
    // Tokens: runs of letters, digits, apostrophes and non-ASCII bytes, lower-cased.
    std::set<std::string> tokens;
    std::string token;
    std::string text(view);
    for (const std::string mark : {"।", "،", "؟", "¡", "¿"}) {
        for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) {
            text.replace(at, mark.size(), " ");
        }
    }
    for (const char c : text + " ") {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || u >= 0x80 || c == '\'') {
            token += static_cast<char>(std::tolower(u));
        } else if (!token.empty()) {
            tokens.insert(token);
            token.clear();
        }
    }
    for (const char* no : {"no", "nope", "not", "don't", "dont", "wait", "না", "नहीं", "لا"}) {
        if (tokens.count(no)) return false;
    }
    for (const char* yes :
         {"yes", "yeah",  "yep",  "sure",     "ok",       "okay", "correct", "save", "sí",
          "si",  "claro", "vale", "guárdela", "guardala", "হ্যাঁ",  "হাঁ",      "হুঁ",    "हाँ",
          "हां",  "जी",    "نعم",  "أجل",      "حسنا",     "حسنًا", "احفظ"}) {
        if (tokens.count(yes)) return true;
    }
    static const std::regex phrase(R"(\b(?:please\s+do|go\s+ahead)\b)", std::regex::icase);
    return std::regex_search(std::string(view), phrase);
}

}  // namespace docintel::conversations

#pragma once

// Typed value parsers for field extraction: every date, amount of money, percentage, duration,
// code and e-mail stated in a span of text, with where it sits and its normalised value
// (docs/decisions/0064); addresses and names are in typed_names.h, included at the end. Pure
// functions over strings; header-only so plugins link nothing but the SDK. Thread-safe (the
// regexes are function-local statics, built once).

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace docintel::plugins::typed {

/// A value found in a text: [pos, pos+len) and its normalised value (an ISO date string, a
/// money string "$15,500.00 per month", "3%", "60 months", a name, a code).
struct Found {
    std::size_t pos = 0;
    std::size_t len = 0;
    nlohmann::json value;
};

inline std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline int monthNumber(const std::string& word) {
    static const std::map<std::string, int> months = {
        {"jan", 1}, {"feb", 2}, {"mar", 3}, {"apr", 4},  {"may", 5},  {"jun", 6},
        {"jul", 7}, {"aug", 8}, {"sep", 9}, {"oct", 10}, {"nov", 11}, {"dec", 12}};
    const std::string w = lower(word);
    if (w.size() < 3) return 0;
    const auto it = months.find(w.substr(0, 3));
    if (it == months.end()) return 0;
    static const std::vector<std::string> full = {"january",   "february", "march",    "april",
                                                  "may",       "june",     "july",     "august",
                                                  "september", "october",  "november", "december"};
    const std::string& name = full[static_cast<std::size_t>(it->second - 1)];
    const bool ok = w == name || w.size() == 3 || (w == "sept" && it->second == 9) ||
                    (w.size() == 4 && w.back() == '.');
    return ok ? it->second : 0;
}

inline int daysIn(int year, int month) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return days[month - 1] + (month == 2 && leap ? 1 : 0);
}

inline std::optional<std::string> iso(int year, int month, int day) {
    if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 2200) return std::nullopt;
    if (day > daysIn(year, month)) return std::nullopt;
    char out[40];  // room for any int, so the compiler sees no truncation
    std::snprintf(out, sizeof(out), "%04d-%02d-%02d", year, month, day);
    return std::string(out);
}

/// The full year of a two-digit year ("03/14/58", "1/8/27"): this century's unless that would
/// put it more than ten years after the current one (a birth year), else the last century's.
inline int fullYear(int two_digits) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    const int year = utc.tm_year + 1900;
    const int century = year / 100 * 100;
    return century + two_digits > year + 10 ? century - 100 + two_digits : century + two_digits;
}

/// Every match of `re` in `text` that `value_of` gives a value for (std::nullopt skips it), as
/// a Found spanning the whole match.
template <typename ValueOf>
std::vector<Found> scan(const std::string& text, const std::regex& re, ValueOf value_of) {
    std::vector<Found> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
         ++it) {
        if (std::optional<std::string> v = value_of(*it)) {
            out.push_back({static_cast<std::size_t>(it->position(0)),
                           static_cast<std::size_t>(it->length(0)), std::move(*v)});
        }
    }
    return out;
}

/// The day an ordinal word names ("first" 1, "twenty-first" 21, "thirtieth" 30); 0 when none.
inline int ordinalWord(const std::string& word) {
    static const std::vector<std::string> units = {
        "first",     "second",      "third",      "fourth",     "fifth",
        "sixth",     "seventh",     "eighth",     "ninth",      "tenth",
        "eleventh",  "twelfth",     "thirteenth", "fourteenth", "fifteenth",
        "sixteenth", "seventeenth", "eighteenth", "nineteenth"};
    const std::string w = lower(word);
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (w == units[i]) return static_cast<int>(i + 1);
    }
    if (w == "twentieth") return 20;
    if (w == "thirtieth") return 30;
    for (const auto& [tens, base] : {std::pair<std::string, int>{"twenty-", 20}, {"thirty-", 30}}) {
        if (w.rfind(tens, 0) != 0) continue;
        const int u = ordinalWord(w.substr(tens.size()));
        return u >= 1 && u <= 9 ? base + u : 0;
    }
    return 0;
}

/// Whether a text writes its numeric dates day first: one of them can only be read so
/// ("31/05/2028") and none can only be read month first ("05/31/2028").
inline bool writesDayFirst(const std::string& text) {
    static const std::regex numeric(R"(\b(\d{1,2})/(\d{1,2})/(?:\d{4}|\d{2})\b)");
    bool day_first = false;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), numeric);
         it != std::sregex_iterator(); ++it) {
        const int a = std::stoi((*it)[1]), b = std::stoi((*it)[2]);
        if (b > 12 && a <= 12) return false;
        day_first = day_first || (a > 12 && b <= 12);
    }
    return day_first;
}

/// Dates as "March 1, 2025", "Mar. 1 2025", "1 March 2025", "05-Oct-1971", "the 1st day of March,
/// 2025", "the first (1st) day of June, 2026", "the last day of February, 2035", "03/01/2025" (US
/// order; day first when the first number cannot be a month, or when `day_first`: the document
/// writes its dates so, writesDayFirst; a fax's "03/14/58" with a two-digit year, fullYear),
/// "2025-03-01" and a claim form's boxes "07 19 1976" (two-digit month and day); as ISO strings.
inline std::vector<Found> dates(const std::string& text, bool day_first = false) {
    static const std::regex re(
        R"(\b(?:(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})|)"
        R"(([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})|)"
        R"((?:the\s+)?(\d{1,2}|last)(?:st|nd|rd|th)?(?:\s+(?:day\s+of\s+)?([A-Za-z]{3,9})\.?,?\s+|-([A-Za-z]{3})-)(\d{4})|)"
        R"((?:the\s+)?([a-z]+(?:-[a-z]+)?)\s+(?:\((\d{1,2})(?:st|nd|rd|th)?\)\s+)?day\s+of\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})|)"
        R"((0[1-9]|1[0-2]) (0[1-9]|[12]\d|3[01]) (\d{4}|\d{2})(?! \d))\b)",
        std::regex::icase);
    return scan(text, re, [day_first](const std::smatch& m) {
        std::optional<std::string> v;
        if (m[1].matched) {
            v = iso(std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]));
        } else if (m[4].matched) {
            const int a = std::stoi(m[4]), b = std::stoi(m[5]);
            const int y = m[6].length() == 2 ? fullYear(std::stoi(m[6])) : std::stoi(m[6]);
            v = a > 12 || (day_first && b <= 12) ? iso(y, b, a) : iso(y, a, b);
        } else if (m[7].matched) {
            if (const int month = monthNumber(m[7]))
                v = iso(std::stoi(m[9]), month, std::stoi(m[8]));
        } else if (m[10].matched) {
            if (const int month = monthNumber(m[11].matched ? m[11].str() : m[12].str())) {
                const int y = std::stoi(m[13]);
                const int day = lower(m[10]) == "last" ? daysIn(y, month) : std::stoi(m[10]);
                v = iso(y, month, day);
            }
        } else if (m[18].matched) {  // a claim form's boxes: "07 19 1976", "09 14 27"
            const int y = m[20].length() == 2 ? fullYear(std::stoi(m[20])) : std::stoi(m[20]);
            v = iso(y, std::stoi(m[18]), std::stoi(m[19]));
        } else if (const int month = monthNumber(m[16])) {
            // "the first (1st) day of June": the figure in brackets, when given, wins.
            const int day = m[15].matched ? std::stoi(m[15]) : ordinalWord(m[14]);
            if (day > 0) v = iso(std::stoi(m[17]), month, day);
        }
        return v;
    });
}

/// "1,234.5" → 1234.5.
inline double number(const std::string& digits) {
    std::string clean;
    for (const char c : digits) {
        if (c != ',') clean += c;
    }
    return clean.empty() ? 0.0 : std::stod(clean);
}

/// "$15,500.00" / "$15,500.00 per month" / "£1,150.00 per month" (`symbol`, the currency's).
inline std::string moneyText(double amount, const std::string& period,
                             const std::string& symbol = "$") {
    const long long cents = std::llround(amount * 100.0);
    std::string whole = std::to_string(cents / 100);
    for (int i = static_cast<int>(whole.size()) - 3; i > 0; i -= 3) {
        whole.insert(static_cast<std::size_t>(i), ",");
    }
    char frac[8];
    std::snprintf(frac, sizeof(frac), ".%02lld", cents % 100);
    std::string out = symbol + whole + frac;
    if (period == "month") out += " per month";
    if (period == "year") out += " per year";
    return out;
}

/// The period a money amount is stated for, read from the words just after it ("per month",
/// "/mo", "annually") or, failing that, just before it ("monthly installments of", "annual
/// rent of"); "" when none.
inline std::string moneyPeriod(const std::string& text, std::size_t pos, std::size_t len) {
    static const std::regex month_after(
        R"(^\s*\)?\s*(?:per\s+(?:calendar\s+)?month|pcm\b|/\s*mo(?:nth)?\b|a\s+month|each\s+month|monthly))",
        std::regex::icase);
    static const std::regex year_after(
        R"(^\s*\)?\s*(?:per\s+(?:year|annum)|/\s*y(?:ea)?r\b|a\s+year|annually|per\s+lease\s+year|yearly))",
        std::regex::icase);
    static const std::regex month_before(R"(month(?:ly)?\b[^$.;]{0,110}$)", std::regex::icase);
    static const std::regex year_before(R"((?:annual(?:ly)?|yearly|per\s+annum)\b[^$.;]{0,110}$)",
                                        std::regex::icase);
    // "Rs. 48,500/- (Rupees Forty-Eight Thousand Five Hundred only) per month": the amount
    // in words between the figure and its period is passed over.
    static const std::regex words_in_brackets(R"(^\s*\([A-Za-z ,.'-]{0,100}\))");
    std::string after = text.substr(pos + len, 130);
    std::smatch bracket;
    if (std::regex_search(after, bracket, words_in_brackets))
        after = after.substr(bracket.length(0));
    after = after.substr(0, 30);
    if (std::regex_search(after, month_after)) return "month";
    if (std::regex_search(after, year_after)) return "year";
    const std::size_t from = pos > 130 ? pos - 130 : 0;
    std::string before = text.substr(from, pos - from);
    // A period word before another amount is that amount's ("Annual rent: AED 96,000 Security
    // deposit: AED 4,800").
    static const std::regex amount(R"(\d,\d{3}(?:\.\d{2})?)");
    std::size_t after_amount = 0;
    for (auto it = std::sregex_iterator(before.begin(), before.end(), amount);
         it != std::sregex_iterator(); ++it) {
        after_amount = static_cast<std::size_t>(it->position(0) + it->length(0));
    }
    before = before.substr(after_amount);
    // The nearer of the two words decides ("annual rent ..., payable in monthly installments").
    std::smatch m, y;
    const bool has_m = std::regex_search(before, m, month_before);
    const bool has_y = std::regex_search(before, y, year_before);
    if (has_m && has_y) return m.position(0) > y.position(0) ? "month" : "year";
    if (has_m) return "month";
    if (has_y) return "year";
    return {};
}

/// Number words up to ninety-nine ("sixty", "thirty-six"); -1 when not one.
inline int numberWord(const std::string& word) {
    static const std::vector<std::string> units = {
        "zero",     "one",     "two",     "three",     "four",     "five",    "six",
        "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",  "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
    static const std::vector<std::string> tens = {"twenty", "thirty",  "forty",  "fifty",
                                                  "sixty",  "seventy", "eighty", "ninety"};
    const std::string w = lower(word);
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (w == units[i]) return static_cast<int>(i);
    }
    for (std::size_t i = 0; i < tens.size(); ++i) {
        if (w.rfind(tens[i], 0) != 0) continue;
        const int base = static_cast<int>(20 + 10 * i);
        if (w.size() == tens[i].size()) return base;
        const std::string rest = w.substr(tens[i].size() + 1);
        for (std::size_t u = 1; u < 10; ++u) {
            if (rest == units[u]) return base + static_cast<int>(u);
        }
    }
    return -1;
}

/// An amount written in words just before `end` ("Forty Thousand Eight Hundred" of "... Dollars
/// per year"): its value, and where its first word starts in `start`; 0 when the words before
/// `end` are no number.
inline double amountInWords(const std::string& text, std::size_t end, std::size_t* start) {
    std::vector<std::pair<std::size_t, std::string>> words;  // nearest first
    std::size_t i = end;
    while (true) {
        while (i > 0 && text[i - 1] == ' ') --i;
        std::size_t j = i;
        while (j > 0 &&
               (std::isalpha(static_cast<unsigned char>(text[j - 1])) || text[j - 1] == '-')) {
            --j;
        }
        if (j == i) break;
        const std::string w = lower(text.substr(j, i - j));
        if (w != "and" && w != "hundred" && w != "thousand" && w != "million" &&
            numberWord(w) < 0) {
            break;
        }
        words.emplace_back(j, w);
        i = j;
    }
    while (!words.empty() && words.back().second == "and") words.pop_back();
    if (words.empty()) return 0;
    double total = 0, current = 0;
    bool any = false;
    for (auto it = words.rbegin(); it != words.rend(); ++it) {
        const std::string& w = it->second;
        if (w == "and") continue;
        if (w == "hundred") {
            current = (current == 0 ? 1 : current) * 100;
        } else if (w == "thousand" || w == "million") {
            total += (current == 0 ? 1 : current) * (w == "thousand" ? 1e3 : 1e6);
            current = 0;
        } else {
            current += numberWord(w);
            any = true;
        }
    }
    *start = words.back().first;
    return any ? total + current : 0;
}

/// Amounts of money: "$4,500.00", "USD 54,000", "£1,150.00", "EUR 900", "AED 96,000", "54,000
/// dollars", "Forty Thousand Dollars"; the value is the money text with its period when one is
/// stated ("$4,500.00 per month"). Rates per square foot, acre or foot of a boat are left out (they
/// are prices, not amounts), and so are clause numbers ("Section 3.02").
inline std::vector<Found> money(const std::string& text) {
    static const std::regex re(
        R"((\$|\xC2\xA3|\xE2\x82\xAC|\xE2\x82\xB9|\bUSD|\bGBP|\bEUR|\bINR|\bRs\.?|\b(?:AED|AUD|CAD|CHF|CNY|DKK|HKD|JPY|KES|MXN|MYR|NGN|NOK|NZD|QAR|SAR|SEK|SGD|ZAR))\s?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?:/-)?|\b(\d{1,3}(?:,\d{3})+(?:\.\d{2})?)\s+(?:US\s+)?dollars|(?:^|[\s:])(\d{1,3}(?:,\d{3})*\.\d{2})(?![\d.%/-]))",
        std::regex::icase);
    static const std::regex per_area(
        R"(^\s*\)?\s*(?:per|/)\s*(?:rentable\s+|usable\s+|linear\s+)?(?:sf|sq|square|acre|rsf|usf|rentable|usable|foot|feet|ft)\b)",
        std::regex::icase);
    std::vector<Found> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
         ++it) {
        const auto& m = *it;
        const auto pos = static_cast<std::size_t>(m.position(0));
        const auto len = static_cast<std::size_t>(m.length(0));
        if (std::regex_search(text.substr(pos + len, 24), per_area)) continue;
        if (m[4].matched) {  // a bare amount with cents ("87,412.50"), as forms write them
            const auto at = static_cast<std::size_t>(m.position(4));
            const auto n = static_cast<std::size_t>(m.length(4));
            // ... but "Section 3.02" is a clause's number.
            static const std::regex reference(
                R"((?:section|sections|article|paragraph|clause|§)\s*$)", std::regex::icase);
            const std::size_t from = at > 12 ? at - 12 : 0;
            if (std::regex_search(text.substr(from, at - from), reference)) continue;
            out.push_back({at, n, moneyText(number(m[4].str()), "")});
            continue;
        }
        const double amount = number(m[2].matched ? m[2].str() : m[3].str());
        // Pounds, euros and rupees keep their sign, another currency its code ("AED
        // 96,000.00"); "$" and "USD" are dollars.
        const std::string sign = lower(m[1].str());
        std::string symbol = "$";
        if (sign == "\xC2\xA3" || sign == "gbp") {
            symbol = "\xC2\xA3";
        } else if (sign == "\xE2\x82\xAC" || sign == "eur") {
            symbol = "\xE2\x82\xAC";
        } else if (sign == "\xE2\x82\xB9" || sign == "inr" || sign.rfind("rs", 0) == 0) {
            symbol = "\xE2\x82\xB9";
        } else if (sign.size() == 3 && sign != "usd") {
            symbol.clear();
            for (const char c : sign) symbol += static_cast<char>(std::toupper(c));
            symbol += ' ';
        }
        out.push_back({pos, len, moneyText(amount, moneyPeriod(text, pos, len), symbol)});
    }
    // An amount in words only ("Forty Thousand Eight Hundred Dollars per year"); one whose
    // figure follows in brackets ("... Dollars ($55,500.00)") is read from the figure.
    static const std::regex dollars(R"(\bdollars\b(?!\s*\(\s*\$))", std::regex::icase);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), dollars);
         it != std::sregex_iterator(); ++it) {
        const auto at = static_cast<std::size_t>(it->position(0));
        std::size_t pos = at;
        const double amount = amountInWords(text, at, &pos);
        const std::size_t len = at + static_cast<std::size_t>(it->length(0)) - pos;
        if (amount <= 0 || std::regex_search(text.substr(pos + len, 24), per_area)) continue;
        out.push_back({pos, len, moneyText(amount, moneyPeriod(text, pos, len))});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Found& a, const Found& b) { return a.pos < b.pos; });
    return out;
}

/// Percentages: "3%", "3 percent", "two and one-half percent (2.5%)" (the figure wins), "double"
/// (200); the value is the number as text with "%".
inline std::vector<Found> percentages(const std::string& text) {
    static const std::regex re(
        R"((\d+(?:\.\d+)?)\s?(?:%|percent\b|per\s+cent\b)|\b([a-z]+(?:-[a-z]+)?)\s+percent\b\s*(?:\((\d+(?:\.\d+)?)\s?%\))?|\b(double)\b)",
        std::regex::icase);
    return scan(text, re, [](const std::smatch& m) -> std::optional<std::string> {
        std::string n;
        if (m[1].matched) n = m[1].str();
        if (m[3].matched) n = m[3].str();
        if (m[2].matched && !m[3].matched) {
            const int w = numberWord(m[2].str().substr(m[2].str().find_last_of(" -") + 1));
            if (w < 0) return std::nullopt;
            n = std::to_string(w);
        }
        if (m[4].matched) n = "200";
        return n + "%";
    });
}

/// Durations: "sixty (60) months", "60 months", "five years", "3-year", "five (5) Lease Years",
/// "twelve (12) full calendar months"; the value is "<n> <unit>" in the unit written (months
/// stay months).
inline std::vector<Found> durations(const std::string& text) {
    static const std::regex re(
        R"(\b(?:([a-z]+(?:-[a-z]+)?)\s+\((\d{1,3})\)|(\d{1,3}(?:\.\d)?)\+?|([a-z]+(?:-[a-z]+)?))[\s-]+(?:(?:full|calendar|lease|consecutive)\s+){0,2}(year|month|week|day)s?\b)",
        std::regex::icase);
    return scan(text, re, [](const std::smatch& m) -> std::optional<std::string> {
        std::string n;
        if (m[2].matched) n = m[2].str();
        if (m[3].matched) n = m[3].str();
        if (m[4].matched) {
            const int w = numberWord(m[4].str());
            if (w < 0) return std::nullopt;
            n = std::to_string(w);
        }
        return n + " " + lower(m[5].str()) + "s";
    });
}

/// Every match of `re` (group `group`) as a Found whose value is the text.
inline std::vector<Found> matches(const std::string& text, const std::regex& re, int group = 0) {
    std::vector<Found> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
         ++it) {
        out.push_back({static_cast<std::size_t>(it->position(group)),
                       static_cast<std::size_t>(it->length(group)), (*it)[group].str()});
    }
    return out;
}

inline std::vector<Found> emails(const std::string& text) {
    static const std::regex re(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)");
    return matches(text, re);
}

/// Codes of a kind: "npi" (10 digits), "cpt" (5 digits or a HCPCS letter and 4 digits),
/// "icd10" (A00–Z99 with an optional dotted part), "short" (one or two letters or digits, a
/// form's distribution code), anything else an identifier (letters and
/// digits with dashes, at least one digit, 5–24 characters).
inline std::vector<Found> codes(const std::string& text, const std::string& kind) {
    static const std::regex npi(R"(\b\d{10}\b)");
    static const std::regex cpt(R"(\b(?:\d{5}|[A-Z]\d{4})\b)");
    static const std::regex icd(R"(\b[A-TV-Z]\d[0-9A-Z](?:\.[0-9A-Z]{1,4})?\b)");
    static const std::regex id(R"(\b(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,22}[A-Z0-9]\b)");
    if (kind == "npi") return matches(text, npi);
    if (kind == "cpt") return matches(text, cpt);
    if (kind == "icd10") return matches(text, icd);
    if (kind == "email") return emails(text);
    if (kind == "short") {  // a form's code of one or two letters or digits ("7", "G", "1D")
        static const std::regex brief(R"((?:^|[\s:])([0-9A-Z]{1,2})(?=$|[\s,;.]))");
        return matches(text, brief, 1);
    }
    // A member card's number printed in groups ("TFH 0827 4411 03"): a group with letters, or
    // four groups or more (three groups of digits are as often a phone number), then groups of
    // digits.
    static const std::regex grouped(
        R"(\b(?:[A-Z]{2,5}(?: \d{2,6}){2,5}|\d{2,6}(?: \d{2,6}){3,5})\b(?![-/.,]\d))");
    std::vector<Found> out = matches(text, grouped);
    for (auto& f : matches(text, id)) {
        const std::string v = f.value.get<std::string>();
        // Dates, phone numbers and amounts are not identifiers.
        if (v.find('-') != std::string::npos && v.size() == 10 && v[4] == '-') continue;
        if (v.size() < 5) continue;
        const bool in_group = std::any_of(out.begin(), out.end(), [&](const Found& g) {
            return f.pos >= g.pos && f.pos < g.pos + g.len;
        });
        if (!in_group) out.push_back(std::move(f));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Found& a, const Found& b) { return a.pos < b.pos; });
    return out;
}

}  // namespace docintel::plugins::typed

// Names and street addresses: the same Found values, read by hand rather than by regex alone.
#include "shared/typed_names.h"

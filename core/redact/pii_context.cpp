// Recognisers for e-mail addresses and for personal data known by its context or shape in
// words: dates of birth, US street addresses, medical record numbers.

#include <array>
#include <string>

#include "redact/pii_recognizers.h"
#include "redact/text_scan.h"

namespace docintel::redact {

using scan::at;
using scan::before;
using scan::isAlnum;
using scan::isAlpha;
using scan::isDigit;
using scan::isUpper;

namespace {

constexpr std::size_t kNpos = std::string::npos;

std::size_t skipDigits(std::string_view s, std::size_t i) {
    while (i < s.size() && isDigit(s[i])) ++i;
    return i;
}

int number(std::string_view s, std::size_t from, std::size_t to) {
    int v = 0;
    for (std::size_t k = from; k < to; ++k) v = v * 10 + (s[k] - '0');
    return v;
}

/// The end of the word of letters starting at i (i itself when none).
std::size_t wordEnd(std::string_view s, std::size_t i) {
    while (i < s.size() && isAlpha(s[i])) ++i;
    return i;
}

// ---- e-mail

bool localChar(char c) {
    return isAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-' || c == '\'';
}
// Bytes of multi-byte UTF-8 characters belong to internationalised domain names.
bool domainChar(char c) {
    return isAlnum(c) || c == '.' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
}

// ---- dates

constexpr std::array<std::string_view, 12> kMonths{"january",   "february", "march",    "april",
                                                   "may",       "june",     "july",     "august",
                                                   "september", "october",  "november", "december"};

/// A month name (full, three-letter with an optional full stop, or "sept") at s[i]; returns
/// its end or npos.
std::size_t monthAt(std::string_view s, std::size_t i) {
    if (isAlpha(before(s, i))) return kNpos;
    const std::size_t end = wordEnd(s, i);
    const std::size_t len = end - i;
    if (len < 3) return kNpos;
    for (std::string_view m : kMonths) {
        if (len == m.size() && scan::matchesAt(s, i, m)) return end;
        if ((len == 3 || (len == 4 && m == "september")) &&
            scan::matchesAt(s, i, m.substr(0, len))) {
            return at(s, end) == '.' ? end + 1 : end;
        }
    }
    return kNpos;
}

bool yearValid(int year, std::size_t digits) {
    // From 1800: genealogies and estate papers name births of the 19th century.
    return digits == 2 || (digits == 4 && year >= 1800 && year <= 2099);
}

/// Day 1–31 with an optional ordinal suffix at s[i]; returns its end or npos.
std::size_t dayAt(std::string_view s, std::size_t i) {
    const std::size_t end = skipDigits(s, i);
    if (end == i || end - i > 2) return kNpos;
    const int day = number(s, i, end);
    if (day < 1 || day > 31) return kNpos;
    for (std::string_view suffix : {"st", "nd", "rd", "th"}) {
        if (scan::matchesAt(s, end, suffix) && !isAlpha(at(s, end + 2))) return end + 2;
    }
    return isAlpha(at(s, end)) ? kNpos : end;
}

/// A four-digit year at s[i] after optional ", " or " "; returns its end or npos.
std::size_t yearAfter(std::string_view s, std::size_t i) {
    if (at(s, i) == ',') ++i;
    if (at(s, i) != ' ') return kNpos;
    while (at(s, i) == ' ') ++i;
    const std::size_t end = skipDigits(s, i);
    if (end - i != 4 || !yearValid(number(s, i, end), 4) || isAlnum(at(s, end))) return kNpos;
    return end;
}

std::size_t numericDateAt(std::string_view s, std::size_t i) {
    const std::size_t a_end = skipDigits(s, i);
    const std::size_t a_len = a_end - i;
    const char sep = at(s, a_end);
    if (sep != '/' && sep != '-' && sep != '.') return kNpos;
    const std::size_t b_end = skipDigits(s, a_end + 1);
    const std::size_t b_len = b_end - a_end - 1;
    if (at(s, b_end) != sep || b_len < 1 || b_len > 2) return kNpos;
    const std::size_t c_end = skipDigits(s, b_end + 1);
    const std::size_t c_len = c_end - b_end - 1;
    if (isAlnum(at(s, c_end)) || ((at(s, c_end) == sep) && isDigit(at(s, c_end + 1)))) {
        return kNpos;
    }
    const int a = number(s, i, a_end);
    const int b = number(s, a_end + 1, b_end);
    const int c = number(s, b_end + 1, c_end);
    if (a_len == 4) {  // year first (ISO)
        return yearValid(a, 4) && b >= 1 && b <= 12 && c_len <= 2 && c >= 1 && c <= 31 ? c_end
                                                                                       : kNpos;
    }
    if (a_len > 2 || (c_len != 2 && c_len != 4) || !yearValid(c, c_len)) return kNpos;
    const bool month_first = a >= 1 && a <= 12 && b >= 1 && b <= 31;
    const bool day_first = b >= 1 && b <= 12 && a >= 1 && a <= 31;
    return month_first || day_first ? c_end : kNpos;
}

/// A date at s[i]: 03/14/1972, 14.03.1972, 1972-03-14, March 14, 1972, Mar. 14th 1972,
/// 14 March 1972, 14th of March, 1972. Returns its end or npos.
std::size_t dateAt(std::string_view s, std::size_t i) {
    if (isDigit(s[i])) {
        if (isDigit(before(s, i))) return kNpos;
        const std::size_t numeric = numericDateAt(s, i);
        if (numeric != kNpos) return numeric;
        const std::size_t day = dayAt(s, i);
        if (day == kNpos || at(s, day) != ' ') return kNpos;
        std::size_t m = day + 1;
        if (scan::matchesAt(s, m, "of ")) m += 3;
        const std::size_t month = monthAt(s, m);
        return month == kNpos ? kNpos : yearAfter(s, month);
    }
    const std::size_t month = monthAt(s, i);
    if (month == kNpos || at(s, month) != ' ') return kNpos;
    const std::size_t day = dayAt(s, month + 1);
    return day == kNpos ? kNpos : yearAfter(s, day);
}

// ---- addresses

constexpr std::string_view kStreetSuffixes[] = {
    "street", "st",       "avenue",     "ave",     "av",       "boulevard", "blvd",
    "road",   "rd",       "lane",       "ln",      "drive",    "dr",        "court",
    "ct",     "way",      "place",      "pl",      "terrace",  "ter",       "circle",
    "cir",    "parkway",  "pkwy",       "highway", "hwy",      "square",    "sq",
    "trail",  "trl",      "plaza",      "plz",     "alley",    "crescent",  "loop",
    "pike",   "turnpike", "expressway", "freeway", "causeway", "row",       "path",
    "walk",   "run",      "point",      "pt",      "ridge",    "heights",   "hts"};
constexpr std::string_view kDirections[] = {"n",  "s",  "e",     "w",     "ne",   "nw",
                                            "se", "sw", "north", "south", "east", "west"};
constexpr std::string_view kUnits[] = {"apartment", "apt",  "suite", "ste",      "unit", "floor",
                                       "fl",        "room", "rm",    "building", "bldg"};
constexpr std::array<std::string_view, 56> kStates{
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV",
    "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN",
    "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC", "PR", "VI", "GU", "AS", "MP"};
constexpr std::string_view kStateNames[] = {
    "alabama",       "alaska",      "arizona",        "arkansas",      "california",
    "colorado",      "connecticut", "delaware",       "florida",       "georgia",
    "hawaii",        "idaho",       "illinois",       "indiana",       "iowa",
    "kansas",        "kentucky",    "louisiana",      "maine",         "maryland",
    "massachusetts", "michigan",    "minnesota",      "mississippi",   "missouri",
    "montana",       "nebraska",    "nevada",         "new hampshire", "new jersey",
    "new mexico",    "new york",    "north carolina", "north dakota",  "ohio",
    "oklahoma",      "oregon",      "pennsylvania",   "rhode island",  "south carolina",
    "south dakota",  "tennessee",   "texas",          "utah",          "vermont",
    "virginia",      "washington",  "west virginia",  "wisconsin",     "wyoming"};

bool oneOf(std::string_view word, std::span<const std::string_view> list) {
    if (word.empty()) return false;
    for (std::string_view w : list) {
        if (w.size() == word.size() && scan::matchesAt(word, 0, w)) return true;
    }
    return false;
}

/// A token of the address: letters, digits, apostrophes, inner full stops and hyphens.
std::size_t tokenEnd(std::string_view s, std::size_t i) {
    while (i < s.size() && (isAlnum(s[i]) || s[i] == '\'' || s[i] == '-' ||
                            (s[i] == '.' && isAlpha(at(s, i + 1))))) {
        ++i;
    }
    return i;
}

constexpr std::string_view kOrdinalSuffixes[] = {"st", "nd", "rd", "th"};
// English cues, and the usual form labels of the other response languages we serve in Latin
// script (es, fr, de, it, pt).
constexpr std::string_view kBirthCues[] = {"dob",
                                           "d.o.b",
                                           "date of birth",
                                           "birth date",
                                           "birthdate",
                                           "birthday",
                                           "born",
                                           "birth",
                                           "fecha de nacimiento",
                                           "nacido",
                                           "nacida",
                                           "date de naissance",
                                           "né le",
                                           "née le",
                                           "geburtsdatum",
                                           "geboren",
                                           "data di nascita",
                                           "nato il",
                                           "nata il",
                                           "data de nascimento"};
constexpr std::string_view kMrnCues[] = {"medical record number",
                                         "medical record no",
                                         "medical record",
                                         "med rec no",
                                         "med rec",
                                         "med. rec",
                                         "mrn"};

bool ordinal(std::string_view w) {
    std::size_t d = 0;
    while (d < w.size() && isDigit(w[d])) ++d;
    return d > 0 && w.size() == d + 2 && oneOf(w.substr(d), kOrdinalSuffixes);
}

/// ", City, ST 12345" (or the next line) after an address at `end`; returns the new end or
/// `end` when no such locality follows.
std::size_t localityAfter(std::string_view s, std::size_t end) {
    std::size_t i = end;
    if (at(s, i) == '.') ++i;
    if (at(s, i) == ',') ++i;
    if (at(s, i) == '\n') {
        ++i;
    } else if (at(s, i) != ' ') {
        return end;
    }
    while (at(s, i) == ' ') ++i;
    // City: one to three capitalised words.
    int words = 0;
    while (words < 3 && isUpper(at(s, i))) {
        std::size_t e = tokenEnd(s, i);
        if (at(s, e) == '.') ++e;  // St. Louis
        ++words;
        i = e;
        if (at(s, i) == ' ' && isUpper(at(s, i + 1)) && at(s, i + 2) != ' ' &&
            !(isUpper(at(s, i + 2)) && !isAlnum(at(s, i + 3)))) {
            ++i;  // another word of the city, not the state code
        } else {
            break;
        }
    }
    if (words == 0) return end;
    if (at(s, i) == ',') ++i;
    if (at(s, i) != ' ') return end;
    while (at(s, i) == ' ') ++i;
    std::size_t state_end = kNpos;
    if (isUpper(at(s, i)) && isUpper(at(s, i + 1)) && !isAlnum(at(s, i + 2))) {
        for (std::string_view st : kStates) {
            if (s.substr(i, 2) == st) state_end = i + 2;
        }
    }
    if (state_end == kNpos) {
        for (std::string_view name : kStateNames) {
            if (scan::matchesAt(s, i, name) && !isAlpha(at(s, i + name.size()))) {
                state_end = i + name.size();
            }
        }
    }
    if (state_end == kNpos) return end;
    std::size_t zip = state_end;
    if (at(s, zip) == ' ') {
        ++zip;
        const std::size_t z = skipDigits(s, zip);
        if (z - zip == 5 && !isAlnum(at(s, z))) {
            if (at(s, z) == '-' && skipDigits(s, z + 1) == z + 5 && !isAlnum(at(s, z + 5))) {
                return z + 5;
            }
            return z;
        }
    }
    return state_end;
}

/// " Apt 4B", ", Suite 200", " #12" after an address at `end`; returns the new end or `end`.
std::size_t unitAfter(std::string_view s, std::size_t end) {
    std::size_t i = end;
    if (at(s, i) == '.') ++i;
    if (at(s, i) == ',') ++i;
    if (at(s, i) != ' ') return end;
    ++i;
    if (at(s, i) == '#') {
        const std::size_t e = tokenEnd(s, i + 1);
        return e > i + 1 && isDigit(at(s, i + 1)) ? e : end;
    }
    const std::size_t w = wordEnd(s, i);
    if (!oneOf(s.substr(i, w - i), kUnits) || !isUpper(s[i])) return end;
    std::size_t j = w;
    if (at(s, j) == '.') ++j;
    if (at(s, j) == ' ') ++j;
    if (at(s, j) == '#') ++j;
    const std::size_t e = tokenEnd(s, j);
    if (e == j || e - j > 6 || !(isDigit(s[j]) || isUpper(s[j]))) return end;
    return e;
}

/// A street address starting with its house number at s[i]; returns its end or npos.
std::size_t streetAddressAt(std::string_view s, std::size_t i) {
    std::size_t j = skipDigits(s, i);
    if (j - i > 6) return kNpos;
    if (isUpper(at(s, j)) && at(s, j + 1) == ' ') ++j;  // 221B
    if (at(s, j) != ' ') return kNpos;
    ++j;
    std::size_t best = kNpos;
    int names = 0;
    for (int k = 0; k < 6; ++k) {
        const std::size_t e = tokenEnd(s, j);
        if (e == j) break;
        const std::string_view word = s.substr(j, e - j);
        const bool capitalised = isUpper(word[0]);
        const bool direction = oneOf(word, kDirections);
        if (!(capitalised || ordinal(word))) break;
        if (names > 0 && capitalised && oneOf(word, kStreetSuffixes)) best = e;
        if (!direction) ++names;
        if (at(s, e) == '.' && at(s, e + 1) == ' ') {
            j = e + 2;  // "St. " then a direction or the next word
        } else if (at(s, e) == ' ') {
            j = e + 1;
        } else {
            break;
        }
    }
    if (best == kNpos) return kNpos;
    std::size_t end = best;
    // A trailing direction: 1600 Pennsylvania Ave NW.
    std::size_t d = end;
    if (at(s, d) == '.') ++d;
    if (at(s, d) == ' ') {
        const std::size_t e = wordEnd(s, d + 1);
        const std::string_view word = s.substr(d + 1, e - d - 1);
        if (!word.empty() && isUpper(word[0]) && oneOf(word, kDirections) && !isAlnum(at(s, e))) {
            end = e;
        }
    }
    end = unitAfter(s, end);
    return localityAfter(s, end);
}

std::size_t poBoxAt(std::string_view s, std::size_t i) {
    std::size_t j = kNpos;
    for (std::string_view cue : {"p.o. box ", "po box ", "p. o. box ", "post office box "}) {
        if (scan::matchesAt(s, i, cue)) j = i + cue.size();
    }
    if (j == kNpos) return kNpos;
    const std::size_t e = skipDigits(s, j);
    if (e == j || isAlnum(at(s, e))) return kNpos;
    return localityAfter(s, e);
}

}  // namespace

void findEmails(std::string_view s, std::vector<PiiCandidate>& out) {
    std::size_t from = 0;
    std::size_t last_end = 0;
    while (true) {
        const std::size_t at_sign = s.find('@', from);
        if (at_sign == kNpos) return;
        from = at_sign + 1;
        std::size_t start = at_sign;
        while (start > last_end && localChar(s[start - 1])) --start;
        while (start < at_sign && (s[start] == '.' || s[start] == '\'')) ++start;
        if (start == at_sign) continue;
        std::size_t end = at_sign + 1;
        while (end < s.size() && domainChar(s[end])) ++end;
        while (end > at_sign + 1 && (s[end - 1] == '.' || s[end - 1] == '-')) --end;
        const std::string_view domain = s.substr(at_sign + 1, end - at_sign - 1);
        const std::size_t dot = domain.rfind('.');
        if (dot == kNpos || dot == 0 || domain.find("..") != kNpos) continue;
        const std::string_view tld = domain.substr(dot + 1);
        bool alphabetic = tld.size() >= 2;
        for (char c : tld) alphabetic = alphabetic && isAlpha(c);
        if (!alphabetic) continue;
        out.push_back({PiiType::kEmail, start, end});
        last_end = end;
        from = end;
    }
}

void findDatesOfBirth(std::string_view s, std::vector<PiiCandidate>& out) {
    static constexpr std::size_t kWindow = 48;
    std::size_t from = 0;
    while (from < s.size()) {
        std::size_t length = 0;
        const std::size_t cue = scan::findCue(s, from, kBirthCues, length);
        if (cue == kNpos) return;
        from = cue + length;
        const std::size_t limit = std::min(s.size(), from + kWindow);
        for (std::size_t p = from; p < limit; ++p) {
            const char c = s[p];
            if (c == '\n' || c == ';') break;
            if (isDigit(c) || (isUpper(c) || scan::isLower(c))) {
                if (isAlnum(before(s, p))) continue;
                const std::size_t end = dateAt(s, p);
                if (end != kNpos) {
                    out.push_back({PiiType::kDateOfBirth, p, end});
                    from = end;
                    break;
                }
                if (isDigit(c)) break;  // another number stands between the cue and any date
            }
        }
    }
}

void findAddresses(std::string_view s, std::vector<PiiCandidate>& out) {
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        const char p = before(s, i);
        if (isAlnum(p) || p == '$' || p == '#' || p == '.' || p == '-' || p == '/') {
            ++i;
            continue;
        }
        std::size_t end = kNpos;
        if (isDigit(c)) {
            end = streetAddressAt(s, i);
        } else if (c == 'P' || c == 'p') {
            end = poBoxAt(s, i);
        }
        if (end != kNpos) {
            out.push_back({PiiType::kAddress, i, end});
            i = end;
        } else {
            ++i;
        }
    }
}

void findMedicalRecordNumbers(std::string_view s, std::vector<PiiCandidate>& out) {
    std::size_t from = 0;
    while (from < s.size()) {
        std::size_t length = 0;
        const std::size_t cue = scan::findCue(s, from, kMrnCues, length);
        if (cue == kNpos) return;
        std::size_t j = cue + length;
        from = j;
        const std::size_t limit = std::min(s.size(), j + 24);
        while (j < limit) {
            const char c = s[j];
            if (c == ' ' || c == '\t' || c == ':' || c == '#' || c == '.' || c == '=' || c == '-' ||
                c == '(' || c == ')') {
                ++j;
                continue;
            }
            bool skipped = false;
            for (std::string_view filler : {"number", "num", "no", "is", "was", "nbr"}) {
                if (scan::matchesAt(s, j, filler) && !isAlnum(at(s, j + filler.size()))) {
                    j += filler.size();
                    skipped = true;
                    break;
                }
            }
            if (!skipped) break;
        }
        std::size_t e = j;
        while (e < s.size() && (isAlnum(s[e]) || (s[e] == '-' && isAlnum(at(s, e + 1))))) ++e;
        const std::size_t digits = scan::countDigits(s, j, e);
        if (e > j && e - j >= 4 && e - j <= 20 && digits >= 4 && digits * 2 >= e - j) {
            out.push_back({PiiType::kMedicalRecord, j, e});
            from = e;
        }
    }
}

}  // namespace docintel::redact

// Recognisers for numbers: phones, SSNs, payment cards, IBANs, IP addresses.

#include <arpa/inet.h>

#include <array>
#include <string>

#include "redact/pii_recognizers.h"
#include "redact/text_scan.h"

namespace docintel::redact {

using scan::at;
using scan::before;
using scan::isAlnum;
using scan::isDigit;
using scan::isUpper;

namespace {

constexpr std::size_t kNpos = std::string::npos;
constexpr std::size_t kCueWindow = 32;

// Words before a number that say it is an identifier of something else, not personal data.
constexpr std::string_view kNotPersonalCues[] = {
    "order", "invoice", "inv",     "sku",     "part",   "model", "isbn",        "serial",
    "ref",   "item",    "product", "catalog", "ticket", "claim", "po",          "tracking",
    "case",  "batch",   "lot",     "routing", "build",  "issn",  "confirmation"};
constexpr std::string_view kPhoneCues[] = {"phone",    "tel",   "telephone", "mobile",  "cell",
                                           "fax",      "call",  "ph",        "contact", "whatsapp",
                                           "landline", "reach", "dial",      "t",       "m"};

constexpr std::string_view kCardCues[] = {"card", "visa", "mastercard", "amex", "cc"};

/// A number may start here: the previous byte does not continue a word or a longer number.
bool numberStart(std::string_view s, std::size_t i) {
    const char p = before(s, i);
    return !(isAlnum(p) || p == '-' || p == '.' || p == '/' || p == '_' || p == '#' || p == '$' ||
             p == '@');
}

/// A number may end here: no letter or digit follows, nor a separator that continues it.
bool numberEnd(std::string_view s, std::size_t end) {
    const char n = at(s, end);
    if (isAlnum(n) || n == '@') return false;
    if (n == '-' && isAlnum(at(s, end + 1))) return false;  // 212-555-0100-X: a code
    if ((n == '.' || n == '/') && isDigit(at(s, end + 1))) return false;
    return true;
}

/// True when a not-personal cue stands closer before `pos` than any of `positive`.
bool identifierContext(std::string_view s, std::size_t pos,
                       std::span<const std::string_view> positive) {
    const std::size_t negative = scan::cueBefore(s, pos, kCueWindow, kNotPersonalCues);
    if (negative == kNpos) return false;
    return scan::cueBefore(s, pos, kCueWindow, positive) > negative;
}

std::size_t skipDigits(std::string_view s, std::size_t i) {
    while (i < s.size() && isDigit(s[i])) ++i;
    return i;
}

// ---- phones

struct PhoneShape {
    std::array<std::size_t, 8> starts{};
    std::array<int, 8> lengths{};
    int groups = 0;
    int digits = 0;
    bool plus = false;
    std::size_t end = 0;
};

bool scanPhone(std::string_view s, std::size_t i, PhoneShape& shape) {
    std::size_t j = i;
    if (s[j] == '+') {
        shape.plus = true;
        ++j;
    }
    while (shape.groups < 8) {
        bool paren = false;
        if (at(s, j) == '(') {
            paren = true;
            ++j;
        }
        if (!isDigit(at(s, j))) return shape.groups > 0;
        const std::size_t k = skipDigits(s, j);
        if (k - j > 12) return false;
        shape.starts[shape.groups] = j;
        shape.lengths[shape.groups] = static_cast<int>(k - j);
        ++shape.groups;
        shape.digits += static_cast<int>(k - j);
        std::size_t next = k;
        if (paren) {
            if (at(s, next) != ')') return false;
            ++next;
        }
        shape.end = next;
        const char c = at(s, next);
        if (c == ' ' && at(s, next + 1) == '-' && at(s, next + 2) == ' ') {
            next += 3;
        } else if (c == ' ' || c == '-' || c == '.') {
            ++next;
        } else if (!paren) {
            return true;
        }
        const char n = at(s, next);
        if (!isDigit(n) && n != '(') return true;
        j = next;
    }
    return true;
}

// The area code starts with 2–9. The exchange rule (also 2–9) is not checked: people write
// 555-123-4567 in forms and letters, and the area code alone already rejects most codes.
bool nanpValid(std::string_view s, std::size_t area) { return s[area] >= '2'; }

/// Whether the shape is a phone number's; `needs_cue` is set for shapes that are phone numbers
/// only after a phone cue (unseparated, or national with a trunk 0).
bool phoneShape(std::string_view s, const PhoneShape& p, bool& needs_cue) {
    needs_cue = false;
    const bool intl00 = !p.plus && p.lengths[0] >= 2 && s[p.starts[0]] == '0' &&
                        s[p.starts[0] + 1] == '0' && p.groups >= 2;
    if (p.plus || intl00) {
        const int digits = p.digits - (intl00 ? 2 : 0);
        const std::size_t first = intl00 ? p.starts[0] + 2 : p.starts[0];
        if (digits < 8 || digits > 15 || first >= s.size() || s[first] == '0') return false;
        if (s[first] == '1' && digits != 11) return false;  // North America: +1 and ten digits
        return p.groups >= 2 || digits >= 10;
    }
    int g = 0;
    if (p.groups == 4 && p.lengths[0] == 1 && s[p.starts[0]] == '1') g = 1;
    const int rest = p.groups - g;
    if (rest == 3 && p.lengths[g] == 3 && p.lengths[g + 1] == 3 && p.lengths[g + 2] == 4) {
        return nanpValid(s, p.starts[g]);
    }
    needs_cue = true;
    if (p.groups == 1 && (p.digits == 10 || (p.digits == 11 && s[p.starts[0]] == '1'))) {
        return nanpValid(s, p.starts[0] + (p.digits == 11 ? 1 : 0));
    }
    // National formats of other countries (leading trunk 0).
    return s[p.starts[0]] == '0' && p.groups >= 2 && p.digits >= 9 && p.digits <= 12;
}

bool phoneValid(std::string_view s, std::size_t i, const PhoneShape& p) {
    bool needs_cue = false;
    if (!phoneShape(s, p, needs_cue)) return false;
    if (needs_cue && scan::cueBefore(s, i, kCueWindow, kPhoneCues) == kNpos) return false;
    return !identifierContext(s, i, kPhoneCues);
}

// ---- payment cards

bool cardPrefixValid(std::string_view d) {
    const int n = static_cast<int>(d.size());
    const int two = (d[0] - '0') * 10 + (d[1] - '0');
    const int four = two * 100 + (d[2] - '0') * 10 + (d[3] - '0');
    switch (d[0]) {
        case '4':
            return n == 13 || n == 16 || n == 19;
        case '5':
            return two >= 51 && two <= 55 && n == 16;
        case '2':
            return four >= 2221 && four <= 2720 && n == 16;
        case '3':
            if (two == 34 || two == 37) return n == 15;
            if (two == 35) return n >= 16 && n <= 19;
            if (two == 36 || two == 38 || two == 30) return n >= 14 && n <= 16;
            return false;
        case '6':
            return n >= 16 && n <= 19;
        default:
            return false;
    }
}

bool cardShapeValid(std::span<const int> groups) {
    if (groups.size() == 1) return true;
    if (groups.size() == 3 && groups[0] == 4 && groups[1] == 6 &&
        (groups[2] == 5 || groups[2] == 4)) {
        return true;
    }
    for (std::size_t g = 0; g + 1 < groups.size(); ++g) {
        if (groups[g] != 4) return false;
    }
    return groups.back() >= 1 && groups.back() <= 4;
}

// ---- IBAN

struct IbanLength {
    char country[3];
    int length;
};

constexpr std::array<IbanLength, 79> kIbanLengths{{
    {"AD", 24}, {"AE", 23}, {"AL", 28}, {"AT", 20}, {"AZ", 28}, {"BA", 20}, {"BE", 16}, {"BG", 22},
    {"BH", 22}, {"BR", 29}, {"BY", 28}, {"CH", 21}, {"CR", 22}, {"CY", 28}, {"CZ", 24}, {"DE", 22},
    {"DK", 18}, {"DO", 28}, {"EE", 20}, {"EG", 29}, {"ES", 24}, {"FI", 18}, {"FO", 18}, {"FR", 27},
    {"GB", 22}, {"GE", 22}, {"GI", 23}, {"GL", 18}, {"GR", 27}, {"GT", 28}, {"HR", 21}, {"HU", 28},
    {"IE", 22}, {"IL", 23}, {"IQ", 23}, {"IS", 26}, {"IT", 27}, {"JO", 30}, {"KW", 30}, {"KZ", 20},
    {"LB", 28}, {"LC", 32}, {"LI", 21}, {"LT", 20}, {"LU", 20}, {"LV", 21}, {"LY", 25}, {"MC", 27},
    {"MD", 24}, {"ME", 22}, {"MK", 19}, {"MR", 27}, {"MT", 31}, {"MU", 30}, {"NL", 18}, {"NO", 15},
    {"PK", 24}, {"PL", 28}, {"PS", 29}, {"PT", 25}, {"QA", 29}, {"RO", 24}, {"RS", 22}, {"SA", 24},
    {"SC", 31}, {"SD", 18}, {"SE", 24}, {"SI", 19}, {"SK", 24}, {"SM", 27}, {"ST", 25}, {"SV", 28},
    {"TL", 23}, {"TN", 24}, {"TR", 26}, {"UA", 29}, {"VA", 22}, {"VG", 24}, {"XK", 20},
}};

int ibanLength(char a, char b) {
    for (const auto& entry : kIbanLengths) {
        if (entry.country[0] == a && entry.country[1] == b) return entry.length;
    }
    return 0;
}

// ---- IP addresses

constexpr std::string_view kIpCues[] = {"ip",     "ipv4",      "address", "addr",        "host",
                                        "server", "gateway",   "dns",     "from",        "client",
                                        "src",    "dst",       "source",  "destination", "login",
                                        "logged", "connected", "peer",    "proxy"};
constexpr std::string_view kOutlineCues[] = {
    "version", "ver",     "section", "sec",       "clause",  "figure", "fig",  "table",
    "step",    "chapter", "release", "paragraph", "article", "item",   "page", "§"};

/// One IPv4 octet at s[i]: 1–3 digits, 0–255, no leading zero. Returns its end or npos.
std::size_t octet(std::string_view s, std::size_t i, int& value) {
    const std::size_t end = skipDigits(s, i);
    const std::size_t len = end - i;
    if (len == 0 || len > 3 || (len > 1 && s[i] == '0')) return kNpos;
    value = 0;
    for (std::size_t k = i; k < end; ++k) value = value * 10 + (s[k] - '0');
    return value <= 255 ? end : kNpos;
}

std::size_t ipv4At(std::string_view s, std::size_t i, bool& all_small) {
    std::size_t j = i;
    all_small = true;
    for (int k = 0; k < 4; ++k) {
        int value = 0;
        const std::size_t end = octet(s, j, value);
        if (end == kNpos) return kNpos;
        all_small = all_small && value < 10;
        j = end;
        if (k < 3) {
            if (at(s, j) != '.') return kNpos;
            ++j;
        }
    }
    return j;
}

void findIpv4(std::string_view s, std::vector<PiiCandidate>& out) {
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || !numberStart(s, i)) {
            ++i;
            continue;
        }
        bool all_small = false;
        const std::size_t end = ipv4At(s, i, all_small);
        // Followed by a prefix length (10.0.0.0/8) is still an address.
        const bool cidr = at(s, end) == '/' && isDigit(at(s, end + 1));
        if (end != kNpos && (cidr || numberEnd(s, end)) &&
            scan::cueBefore(s, i, 20, kOutlineCues) == kNpos &&
            (!all_small || scan::cueBefore(s, i, kCueWindow, kIpCues) != kNpos)) {
            out.push_back({PiiType::kIpAddress, i, end});
            i = end;
            continue;
        }
        i = skipDigits(s, i);
    }
}

bool ipv6Char(char c) { return scan::isHex(c) || c == ':' || c == '.'; }

void findIpv6(std::string_view s, std::vector<PiiCandidate>& out) {
    std::size_t from = 0;
    while (true) {
        const std::size_t colon = s.find(':', from);
        if (colon == kNpos) return;
        std::size_t start = colon;
        while (start > 0 && (scan::isHex(s[start - 1]) || s[start - 1] == ':')) --start;
        std::size_t end = colon;
        while (end < s.size() && ipv6Char(s[end])) ++end;
        from = end + 1;
        // Trailing punctuation: a sentence's full stop, a label's colon (but keep "::").
        while (end > start && s[end - 1] == '.') --end;
        if (end > start + 1 && s[end - 1] == ':' && s[end - 2] != ':') --end;
        const char prev = before(s, start);
        if (isAlnum(prev) || prev == '.' || isAlnum(at(s, end)) || end - start < 3 ||
            end - start > 45) {
            continue;
        }
        std::size_t colons = 0;
        bool hex = false;
        for (std::size_t k = start; k < end; ++k) {
            colons += s[k] == ':' ? 1 : 0;
            hex = hex || (scan::isHex(s[k]) && s[k] != ':');
        }
        if (colons < 2 || !hex) continue;
        const std::string candidate(s.substr(start, end - start));
        in6_addr addr{};
        if (inet_pton(AF_INET6, candidate.c_str(), &addr) == 1) {
            out.push_back({PiiType::kIpAddress, start, end});
        }
    }
}

}  // namespace

bool luhnValid(std::string_view digits) {
    int sum = 0;
    int count = 0;
    for (std::size_t k = digits.size(); k > 0; --k) {
        const char c = digits[k - 1];
        if (!isDigit(c)) continue;
        int d = c - '0';
        if (count % 2 == 1) {
            d *= 2;
            if (d > 9) d -= 9;
        }
        sum += d;
        ++count;
    }
    return count > 0 && sum % 10 == 0;
}

bool ibanValid(std::string_view compact) {
    if (compact.size() < 5 || !isUpper(compact[0]) || !isUpper(compact[1])) return false;
    if (ibanLength(compact[0], compact[1]) != static_cast<int>(compact.size())) return false;
    int remainder = 0;
    auto feed = [&](char c) {
        if (isDigit(c)) {
            remainder = (remainder * 10 + (c - '0')) % 97;
        } else if (isUpper(c)) {
            const int v = c - 'A' + 10;
            remainder = (remainder * 100 + v) % 97;
        }
    };
    for (std::size_t k = 4; k < compact.size(); ++k) feed(compact[k]);
    for (std::size_t k = 0; k < 4; ++k) feed(compact[k]);
    return remainder == 1;
}

bool ssnValid(int area, int group, int serial) {
    if (area == 0 || area == 666 || area >= 900) return false;
    if (group == 0 || serial == 0) return false;
    // Numbers published in advertising and never valid for a person.
    if (area == 78 && group == 5 && serial == 1120) return false;
    if (area == 219 && group == 9 && serial == 9999) return false;
    return true;
}

void findPhones(std::string_view s, std::vector<PiiCandidate>& out) {
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        const bool opener = (c == '+' || c == '(') && isDigit(at(s, i + 1));
        if ((!isDigit(c) && !opener) || !numberStart(s, i)) {
            ++i;
            continue;
        }
        PhoneShape shape;
        if (scanPhone(s, i, shape) && numberEnd(s, shape.end) && phoneValid(s, i, shape)) {
            out.push_back({PiiType::kPhone, i, shape.end});
            i = shape.end;
            continue;
        }
        i = opener ? i + 1 : skipDigits(s, i);
    }
}

void findSsns(std::string_view s, std::vector<PiiCandidate>& out) {
    static constexpr std::string_view kSsnCues[] = {
        "ssn", "social security", "soc sec", "ss#", "ss", "social", "ssn#", "taxpayer"};
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || !numberStart(s, i)) {
            ++i;
            continue;
        }
        const std::size_t run = skipDigits(s, i);
        std::size_t end = kNpos;
        int area = 0, group = 0, serial = 0;
        const char sep = at(s, run);
        if (run - i == 3 && (sep == '-' || sep == ' ') && skipDigits(s, run + 1) == run + 3 &&
            at(s, run + 3) == sep && skipDigits(s, run + 4) == run + 8) {
            end = run + 8;
            area = std::stoi(std::string(s.substr(i, 3)));
            group = std::stoi(std::string(s.substr(run + 1, 2)));
            serial = std::stoi(std::string(s.substr(run + 4, 4)));
        } else if (run - i == 9 && scan::cueBefore(s, i, kCueWindow, kSsnCues) != kNpos) {
            end = run;
            area = std::stoi(std::string(s.substr(i, 3)));
            group = std::stoi(std::string(s.substr(i + 3, 2)));
            serial = std::stoi(std::string(s.substr(i + 5, 4)));
        }
        // Followed by a prefix length (10.0.0.0/8) is still an address.
        const bool cidr = at(s, end) == '/' && isDigit(at(s, end + 1));
        if (end != kNpos && (cidr || numberEnd(s, end)) && ssnValid(area, group, serial) &&
            !identifierContext(s, i, kSsnCues)) {
            out.push_back({PiiType::kSsn, i, end});
            i = end;
            continue;
        }
        i = run;
    }
}

void findCreditCards(std::string_view s, std::vector<PiiCandidate>& out) {
    constexpr int kMaxGroups = 6;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isDigit(s[i]) || !numberStart(s, i)) {
            ++i;
            continue;
        }
        std::array<int, kMaxGroups> groups{};
        std::array<std::size_t, kMaxGroups> ends{};
        std::array<char, 40> digits{};
        std::size_t count = 0;
        int n = 0;
        std::size_t j = i;
        char sep = 0;
        while (n < kMaxGroups) {
            const std::size_t k = skipDigits(s, j);
            if (count + (k - j) > 19) break;
            for (std::size_t d = j; d < k; ++d) digits[count++] = s[d];
            groups[n] = static_cast<int>(k - j);
            ends[n++] = k;
            const char c = at(s, k);
            if ((c == ' ' || c == '-') && (sep == 0 || c == sep) && isDigit(at(s, k + 1))) {
                sep = c;
                j = k + 1;
                continue;
            }
            break;
        }
        // Longest grouping first: a card number may be followed by an expiry or a CVV.
        bool found = false;
        for (int g = n; g > 0 && !found; --g) {
            if (g < n) count -= static_cast<std::size_t>(groups[g]);
            if (count < 13 || count > 19 || !numberEnd(s, ends[g - 1])) continue;
            if (!cardShapeValid(std::span<const int>(groups.data(), static_cast<std::size_t>(g)))) {
                continue;
            }
            const std::string_view d(digits.data(), count);
            if (cardPrefixValid(d) && luhnValid(d) && !identifierContext(s, i, kCardCues)) {
                out.push_back({PiiType::kCreditCard, i, ends[g - 1]});
                i = ends[g - 1];
                found = true;
            }
        }
        if (!found) i = skipDigits(s, i);
    }
}

void findIbans(std::string_view s, std::vector<PiiCandidate>& out) {
    for (std::size_t i = 0; i + 4 < s.size(); ++i) {
        if (!isUpper(s[i]) || !isUpper(s[i + 1]) || !isDigit(s[i + 2]) || !isDigit(s[i + 3]) ||
            isAlnum(before(s, i))) {
            continue;
        }
        const int length = ibanLength(s[i], s[i + 1]);
        if (length == 0) continue;
        std::string compact(s.substr(i, 4));
        std::size_t j = i + 4;
        while (static_cast<int>(compact.size()) < length && j < s.size()) {
            const char c = s[j];
            if (isUpper(c) || isDigit(c)) {
                compact.push_back(c);
                ++j;
            } else if (c == ' ' && compact.size() % 4 == 0 &&
                       (isUpper(at(s, j + 1)) || isDigit(at(s, j + 1)))) {
                ++j;
            } else {
                break;
            }
        }
        if (static_cast<int>(compact.size()) == length && !isAlnum(at(s, j)) &&
            ibanValid(compact)) {
            out.push_back({PiiType::kIban, i, j});
            i = j - 1;
        }
    }
}

void findIpAddresses(std::string_view s, std::vector<PiiCandidate>& out) {
    findIpv4(s, out);
    findIpv6(s, out);
}

}  // namespace docintel::redact

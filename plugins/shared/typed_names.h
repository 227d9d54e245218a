#pragma once

// Typed value parsers for names of people and organisations and for street addresses, with where
// each sits and its normalised value (docs/decisions/0064); the other types are in
// typed_values.h, which includes this file. Pure functions; header-only.

#include <algorithm>
#include <cctype>
#include <regex>
#include <string>
#include <vector>

#include "shared/typed_values.h"

namespace docintel::plugins::typed {

/// Street addresses: a house number, street words and a street suffix, then optionally the
/// unit (or units: "Suites 2 and 3"), city, state and ZIP ("225 West Wacker Drive, Chicago,
/// Illinois 60606") or another country's postcode (Canada's "ON M5V 2T6", Australia's "SA
/// 5095", the UK's "FE3 7QT"); a numbered road ("U.S. Highway 27", "Township Road 119"); a unit
/// named just before ("Suite 410, ... at 225 ...", "Level 4, 25 Grenfell Street", "Shop 9, Banksia
/// Grove Shopping Village, 41 Kingfisher Parade") is included.
inline std::vector<Found> addresses(const std::string& text) {
    static const std::regex re(
        R"(\b\d{1,6}\s+(?:(?:[A-Z][A-Za-z.'-]*|\d{1,3}(?:st|nd|rd|th))\s+){0,4}(?:(?:Highway|Hwy\.?|Route|Road|Rd\.?)\s+\d{1,4}\b|Street|St\.?|Avenue|Ave\.?|Boulevard|Blvd\.?|Drive|Dr\.?|Road|Rd\.?|Plaza|Way|Lane|Ln\.?|Parkway|Pkwy\.?|Court|Ct\.?|Place|Pl\.?|Square|Highway|Hwy\.?|Circle|Terrace|Trail|Center|Centre|Pike|Turnpike|Crescent|Row|Loop|Alley|Crossing|Expressway|Parade|Esplanade|Close|Mews|Quay|Wharf)\b(?:\s+(?:North|South|East|West|Northeast|Northwest|Southeast|Southwest|NE|NW|SE|SW)\b)?(?:,?\s+(?:Suites?|Ste\.?|Units?|Floor|Fl\.?|#|Ground Floor|\d{1,2}(?:st|nd|rd|th) Floor|Room|Apt\.?|Apartment|Building|Bldg\.?|Space)\s*[A-Za-z0-9-]*(?:\s+(?:and|&)\s+[A-Za-z0-9-]+)?)*(?:,?\s+(?:[A-Z][A-Za-z.]+\s?){1,3},?\s+(?:(?:[A-Z]{2}|[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\.?\s+(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d)|[A-Z]{2,3}\s+\d{4}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}))?)");
    static const std::regex unit(
        R"((?:Suite|Unit|Space|Ste\.|Level|Shop|Bay|Bedroom|Flat|Apartment)\s+[A-Za-z0-9-]+[^.;]{0,80}$)");
    std::vector<Found> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
         ++it) {
        auto pos = static_cast<std::size_t>(it->position(0));
        const auto end = pos + static_cast<std::size_t>(it->length(0));
        std::string value = it->str();
        const std::size_t from = pos > 90 ? pos - 90 : 0;
        const std::string before = text.substr(from, pos - from);
        std::smatch u;
        std::string lead_text = before;
        std::size_t lead_from = from;
        // "Bay 4 and Unit C of the Building, 55 Dock Road": of units joined by "and", the last
        // is the one the street belongs to.
        while (std::regex_search(lead_text, u, unit)) {
            const std::size_t joined = u.str().find(" and ");
            if (joined == std::string::npos) break;
            std::smatch later;
            const std::string rest = u.str().substr(joined + 5);
            if (!std::regex_search(rest, later, unit)) break;
            const std::size_t skip = static_cast<std::size_t>(u.position(0)) + joined + 5;
            lead_from += skip;
            lead_text = lead_text.substr(skip);
        }
        if (std::regex_search(lead_text, u, unit)) {
            // "Suite 410, of the building located at 225 ..." → "Suite 410, 225 ...".
            static const std::regex connective(
                R"(^((?:Suite|Unit|Space|Ste\.|Level|Shop|Bay|Bedroom|Flat|Apartment)\s+[A-Za-z0-9-]+)(?:,?\s+(?:of|on|in)\s+the\s+(?:[Bb]uilding|[Pp]roperty)[^,]*?)?(?:\s+(?:located|situated)\s+at|,)?\s*(.*?)[,\s]*$)");
            std::smatch c;
            const std::string lead = u.str();
            if (std::regex_match(lead, c, connective)) {
                static const std::regex lead_words(R"(^(?:(?:in|at|of|on)\s+(?:the\s+)?)+)",
                                                   std::regex::icase);
                std::string middle = std::regex_replace(c[2].str(), lead_words, "");
                value = c[1].str() + ", " + (middle.empty() ? "" : middle + ", ") + value;
                pos = lead_from + static_cast<std::size_t>(u.position(0));
            }
        }
        out.push_back({pos, end - pos, value});
    }
    // An address that ends in a city and a six-digit postal code, as India's and Singapore's
    // do: a flat, plot or house number, its building, sector and locality ("Flat No. 1204,
    // 12th Floor, Wing B, ..., Navi Mumbai 400703", "B-3, Gulmohar Bungalows, ..., Navi Mumbai
    // 400703", "27 Jalan Seruling, #08-14, The Marlowe Residences, Singapore 578921").
    static const std::regex pin(
        R"(\b(?:(?:Flat|House|Plot|Shop|Office|Unit|Door)\s+No\.?\s*[A-Za-z0-9/-]+|[A-Z]-\d{1,4}|\d{1,5}[A-Z]?(?:\s+[A-Z][A-Za-z'-]+){1,4})(?:,\s*[^,;\n|]{1,60}?){1,10},\s*(?:[A-Z][A-Za-z]+\s){0,2}[A-Z][a-z]+\s\d{3}\s?\d{3}\b)");
    // A post office box with its city, state and ZIP ("PO Box 4418, Salem, Oregon 97302").
    static const std::regex box(
        R"(\b(?:P\.?\s?O\.?\s*Box|Post Office Box)\s+\d{1,6},?\s+(?:[A-Z][A-Za-z.]+\s?){1,3},?\s+(?:[A-Z]{2}|[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\.?\s+\d{5}(?:-\d{4})?)",
        std::regex::icase);
    for (const auto* whole : {&pin, &box}) {
        for (auto it = std::sregex_iterator(text.begin(), text.end(), *whole);
             it != std::sregex_iterator(); ++it) {
            out.push_back({static_cast<std::size_t>(it->position(0)),
                           static_cast<std::size_t>(it->length(0)), it->str()});
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Found& a, const Found& b) { return a.pos < b.pos; });
    return out;
}

/// The length of the address a label's value opens with when it has no street suffix or
/// postal code to be read by (`addresses`), as in a country without postcodes ("Property:
/// Apartment 1907, Saffron Creek Residences, Tower 2, Al Jaddaf, Dubai (2 bedroom)"): three to
/// eight comma-separated parts, each short and capitalised or a number, with a figure in the
/// first two, up to a bracket, semicolon, full stop or the end; 0 when `value` opens with none.
inline std::size_t labelledAddressLength(const std::string& value) {
    static const std::regex re(
        R"(^(?:[A-Z0-9#][^,;()\n|.]{0,50})(?:,\s*[A-Z0-9#][^,;()\n|.]{0,50}){2,7}(?=\s*(?:[(;.|]|$)))");
    std::smatch m;
    if (!std::regex_search(value, m, re)) return 0;
    const std::string found = m.str();
    const std::size_t second_comma = found.find(',', found.find(',') + 1);
    const bool figure = std::any_of(found.begin(), found.begin() + second_comma, [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
    return figure ? found.find_last_not_of(' ') + 1 : 0;
}

/// Names of people and organisations: a run of capitalised words (with initials, "&", "of",
/// hyphens, apostrophes and accented letters) and an optional legal or professional suffix
/// (", LLC", ", Inc.", ", L.P.", ", MD"). UPPER-CASE names count. Scanned by hand: std::regex
/// has no notion of UTF-8 letters.
inline std::vector<Found> names(const std::string& text) {
    auto wordChar = [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return std::isalnum(u) || u >= 0x80 || c == '\'' || c == '-' || c == '.' || c == '&';
    };
    static const std::vector<std::string> joiners = {"of", "and", "de", "van", "von", "da", "&"};
    static const std::vector<std::string> suffixes = {
        "LLC",     "L.L.C.", "Inc.", "Inc",    "L.P.", "LP",    "LLP",    "Ltd.",     "Ltd",
        "Corp.",   "Corp",   "Co.",  "N.A.",   "MD",   "M.D.",  "DO",     "NP",       "PA-C",
        "RN",      "PhD",    "Jr.",  "Sr.",    "PC",   "P.C.",  "PLLC",   "P.L.L.C.", "PsyD",
        "Psy.D.",  "DDS",    "DMD",  "DPM",    "DNP",  "APRN",  "PharmD", "LCSW",     "MS",
        "CCC-SLP", "SLP",    "DPT",  "OTR",    "LPC",  "LMFT",  "MSW",    "CGC",      "FNP",
        "FNP-BC",  "BCBA",   "AuD",  "CNM",    "CRNA", "OTR/L", "CHT",    "PT",       "OT",
        "LPN",     "MPH",    "FACS", "FASMBS", "FACP", "FACC",  "FAAP",   "FACOG",    "FACEP"};
    std::vector<Found> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!std::isupper(static_cast<unsigned char>(text[i])) ||
            (i > 0 && wordChar(text[i - 1]))) {
            ++i;
            continue;
        }
        std::size_t start = i, end = i, last_cap_end = i, before_last_cap_end = i;
        int words_so_far = 0, caps_words = 0, name_words = 0;
        bool last_title = false;        // the name's last word is in Title case
        bool after_credential = false;  // the name's last word is a suffix after its words
        bool after_join = false;        // the word before is a joining word ("of")
        while (true) {
            std::size_t w = end;
            while (w < text.size() && wordChar(text[w])) ++w;
            if (w == end) break;
            const std::string word = text.substr(end, w - end);
            const bool cap = std::isupper(static_cast<unsigned char>(word[0]));
            // "Ann Roe DOB": an upper-case word after a Title-case name starts something else.
            // An initial ("R.") is no upper-case word.
            bool all_caps = word.size() >= 2 && !(word.size() == 2 && word[1] == '.');
            for (const char c : word) {
                all_caps = all_caps && !std::islower(static_cast<unsigned char>(c));
            }
            const bool title_before =
                end > start && std::islower(static_cast<unsigned char>(text[start + 1]));
            bool is_suffix = false;
            for (const auto& x : suffixes) is_suffix = is_suffix || lower(x) == lower(word);
            if (cap && all_caps && title_before && end != start && !is_suffix) break;
            // "ANNELIESE ROE MD DATE 08 02 27": after a credential only another may follow.
            if (after_credential && !is_suffix) break;
            // "RUAIRI ROE Phoenix, Arizona": so does a Title-case word after an upper-case name.
            if (cap && !all_caps && caps_words >= 2 && caps_words == words_so_far && !is_suffix) {
                break;
            }
            ++words_so_far;
            if (all_caps) ++caps_words;
            const bool join = std::find(joiners.begin(), joiners.end(), word) != joiners.end();
            // "Kestrel Ridge Solar 3, LLC", "Harbor Fund 2 LP": a number inside a company's name
            // when its legal form follows.
            static const std::regex legal_next(
                R"(^,?\s*(?:llc|l\.l\.c\.|inc\b|ltd\b|lp\b|l\.p\.|llp\b))", std::regex::icase);
            const bool number = std::all_of(word.begin(), word.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c)) != 0;
            });
            const bool numbered = !cap && words_so_far >= 2 && word.size() <= 3 && number &&
                                  std::regex_search(text.substr(w, 12), legal_next);
            if (!cap && !join && !numbered) {
                // "Ezekiel Roe-Mbeki Grade 7", "Mary Roe Room 214": a Title-case word right before
                // a number is a field's label after the name, not the name's last word; so is one
                // before "of" and a word in lower case ("Ann B. Roe Date of birth ...").
                const bool label_of = after_join && name_words >= 3 && last_title &&
                                      lower(text.substr(last_cap_end, 4)) == " of ";
                if ((number && name_words >= 3 && last_title && end == last_cap_end + 1) ||
                    label_of) {
                    last_cap_end = before_last_cap_end;
                }
                break;
            }
            after_join = join;
            end = w;
            if (cap || numbered) {
                before_last_cap_end = last_cap_end;
                last_cap_end = w;
                ++name_words;
                last_title = cap && !all_caps && !is_suffix;
            }
            after_credential = is_suffix && name_words >= 3;
            // A word of three letters or more ending in a full stop ends a sentence, and the
            // name with it ("My name is Ann Roe. My member ID ..."), unless it is a suffix
            // ("Inc.", "Jr.") or a title's, place's or company form's abbreviation ("Dr.", "St.",
            // the "Pte." of "Pte. Ltd.").
            static const std::vector<std::string> titles = {"st.",   "mt.",  "dr.",   "mr.",
                                                            "mrs.",  "ms.",  "bros.", "assoc.",
                                                            "dept.", "pte.", "pty.",  "sdn."};
            if (word.size() >= 3 && word.back() == '.' &&
                std::count(word.begin(), word.end(), '.') == 1 && !is_suffix &&
                std::find(titles.begin(), titles.end(), lower(word)) == titles.end()) {
                break;
            }
            // A company's legal form ends its name ("Vale Studio LLC Rafferty Roe": two names).
            static const std::vector<std::string> legal = {
                "llc",   "l.l.c.", "inc.", "inc",  "l.p.", "lp",   "llp", "ltd.", "ltd",
                "corp.", "n.a.",   "pc",   "p.c.", "pllc", "bhd.", "bhd", "gmbh", "plc"};
            if (std::find(legal.begin(), legal.end(), lower(word)) != legal.end()) break;
            // One space or tab between words; a comma only before a suffix.
            std::size_t next = end;
            if (next < text.size() && text[next] == ',') {
                auto known = [&](const std::string& w) {
                    for (const auto& x : suffixes) {
                        if (lower(x) == lower(w)) return true;
                    }
                    return false;
                };
                // A clinician's credentials may follow one another ("Ann Roe, MS, CCC-SLP").
                while (next < text.size() && text[next] == ',') {
                    std::size_t s = next + 1;
                    while (s < text.size() && text[s] == ' ') ++s;
                    std::size_t e = s;
                    // "OTR/L": a credential may hold a slash.
                    while (e < text.size() && (wordChar(text[e]) || text[e] == '/')) ++e;
                    const std::string suffix = text.substr(s, e - s);
                    const std::string low = lower(suffix);
                    const bool keeps_dot = low == "inc." || low == "ltd." || low == "corp." ||
                                           low == "co." || low == "jr." || low == "sr.";
                    const std::string bare = !keeps_dot && suffix.size() > 1 &&
                                                     suffix.back() == '.' &&
                                                     suffix.find('.') == suffix.size() - 1
                                                 ? suffix.substr(0, suffix.size() - 1)
                                                 : suffix;
                    // "Jackson, MS 39201", "Erie, PA 16501": a state before its ZIP code.
                    const bool state =
                        suffix.size() == 2 && e + 6 <= text.size() && text[e] == ' ' &&
                        std::all_of(text.begin() + static_cast<std::ptrdiff_t>(e + 1),
                                    text.begin() + static_cast<std::ptrdiff_t>(e + 6), [](char c) {
                                        return std::isdigit(static_cast<unsigned char>(c));
                                    });
                    if ((!known(suffix) && !known(bare)) || state) break;
                    last_cap_end = end = next = s + bare.size();
                }
                break;
            }
            if (next < text.size() && (text[next] == ' ' || text[next] == '\t') &&
                next + 1 < text.size() && text[next + 1] != ' ') {
                end = next + 1;
                continue;
            }
            break;
        }
        std::string v = text.substr(start, last_cap_end - start);
        const std::string last_word =
            lower(v.substr(v.find_last_of(' ') == std::string::npos ? 0 : v.find_last_of(' ') + 1));
        const bool suffix_dot = last_word == "inc." || last_word == "ltd." ||
                                last_word == "corp." || last_word == "co." || last_word == "jr." ||
                                last_word == "sr.";
        while (!suffix_dot && !v.empty() && (v.back() == '.' || v.back() == '-') &&
               !(v.size() >= 2 && std::isupper(static_cast<unsigned char>(v[v.size() - 2])) &&
                 v.back() == '.')) {
            v.pop_back();
        }
        // A month or a weekday alone is a date's word, not a name.
        static const std::vector<std::string> days = {"monday", "tuesday",  "wednesday", "thursday",
                                                      "friday", "saturday", "sunday"};
        const bool date_word =
            v.find(' ') == std::string::npos &&
            (monthNumber(v) > 0 || std::find(days.begin(), days.end(), lower(v)) != days.end());
        if (v.size() >= 3 && !date_word) out.push_back({start, v.size(), v});
        i = std::max(last_cap_end, start + 1);
    }
    return out;
}

/// A person's name written last name first ("Castellanos-Whitford, Beatriz Ines", "ROE, ANN B",
/// a claim form's "ROE, ANN, B"):
/// one or two capitalised words, a comma, then one to three given names or initials and nothing
/// else. A credential or legal form after the comma ("Ann Roe, MD") is no given name.
inline bool invertedName(const std::string& text) {
    static const std::regex re(
        R"(^\s*[A-Z][A-Za-z'\-]+(?: [A-Z][A-Za-z'\-]+)?,\s+[A-Z][A-Za-z'\-]*\.?(?: [A-Z][A-Za-z'\-]*\.?){0,2}(?:,\s*[A-Z]\.?)?\s*$)");
    return std::regex_match(text, re) && names(text).size() > 1;
}

/// The length of the name written last name first, in Title case, that opens `text` and is
/// followed by another field ("Hollingsworth-Ibekwe, Tobias J. DOB 08/02/1979", as OCR joins a
/// form's columns): a surname or two, a comma and one to three given names or initials, then the
/// end, a word in capitals or a figure; 0 when `text` opens with no such name.
inline std::size_t invertedNameLength(const std::string& text) {
    static const std::regex re(
        R"(^\s*[A-Z][a-z][A-Za-z'\-]*(?: [A-Z][a-z][A-Za-z'\-]*)?,\s+(?:[A-Z][a-z'\-]+|[A-Z]\.?)(?: (?:[A-Z][a-z'\-]+|[A-Z]\.?)){0,2}(?=\s*$|\s+(?:[A-Z]{2,}\b|[#\d])))");
    std::smatch m;
    return std::regex_search(text, m, re) ? static_cast<std::size_t>(m.length(0)) : 0;
}

/// Whether `name` reads as a person's: two to five words before any credentials (", MD"), no
/// digits, no article or conjunction ("THE MEMBER", "EXCLUSIONS OF ..."), no company's legal
/// form or institution's word ("Valley Surgical Hospital", "Eastside Clinic"), no role's word
/// ("TREATING RADIATION ONCOLOGIST", "Requesting Physician"), not opened by a section number
/// ("II.").
inline bool personName(const std::string& name) {
    std::string bare = name.substr(0, name.find(','));
    if (invertedName(name)) bare = name.substr(0, name.find(',')) + name.substr(name.find(',') + 1);
    static const std::regex not_person(
        R"((?:^|\s)(?:the|a|an|and|or|for|with|to|llc|inc\.?|ltd|corp\.?|lp|llp|plan|health|insurance|hospital|clinic|center|centre|medical|surgical|surgery|pharmacy|laboratory|laboratories|imaging|associates|group|practice|services|university|institute|foundation|department|bank|physician|provider|surgeon|therapist|nurse|patient|member|treating|requesting|ordering|referring|[a-z]+ologist|[a-z]+iatrist)(?:\s|$)|\d|^[ivx]+\.)",
        std::regex::icase);
    if (std::regex_search(bare, not_person)) return false;
    const auto words = std::count(bare.begin(), bare.end(), ' ') + 1;
    return words >= 2 && words <= 5;
}

}  // namespace docintel::plugins::typed
